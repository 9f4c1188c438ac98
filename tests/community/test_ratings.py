"""Ratings (docs/ratings.md): a rated table's end ranks the winner first and the others tied,
rates them with openskill's Plackett-Luce; a seat left to the stand-in for good ranks last; an
unrated game changes nobody's rating; the ratings are a pure function of the games' ends in
their order, and rebuilding them gives what the feeds gave."""

from __future__ import annotations

import pytest

from community import projections, ratings
from community.game_ends import facts, record
from community.models import GameEnd, PlayerRating, PlayerRecord
from community.profile_page import profile
from games import store
from games.models import SeatClock
from games.play.table import TableError, seat_replace
from games.services import submit_command
from lobby.models import Proposal
from tests.notifications.email_positions import END, game_from

pytestmark = pytest.mark.django_db(transaction=True)


def rated_table(seed: str, *, rated: bool = True, bots: int = 0, players: int = 4):
    """A game of END (green's Season turn; a Pretender then two passes end it, green the High
    King), its table proposed as rated (or not)."""
    game = game_from(END, seed=seed, players=players, bots=bots)
    host = game.seats.get(colour="green").user
    Proposal.objects.create(host=host, game=game, rated=rated, status=Proposal.Status.STARTED)
    return game


def play_to_the_end(game) -> None:
    """Rulebook, Assembly: green takes the Pretender token and, at the end of the Season, is
    elected High King."""
    for colour, command in (("green", {"type": "pretender"}), ("blue", {"type": "pass"})):
        state, seq = store.load(game)
        if state.phase == "over":  # the bot seats' one way to go played the rest
            break
        assert submit_command(
            game=game, seat=game.seats.get(colour=colour), command=command, expected_seq=seq
        ).accepted
    game.refresh_from_db()
    assert game.is_over and game.winner == "green"


def figures() -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()}


def test_a_rated_game_rates_the_winner_up_and_the_others_down_tied():
    game = rated_table("rated-1")
    play_to_the_end(game)
    seats = {seat.colour: seat.user_id for seat in game.seats.all()}
    after = {r.player_id: r for r in PlayerRating.objects.all()}
    assert set(after) == set(seats.values())
    winner = after[seats["green"]]
    others = [after[seats[colour]] for colour in ("blue", "orange", "white")]
    assert winner.mu > ratings.MU and all(other.mu < ratings.MU for other in others)
    # The others are tied: one figure for the three of them.
    assert len({(other.mu, other.sigma) for other in others}) == 1
    assert winner.games == 1 and winner.ordinal == pytest.approx(winner.mu - 3 * winner.sigma)
    assert PlayerRecord.objects.get(player_id=seats["green"]).won == 1


def test_an_unrated_game_is_finished_on_the_profile_but_rates_nobody():
    game = rated_table("unrated", rated=False)
    play_to_the_end(game)
    assert GameEnd.objects.get(game_id=game.pk).payload["rated"] is False
    assert not PlayerRating.objects.exists()
    assert PlayerRecord.objects.filter(finished=1).count() == 4


def test_a_table_with_one_human_is_not_rated():
    game = rated_table("one-human", players=1, bots=3)
    play_to_the_end(game)
    assert not PlayerRating.objects.exists()


def test_a_seat_left_to_the_stand_in_for_good_ranks_last():
    game = rated_table("stood-in")
    white = game.seats.get(colour="white")
    SeatClock.objects.filter(seat=white).update(stand_in=True)
    play_to_the_end(game)
    after = {r.player_id: r.mu for r in PlayerRating.objects.all()}
    blue = game.seats.get(colour="blue").user_id
    assert after[white.user_id] < after[blue] < ratings.MU
    assert PlayerRecord.objects.get(player_id=white.user_id).abandoned == 1


def test_a_seat_handed_to_the_bot_before_the_end_ranks_its_player_last():
    """Blue, about to lose, lets a deadline pass and the host gives the seat to the bot: blue is
    still rated, last, as if the stand-in had played the seat to the end; a game of two humans
    where one hands the seat away is still rated."""
    game = rated_table("handed-to-bot")
    blue = game.seats.get(colour="blue").user_id
    SeatClock.objects.filter(seat__game=game, seat__colour="blue").update(missed_in_row=1)
    seat_replace(game=game, colour="blue", email=None)
    play_to_the_end(game)
    after = {r.player_id: r.mu for r in PlayerRating.objects.all()}
    orange = game.seats.get(colour="orange").user_id
    assert after[blue] < after[orange] < ratings.MU

    two = rated_table("two-handed-to-bot", players=2, bots=2)
    loser = two.seats.get(colour="blue").user_id
    SeatClock.objects.filter(seat__game=two, seat__colour="blue").update(stand_in=True)
    seat_replace(game=two, colour="blue", email=None)
    end = facts(two)
    assert end["rated"] and end["left"] == [{"colour": "blue", "player": loser}]
    assert ratings.ranks({**end, "winner": "green"})[loser] == 3


