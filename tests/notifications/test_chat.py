"""A player's private chat target (notifications.channels.chat, through apprise): their
decisions go there like a push, against a local HTTP sink standing for the chat service
(apprise's `json://` target); a refusal or a time-out is retried, then FAILED with the admin's
resend; a target pointed at this site or a local address is refused."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.urls import reverse

from games import rules, store
from notifications import outbox
from notifications.models import Outbox
from players import preferences
from players.accounts import user_for_email
from players.chat_targets import TargetError, check_url
from players.models import ChatTarget

EMAILS = [f"player{i}@example.org" for i in range(1, 5)]


class ChatSink:
    """The chat service: records each JSON posted, answers `status`, after `delay` seconds;
    `healthy` holds the posts it answered at once with 200 (a post it held past the sender's
    time-out still lands, later, in `posts` only)."""

    def __init__(self):
        self.posts: list[dict] = []
        self.healthy: list[dict] = []
        self.status, self.delay = 200, 0.0
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, delay = sink.status, sink.delay
                time.sleep(delay)
                sink.posts.append(json.loads(body))
                if (status, delay) == (200, 0.0):
                    sink.healthy.append(json.loads(body))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"json://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def chatting(sink: ChatSink, email: str) -> None:
    """The player of `email` with the sink as chat target (kept directly: the page refuses a
    local address, which this test's sink has)."""
    ChatTarget.objects.create(player=preferences.player_for(email), url=sink.url)


def deciding(game):
    state, _seq = store.load(game)
    return game.seats.get(colour=rules.pending(state)[0].seat)


def chat_row(game) -> Outbox:
    return Outbox.objects.get(game=game, channel=Outbox.Channel.CHAT)


def test_a_decision_goes_to_the_players_chat_and_its_email_waits(make_game, sink):
    for email in EMAILS:
        chatting(sink, email)
    game = make_game()
    seat = deciding(game)
    row = chat_row(game)
    assert row.seat_id == seat.pk and row.kind == Outbox.Kind.PROMPT
    assert outbox.deliver(row.pk) is True
    (posted,) = sink.posts
    assert posted["title"] == f"Inis {game.pk}: your move"
    assert f"/games/{game.pk}/" in posted["message"]
    email = Outbox.objects.get(game=game, seat=seat, channel=Outbox.Channel.EMAIL, kind=Outbox.Kind.PROMPT)
    assert email.not_before is not None
    assert Outbox.objects.filter(game=game, channel=Outbox.Channel.WEB_PUSH).count() == 0


@pytest.mark.parametrize("failure", ["500", "time-out"])
def test_a_failing_chat_is_retried_then_failed_then_sent_again(make_game, sink, failure):
    for email in EMAILS:
        chatting(sink, email)
    game = make_game()
    row = chat_row(game)
    if failure == "500":
        sink.status = 500
    else:
        sink.delay = 3.5  # longer than CHAT_TIMEOUT
    with pytest.raises(Exception, match="did not take"):
        outbox.deliver(row.pk)
    row.refresh_from_db()
    assert row.status == Outbox.Status.PENDING and row.attempts == 1 and row.retry_at
    with pytest.raises(Exception, match="did not take"):
        outbox.deliver(row.pk, final_attempt=True)
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED
    sink.status, sink.delay = 200, 0.0
    with pytest.MonkeyPatch.context() as patch:  # the admin's resend, its task run at once
        patch.setattr("django.db.transaction.on_commit", lambda function, robust=False: function())
        assert outbox.send_again([row.pk]) == 1
    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT and len(sink.healthy) == 1


def test_a_player_without_a_target_any_more_is_not_told(make_game, sink):
    for email in EMAILS:
        chatting(sink, email)
    game = make_game()
    row = chat_row(game)
    ChatTarget.objects.all().delete()
    assert outbox.deliver(row.pk) is True and sink.posts == []


@pytest.mark.parametrize(
    "url, says",
    [
        ("json://inis.example.org/hook", "cannot point at this site"),
        ("ntfys://127.0.0.1/topic", "cannot be a local one"),
        ("json://192.168.1.20/hook", "cannot be a local one"),
        ("jsons://localhost/hook", "cannot be a local one"),
        ("nonsense://whatever", "no chat address apprise knows"),
        ("", "Give the address of your chat"),
    ],
)
def test_a_target_pointed_at_the_service_or_a_local_address_is_refused(settings, url, says):
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org"]
    with pytest.raises(TargetError, match=says):
        check_url(url)


def test_the_signed_in_player_sets_and_removes_their_target(client, db, sink, settings):
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org", "testserver"]
    path = reverse("push:chat")
    client.post(path, {"url": "ntfy://ntfy.sh/my-inis-topic", "next": "/"})
    assert not ChatTarget.objects.exists()  # nobody signed in
    client.force_login(user_for_email(EMAILS[0]))
    assert client.post(path, {"url": "ntfy://ntfy.sh/my-inis-topic", "next": "/"}).status_code == 302
    assert ChatTarget.objects.get().url == "ntfy://ntfy.sh/my-inis-topic"
    client.post(path, {"url": "json://inis.example.org/x", "next": "/"})
    assert ChatTarget.objects.get().url == "ntfy://ntfy.sh/my-inis-topic"  # refused: kept as it was
    client.post(path, {"remove": "1", "next": "/"})
    assert not ChatTarget.objects.exists()
