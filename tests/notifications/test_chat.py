"""A player's private chat target (notifications.channels.chat, through apprise): their
decisions go there like a push, against a local HTTP sink standing for the chat service
(apprise's `ntfy://` target); a refusal or a time-out is retried, then FAILED with the admin's
resend; a target of another service, or pointed at this site or a private network (in any
spelling of its address, or through a name), is refused when set and again at each post; the
post follows no redirect."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.urls import reverse
from django.utils import translation

from games import rules, store
from notifications import outbox
from notifications.models import Outbox
from players import preferences
from players.accounts import user_for_email
from players.chat_targets import TargetError, check_url, plugin_to_send, set_target
from players.models import ChatTarget

EMAILS = [f"player{i}@example.org" for i in range(1, 5)]


class ChatSink:
    """The chat service (an ntfy server): records each JSON posted, answers `status`, after
    `delay` seconds, with a `Location` header when `location` is set; `healthy` holds the posts
    it answered at once with 200 (a post it held past the sender's time-out still lands, later,
    in `posts` only). `port` is the one it listens on, at 127.0.0.1."""

    def __init__(self):
        self.posts: list[dict] = []
        self.healthy: list[dict] = []
        self.status, self.delay = 200, 0.0
        self.location = ""
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
                if sink.location:
                    self.send_header("Location", sink.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"ntfy://127.0.0.1:{self.port}/inis-topic"
        # shutdown() waits for the loop's next look at its flag: every 0.05 s, not 0.5 s.
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()


def chatting(sink: ChatSink, email: str) -> None:
    """The player of `email` with the sink as chat target (kept directly: the page refuses a
    loopback address, which this test's sink has; the post is let through by the `sink`
    fixture's LOOPBACK_TARGETS_FOR_TESTS)."""
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


ONLY = "Give the address of a chat on ntfy, Telegram, Matrix or Discord"
PRIVATE = "This address points at a private network: give the address of a chat service on the internet"


@pytest.mark.parametrize(
    "url, says",
    [
        ("ntfy://inis.example.org/topic", "This address points at this site"),
        # The site's name with a final dot, or in capitals, is the site still.
        ("ntfy://INIS.example.org./topic", "This address points at this site"),
        ("ntfys://127.0.0.1/topic", PRIVATE),
        ("ntfy://localhost/topic", PRIVATE),
        ("ntfy://192.168.1.20/topic", PRIVATE),
        # 127.0.0.1 written as one number, in hexadecimal: the resolver reads them.
        ("ntfy://2130706433:8000/topic", PRIVATE),
        ("ntfy://0x7f000001/topic", PRIVATE),
        # The cloud's metadata service, 169.254.169.254, written as one number.
        ("matrixs://user:token@2852039166/!room", PRIVATE),
        ("ntfy://[::1]/topic", PRIVATE),
        ("ntfy://[::ffff:7f00:1]/topic", PRIVATE),  # 127.0.0.1, IPv4-mapped
        # A name that resolves to a private address (tests/notifications/conftest.py's `dns`).
        ("ntfy://chat.corp.example/topic", PRIVATE),
        ("ntfy://nowhere.invalid/topic", "This address's server cannot be found"),
        # Other apprise services: one posts anything anywhere, one relays mail through the
        # SMTP server its URL names, one writes to this machine's log.
        ("json://2130706433:8000/hook", ONLY),
        ("mailto://user:pw@example.com?smtp=127.0.0.1&to=victim@example.net&from=ceo@bank.example", ONLY),
        ("syslog://", ONLY),
        (
            "ntfys://my-inis-topic?redirect=yes",
            "This address asks for redirects to be followed (redirect=yes)",
        ),
        ("https://ntfy.sh/topic", ONLY),
        ("nonsense://whatever", ONLY),
        ("discord://webhook-id-without-its-token", "no chat address apprise knows"),
        ("", "Give the address of your chat"),
    ],
)
def test_a_target_of_another_service_or_pointed_at_the_site_or_a_private_network_is_refused(
    settings, dns, url, says
):
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org"]
    dns["chat.corp.example"] = "10.1.2.3"
    with pytest.raises(TargetError, match=re.escape(says)):
        check_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "ntfys://ntfy.sh/my-inis-topic-7f3a9c",
        "ntfy://my-inis-topic-7f3a9c",  # ntfy's cloud mode: https://ntfy.sh
        "ntfys://my-inis-topic-7f3a9c",
        "tgram://123456789:bot-token/987654321",
        "discord://webhook-id/webhook-token",
        "matrixs://user:token@matrix.org/!room",
    ],
)
def test_the_documented_chat_services_on_the_internet_are_taken(settings, dns, url):
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org"]
    dns.update({"ntfy.sh": "159.203.148.75", "matrix.org": "104.20.20.44"})
    assert check_url(f"  {url} ") == url


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("ntfy://ntfy.sh/my-inis-topic-7f3a9c", "ntfys://ntfy.sh/my-inis-topic-7f3a9c"),
        ("ntfy://token@chat.example.net/topic", "ntfys://token@chat.example.net/topic"),
        ("matrix://user:password@matrix.org/!room", "matrixs://user:password@matrix.org/!room"),
    ],
)
def test_a_chat_address_that_would_post_unencrypted_is_kept_encrypted(settings, dns, given, kept):
    """`ntfy://ntfy.sh/topic` and `matrix://user:password@server` post over plain HTTP: the
    player's decisions and the address's own password would cross the internet readable by
    anyone on the way. The address is kept in its encrypted form (ntfys://, matrixs://), and an
    address kept before in the plain form is posted to encrypted too."""
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org"]
    dns.update(
        {"ntfy.sh": "159.203.148.75", "matrix.org": "104.20.20.44", "chat.example.net": "93.184.215.14"}
    )
    assert check_url(given) == kept
    assert plugin_to_send(given).secure is True


