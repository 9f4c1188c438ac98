"""Web push (notifications.channels.web_push, .reach): a decision pushed to the player's
devices, encrypted to each (RFC 8291) and signed (VAPID), and its email only after the delay the
player chose, if the decision is still open; an endpoint leading to a private network at the
push (a name that resolves elsewhere now) gets nothing, and a redirect is not followed."""

from __future__ import annotations

import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core import mail
from django.utils import timezone

from bench.push_service import PushService, b64url, check_vapid, vapid_pair
from games import rules, store
from games.services import submit_command
from notifications import outbox, wording
from notifications.models import Outbox
from players import preferences
from players.models import PushSubscription

EMAILS = [f"player{i}@example.org" for i in range(1, 5)]


@pytest.fixture
def push_service():
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture
def push_on(settings):
    """Push on, with a key pair of the test's own; the push service of the tests listens on
    127.0.0.1, which only LOOPBACK_TARGETS_FOR_TESTS lets an endpoint lead to."""
    private, public = vapid_pair()
    settings.WEB_PUSH = True
    settings.LOOPBACK_TARGETS_FOR_TESTS = True
    settings.WEB_PUSH_VAPID_PRIVATE_KEY, settings.WEB_PUSH_VAPID_PUBLIC_KEY = private, public
    settings.WEB_PUSH_CONTACT = "mailto:operator@example.org"
    return public


def subscribe(service: PushService, email: str):
    """A device of the player of `email`, kept as the subscription view keeps one."""
    device = service.device()
    PushSubscription.objects.create(
        player=preferences.player_for(email), endpoint=device.endpoint, **device.keys, device="test"
    )
    return device


def every_player_has_a_device(service: PushService, *, email_after_push: int | None) -> dict:
    """A device at `service` for each of EMAILS, keyed by address, each player's "email after a
    push" set to `email_after_push` (seconds; None: never, push only)."""
    devices = {}
    for address in EMAILS:
        devices[address] = subscribe(service, address)
        player = preferences.player_for(address)
        player.email_after_push = email_after_push
        player.save()
    return devices


def rows(game, channel, **kw):
    return list(
        Outbox.objects.filter(game=game, channel=channel, kind=Outbox.Kind.PROMPT, **kw).order_by("id")
    )


def the_deciding_seat(game):
    """The seat that decides first, with its state (one seat decides at the start)."""
    state, _seq = store.load(game)
    colour = rules.pending(state)[0].seat
    return game.seats.get(colour=colour), state


def test_a_decision_is_pushed_encrypted_signed_and_says_what_to_decide(make_game, push_on, push_service):
    devices = {email: subscribe(push_service, email) for email in EMAILS}
    game = make_game()
    seat, state = the_deciding_seat(game)
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH)
    assert pushed.seat_id == seat.pk and pushed.to_email == seat.email
    assert outbox.deliver(pushed.pk) is True
    device = devices[seat.email]
    (push,) = push_service.to(device)
    assert push_service.pushes == [push]  # only the deciding seat's device
    note = device.decrypt(push.body)
    what = wording.decisions_title(rules.pending_for(state, seat.colour), seat.colour)
    assert note["title"] == f"Inis {game.pk}: your move"
    assert note["body"] == what[:1].upper() + what[1:]
    assert f"/games/{game.pk}/" in note["url"] and note["tag"] == f"inis-{game.pk}-{seat.colour}"
    assert check_vapid(push, push_on, push_service.base)["sub"] == "mailto:operator@example.org"
    assert {k.lower(): v for k, v in push.headers.items()}["content-encoding"] == "aes128gcm"
    pushed.refresh_from_db()
    assert pushed.status == Outbox.Status.SENT and pushed.subject == note["title"]


