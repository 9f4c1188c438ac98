"""Forced moves reveal no card (docs/rulings.md, "Forced moves").

A decision the service answers for its seat at once tells the table, by its timing, that the
seat had one option. Two games that differ only in one card the others cannot see must look the
same to every other player and to a spectator, in every channel — view, board, export, pages,
history, emails and the text of refused commands — while the seat decides and after it has.

White holds one card: Geis ("Triskel, when an opponent plays an Action card"), so it can only
pass, or Festival, which it may play (for no effect at worst). The same with The Dagda
(Triskel) against Ériu (Season) as white's one Epic Tale. Green passes; it is white's turn.
With Geis the service passes for white later, at a time drawn from white's answer times; with
Festival white's player answers. Both games must look the same to the others while white
decides and after it has, and the delay must be drawn from what the table sees anyway.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules, store
from games.models import Command, SeatClock
from games.play import delayed_passes
from games.services import SeatSpec, create_game, submit_command
from games.store.exports import export_game
from tests.faults.test_hidden_reactions import _normalised, _seen_by

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SEATS = ("green", "blue", "orange", "white")


def _position(white_card: str) -> dict:
    return {
        "territories": {
            "moor": {"cell": [0, 0], "clans": {"green": 3, "blue": 1}, "sanctuaries": 1},
            "plains": {"cell": [1, 0], "clans": {"blue": 2, "orange": 2}},
            "valley": {"cell": [0, 1], "clans": {"orange": 2, "white": 1}},
            "cove": {"cell": [-1, 1], "clans": {"white": 2, "green": 1}},
        },
        # Counterclockwise: white plays after green.
        "capital": "plains",
        "brenn": "green",
        "flock": "counterclockwise",
        "turn": "green",
        "opened": True,
        "phase": "season",
        "round": 1,
        "hands": {
            "green": ["act_new_clans"],
            "blue": ["act_bard"],
            "orange": ["act_migration"],
            "white": [white_card],
        },
    }


# The seats' answer times kept so far (seconds): public, every page shows their median.
ANSWERS = {"green": [600, 7200], "blue": [3600], "orange": [86400], "white": [5400, 9000]}


def _game_where_green_passed(white_card: str):
    game = create_game(
        seats=[SeatSpec(email=f"{c}.{uuid.uuid4().hex[:8]}@example.org") for c in SEATS],
        seed="hidden-forced",
        setup=_position(white_card),
        options={"reaction_mode": "holders"},
        play_bots=False,
    )
    for colour, seconds in ANSWERS.items():
        SeatClock.objects.filter(seat__game=game, seat__colour=colour).update(answer_seconds=seconds)
    state, seq = store.load(game)
    result = submit_command(
        game=game, seat=game.seats.get(colour="green"), expected_seq=seq, command={"type": "pass"}
    )
    assert result.accepted, result.message
    return game


def _same_for_the_others(games) -> None:
    (game_a, card_a), (game_b, card_b) = games
    state_a, _ = store.load(game_a)
    state_b, _ = store.load(game_b)
    for viewer in ("green", "blue", "orange", None):
        seen_a, seen_b = _seen_by(game_a, viewer, state_a), _seen_by(game_b, viewer, state_b)
        for channel in seen_a:
            assert seen_a[channel] == seen_b[channel], (
                f"{viewer or 'a spectator'}'s {channel} tells whether white holds {card_a} or {card_b}"
            )


@pytest.mark.parametrize("only_pass, can_play", [("act_geis", "act_festival"), ("ep_the_dagda", "ep_eriu")])
def test_no_channel_tells_a_card_by_a_forced_pass(only_pass, can_play, monkeypatch):
    drawn_from = []
    draw = delayed_passes.pass_delay

    def recording_draw(own, table, rng=delayed_passes._RANDOM):
        drawn_from.append((sorted(own or []), sorted(table or [])))
        return draw(own, table, rng)

    monkeypatch.setattr(delayed_passes, "pass_delay", recording_draw)
    games = [(_game_where_green_passed(card), card) for card in (only_pass, can_play)]
    (game_a, _), (game_b, _) = games
    assert rules.legal_commands(store.load(game_a)[0], "white") == [{"type": "pass"}]
    assert len(rules.legal_commands(store.load(game_b)[0], "white")) > 1
    # Same timing: nothing is played for white at once in either game; its decision is open, with
    # the same deadline.
    clocks = []
    for game, _card in games:
        state, _seq = store.load(game)
        assert [(d.seat, d.kind) for d in rules.pending(state)] == [("white", "season_turn")]
        assert not Command.objects.filter(game=game, seat__colour="white").exists()
        clock = SeatClock.objects.get(seat__game=game, seat__colour="white")
        clocks.append(clock)
    assert clocks[0].deadline - clocks[0].opened_at == clocks[1].deadline - clocks[1].opened_at
    # The delay with Geis is drawn from white's own answer times, which the table sees: the
    # same source as the player's answer with Festival, and nothing of the hand.
    assert drawn_from == [(sorted(ANSWERS["white"]), sorted(s for a in ANSWERS.values() for s in a))]
    assert clocks[0].pass_at - clocks[0].opened_at in {timedelta(seconds=s) for s in ANSWERS["white"]}
    _same_for_the_others(games)

    # White passes in both: the service with Geis when its time has come, the player by email with
    # Festival. The others see the same log, the same table and the same answer times afterwards.
    clock_a = clocks[0]
    SeatClock.objects.filter(pk=clock_a.pk).update(pass_at=timezone.now())
    assert delayed_passes.play_delayed_pass(clock_a.pk, clock_a.seq)
    state, seq = store.load(game_b)
    result = submit_command(
        game=game_b,
        seat=game_b.seats.get(colour="white"),
        expected_seq=seq,
        command={"type": "pass"},
        command_id=f"email:{uuid.uuid4().hex}",
    )
    assert result.accepted, result.message
    for viewer in ("green", "blue", "orange", None):
        logs = [
            _normalised(
                json.dumps(
                    [
                        {k: v for k, v in e.items() if k not in ("hash", "prev_hash", "recorded_at")}
                        for e in export["events"]
                    ]
                    + export["commands"]
                ),
                game,
            )
            for game, export in ((g, export_game(game=g, colour=viewer)) for g, _card in games)
        ]
        assert logs[0] == logs[1], f"{viewer or 'a spectator'}'s export tells white's card"
    _same_for_the_others(games)