def test_a_refusal_is_in_the_players_language(settings):
    with translation.override("fr"):
        with pytest.raises(TargetError) as refused:
            check_url("ntfy://2130706433:8000/topic")
        assert str(refused.value).startswith("Cette adresse mène à un réseau privé")
        with pytest.raises(TargetError) as refused:
            check_url("mailto://user:pw@example.com?smtp=127.0.0.1")
        assert "ntfy, Telegram, Matrix ou Discord" in str(refused.value)


def test_without_the_tests_setting_the_loopback_sink_is_refused_at_the_post(make_game, sink, settings):
    """A target kept before these checks (or whose check was passed): at the post it is
    checked again, and a loopback address is refused unless the tests' own setting is on."""
    settings.LOOPBACK_TARGETS_FOR_TESTS = False
    for email in EMAILS:
        chatting(sink, email)
    game = make_game()
    with pytest.raises(Exception, match="refused now, nothing was posted"):
        outbox.deliver(chat_row(game).pk)
    assert sink.posts == []


def test_a_name_that_leads_to_a_private_address_at_the_post_gets_nothing(make_game, sink, settings, dns):
    """The name resolved to a public address when the player set it; at the post it resolves
    to this machine (DNS rebinding): refused then, nothing posted, retried later."""
    settings.LOOPBACK_TARGETS_FOR_TESTS = False
    dns["chat.example.net"] = "93.184.215.14"
    url = f"ntfy://chat.example.net:{sink.port}/inis-topic"
    for email in EMAILS:
        assert set_target(preferences.player_for(email), url).url == url.replace("ntfy://", "ntfys://")
    game = make_game()
    row = chat_row(game)
    dns["chat.example.net"] = "127.0.0.1"
    with pytest.raises(Exception, match="points at a private network"):
        outbox.deliver(row.pk)
    row.refresh_from_db()
    assert sink.posts == [] and row.status == Outbox.Status.PENDING and row.attempts == 1


def test_a_chat_server_redirecting_elsewhere_is_not_followed(make_game, sink):
    elsewhere = ChatSink()
    try:
        sink.status, sink.location = 307, f"http://127.0.0.1:{elsewhere.port}/inis-topic"
        for email in EMAILS:
            chatting(sink, email)
        game = make_game()
        with pytest.raises(Exception, match="did not take"):
            outbox.deliver(chat_row(game).pk)
        assert len(sink.posts) == 1 and elsewhere.posts == []
    finally:
        elsewhere.server.shutdown()
        elsewhere.server.server_close()


def test_the_page_refuses_a_numeric_loopback_address_saying_why(client, db, settings):
    settings.CHAT_TARGETS = True
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org", "testserver"]
    client.force_login(user_for_email(EMAILS[0]))
    page = client.post(reverse("push:chat"), {"url": "ntfy://2130706433:8000/hook", "next": "/"}, follow=True)
    assert "This address points at a private network" in page.content.decode()
    assert not ChatTarget.objects.exists()