def test_the_email_waits_and_is_not_sent_once_the_decision_is_answered(make_game, push_on, push_service):
    for email in EMAILS:
        subscribe(push_service, email)
    before = timezone.now()
    game = make_game()
    seat, state = the_deciding_seat(game)
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert before + timedelta(minutes=29) < email.not_before < timezone.now() + timedelta(minutes=31)
    assert email.queued_at == email.not_before  # the relay publishes it then, not before
    assert outbox.deliver(email.pk) is False  # too early: left for later
    email.refresh_from_db()
    assert email.status == Outbox.Status.PENDING
    Outbox.objects.filter(pk=email.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert email.pk not in outbox.pending_ids(older_than_seconds=300)  # nor does the sweep send it early
    # Answered from the push (the seat's page), then the delay passes: no email.
    command = rules.legal_commands(state, seat.colour)[0]
    submit_command(game=game, seat=seat, command=command, expected_seq=state.seq)
    Outbox.objects.filter(pk=email.pk).update(not_before=timezone.now() - timedelta(seconds=1))
    mail.outbox.clear()
    assert outbox.deliver(email.pk) is False
    email.refresh_from_db()
    assert email.status == Outbox.Status.SKIPPED and mail.outbox == []


def test_the_email_comes_when_the_decision_is_still_open_after_the_delay(make_game, push_on, push_service):
    for email in EMAILS:
        subscribe(push_service, email)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    Outbox.objects.filter(pk=email.pk).update(not_before=timezone.now() - timedelta(seconds=1))
    mail.outbox.clear()
    assert outbox.deliver(email.pk) is True
    assert [m.to for m in mail.outbox] == [[seat.email]]


@pytest.mark.parametrize("delay, emails", [(0, 1), (None, 0)])
def test_at_once_and_never(make_game, push_on, push_service, delay, emails):
    for address in EMAILS:
        subscribe(push_service, address)
        player = preferences.player_for(address)
        player.email_after_push = delay
        player.save()
    game = make_game()
    seat, _state = the_deciding_seat(game)
    written = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert len(written) == emails and all(row.not_before is None for row in written)
    assert len(rows(game, Outbox.Channel.WEB_PUSH, seat=seat)) == 1


def test_without_a_device_or_with_push_off_the_email_comes_at_once(make_game, settings, push_service):
    settings.WEB_PUSH = False
    for address in EMAILS:
        subscribe(push_service, address)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    assert rows(game, Outbox.Channel.WEB_PUSH) == []
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.not_before is None


def test_a_device_gone_is_removed_and_a_failing_one_retried_alone(make_game, push_on, push_service):
    game_devices = {email: subscribe(push_service, email) for email in EMAILS}
    game = make_game()
    seat, _state = the_deciding_seat(game)
    first = game_devices[seat.email]
    gone, failing = subscribe(push_service, seat.email), subscribe(push_service, seat.email)
    push_service.status[gone.endpoint.removeprefix(push_service.base)] = 410
    push_service.status[failing.endpoint.removeprefix(push_service.base)] = 500
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH)
    with pytest.raises(Exception, match="not reached"):
        outbox.deliver(pushed.pk)
    pushed.refresh_from_db()
    assert pushed.status == Outbox.Status.PENDING and pushed.attempts == 1 and "500" in pushed.last_error
    assert not PushSubscription.objects.filter(endpoint=gone.endpoint).exists()
    push_service.status.clear()
    assert outbox.deliver(pushed.pk) is True
    assert len(push_service.to(first)) == 1  # reached once, not again on the retry
    assert len(push_service.to(failing)) == 2
    assert failing.decrypt(push_service.to(failing)[-1].body)["title"] == f"Inis {game.pk}: your move"


def test_a_device_with_a_wrong_key_is_removed_the_others_reached_once_and_the_email_kept(
    make_game, push_on, push_service
):
    devices = {email: subscribe(push_service, email) for email in EMAILS}
    game = make_game()
    seat, _state = the_deciding_seat(game)
    # A device kept with a key that is no P-256 point (the page refuses one now: an older row).
    broken = push_service.device()
    PushSubscription.objects.create(
        player=preferences.player_for(seat.email),
        endpoint=broken.endpoint,
        p256dh=b64url(b"\x04" + bytes(64)),
        auth=broken.keys["auth"],
        device="old phone",
    )
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH)
    assert outbox.deliver(pushed.pk) is True
    assert not PushSubscription.objects.filter(endpoint=broken.endpoint).exists()
    assert push_service.to(broken) == []
    (push,) = push_service.to(devices[seat.email])
    assert devices[seat.email].decrypt(push.body)["title"] == f"Inis {game.pk}: your move"
    assert outbox.deliver(pushed.pk) is False and len(push_service.pushes) == 1  # not twice
    # Nothing lost: the decision still open after the delay, its email comes.
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    Outbox.objects.filter(pk=email.pk).update(not_before=timezone.now() - timedelta(seconds=1))
    mail.outbox.clear()
    assert outbox.deliver(email.pk) is True
    assert [m.to for m in mail.outbox] == [[seat.email]]


def subscribe_everyone_at(push_service, base: str) -> None:
    """A device of the push service for each player of EMAILS, its endpoint moved to `base`
    (another name or server for the same paths)."""
    for email in EMAILS:
        device = push_service.device()
        PushSubscription.objects.create(
            player=preferences.player_for(email),
            endpoint=device.endpoint.replace(push_service.base, base),
            **device.keys,
            device="test",
        )


def test_an_endpoint_whose_name_leads_to_a_private_address_at_the_push_gets_nothing(
    make_game, push_on, push_service, settings, dns
):
    """The endpoint's name resolved to a push service on the internet when the device was
    added; at the push it resolves to this machine (DNS rebinding): nothing is posted, the
    device is kept and the row retried."""
    settings.LOOPBACK_TARGETS_FOR_TESTS = False
    named = push_service.base.replace("127.0.0.1", "push.example.net")
    dns["push.example.net"] = "127.0.0.1"
    subscribe_everyone_at(push_service, named)
    game = make_game()
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH)
    with pytest.raises(Exception, match="points at a private network"):
        outbox.deliver(pushed.pk)
    pushed.refresh_from_db()
    assert push_service.pushes == [] and pushed.status == Outbox.Status.PENDING
    assert PushSubscription.objects.count() == len(EMAILS)


def test_a_push_service_redirecting_elsewhere_is_not_followed(make_game, push_on, push_service):
    redirected: list[str] = []

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            redirected.append(self.path)
            self.send_response(307)
            self.send_header("Location", push_service.base + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()  # (test_chat.py)
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        subscribe_everyone_at(push_service, base)
        game = make_game()
        (pushed,) = rows(game, Outbox.Channel.WEB_PUSH)
        with pytest.raises(Exception, match="not reached"):
            outbox.deliver(pushed.pk)
        assert len(redirected) == 1 and push_service.pushes == []
    finally:
        server.shutdown()
        server.server_close()
