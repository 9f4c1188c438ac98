"""notifications.receivers: which seats get an email when events are recorded, and what it says."""

from __future__ import annotations

import json
import re

from games import rules, store
from games.models import Event
from games.services import SeatSpec, create_game, submit_command
from notifications import email_board, outbox
from notifications.models import Outbox

CARD = re.compile(r"\b(?:act|adv|ep)_[a-z0-9_]+\b")


def test_creating_a_game_prompts_only_the_player_who_must_decide(make_game):
    game = make_game(n_players=4)
    state, seq = store.load(game)
    deciders = {d.seat for d in rules.pending(state)}
    rows = list(Outbox.objects.filter(game=game, kind=Outbox.Kind.PROMPT))
    assert {r.seat.colour for r in rows} == deciders
    # The others get no email: the news comes with their first prompt (news emails are a
    # preference, off by default).
    assert not Outbox.objects.filter(game=game, kind=Outbox.Kind.NEWS).exists()
    row = outbox.written(rows[0])  # as its delivery writes it
    assert row.kind == Outbox.Kind.PROMPT and row.seq == seq and row.to_email == row.seat.email
    assert row.subject == f"Your move: choose the Capital — Inis {game.pk}"
    assert email_board.board_text(state, row.seat.colour) in row.body_text
    for decision in rules.pending(state):
        assert decision.prompt in row.body_text
    commands = rules.legal_commands(state, row.seat.colour)
    assert f"1. {rules.describe_command(state, commands[0])}" in row.body_text
    assert f"/games/{game.pk}/seat/{row.seat.pk}." in row.body_text  # a seat link
    assert row.seat.token not in row.body_text
    assert row.headers["References"] == f"<inis-game-{game.pk}-{row.seat.colour}@127.0.0.1>"


def test_bots_get_no_email(db):
    game = create_game(seats=[SeatSpec(is_bot=True)] * 2, seed="bots", play_bots=False)
    assert not Outbox.objects.filter(game=game).exists()


def decisions_by_seat(state) -> dict[str, list]:
    by_seat: dict[str, list] = {}
    for decision in rules.pending(state):
        by_seat.setdefault(decision.seat, []).append(decision)
    return by_seat


def test_a_seat_whose_decision_did_not_change_gets_no_new_email(make_game, play):
    """The first command: the seats that must decide next get an email, nobody else. In the
    draft every seat decides at once: when one seat keeps its cards, the seats whose decision
    stays as it was get no new email, and each seat whose decision changed gets one."""
    game = make_game(n_players=4, seed="unchanged")
    count = Outbox.objects.count()
    state, seq = store.load(game)
    seat = game.seats.get(colour=rules.pending(state)[0].seat)
    submit_command(
        game=game, seat=seat, command=rules.legal_commands(state, seat.colour)[0], expected_seq=seq
    )
    new = [row.seat.colour for row in Outbox.objects.order_by("id")[count:]]
    assert sorted(new) == sorted(decisions_by_seat(store.load(game)[0]))

    play(game, 80, until=lambda state: len(decisions_by_seat(state)) >= 3)
    state, seq = store.load(game)
    before = decisions_by_seat(state)
    seat = game.seats.get(colour=sorted(before)[0])
    count = Outbox.objects.count()
    submit_command(
        game=game, seat=seat, command=rules.legal_commands(state, seat.colour)[0], expected_seq=seq
    )
    after = decisions_by_seat(store.load(game)[0])
    unchanged = {colour for colour in before if after.get(colour) == before[colour]}
    changed = {colour for colour in after if after[colour] != before.get(colour)}
    assert len(unchanged) >= 2, (before, after)
    new = [row.seat.colour for row in Outbox.objects.order_by("id")[count:]]
    assert sorted(new) == sorted(changed)


def test_emails_never_show_another_seats_hidden_cards(make_game, play):
    game = make_game(n_players=4, seed="mail-secrets")
    play(game, 150)
    rows = [outbox.written(row) for row in Outbox.objects.filter(game=game).order_by("id")]
    assert rows
    events = list(Event.objects.filter(game=game).order_by("seq"))
    for row in rows:
        colour = row.seat.colour
        entitled = set()
        for event in events[: row.seq]:
            if event.visibility is None or colour in event.visibility:
                entitled |= set(CARD.findall(json.dumps(event.payload)))
        state, _ = store.load(game, until=row.seq)
        entitled |= set(CARD.findall(json.dumps(rules.view_for(state, colour))))
        shown = set(CARD.findall(row.body_text + row.body_html))
        assert shown <= entitled, f"email to {colour} at #{row.seq} shows {sorted(shown - entitled)}"
