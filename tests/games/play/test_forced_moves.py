"""Forced moves: a player seat whose decision has one legal answer is not asked (docs/rulings.md).

Rulebook, Season phase: on their turn a player plays an Action card, passes, or takes a Pretender
token; a player with no card in hand has only the pass. At the table nobody waits for that pass;
by email it must not cost a prompt and a day.
"""

import pytest
from django.test import Client
from django.urls import reverse

from games import rules, store
from games.models import Command, SeatClock
from games.services import submit_command
from notifications.models import Outbox
from players import seat_links as seat_access


def position(blue_hand):
    """Green's Season turn, green holding New Clans and the Bard; blue holding `blue_hand`."""
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
        "hands": {"green": ["act_new_clans", "act_bard"], "blue": blue_hand},
    }


def green_plays_new_clans(make_game, *, blue_hand, reaction_mode):
    """A 2-player game from `position(blue_hand)` in which green plays New Clans; returns
    (game, blue's Seat, the state after the command)."""
    game = make_game(
        n_players=2, seed="forced", setup=position(blue_hand), options={"reaction_mode": reaction_mode}
    )
    green, blue = game.seats.order_by("position")
    state, seq = store.load(game)
    result = submit_command(
        game=game,
        seat=green,
        expected_seq=seq,
        command={"type": "play", "card": "act_new_clans", "territories": ["valley", "valley"]},
    )
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


# -- Forced moves are decided on public facts (docs/rulings.md, "Forced moves") --------------------


def white_after_green_passes(make_game, *, white_card, seed="forced-public"):
    """A 4-player game where green passes and it is white's turn (Flock of Crows
    counterclockwise), white holding `white_card` alone; returns (game, white's Seat, state)."""
    setup = {
        "territories": {
            "moor": {"cell": [0, 0], "clans": {"green": 3, "blue": 1}, "sanctuaries": 1},
            "plains": {"cell": [1, 0], "clans": {"blue": 2, "orange": 2}},
            "valley": {"cell": [0, 1], "clans": {"orange": 2, "white": 1}},
            "cove": {"cell": [-1, 1], "clans": {"white": 2, "green": 1}},
        },
        "capital": "plains",
        "brenn": "green",
        "turn": "green",
        "opened": True,
        "flock": "counterclockwise",
        "phase": "season",
        "round": 1,
        "hands": {
            "green": ["act_new_clans"],
            "blue": ["act_bard"],
            "orange": ["act_migration"],
            "white": [white_card],
        },
    }
    game = make_game(n_players=4, seed=seed, setup=setup, options={"reaction_mode": "holders"})
    green = game.seats.get(colour="green")
    state, seq = store.load(game)
    result = submit_command(game=game, seat=green, expected_seq=seq, command={"type": "pass"})
    assert result.accepted, result.message
    return game, game.seats.get(colour="white"), store.load(game)[0]


def _page_of(game, seat) -> str:
    """The game page as the player of `seat` reads it (through the seat link of its emails)."""
    client = Client()
    client.get(
        reverse(
            "games:seat",
            args=[game.pk, seat_access.link_token(game_id=game.pk, seat_id=seat.pk, seat_secret=seat.token)],
        )
    )
    return client.get(reverse("games:detail", args=[game.pk])).content.decode()


@pytest.mark.parametrize("only_pass, can_play", [("act_geis", "act_festival"), ("ep_the_dagda", "ep_eriu")])
def test_a_seat_whose_hidden_card_leaves_only_the_pass_is_not_played_for_at_once(
    make_game, only_pass, can_play
):
    """White holds one card. With Geis (Triskel only) white can only pass; with Festival it may
    also play the card. The table sees the same thing in both games, so the timing must be the
    same: nothing is played for white at once in either, its decision stays open with the same
    deadline, and the log has as many events. Only with Festival is white emailed; with Geis the
    service passes for it later (`SeatClock.pass_at`), with no reminder either. The same with
    The Dagda against Ériu as white's one Epic Tale."""
    games = [
        white_after_green_passes(make_game, white_card=card, seed=f"forced-{card}")
        for card in (only_pass, can_play)
    ]
    (game_a, white_a, state_a), (game_b, white_b, state_b) = games
    assert rules.legal_commands(state_a, "white") == [{"type": "pass"}]
    assert len(rules.legal_commands(state_b, "white")) > 1
    for game, white, state in games:
        assert [(d.seat, d.kind) for d in rules.pending(state)] == [("white", "season_turn")]
        assert not Command.objects.filter(game=game, seat=white).exists()
    assert state_a.seq == state_b.seq
    clock_a, clock_b = (SeatClock.objects.get(seat=white) for white in (white_a, white_b))
    assert clock_a.seq == clock_b.seq == state_a.seq
    assert clock_a.deadline - clock_a.opened_at == clock_b.deadline - clock_b.opened_at
    assert not Outbox.objects.filter(seat=white_a, kind=Outbox.Kind.PROMPT).exists()
    assert clock_a.pass_at is not None and clock_a.remind_at is None
    assert Outbox.objects.filter(seat=white_b, kind=Outbox.Kind.PROMPT).count() == 1
    assert clock_b.pass_at is None and clock_b.remind_at is not None


