"""A seat's power is its holder's as the game's row lock finds it (docs/privacy.md, "Asking for
it"; docs/table-log.md): a move, a take-back or an order posted in the instant an erasure or the
host's hand-over of the seat commits was read for the seat as it was before; under the lock the
seat has another holder, so it is refused and nothing is written. What the system plays for the
seat as it is now (a bot seat's own move, the stand-in) still plays.

Each race is made deterministic: the seat is read, then the hand-over or the erasure commits
through its real service function, then the command is sent with the seat as read."""

from __future__ import annotations

import pytest

from games import rules, store
from games.models import Command, Event, Seat, SeatClock, StandingOrder
from games.play import bot_seats, standing_orders, standins
from games.play.table import seat_replace
from games.services import submit_command, take_back
from players.erasure import erase_account
from tests.games.play.test_take_backs import NEW_CLANS, position

NOT_YOURS = (
    "This seat is no longer yours: it changed hands just before your move arrived, and nothing was played."
)


def seat_to_move(game):
    """(the seat with the first pending decision, its first legal command, the log's length)."""
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    return game.seats.get(colour=colour), rules.legal_commands(state, colour)[0], seq


def log_of(game) -> tuple[int, int]:
    return Event.objects.filter(game=game).count(), Command.objects.filter(game=game).count()


def hand_over(game, seat):
    seat_replace(game=game, colour=seat.colour, email="newcomer@example.org")


def erase(game, seat):
    erase_account(seat.user_id)


@pytest.mark.parametrize("change", [hand_over, erase], ids=["hand-over", "erasure"])
def test_a_move_sent_with_the_seat_as_read_before_it_changed_hands_is_refused(make_game, change):
    game = make_game(2, seed="changed-hands")
    read_before, command, seq = seat_to_move(game)
    change(game, read_before)
    before = log_of(game)

    result = submit_command(
        game=game,
        seat=read_before,
        command=command,
        expected_seq=store.head(game)[0],
        command_id="web:n1",
        by_holder=True,
    )

    assert not result.accepted and result.error_kind == "seat_changed"
    assert result.message == NOT_YOURS
    assert log_of(game) == before and not Command.objects.filter(command_id="web:n1").exists()


def test_the_new_holder_plays_the_seat_as_the_lock_finds_it(make_game):
    """The seat read after the hand-over is the newcomer's: their move is played."""
    game = make_game(2, seed="changed-hands")
    read_before, command, seq = seat_to_move(game)
    hand_over(game, read_before)
    now = game.seats.get(pk=read_before.pk)

    result = submit_command(game=game, seat=now, command=command, expected_seq=seq, by_holder=True)

    assert result.accepted, result.message
    assert Command.objects.get(game=game, body=command).seat.email == "newcomer@example.org"


def test_the_refusal_is_in_french_for_a_french_reader(make_game):
    from django.utils import translation

    game = make_game(2, seed="changed-hands")
    read_before, command, seq = seat_to_move(game)
    hand_over(game, read_before)
    with translation.override("fr"):
        result = submit_command(
            game=game, seat=read_before, command=command, expected_seq=seq, by_holder=True
        )
    assert result.message == (
        "Cette place n'est plus la vôtre : elle a changé de mains juste avant l'arrivée de votre coup, "
        "et rien n'a été joué."
    )


def test_a_take_back_sent_as_the_seat_changed_hands_is_refused(make_game):
    """Green plays New Clans, then the host gives green's seat to a newcomer: green's take-back,
    sent with the seat as green read it, would take back the newcomer's position; refused."""
    game = make_game(n_players=2, seed="take-back", setup=position(), options={"reaction_mode": "quick"})
    green = game.seats.get(colour="green")
    assert submit_command(game=game, seat=green, command=NEW_CLANS, expected_seq=store.head(game)[0]).accepted
    hand_over(game, green)
    before = log_of(game)

    result = take_back(game=game, seat=green, expected_seq=store.head(game)[0], command_id="web:tb1")

    assert not result.accepted and result.error_kind == "seat_changed"
    assert result.message == (
        "This seat is no longer yours: it changed hands just before your take-back arrived, "
        "and nothing was taken back."
    )
    assert log_of(game) == before
    assert store.load(game)[0].territories["valley"]["clans"] == {"green": 5}


