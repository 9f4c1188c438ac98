"""The read models and erasures (docs/privacy.md, docs/architecture.md "Read models"): after a
mixed history (rated games of two to four players, bot seats, a seat left to the stand-in, a
seat handed over, a move taken back, an unrated game, open tables joined, left and cancelled, a
rematch, an erased player), rebuilding every projection gives, row for row, what the feeds gave,
and no row of the erased player comes back; an erasure made before the relay folded a game's
end, or while a rebuild runs, leaves the same read models as a rebuild would."""

from __future__ import annotations

import io
import threading

import pytest
from django.core.management import call_command
from django.db import connection

from community import projections
from community.models import FinishedSeat, OpenTable, PlayerRating, PlayerRecord, ProjectionPosition
from games import store
from games.models import Game, SeatClock
from games.play.table import seat_replace
from games.play.take_backs import take_back
from games.services import SeatSpec, create_game, submit_command
from inis_pbem.celery import app as celery_app
from lobby import rematch, services
from lobby.models import Proposal
from players.accounts import user_for_email
from players.erasure import erase_account
from players.preferences import set_display_name
from tests import lock_races
from tests.community.test_open_tables import open_table
from tests.community.test_ratings import play_to_the_end
from tests.notifications.email_positions import END

pytestmark = pytest.mark.django_db(transaction=True)


def rated_game(seed: str, emails: list[str], *, rated: bool = True) -> Game:
    """A game of END (green wins it, `play_to_the_end`) for `emails` in seat order (the first is
    green), the other seats bots, its table proposed as rated (or not)."""
    seats = [SeatSpec(email=email) for email in emails] + [SeatSpec(is_bot=True)] * (4 - len(emails))
    game = create_game(seats=seats, seed=seed, setup=END, play_bots=False)
    host = game.seats.get(colour="green").user
    assert host is not None
    Proposal.objects.create(host=host, game=game, rated=rated, status=Proposal.Status.STARTED)
    return game


def read_models() -> dict[str, list]:
    """Every row of every read model, and the positions."""
    return {
        "ratings": sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "games", "ordinal")),
        "records": sorted(PlayerRecord.objects.values_list("player_id", "finished", "won", "abandoned")),
        "finished seats": sorted(
            FinishedSeat.objects.values_list("player_id", "game_id", "colour", "won", "abandoned", "ended_at")
        ),
        "open tables": sorted(OpenTable.objects.values_list()),
        "positions": sorted(ProjectionPosition.objects.values_list("name", "position")),
    }


def rows_of(player_id: int) -> list:
    return [
        model.__name__
        for model in (PlayerRating, PlayerRecord, FinishedSeat)
        if model.objects.filter(player_id=player_id).exists()
    ]


def mixed_history(players: list[str]) -> None:
    """Games and tables of `players` (eight addresses) of every kind the read models fold."""
    play_to_the_end(rated_game("four", players[0:4]))
    three = rated_game("three", [players[1], players[0], players[2]])
    # Green takes the Pretender token, takes it back, and takes it again.
    _state, seq = store.load(three)
    green = three.seats.get(colour="green")
    assert submit_command(game=three, seat=green, command={"type": "pretender"}, expected_seq=seq).accepted
    assert take_back(game=three, seat=green, expected_seq=store.load(three)[1]).accepted
    play_to_the_end(three)
    play_to_the_end(rated_game("two", [players[2], players[3]]))
    stood_in = rated_game("stood-in", [players[3], players[4], players[5], players[1]])
    SeatClock.objects.filter(seat__game=stood_in, seat__colour="white").update(stand_in=True)
    play_to_the_end(stood_in)
    handed = rated_game("handed-over", [players[4], players[0], players[6]])
    SeatClock.objects.filter(seat__game=handed, seat__colour="blue").update(missed_in_row=1)
    seat_replace(game=handed, colour="blue", email=players[7])
    play_to_the_end(handed)
    play_to_the_end(rated_game("unrated", [players[5], players[6]], rated=False))
    Game.objects.filter(pk=handed.pk).update(setup=Game.Setup.DISCOVERY)
    rematch.rematch(game_id=handed.pk, user=user_for_email(players[4]))
    host = user_for_email(players[0])
    left, cancelled = open_table(host, open_seats=2), open_table(host, open_seats=1)
    joined = open_table(user_for_email(players[1]), open_seats=3)
    services.table_join(proposal_id=left.pk, user=user_for_email(players[2]))
    services.table_leave(proposal_id=left.pk, user=user_for_email(players[2]))
    services.table_join(proposal_id=joined.pk, user=user_for_email(players[3]))
    services.proposal_cancel(proposal=cancelled, user=host)