def test_the_seat_page_says_why_and_no_other_page_does(make_game):
    """White's page says why it can only pass; a spectator's page does not name white's card."""
    game, white, state = white_after_green_passes(make_game, white_card="act_geis")
    assert "You have no card you can play now." in _page_of(game, white)
    response = Client().get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    spectator = response.content.decode()
    assert "You have no card you can play now." not in spectator and "Geis" not in spectator


def test_a_brenn_holding_only_the_druid_is_not_emailed_and_may_pass_on_its_page(make_game):
    """The Druid: "Cannot be played if it is your only Action card" (docs/cards.md). The Brenn
    holding only the Druid must pass; the others cannot see which card it is, so nothing is
    played at once and the seat is not emailed. Its page says why, and its player may pass there
    before the service does."""
    setup = dict(
        position([]),
        turn="blue",
        opened=False,
        brenn="blue",
        hands={"green": ["act_new_clans"], "blue": ["act_druid"]},
        action_discard=["act_bard"],
    )
    game = make_game(n_players=2, seed="druid", setup=setup, options={"reaction_mode": "holders"})
    blue = game.seats.get(colour="blue")
    state, seq = store.load(game)
    assert rules.legal_commands(state, "blue") == [{"type": "pass"}]
    assert [d.seat for d in rules.pending(state)] == ["blue"]
    assert not Command.objects.filter(game=game, seat=blue).exists()
    assert not Outbox.objects.filter(seat=blue, kind=Outbox.Kind.PROMPT).exists()
    assert SeatClock.objects.get(seat=blue).pass_at is not None
    assert "Druid cannot be played now: it is the only Action card in your hand" in _page_of(game, blue)
    result = submit_command(game=game, seat=blue, expected_seq=seq, command={"type": "pass"})
    assert result.accepted, result.message
    assert SeatClock.objects.get(seat=blue).pass_at is None


def _seed_with_the_swamp_at_the_start() -> str:
    """A seed whose random 2-player island starts with the Swamp among its two territories."""
    for number in range(500):
        seed = f"swamp-start-{number}"
        placed = [
            e.payload["territory"]
            for e in rules.start_game(["green", "blue"], seed=seed)
            if e.type == "TerritoryPlaced"
        ]
        if "swamp" in placed:
            return seed
    raise AssertionError("no seed in 500 starts with the Swamp")


def test_a_brenn_whose_only_capital_is_forced_is_not_asked_and_the_game_goes_on(make_game):
    """Rulebook, Setup: "The Brenn chooses the territory that will be the Capital"; ruling U15:
    not the Swamp, where no Citadel may stand. On a 2-player island whose two starting
    territories are the Swamp and one other, that other is the Capital: the game is created with
    it chosen, and the first player to place a clan is asked (by email and on their page), rather
    than nobody at all."""
    game = make_game(n_players=2, seed=_seed_with_the_swamp_at_the_start())
    state, _seq = store.load(game)
    assert state.capital is not None and state.capital != "swamp"
    forced = Command.objects.get(game=game, command_id__startswith="forced:")
    assert forced.body == {"type": "choose_capital", "territory": state.capital}
    [asked] = {d.seat for d in rules.pending(state)}
    seat = game.seats.get(colour=asked)
    assert SeatClock.objects.get(seat=seat).seq is not None
    assert Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT).exists()
    client = Client()
    client.force_login(seat.user)
    assert client.get(reverse("games:head", args=[game.pk])).json()["your_turn"] is True


def test_a_game_whose_set_up_stalled_on_a_forced_capital_goes_on_at_the_next_sweep(make_game, monkeypatch):
    """A game created before the forced moves after the set-up were played (the Brenn's one
    possible Capital left unplayed, nobody asked): the sweep plays it, the next player is asked;
    the next sweep finds nothing more to do."""
    from games.play import commands
    from inis_pbem.tasks import sweep

    with monkeypatch.context() as before:
        before.setattr(commands, "play_forced_moves", lambda game, state, play_bots: None)
        game = make_game(n_players=2, seed=_seed_with_the_swamp_at_the_start())
    assert store.load(game)[0].capital is None
    assert not SeatClock.objects.filter(game=game, seq__isnull=False).exists()
    assert sweep()["set_ups_restarted"] == 1
    state, _seq = store.load(game)
    assert state.capital is not None
    [asked] = {d.seat for d in rules.pending(state)}
    seat = game.seats.get(colour=asked)
    assert SeatClock.objects.get(seat=seat).seq is not None
    assert Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT).exists()
    assert sweep()["set_ups_restarted"] == 0
