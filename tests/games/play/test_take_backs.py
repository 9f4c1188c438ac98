"""Taking back a move (docs/rulings.md, "Taking back a move"): a player takes back their own last
move while nobody has acted since and the move revealed nothing; the take-back is an event of the
append-only log, and `verify_game` decides it again."""

import pytest
from django.utils import timezone

from games import rules, store
from games.models import Command, Event, StandingOrder
from games.play import standing_orders
from games.play import tasks as play_tasks
from games.play.sql import claim_due_bot_games
from games.play.standing_orders import set_order
from games.services import submit_command, take_back
from games.store.verification import verify_game
from players.preferences import player_for
from tests.games.play.test_standing_orders import position as order_position

NEW_CLANS = {"type": "play", "card": "act_new_clans", "territories": ["valley", "valley"]}


def position():
    """Green's Season turn, green holding New Clans and Sanctuary; blue holding the Bard."""
    return {
        "territories": {
            "valley": {"cell": [0, 0], "clans": {"green": 3}},
            "cove": {"cell": [1, 0], "clans": {"blue": 3}},
            "plains": {"cell": [0, 1], "clans": {"blue": 1}},
        },
        "capital": "plains",
        "brenn": "green",
        "turn": "green",
        "opened": True,
        "phase": "season",
        "round": 1,
        "hands": {"green": ["act_new_clans", "act_sanctuary"], "blue": ["act_bard"]},
    }


def green_plays(make_game, command):
    game = make_game(n_players=2, seed="take-back", setup=position(), options={"reaction_mode": "quick"})
    green, blue = game.seats.order_by("position")
    before, seq = store.load(game)
    result = submit_command(game=game, seat=green, expected_seq=seq, command=command)
    assert result.accepted, result.message
    return game, green, blue, before


def test_a_player_takes_back_a_move_that_revealed_nothing(make_game):
    """Green plays New Clans (two clans to the Valley, a public move, nothing drawn) and takes it
    back at once: the clans go back to the reserve, New Clans to green's hand, the turn is
    green's again; the log keeps the move and adds the take-back, and the audit agrees."""
    game, green, _blue, before = green_plays(make_game, NEW_CLANS)
    events_before = Event.objects.filter(game=game).count()

    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0], command_id="web:tb1")

    assert result.accepted, result.message
    state, seq = store.load(game)
    assert seq == events_before + 1  # appended, nothing deleted
    assert state.territories["valley"]["clans"] == {"green": 3}
    assert sorted(state.hands["green"]) == ["act_new_clans", "act_sanctuary"]
    assert state.reserve == before.reserve
    assert [d.seat for d in rules.pending(state)] == ["green"]
    assert Command.objects.filter(game=game).last().body == {"type": "take_back"}
    assert verify_game(game).ok, verify_game(game).lines()
    # The same form sent again writes nothing.
    again = take_back(game=game, seat=green, expected_seq=seq - 1, command_id="web:tb1")
    assert again.duplicate and store.head(game)[0] == seq
    # Green may now play another card: the game goes on from the restored state.
    played = submit_command(
        game=game,
        seat=green,
        expected_seq=seq,
        command={"type": "play", "card": "act_sanctuary", "territory": "valley"},
    )
    assert played.accepted, played.message
    assert verify_game(game).ok, verify_game(game).lines()


def test_no_take_back_after_another_player_acted(make_game):
    """Blue has played since green's move: green's take-back is refused and nothing is written."""
    game, green, blue, _before = green_plays(make_game, NEW_CLANS)
    seq = store.head(game)[0]
    assert submit_command(game=game, seat=blue, expected_seq=seq, command={"type": "pass"}).accepted
    seq = store.head(game)[0]

    result = take_back(game=game, seat=green, expected_seq=seq)

    assert not result.accepted
    assert "another player has acted" in result.message
    assert store.head(game)[0] == seq


GEIS_NEVER = {"type": "set_policy", "card": "act_geis", "policy": "never"}