def test_a_rebuild_after_an_erasure_gives_what_the_feeds_gave_and_none_of_the_erased_rows():
    players = [f"player{n}@example.org" for n in range(8)]
    for n, email in enumerate(players):
        set_display_name(email, f"Player Number {n}")
    mixed_history(players)
    erased = user_for_email(players[0]).pk
    assert rows_of(erased) == ["PlayerRating", "PlayerRecord", "FinishedSeat"]
    erase_account(erased)
    fed = read_models()
    assert rows_of(erased) == []
    out = io.StringIO()
    call_command("rebuild_projections", stdout=out)
    assert out.getvalue().startswith("Rebuilt every projection: ")
    assert rows_of(erased) == []
    assert read_models() == fed


def test_an_erasure_before_the_relay_folded_a_games_end_leaves_what_a_rebuild_gives():
    """With a broker the relay folds a game's end after its commit; a player of that game is
    erased before it does. The other players are rated with the erased player's rating as the
    log gives it, and the erased player's rows do not come back."""
    players = [f"late{n}@example.org" for n in range(4)]
    play_to_the_end(rated_game("first", players))
    celery_app.conf.task_always_eager = False  # a broker: the relay feeds the read models
    try:
        play_to_the_end(rated_game("second", [players[1], players[0], players[2], players[3]]))
        erased = user_for_email(players[0]).pk
        erase_account(erased)
        projections.feed()  # the relay's pass
    finally:
        celery_app.conf.task_always_eager = True
    fed = read_models()
    assert rows_of(erased) == []
    assert {games for _player, _mu, _sigma, games, _ordinal in fed["ratings"]} == {2}
    projections.rebuild()
    assert read_models() == fed


def test_an_erasure_while_a_rebuild_runs_waits_for_it_and_leaves_no_row_of_the_erased(monkeypatch):
    """The rebuild of the ratings holds its position while it folds; an erasure meanwhile waits
    for it, and then deletes the rows the rebuild wrote for the erased player."""
    players = [f"during{n}@example.org" for n in range(4)]
    play_to_the_end(rated_game("during", players))
    erased = user_for_email(players[0]).pk
    folded, erasing = threading.Event(), threading.Event()
    pids: dict[str, int] = {}
    errors: list[str] = []
    real_fold = projections._fold_after

    def fold_then_pause(projection, held):
        count = real_fold(projection, held)
        if projection.name == "ratings" and threading.current_thread().name == "rebuild":
            folded.set()
            erasing.wait(lock_races.WAIT_SECONDS)
        return count

    monkeypatch.setattr(projections, "_fold_after", fold_then_pause)

    def rebuild() -> None:
        try:
            projections.rebuild("ratings")
        except Exception as error:  # reported by the test, not lost in the thread
            errors.append(f"rebuild: {error!r}")
        finally:
            connection.close()

    def erase() -> None:
        try:
            folded.wait(lock_races.WAIT_SECONDS)
            pids["erasure"] = lock_races.backend_pid()
            erase_account(erased)
        except Exception as error:
            errors.append(f"erasure: {error!r}")
        finally:
            connection.close()

    def release() -> None:
        try:
            lock_races.until_waiting(pids, "erasure", errors, "the erasure never waited for the rebuild")
        finally:
            erasing.set()
            connection.close()

    lock_races.run_together(
        threading.Thread(target=rebuild, name="rebuild"),
        threading.Thread(target=erase, name="erase"),
        threading.Thread(target=release, name="release"),
    )
    assert errors == []
    assert rows_of(erased) == []
    fed = read_models()
    projections.rebuild()
    assert read_models() == fed