def test_a_newcomer_given_a_seat_the_stand_in_played_is_ranked_by_it():
    """White left the seat to the stand-in; the host gives it to Carol: Carol plays it from a
    fresh start (not ranked as having left it), and white, who left it, is ranked last."""
    game = rated_table("stood-in-then-given")
    white = game.seats.get(colour="white")
    SeatClock.objects.filter(seat=white).update(stand_in=True, missed_in_row=3)
    carol = seat_replace(game=game, colour="white", email="carol@example.org")
    assert SeatClock.objects.filter(seat=white, stand_in=False, missed_in_row=0).exists()
    play_to_the_end(game)
    after = {r.player_id: r.mu for r in PlayerRating.objects.all()}
    blue = game.seats.get(colour="blue").user_id
    assert after[carol.user_id] == after[blue]
    assert after[white.user_id] < after[blue]


def test_a_present_player_keeps_a_rated_seat_and_one_replaced_by_a_friend_host_is_not_ranked():
    """In a rated game the host may not give a present player's seat away, so blue stays rated
    by the seat; in an unrated private game the host may, and blue, who left nothing, is not
    counted as having left (neither last nor in the result)."""
    game = rated_table("present-kept")
    with pytest.raises(TableError, match="is not late"):
        seat_replace(game=game, colour="blue", email=None)
    play_to_the_end(game)
    blue = game.seats.get(colour="blue")
    assert not blue.is_bot and GameEnd.objects.get(game_id=game.pk).payload["left"] == []

    friends = rated_table("friends", rated=False)
    replaced = friends.seats.get(colour="blue").user_id
    seat_replace(game=friends, colour="blue", email="carol@example.org")
    end = facts(friends)
    assert end["left"] == [] and replaced not in {seat["player"] for seat in end["seats"]}
    assert replaced not in ratings.ranks({**end, "rated": True})


def test_a_player_who_left_counts_the_game_played_as_the_rating_does_and_rebuilds_alike():
    """White let a deadline pass and the host gave the seat to Carol: white is ranked last, and
    white's profile counts that game among the games played and the seats left, as many as the
    rating's rated games; rebuilding both projections gives the same figures."""
    game = rated_table("left-then-profile")
    white = game.seats.get(colour="white").user_id
    SeatClock.objects.filter(seat__game=game, seat__colour="white").update(missed_in_row=1)
    seat_replace(game=game, colour="white", email="carol@example.org")
    play_to_the_end(game)
    rating = PlayerRating.objects.get(player_id=white)
    record = PlayerRecord.objects.get(player_id=white)
    assert (record.finished, record.abandoned, record.won) == (1, 1, 0) == (rating.games, 1, 0)
    shown = profile(white)
    assert shown is not None and shown.played == shown.rating.games == 1
    fed = (figures(), sorted(PlayerRecord.objects.values_list("player_id", "finished", "won", "abandoned")))
    projections.rebuild("ratings")
    projections.rebuild("profiles")
    rebuilt = (
        figures(),
        sorted(PlayerRecord.objects.values_list("player_id", "finished", "won", "abandoned")),
    )
    assert rebuilt == fed


def test_a_games_end_is_recorded_once():
    game = rated_table("once")
    play_to_the_end(game)
    assert record(game) is None
    assert GameEnd.objects.filter(game_id=game.pk).count() == 1


def test_the_rebuild_equals_what_the_feeds_built():
    for n in range(3):
        play_to_the_end(rated_table(f"rebuild-{n}"))
    fed = figures()
    assert {games for _mu, _sigma, games in fed.values()} == {3}
    projections.rebuild("ratings")
    assert figures() == fed


def test_the_ratings_are_a_pure_function_of_the_results_in_order():
    placed = {1: 1, 2: 2, 3: 2}
    once = ratings.rate({}, placed)
    assert ratings.rate({}, placed) == once
    twice = ratings.rate(once, {1: 2, 2: 1, 3: 2})
    # The order matters: the same two results the other way round give other figures.
    other = ratings.rate(ratings.rate({}, {1: 2, 2: 1, 3: 2}), placed)
    assert twice != other
    assert ratings.rate({}, {1: 1}) == {}


def test_folding_a_batch_at_once_equals_folding_its_games_one_by_one():
    from bench.ratings import finished_games  # noqa: PLC0415 - the bench's games' ends

    finished_games(60)
    projections.rebuild("ratings")
    batched = figures()
    assert len(batched) > 100
    projection = ratings.RatingsProjection()
    projection.reset()
    for row in GameEnd.objects.order_by("id"):
        projection.handle(row)
    assert figures() == batched