@pytest.mark.parametrize("change", [hand_over, erase], ids=["hand-over", "erasure"])
def test_an_order_set_or_cancelled_as_the_seat_changed_hands_is_refused(make_game, change):
    """The newcomer starts with no orders (the hand-over deletes the previous player's): an order
    sent by the previous player in that instant is not left to them; a cancel changes nothing."""
    game = make_game(2, seed="changed-hands")
    green = game.seats.get(colour="green")
    blue = game.seats.get(colour="blue")
    change(game, green)
    now = game.seats.get(pk=green.pk)
    if not now.is_bot:
        standing_orders.set_order(game, now, {"kind": "peace", "agree": True})  # the newcomer's own
    kept = list(StandingOrder.objects.values_list("pk", flat=True))

    for command in (
        {"type": "standing_order", "order": {"kind": "peace", "agree": False}},
        {"type": "cancel_order", "which": "all"},
    ):
        with pytest.raises(standing_orders.OrderError, match="This seat is no longer yours") as refused:
            standing_orders.carry_out(game, green, command)
        assert str(refused.value) == (
            "This seat is no longer yours: it changed hands just before your order arrived, "
            "and nothing was changed."
        )
        assert list(StandingOrder.objects.values_list("pk", flat=True)) == kept
    # Another seat's orders are theirs as before.
    assert standing_orders.carry_out(
        game, blue, {"type": "standing_order", "order": {"kind": "peace", "agree": False}}
    )


def bot_to_move(make_game, seed):
    """A game of a player and a bot, played by the player until the bot has a decision."""
    game = make_game(n_players=1, bots=1, seed=seed)
    bot, human = game.seats.get(is_bot=True), game.seats.get(is_bot=False)
    state, seq = store.load(game)
    while not bot_seats.bot_seats_pending(game, state):
        command = rules.legal_commands(state, human.colour)[0]
        assert submit_command(game=game, seat=human, command=command, expected_seq=seq).accepted
        game.refresh_from_db()
        state, seq = store.load(game)
    return game, bot


def test_a_bot_does_not_play_a_seat_the_host_gave_to_a_player_while_it_thought(make_game, monkeypatch):
    """A bot thinks without the lock; the host gives its seat to a player meanwhile: the bot's
    move is not the newcomer's, so it is not played, and the bot loop stops without an error."""
    game, bot = bot_to_move(make_game, "bot-hand-over")
    thinking = bot_seats.bot_command

    def thinks_while_the_host_hands_it_over(*args, **kwargs):
        command = thinking(*args, **kwargs)
        if Seat.objects.get(pk=bot.pk).is_bot:
            hand_over(game, bot)
        return command

    monkeypatch.setattr(bot_seats, "bot_command", thinks_while_the_host_hands_it_over)
    before = log_of(game)

    assert bot_seats.play_bots(game, max_commands=5) == 0

    assert log_of(game) == before
    assert not Command.objects.filter(game=game, command_id__startswith="bot:").exists()


def test_a_bot_still_plays_its_own_seat(make_game):
    game, bot = bot_to_move(make_game, "bot-hand-over")

    assert bot_seats.play_bots(game, max_commands=1) == 1

    assert Command.objects.get(game=game, command_id__startswith="bot:").seat_id == bot.pk


def test_the_stand_in_plays_for_the_seat_as_it_is_when_its_player_left_meanwhile(db, monkeypatch):
    """The stand-in thinks for an absent player's seat without the lock; the player erases their
    account meanwhile (the seat is left to the bot): the stand-in's move is the seat's as it is
    now, and it is played."""
    from tests.notifications.email_positions import END, game_from

    game = game_from(END, seed="stand-in-left")
    green = game.seats.get(colour="green")
    SeatClock.objects.update_or_create(seat=green, defaults={"game": game, "stand_in": True})

    def thinking(game, seat, state, seq):
        erase_account(seat.user_id)  # meanwhile
        return {"type": "pass"}

    monkeypatch.setattr(standins, "stand_in_command", thinking)

    assert standins.play_standins(game.pk) >= 1
    assert Command.objects.filter(game=game, command_id__startswith="standin:green:").exists()
