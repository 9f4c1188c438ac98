"""A person's data archive when a seat changed hands (docs/privacy.md, "Downloading one's data";
docs/press.md, "When a seat changes hands"): each person gets the moves and the table talk of
their own time at the seat; the words the previous player wrote are never "sent by" the new one."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from games import store
from games.models import Command
from games.play.table import seat_replace
from games.services import submit_command
from players.archive import build_archive
from press.services import press_send
from tests.conftest import drive
from tests.notifications.email_positions import END, game_from

pytestmark = pytest.mark.django_db(transaction=True)


def archive(user) -> dict:
    """The archive of `user`'s account: {file name: its JSON}."""
    files = zipfile.ZipFile(io.BytesIO(build_archive(user.pk)))
    return {name: json.loads(files.read(name)) for name in files.namelist() if name.endswith(".json")}


def talk_of(files, game) -> list[tuple[str, str, bool]]:
    (entry,) = [t for t in files["talk.json"] if t["game"] == game.pk]
    return [(m["from"], m["text"], m["sent_by_you"]) for m in entry["messages"]]


def seat_of(files, game) -> dict:
    (entry,) = [s for s in files["seats.json"] if s["game"] == game.pk]
    return entry


def play(game, colour, command) -> None:
    _state, seq = store.load(game)
    assert submit_command(
        game=game, seat=game.seats.get(colour=colour), command=command, expected_seq=seq
    ).accepted


def test_each_player_of_a_seat_gets_the_talk_and_moves_of_their_own_time_at_it():
    game = game_from(END, seed="archive-hand-over")
    green, blue = (game.seats.get(colour=c) for c in ("green", "blue"))
    previous = green.user
    press_send(game=game, seat=green, to="blue", text="Green's secret to blue.")
    press_send(game=game, seat=blue, to="green", text="Blue's secret to green.")
    press_send(game=game, seat=green, to=None, text="Green to all.")
    play(game, "green", {"type": "pretender"})
    seat_replace(game=game, colour="green", email="newcomer@example.org")
    newcomer = game.seats.get(colour="green").user
    press_send(game=game, seat=blue, to="green", text="Welcome, green.")
    press_send(game=game, seat=game.seats.get(colour="green"), to="blue", text="Thanks, blue.")
    play(game, "blue", {"type": "pass"})
    game.refresh_from_db()
    assert game.is_over

    theirs = archive(previous)
    assert talk_of(theirs, game) == [
        ("green", "Green's secret to blue.", True),
        ("blue", "Blue's secret to green.", False),
        ("green", "Green to all.", True),
    ]
    assert [m["command"] for m in seat_of(theirs, game)["moves"]] == [{"type": "pretender"}]
    assert seat_of(theirs, game)["handed_over_at"] is not None
    # The finished game's export, for a seat they handed over: as a spectator reads it.
    export = theirs[f"games/{game.pk}.json"]
    assert export["viewer"] is None and [m["text"] for m in export["press"]] == ["Green to all."]

    new = archive(newcomer)
    assert talk_of(new, game) == [
        ("green", "Green to all.", False),
        ("blue", "Welcome, green.", False),
        ("green", "Thanks, blue.", True),
    ]
    assert {"type": "pretender"} not in [m["command"] for m in seat_of(new, game)["moves"]]
    assert seat_of(new, game)["handed_over_at"] is None
    export = new[f"games/{game.pk}.json"]
    assert export["viewer"] == "green"
    assert [m["text"] for m in export["press"]] == ["Green to all.", "Welcome, green.", "Thanks, blue."]


def test_a_player_who_never_talked_keeps_the_moves_of_a_seat_handed_over(make_game):
    game = make_game(3, seed="archive-hand-over-moves")
    previous = game.seats.get(colour="green").user
    drive(game, 12)
    theirs = [
        c.body for c in Command.objects.filter(seat__game=game, seat__colour="green").order_by("first_seq")
    ]
    assert theirs

    seat_replace(game=game, colour="green", email="newcomer@example.org")
    drive(game, 12, seed="after")

    assert [m["command"] for m in seat_of(archive(previous), game)["moves"]] == theirs
    newcomers = [m["command"] for m in seat_of(archive(game.seats.get(colour="green").user), game)["moves"]]
    all_green = Command.objects.filter(seat__game=game, seat__colour="green").count()
    assert newcomers and len(newcomers) == all_green - len(theirs)