def test_another_players_policy_set_since_is_no_action(make_game):
    """docs/rulings.md, "Taking back a move": a standing Triskel policy is no move. Green plays
    New Clans; blue, whose turn it is, sets "never ask" for Geis (a choice private to blue);
    green takes New Clans back: accepted, the island as before the move, blue's policy still
    "never". Green's answer and page are what they would be without blue's policy: even a page
    read before it may take back."""
    game, green, blue, before = green_plays(make_game, NEW_CLANS)
    page_seq = store.head(game)[0]
    assert submit_command(game=game, seat=blue, expected_seq=page_seq, command=GEIS_NEVER).accepted
    assert store.head(game)[0] > page_seq

    result = take_back(game=game, seat=green, expected_seq=page_seq, command_id="web:tb-policy")

    assert result.accepted, result.message
    assert result.message == "Your move was taken back: decide again."
    state, _seq = store.load(game)
    assert state.territories == before.territories and state.hands == before.hands
    assert state.reserve == before.reserve
    assert state.policies["blue"]["act_geis"] == "never"
    assert [(d.seat, d.kind) for d in rules.pending(state)] == [("green", "season_turn")]
    move = Command.objects.get(game=game, seat=green, body=NEW_CLANS)
    taken = Event.objects.filter(game=game).order_by("seq").last()
    assert taken.type == "MoveTakenBack"
    assert (taken.payload["first"], taken.payload["last"]) == (move.first_seq, move.last_seq)
    assert verify_game(game).ok, verify_game(game).lines()


def test_your_own_policy_set_since_is_no_action_either(make_game):
    """Green plays New Clans, then sets "never ask" for Geis, then takes New Clans back:
    accepted (the policy is no move to take back, and no move that hides the one before it);
    green's policy stands."""
    game, green, _blue, before = green_plays(make_game, NEW_CLANS)
    assert submit_command(
        game=game, seat=green, expected_seq=store.head(game)[0], command=GEIS_NEVER
    ).accepted

    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0])

    assert result.accepted, result.message
    state, _seq = store.load(game)
    assert state.territories == before.territories and state.hands == before.hands
    assert state.policies["green"]["act_geis"] == "never"
    assert [d.seat for d in rules.pending(state)] == ["green"]
    assert verify_game(game).ok, verify_game(game).lines()


def test_a_move_the_service_played_after_a_policy_is_an_action(make_game):
    """A policy is no action, but what the service plays after it is one: blue holds only Geis,
    so on its Season turn it can only pass, which the service plays for it later (a hand-forced
    pass, docs/rulings.md "Forced moves"), or at once for a player who chose so. Blue chooses so,
    then sets a policy: the service passes for blue at once, and green's take-back is refused as
    after any other move."""
    hands = {"green": ["act_new_clans", "act_sanctuary"], "blue": ["act_geis"]}
    game = make_game(
        n_players=2,
        seed="take-back",
        setup={**position(), "hands": hands},
        options={"reaction_mode": "quick"},
    )
    green, blue = game.seats.order_by("position")
    assert submit_command(game=game, seat=green, expected_seq=store.head(game)[0], command=NEW_CLANS).accepted
    assert Command.objects.filter(game=game).last().seat == green  # blue's pass waits
    player = player_for(blue.email)
    player.forced_moves_at_once = True
    player.save(update_fields=["forced_moves_at_once"])
    assert submit_command(game=game, seat=blue, expected_seq=store.head(game)[0], command=GEIS_NEVER).accepted
    assert Command.objects.filter(game=game).last().body == {"type": "pass"}
    seq = store.head(game)[0]

    result = take_back(game=game, seat=green, expected_seq=seq)

    assert not result.accepted
    assert result.message == "You can take back only your own last move: another player has acted since."
    assert store.head(game)[0] == seq


def test_no_take_back_of_a_move_that_drew_a_card(make_game):
    """Sanctuary draws an Epic Tale card (rulebook, Sanctuary: "then draw 1 Epic Tale card"):
    green has seen a hidden card, so the move stands."""
    game, green, _blue, _before = green_plays(
        make_game, {"type": "play", "card": "act_sanctuary", "territory": "valley"}
    )
    seq = store.head(game)[0]

    result = take_back(game=game, seat=green, expected_seq=seq)

    assert not result.accepted
    assert "cannot be taken back" in result.message
    assert store.head(game)[0] == seq


