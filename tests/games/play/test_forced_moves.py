"""Forced moves: a player seat whose decision has one legal answer is not asked (docs/rulings.md).

Rulebook, Season phase: on their turn a player plays an Action card, passes, or takes a Pretender
token; a player with no card in hand has only the pass. At the table nobody waits for that pass;
by email it must not cost a prompt and a day.
"""
from games import rules, store
from games.models import Command
from games.services import submit_command
from notifications.models import Outbox


def position(blue_hand):
    """Green's Season turn, green holding New Clans and the Bard; blue holding `blue_hand`."""
    return {
        "territories": {
            "valley": {"cell": [0, 0], "clans": {"green": 3}},
            "cove": {"cell": [1, 0], "clans": {"blue": 3}},
            "plains": {"cell": [0, 1], "clans": {"blue": 1}},
        },
        "capital": "plains", "brenn": "green", "turn": "green", "opened": True,
        "phase": "season", "round": 1,
        "hands": {"green": ["act_new_clans", "act_bard"], "blue": blue_hand},
    }


def green_plays_new_clans(make_game, *, blue_hand, reaction_mode):
    """A 2-player game from `position(blue_hand)` in which green plays New Clans; returns
    (game, blue's Seat, the state after the command)."""
    game = make_game(n_players=2, seed="forced", setup=position(blue_hand),
                     options={"reaction_mode": reaction_mode})
    green, blue = game.seats.order_by("position")
    state, seq = store.load(game)
    result = submit_command(game=game, seat=green, expected_seq=seq,
                            command={"type": "play", "card": "act_new_clans", "territories": ["valley", "valley"]})
    assert result.accepted, result.message
    return game, blue, store.load(game)[0]


def test_a_player_with_no_card_passes_without_being_asked(make_game):
    """Blue holds no card: when green's turn ends, blue's only answer is to pass; it is played for
    blue (a command in the log, re-decided by verify_game like any other) and play comes back to
    green at once. Blue gets no prompt for it."""
    game, blue, state = green_plays_new_clans(make_game, blue_hand=[], reaction_mode="holders")
    assert [d.seat for d in rules.pending(state)] == ["green"]
    forced = Command.objects.get(game=game, seat=blue)
    assert forced.body == {"type": "pass"} and forced.command_id.startswith("forced:blue:")
    assert not Outbox.objects.filter(seat=blue, kind=Outbox.Kind.PROMPT, status=Outbox.Status.SENT).exists()


def test_a_player_with_a_choice_is_asked(make_game):
    """Blue holds a card: pass or play it is a real choice, and blue is asked."""
    game, blue, state = green_plays_new_clans(make_game, blue_hand=["act_migration"], reaction_mode="holders")
    assert [d.seat for d in rules.pending(state)] == ["blue"]
    assert not Command.objects.filter(game=game, seat=blue).exists()


def test_a_triskel_window_is_never_forced(make_game):
    """In the strict mode blue is asked about Geis on public facts (blue holds an Action card, Migration):
    "decline" may be blue's only answer, but answering it at once would show the table that blue
    holds no Geis, so blue is asked."""
    game, blue, state = green_plays_new_clans(make_game, blue_hand=["act_migration"], reaction_mode="strict")
    assert [(d.seat, d.kind) for d in rules.pending(state)] == [("blue", "reaction")]
    assert rules.legal_commands(state, "blue") == [{"type": "decline"}]
    assert not Command.objects.filter(game=game, seat=blue).exists()