def test_the_signed_in_player_sets_and_removes_their_target(client, db, sink, settings, dns):
    dns["ntfy.sh"] = "159.203.148.75"
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org", "testserver"]
    path = reverse("push:chat")
    client.post(path, {"url": "ntfys://ntfy.sh/my-inis-topic-7f3a9c", "next": "/"})
    assert not ChatTarget.objects.exists()  # nobody signed in
    client.force_login(user_for_email(EMAILS[0]))
    assert client.post(path, {"url": "ntfys://ntfy.sh/my-inis-topic-7f3a9c", "next": "/"}).status_code == 302
    assert ChatTarget.objects.get().url == "ntfys://ntfy.sh/my-inis-topic-7f3a9c"
    client.post(path, {"url": "json://inis.example.org/x", "next": "/"})
    assert ChatTarget.objects.get().url == "ntfys://ntfy.sh/my-inis-topic-7f3a9c"  # refused: kept as it was
    client.post(path, {"remove": "1", "next": "/"})
    assert not ChatTarget.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "ntfy://inis",  # ntfy's cloud mode: https://ntfy.sh
        "ntfys://my-inis-topic",  # no digit
        "ntfys://ntfy.sh/my-inis-topic",
        "ntfys://ntfy.sh/my-inis-game-topic-of-ann",  # long, but words only
        "ntfys://ntfy.sh/1234567890123456",  # digits only
        "ntfys://ntfy.sh/inis-game-2026",  # letters and digits, 14 characters
        "ntfy://NTFY.SH./inis",  # ntfy.sh all the same
        "ntfys://ntfy.sh/inis-7f3a9c2e81d4b6a0/inis",  # one topic of two
    ],
)
def test_a_guessable_topic_on_ntfys_public_server_is_refused_with_an_example_that_is_taken(
    settings, dns, url
):
    """Anybody who subscribes to a topic's name on ntfy.sh reads its messages, each with a seat
    link that acts for days (docs/notifications.md, "Your chat")."""
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org"]
    dns["ntfy.sh"] = "159.203.148.75"
    with pytest.raises(TargetError) as refused:
        check_url(url)
    said = str(refused.value)
    assert said.startswith(
        "Anybody who guesses the name of a topic on ntfy.sh reads its messages: choose a topic of at "
        "least 16 characters with letters and digits, for example ntfys://ntfy.sh/inis-"
    )
    example = re.search(r"ntfys://ntfy\.sh/\S+(?=\.$)", said).group(0)
    assert check_url(example) == example


@pytest.mark.parametrize(
    "url",
    [
        "ntfys://ntfy.sh/inis-7f3a9c2e81d4",
        "ntfys://inis-7f3a9c2e81d4",
        "ntfys://ntfy.example.net/inis",  # a server of one's own: its topics are its owner's affair
        "ntfys://token@ntfy.example.net/a",
    ],
)
def test_an_unguessable_topic_on_ntfy_sh_and_any_topic_on_a_server_of_ones_own_are_taken(settings, dns, url):
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org"]
    dns.update({"ntfy.sh": "159.203.148.75", "ntfy.example.net": "93.184.215.14"})
    assert check_url(url) == url


def test_a_guessable_topic_kept_before_the_rule_is_still_posted_to(settings, dns):
    """The rule is for addresses set from now on: a chat that works is not cut off unannounced
    (the player, told by docs/notifications.md, sets another)."""
    dns["ntfy.sh"] = "159.203.148.75"
    assert plugin_to_send("ntfys://ntfy.sh/inis").topics == ["inis"]


def test_the_guessable_topic_refusal_in_french(settings, dns):
    dns["ntfy.sh"] = "159.203.148.75"
    with translation.override("fr"), pytest.raises(TargetError) as refused:
        check_url("ntfys://ntfy.sh/inis")
    assert str(refused.value).startswith("Quiconque devine le nom d'un sujet sur ntfy.sh lit ses messages")


@pytest.mark.parametrize(
    ("language", "why"),
    [
        ("en", "Give the address of a chat on ntfy, Telegram, Matrix or Discord"),
        ("fr", "Donnez l'adresse d'une messagerie ntfy, Telegram, Matrix ou Discord"),
    ],
)
def test_a_refused_chat_address_comes_back_as_typed_under_why(client, db, settings, language, why):
    """The preferences page comes back at its push section, screens below the page's messages:
    the refusal is said there too, above the address as typed (not an empty field), once."""
    settings.CHAT_TARGETS = True
    client.force_login(user_for_email(EMAILS[0]))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    typed = "mailto://player1@example.org"

    page = client.post(
        reverse("push:chat"), {"url": typed, "next": reverse("lobby:preferences")}, follow=True
    )

    section = page.content.decode().replace("&#x27;", "'")
    section = section[section.index('id="web-push"') :]
    assert why in section[: section.index('id="chat-url"')]
    assert f'value="{typed}"' in section and "autofocus" in section
    assert not ChatTarget.objects.exists()
    again = client.get(reverse("lobby:preferences"), follow=True).content.decode()
    assert typed not in again and 'id="chat-refused"' not in again