def test_a_triskel_policy_is_no_move_to_take_back(make_game):
    """Green only set a standing Triskel policy ("never ask geis"): there is no move to take back,
    and the answer says so (not that a secret choice stands)."""
    game, green, _blue, _before = green_plays(
        make_game, {"type": "set_policy", "card": "act_geis", "policy": "never"}
    )
    seq = store.head(game)[0]

    result = take_back(game=game, seat=green, expected_seq=seq)

    assert not result.accepted
    assert result.message == "You have made no move to take back."
    assert store.head(game)[0] == seq


def test_only_one_step_back(make_game):
    """A take-back cannot itself be taken back (nor the move before it)."""
    game, green, _blue, _before = green_plays(make_game, NEW_CLANS)
    assert take_back(game=game, seat=green, expected_seq=store.head(game)[0]).accepted

    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0])

    assert not result.accepted and "already taken back" in result.message


def test_a_page_older_than_the_log_cannot_take_back(make_game):
    """The take-back names the log's length the player saw: an older page is refused."""
    game, green, _blue, _before = green_plays(make_game, NEW_CLANS)

    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0] - 1)

    assert not result.accepted and "moved on" in result.message


SANCTUARY = {"type": "play", "card": "act_sanctuary", "territory": "valley"}


def test_a_take_back_pauses_the_queued_play_for_that_turn(make_game):
    """Green queued Sanctuary for its next Season turn, then played New Clans by hand and took
    it back. The answer said "decide again": the queued play must not answer for green at once.
    It waits (and the answer says so), and plays on green's next Season turn."""
    game = make_game(n_players=2, seed="take-back", setup=position(), options={"reaction_mode": "quick"})
    green, blue = game.seats.order_by("position")
    set_order(game, green, {"kind": "queue_play", "command": SANCTUARY})
    assert submit_command(game=game, seat=green, expected_seq=store.head(game)[0], command=NEW_CLANS).accepted

    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0])

    assert result.accepted, result.message
    state, seq = store.load(game)
    assert Command.objects.filter(game=game).last().body == {"type": "take_back"}
    assert [(d.seat, d.kind) for d in rules.pending(state)] == [("green", "season_turn")]
    assert sorted(state.hands["green"]) == ["act_new_clans", "act_sanctuary"]
    assert result.message == (
        "Your move was taken back: decide again. Your order for your Season turn waits for your "
        "next turn: it is not played on this one."
    )
    # Not at the turn's deadline either: the default answers, the order waits.
    assert standing_orders.answer_at_deadline(game, green, state) is None
    assert StandingOrder.objects.filter(seat=green, kind="queue_play").exists()
    # Green decides by hand; on its next Season turn the queued play answers.
    assert submit_command(game=game, seat=green, expected_seq=seq, command=NEW_CLANS).accepted
    assert submit_command(
        game=game, seat=blue, expected_seq=store.head(game)[0], command={"type": "pass"}
    ).accepted
    assert Command.objects.filter(game=game, seat=green).last().body == SANCTUARY
    assert not StandingOrder.objects.filter(seat=green).exists()
    assert verify_game(game).ok, verify_game(game).lines()


def _clash_position() -> dict:
    """Green to play Warlord into the Valley, where blue has 2 clans: a clash, green's maneuver."""
    return order_position(["act_warlord", "act_festival"], ["act_new_clans", "act_sanctuary"])


