"""games.store.exports: an export for a seat never holds another seat's hidden cards."""

from __future__ import annotations

import json
import re

import pytest

from games import rules, store
from games.models import Event, Game
from games.store.exports import export_game

CARD = re.compile(r"\b(?:act|adv|ep)_[a-z0-9_]+\b")


def cards_in(value) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


def secret_cards(state, seat: str) -> set[str]:
    """Cards only `seat` may know about now: its hand (Advantage cards are public) and its draft."""
    hand = {c for c in state.hands.get(seat, []) if rules.CARDS[c].type != "advantage"}
    return hand | cards_in(state.draft.get(seat, {}))


def known_to(game: Game, state, colour: str | None) -> set[str]:
    """Cards `colour` has been entitled to see: in events visible to it, and in its view."""
    known = cards_in(rules.view_for(state, colour))
    for row in Event.objects.filter(game=game):
        if row.visibility is None or (colour is not None and colour in row.visibility):
            known |= cards_in(row.payload)
    return known


@pytest.mark.parametrize("steps", [40, 120, 250])
def test_an_export_never_holds_another_seats_hidden_cards(make_game, play, steps):
    game = make_game(n_players=4, seed=f"export-{steps}")
    play(game, steps)
    state, _ = store.load(game)
    assert any(secret_cards(state, s) for s in state.seats), "no hidden card yet: play further"
    for colour in [None, *state.seats]:
        exported = cards_in(export_game(game=game, colour=colour))
        others = set().union(*(secret_cards(state, s) for s in state.seats if s != colour))
        leaked = (others - known_to(game, state, colour)) & exported
        assert not leaked, f"export for {colour} shows {sorted(leaked)}"
        if colour is not None:
            # The seat's own hand is in its export (so the test above could see cards at all).
            assert secret_cards(state, colour) <= exported | known_to(game, state, colour)


def test_export_events_are_the_rules_redaction_for_the_seat(make_game, play):
    game = make_game(seed="redaction")
    play(game, 60)
    export = export_game(game=game, colour="blue")
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    assert [e["seq"] for e in export["events"]] == [r.seq for r in rows]
    redacted = 0
    for entry, row in zip(export["events"], rows):
        event = store.to_rules_event(row)
        seen = rules.redact(event, "blue")
        if entry["redacted"]:
            redacted += 1
            assert {k: entry[k] for k in ("type", "version", "payload", "visibility")} == seen.to_json()
        else:
            assert seen == event
            assert (entry["payload"], entry["visibility"]) == (row.payload, row.visibility)
        assert entry["hash"] == row.hash
    assert redacted > 0


def test_other_seats_commands_show_only_their_type_until_the_end(make_game, play):
    game = make_game(seed="commands")
    play(game, 60)
    export = export_game(game=game, colour="green")
    assert export["game"]["seed"] is None and export["complete"] is False
    for command in export["commands"]:
        if command["seat"] == "green":
            assert not command["redacted"] and len(command["command"]) >= 1
        else:
            assert command["redacted"] and set(command["command"]) == {"type"}
    assert "@" not in json.dumps(export["seats"]) and "token" not in json.dumps(export["seats"])


def test_a_finished_game_exports_complete_with_the_seed(db):
    from games.play.bot_seats import play_bots
    from games.services import SeatSpec, create_game

    game = create_game(seats=[SeatSpec(is_bot=True)] * 2, seed="over", play_bots=False)
    play_bots(game, max_commands=20000, max_rounds=60)
    game.refresh_from_db()
    assert game.is_over
    export = export_game(game=game, colour=None)
    assert export["complete"] and export["game"]["seed"] == "over"
    assert not any(e["redacted"] for e in export["events"])
    assert not any(c["redacted"] for c in export["commands"])
