"""Table talk waiting for a digest player reaches them by email, whatever channel carries their
decisions (docs/notifications.md, "Push first, email after": "Everything else (news, digests,
the game's end, answers to your replies) comes by email as before").

A prompt email tells the talk waiting for the digest, which is then marked mailed. When the
prompt goes by chat alone ("never" email after the push), or its email is skipped because the
player answered first, that talk used to be marked mailed all the same: no email ever carried
it, private words included.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules, store
from games.services import submit_command
from notifications import outbox
from notifications.digests import send_digest
from notifications.models import Outbox
from players import preferences
from players.models import ChatTarget, Player
from press.services import press_send
from tests.conftest import drive

SECRET = "Secret deal: I attack white next turn"


def _digest_player_told_in_private(game, *, email_after_push, chat_url):
    """The seat of `game` not deciding now, its player taking a digest (and a chat address
    `chat_url` with `email_after_push`, unless None), sent SECRET privately by another seat;
    then played on until that seat must decide. Returns (seat, player)."""
    state, _seq = store.load(game)
    deciding = {d.seat for d in rules.pending(state)}
    seat = next(s for s in game.seats.order_by("position") if s.colour not in deciding)
    other = next(s for s in game.seats.order_by("position") if s.pk != seat.pk)
    player = preferences.player_for(seat.email)
    player.delivery, player.news, player.time_zone = Player.Delivery.DIGEST, True, "UTC"
    player.email_after_push = email_after_push
    player.save()
    if chat_url is not None:
        ChatTarget.objects.create(player=player, url=chat_url)
    press_send(game=game, seat=other, to=seat.colour, text=SECRET)
    drive(game, 30, until=lambda s: seat.colour in {d.seat for d in rules.pending(s)})
    return seat, player


def _emails_carrying_the_secret(seat) -> list[str]:
    """The kinds of the emails to the seat's address that carry SECRET, once every row of the
    next day's digest is written (the digest's time: tomorrow 08:00 UTC)."""
    tomorrow = (timezone.now() + timedelta(days=1)).replace(hour=8)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.utils.timezone.now", lambda: tomorrow)
        send_digest(preferences.player_for(seat.email).pk)
    emails = Outbox.objects.filter(to_email=seat.email, channel=Outbox.Channel.EMAIL)
    return [e.kind for e in emails if SECRET in (e.body_text or "")]


def test_a_digest_player_whose_decisions_go_by_chat_alone_gets_the_talk_in_the_digest(make_game, sink):
    game = make_game(n_players=3, seed="talk-by-chat-alone")
    seat, _player = _digest_player_told_in_private(game, email_after_push=None, chat_url=sink.url)
    prompts = Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT)
    assert [row.channel for row in prompts] == [Outbox.Channel.CHAT]

    assert _emails_carrying_the_secret(seat) == [Outbox.Kind.DIGEST]


def test_a_prompt_answered_before_its_email_gives_the_talk_back_to_the_digest(make_game, sink):
    """The player is told by chat, answers on the page within the half hour: the prompt's email
    is skipped, and the talk it would have carried goes in the next digest."""
    game = make_game(n_players=3, seed="talk-answered-first")
    seat, _player = _digest_player_told_in_private(game, email_after_push=1800, chat_url=sink.url)
    state, seq = store.load(game)
    command = rules.legal_commands(state, seat.colour)[0]
    assert submit_command(game=game, seat=seat, command=command, expected_seq=seq).accepted
    email = Outbox.objects.get(seat=seat, kind=Outbox.Kind.PROMPT, channel=Outbox.Channel.EMAIL)
    Outbox.objects.filter(pk=email.pk).update(not_before=timezone.now() - timedelta(seconds=1))
    outbox.deliver(email.pk)
    assert Outbox.objects.get(pk=email.pk).status == Outbox.Status.SKIPPED

    assert _emails_carrying_the_secret(seat) == [Outbox.Kind.DIGEST]


def test_a_prompt_email_sent_carries_the_talk_and_the_digest_does_not_repeat_it(make_game, sink):
    game = make_game(n_players=3, seed="talk-in-the-prompt")
    seat, _player = _digest_player_told_in_private(game, email_after_push=0, chat_url=None)
    for row in Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT):
        outbox.deliver(row.pk)

    assert _emails_carrying_the_secret(seat) == [Outbox.Kind.PROMPT]