@pytest.mark.parametrize(
    "order",
    [{"kind": "withdraw", "to": ["plains"]}, {"kind": "stand_in", "decision": "maneuver"}],
)
def test_an_order_set_during_the_decision_does_not_decide_it_once_taken_back(make_game, order):
    """docs/rulings.md, "Your standing orders do not decide the move you took back": green set an
    order while its maneuver was open, proposed peace by hand and took that back ("decide
    again"): the order does not play the maneuver for green, who decides it by hand."""
    game = make_game(
        n_players=2, seed="take-back-order", setup=_clash_position(), options={"reaction_mode": "quick"}
    )
    green, _blue = game.seats.order_by("position")
    warlord = {"type": "play", "card": "act_warlord", "territory": "valley"}
    assert submit_command(game=game, seat=green, expected_seq=store.head(game)[0], command=warlord).accepted
    set_order(game, green, order)
    peace = {"type": "propose_peace"}
    assert submit_command(game=game, seat=green, expected_seq=store.head(game)[0], command=peace).accepted

    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0])

    assert result.accepted and result.message.startswith("Your move was taken back: decide again.")
    state, _seq = store.load(game)
    assert Command.objects.filter(game=game).last().body == {"type": "take_back"}
    assert [(d.seat, d.kind) for d in rules.pending(state)] == [("green", "maneuver")]
    assert StandingOrder.objects.filter(seat=green).exists()


def test_a_policy_set_after_the_take_back_does_not_wake_the_queued_play(make_game):
    """Green queued Sanctuary, played New Clans by hand, took it back ("decide again"), then set
    a standing Triskel policy: a policy is no move, so the turn is still the one green decides by
    hand, and the queued play still waits for green's next Season turn."""
    game = make_game(n_players=2, seed="take-back", setup=position(), options={"reaction_mode": "quick"})
    green, _blue = game.seats.order_by("position")
    set_order(game, green, {"kind": "queue_play", "command": SANCTUARY})
    assert submit_command(game=game, seat=green, expected_seq=store.head(game)[0], command=NEW_CLANS).accepted
    assert take_back(game=game, seat=green, expected_seq=store.head(game)[0]).accepted

    never_geis = {"type": "set_policy", "card": "act_geis", "policy": "never"}
    assert submit_command(
        game=game, seat=green, expected_seq=store.head(game)[0], command=never_geis
    ).accepted

    state, _seq = store.load(game)
    assert [(d.seat, d.kind) for d in rules.pending(state)] == [("green", "season_turn")]
    assert sorted(state.hands["green"]) == ["act_new_clans", "act_sanctuary"]
    assert Command.objects.filter(game=game, seat=green).last().body == never_geis
    assert StandingOrder.objects.filter(seat=green, kind="queue_play").exists()


def bot_table(make_game, monkeypatch):
    """Green (a person) against a blue bot, tasks going through the relay (a broker)."""
    monkeypatch.setattr(play_tasks, "through_relay", lambda: True)
    game = make_game(
        n_players=1, bots=1, seed="take-back", setup=position(), options={"reaction_mode": "quick"}
    )
    green, blue = game.seats.order_by("position")
    assert blue.is_bot and not green.is_bot
    return game, green


def test_the_bots_wait_the_grace_so_a_move_can_be_taken_back(make_game, monkeypatch, settings):
    """At a table with a bot, green plays New Clans: the bot's answer is due 20 seconds later,
    not at once, so the relay does not play it yet and green may still take the move back."""
    settings.BOT_TAKE_BACK_GRACE = 20
    game, green = bot_table(make_game, monkeypatch)
    seq = store.head(game)[0]
    assert submit_command(game=game, seat=green, expected_seq=seq, command=NEW_CLANS).accepted
    game.refresh_from_db()
    wait = (game.bots_due_at - timezone.now()).total_seconds()
    assert 15 < wait <= 20
    assert claim_due_bot_games(10, after=5, most=60) == []  # not due yet: the bot has not acted

    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0], command_id="web:tb-bot")
    assert result.accepted, result.message
    assert store.load(game)[0].territories["valley"]["clans"] == {"green": 3}


def test_no_grace_for_a_player_who_turned_confirmation_off(make_game, monkeypatch, settings):
    """Green chose not to confirm moves (speed): the bot's answer is due at the commit."""
    settings.BOT_TAKE_BACK_GRACE = 20
    game, green = bot_table(make_game, monkeypatch)
    player = player_for(green.email)
    player.confirm_moves = False
    player.save(update_fields=["confirm_moves"])
    seq = store.head(game)[0]
    assert submit_command(game=game, seat=green, expected_seq=seq, command=NEW_CLANS).accepted
    assert claim_due_bot_games(10, after=5, most=60) == [game.pk]
