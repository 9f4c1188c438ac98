"""Sealed table talk (docs/privacy.md): the words are stored encrypted under a key per author and
game; destroying an author's keys makes their words unreadable everywhere, and every hash, the
offline check of an export included, still holds."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from games.store.exports import export_game
from games.verify import EXIT_OK, verify_export
from press import selectors
from press.models import PressMessage, TalkKey
from press.sealing import open_all, seal, shred_keys, unseal
from press.services import press_send
from press.verification import verify_press


@pytest.fixture
def game(make_game):
    return make_game(4)


def seat(game, colour):
    return game.seats.get(colour=colour)


def test_the_words_are_never_stored_in_clear(game):
    press_send(game=game, seat=seat(game, "green"), to=None, text="Meet me at the Cove.")
    press_send(game=game, seat=seat(game, "blue"), to="green", text="Only if you bring the Bard.")
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM press_pressmessage")
        rows = json.dumps(cursor.fetchall(), default=str)
    assert "Cove" not in rows and "Bard" not in rows
    assert [m.text for m in open_all(PressMessage.objects.order_by("number"))] == [
        "Meet me at the Cove.",
        "Only if you bring the Bard.",
    ]
    # One key per author and game, outside the log.
    assert TalkKey.objects.filter(game=game).count() == 2


def test_sealed_words_moved_to_another_message_do_not_open(game):
    first = press_send(game=game, seat=seat(game, "green"), to=None, text="Yes.")
    key = TalkKey.objects.get(pk=first.key_id)
    moved = seal("Yes.", key=key, game_id=game.pk, number=1).sealed
    assert unseal(moved, secret=bytes(key.secret), game_id=game.pk, number=1)[1] == "Yes."
    with pytest.raises(ValueError, match="does not open with its key"):
        unseal(moved, secret=bytes(key.secret), game_id=game.pk, number=2)


def test_shredded_keys_leave_no_words_and_every_hash_true(game, client):
    green, blue = seat(game, "green"), seat(game, "blue")
    press_send(game=game, seat=green, to=None, text="The Cove is mine.")
    press_send(game=game, seat=blue, to="green", text="Then the Valley is mine.")
    press_send(game=game, seat=green, to="blue", text="Agreed, quietly.")

    assert shred_keys(user_id=green.user_id) == 1

    lines = selectors.talk_for(game=game, colour="blue")
    assert [(line.erased, line.text) for line in lines] == [
        (True, ""),
        (False, "Then the Valley is mine."),
        (True, ""),
    ]
    assert verify_press(game).ok
    for viewer in (None, "blue", "green"):
        export = json.loads(json.dumps(export_game(game=game, colour=viewer)))
        assert "Cove" not in json.dumps(export) and "quietly" not in json.dumps(export)
        check = verify_export(export)
        assert check.exit_status == EXIT_OK, check.lines()
    check = verify_export(json.loads(json.dumps(export_game(game=game, colour="blue"))))
    assert check.talk.erased == 2
    assert "2 message(s) show no words: their authors erased their accounts" in "\n".join(check.lines())

    client.force_login(blue.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Then the Valley is mine." in page and "Cove" not in page
    assert "its author left and took their words with them" in page


def test_a_reader_detects_words_edited_in_an_export(game):
    press_send(game=game, seat=seat(game, "green"), to=None, text="Peace.")
    export = json.loads(json.dumps(export_game(game=game, colour="blue")))
    export["press"][0]["text"] = "War."
    assert verify_export(export).problems == [
        "table talk: message 1 does not match its hash: its words are not the ones sealed"
    ]
