"""The table talk's hash chain audited: `press.verification.verify_press` and its lines in
`manage.py verify_game` (docs/press.md, docs/management-commands.md). A message edited, removed or
slipped in behind the service's back is found, and the game's verification fails."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from press.models import PressMessage
from press.services import press_send
from press.verification import verify_press
from tests.log_triggers import switched_off


@pytest.fixture
def game(make_game):
    game = make_game(3, seed="verify-press")
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    press_send(game=game, seat=green, to=None, text="Good luck, all.")
    press_send(game=game, seat=blue, to="green", text="Leave the Valley to me.")
    press_send(game=game, seat=green, to=None, text="We shall see.")
    return game


def behind_the_service():
    """Let an UPDATE or DELETE through the press log's trigger (PostgreSQL), as an out-of-band edit."""
    return switched_off("press.PressMessage:press_append_only")


def test_a_sound_table_talk_verifies(game):
    report = verify_press(game)
    assert report.ok and report.messages == 3
    out = StringIO()
    call_command("verify_game", str(game.pk), stdout=out)
    assert f"Game {game.pk}: OK" in out.getvalue()
    assert "  table talk: OK — 3 messages checked" in out.getvalue().splitlines()


def other_words(game):
    """Message 1's sealed words: what a forger who cannot seal would put in another's place."""
    return PressMessage.objects.get(game=game, number=1).sealed


def test_a_tampered_private_message_is_found(game):
    with behind_the_service():
        PressMessage.objects.filter(game=game, number=2).update(sealed=other_words(game))
    report = verify_press(game)
    assert not report.ok and report.problems == ["message 2 was changed after it was written"]
    out = StringIO()
    with pytest.raises(CommandError, match=f"Verification failed for game\\(s\\) {game.pk}"):
        call_command("verify_game", str(game.pk), stdout=out)
    lines = out.getvalue().splitlines()
    assert f"Game {game.pk}: OK" in lines[0]  # the rules' log is sound: talk never changes a replay
    assert "  table talk: FAILED (1 problem(s)) — 3 messages checked" in lines
    assert "  - table talk: message 2 was changed after it was written" in lines


def test_a_removed_message_is_found(game):
    with behind_the_service():
        PressMessage.objects.filter(game=game, number=2).delete()
    assert verify_press(game).problems == ["message 2 is missing (found 3)"]


def test_a_message_slipped_in_is_found(game):
    last = PressMessage.objects.get(game=game, number=3)
    PressMessage.objects.create(
        game=game,
        number=4,
        at_seq=last.at_seq,
        sender="blue",
        recipients=None,
        text="I never said that.",
        sent_at=last.sent_at,
        prev_hash=last.hash,
        hash="0" * 64,
    )
    assert verify_press(game).problems == ["message 4 was changed after it was written"]


def test_a_private_message_moved_to_another_reader_or_salt_is_found(game):
    """Version 2: a private message's hash covers its sender, recipients and words through its
    hidden digest, keyed with its stored random salt."""
    for change in ({"recipients": ["white"]}, {"sender": "white"}, {"salt": "0" * 64}):
        with behind_the_service():
            original = PressMessage.objects.get(game=game, number=2)
            PressMessage.objects.filter(pk=original.pk).update(**change)
        assert verify_press(game).problems == ["message 2 was changed after it was written"], change
        with behind_the_service():
            PressMessage.objects.filter(pk=original.pk).update(
                recipients=original.recipients, sender=original.sender, salt=original.salt
            )
    assert verify_press(game).ok


def test_a_version_1_table_talk_still_verifies(game):
    """A game created before version 2: its private messages are salted from the seed."""
    from tests.chain_versions import as_version_1

    game = as_version_1(game)
    assert not PressMessage.objects.get(game=game, number=2).salt
    report = verify_press(game)
    assert report.ok and report.messages == 3
    out = StringIO()
    call_command("verify_game", str(game.pk), stdout=out)
    assert "  table talk: OK — 3 messages checked" in out.getvalue().splitlines()
    with behind_the_service():
        PressMessage.objects.filter(game=game, number=2).update(sealed=other_words(game))
    assert verify_press(game).problems == ["message 2 was changed after it was written"]
