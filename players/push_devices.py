"""A player's web push devices (`PushSubscription`): added and removed by the player signed in
(docs/notifications.md; the trust rule: a device gets the player's decisions in every game, with
links that act for their seats, so only the account of the player's address adds one, never an
email link or a seat link).

The subscription is checked before it is kept: its endpoint is an https address of a push
service whose host is neither this site nor on a private network (every address it resolves to
is a public one: `players.chat_targets.destination_refusal`; the server posts to it), and its
keys are what RFC 8291 encrypts to (a P-256 point, a 16-byte secret). The endpoint's host is
checked again just before each push (`check_endpoint_host`).

A device belongs to the browser session that turned push on: the session remembers its endpoint
(`remember_in_session`) and the device its session's key (`PushSubscription.session_key`). The
device goes when that session stops being the player's, however it stops: signing out of it
(`remove_sessions_devices`, on Django's `user_logged_out`: `players.signals`); another account
signing in over it in the same browser (`remove_when_another_signs_in`, before Django's `login()`
empties it without a signal: `inis_pbem.middleware.SignInLinkMiddleware`); or the session
expiring or being deleted otherwise (`remove_devices_of_ended_sessions`, by the sweep). Otherwise
a shared browser would still get the player's pushes, each a seat link that acts for the seat
for days. A session whose key changes with its data kept (a sign-in again as the same account,
a seat link followed) takes its devices along (`follow_session_key`). An endpoint that another
account turns push on for is that account's device from then on: for its former owner it is a
device removed (`add_device`).
"""

from __future__ import annotations

import base64
import binascii
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from players.chat_targets import Refusal, destination_refusal
from players.email_addresses import canonical_address
from players.erasure import erased_account
from players.models import Player, PushSubscription

# The session's key of the endpoints of the devices turned on from it (`remember_in_session`).
SESSION_ENDPOINTS = "push_endpoints"
# The session engines that keep every session in the database table `remove_devices_of_ended_
# sessions` reads (settings/signin.py chooses one of them); with another, it removes nothing.
DATABASE_SESSION_ENGINES = (
    "django.contrib.sessions.backends.db",
    "django.contrib.sessions.backends.cached_db",
)
# At most this many devices removed by one sweep: one sweep never holds a long write.
ENDED_SESSIONS_BATCH = 500

# Choices of `Player.email_after_push`, in seconds (None: never); the form's values are strings.
EMAIL_AFTER_PUSH_CHOICES: list[tuple[int | None, object]] = [
    (0, gettext_lazy("at once, with the push")),
    (300, gettext_lazy("after 5 minutes if still open")),
    (1800, gettext_lazy("after 30 minutes if still open")),
    (7200, gettext_lazy("after 2 hours if still open")),
    (None, gettext_lazy("never: push only")),
]


class DeviceError(ValueError):
    """A subscription that cannot be kept; its message says what was wrong, for the player."""


def _b64url(value: object, name: str) -> bytes:
    if not isinstance(value, str) or not value:
        raise DeviceError(_("The subscription has no {name} key.").format(name=name))
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise DeviceError(_("The subscription's {name} key is not base64url.").format(name=name)) from None


def check_endpoint_host(endpoint: str) -> None:
    """Raise DeviceError when the host of `endpoint` (a push service's URL) names this site,
    resolves to an address that is not a public one, or resolves to none (a DNS look-up)."""
    try:
        host = urlsplit(endpoint).hostname or ""
    except ValueError:  # an unclosed "[" of an IPv6 host
        host = ""
    refusal = destination_refusal(host)
    if refusal is Refusal.SITE:
        raise DeviceError(_("A push service's address cannot be this site's."))
    if refusal is Refusal.PRIVATE:
        raise DeviceError(
            _("This address points at a private network: a push service's address is on the internet.")
        )
    if refusal is Refusal.UNKNOWN:
        raise DeviceError(_("The push service's server cannot be found."))


def _check_endpoint(endpoint: object) -> str:
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        raise DeviceError(_("The subscription has no endpoint address."))
    try:
        parts = urlsplit(endpoint)
    except ValueError:  # an unclosed "[" of an IPv6 host
        parts = urlsplit("")
    if parts.scheme != "https" or not parts.hostname:
        raise DeviceError(_("A push service's address starts with https://."))
    check_endpoint_host(endpoint)
    return endpoint


def add_device(
    player: Player, subscription: dict, *, device: str = "", session_key: str = ""
) -> PushSubscription:
    """Keep `subscription` (the browser's `PushSubscription.toJSON()`: endpoint and keys) as a
    device of `player`, turned on from the session of `session_key` (its device goes when that
    session ends). device: a name it is shown with. A subscription of that endpoint kept for
    another player is removed for them first (the browser that holds it signed in as `player`):
    with nothing else reaching them first, their open decisions come by email
    (`notifications.channels.reach.email_when_no_device_is_left`). Raises DeviceError, nothing
    kept, for a subscription that cannot be kept or a player whose account was erased since
    `player` was read ("This account was erased: nothing was saved.")."""
    if not isinstance(subscription, dict):
        raise DeviceError(_("The subscription is not what a browser sends."))
    endpoint = _check_endpoint(subscription.get("endpoint"))
    keys = subscription.get("keys")
    keys = keys if isinstance(keys, dict) else {}
    p256dh, auth = str(keys.get("p256dh") or ""), str(keys.get("auth") or "")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _b64url(p256dh, "p256dh"))
    except ValueError as error:
        if isinstance(error, DeviceError):
            raise
        raise DeviceError(_("The subscription's p256dh key is not a P-256 public key.")) from None
    if len(_b64url(auth, "auth")) != 16:
        raise DeviceError(_("The subscription's auth secret is not 16 bytes long."))
    with transaction.atomic():
        # Under the player's row lock, as an erasure takes it before their devices: a device of
        # a player erased meanwhile is refused, never kept (nor failed at the commit).
        if not Player.objects.select_for_update().filter(pk=player.pk).exists():
            raise DeviceError(erased_account())
        # A deletion, not a change of owner: its former owner is told as for any device removed.
        PushSubscription.objects.filter(endpoint=endpoint).exclude(player=player).delete()
        kept, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={
                "player": player,
                "p256dh": p256dh,
                "auth": auth,
                "device": str(device or "")[:100],
                "session_key": str(session_key or ""),
            },
        )
    return kept


def remove_device(player: Player, endpoint: str) -> bool:
    """Remove `player`'s device of `endpoint` (another player's is left alone); True when one
    was removed. When it was the last thing reaching the player first, their open decisions
    come by email (`notifications.channels.reach.email_when_no_device_is_left`, post_delete)."""
    removed, _by_model = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return removed > 0


def is_device_of(player: Player, endpoint: str) -> bool:
    """Whether `endpoint` is a device of `player` (a browser asks whether the subscription it
    holds still gets this player's pushes: it does not after a sign-out removed it)."""
    return PushSubscription.objects.filter(player=player, endpoint=str(endpoint or "")).exists()


def remember_in_session(session, endpoint: str) -> None:
    """Note in `session` (a Django session) that the device of `endpoint` was turned on from it,
    so that signing out of it removes the device (`remove_sessions_devices`)."""
    endpoints = list(session.get(SESSION_ENDPOINTS, []))
    if endpoint not in endpoints:
        session[SESSION_ENDPOINTS] = [*endpoints, endpoint]


def forget_in_session(session, endpoint: str) -> None:
    """Take `endpoint` off what `session` remembers (its device was turned off from it)."""
    endpoints = list(session.get(SESSION_ENDPOINTS, []))
    if endpoint in endpoints:
        session[SESSION_ENDPOINTS] = [kept for kept in endpoints if kept != endpoint]


def remove_sessions_devices(session, email: str) -> int:
    """Remove the devices turned on from `session` (`remember_in_session`) that are still the
    player of `email`'s (a device since taken by another account, the browser signed in as
    them, is theirs now and stays); the player's devices added from other browsers stay.
    Returns how many were removed. Called as the session signs out (`players.signals`), before
    Django empties it."""
    endpoints = [str(endpoint) for endpoint in session.get(SESSION_ENDPOINTS, [])]
    if not endpoints or not email:
        return 0
    removed, _by_model = PushSubscription.objects.filter(
        player__email=canonical_address(email), endpoint__in=endpoints
    ).delete()
    return removed


def remove_when_another_signs_in(request, user) -> int:
    """Remove the devices turned on from `request`'s session (`remove_sessions_devices`) when
    `user` is about to sign in over another account signed in there: Django's `login()` then
    empties the session without `user_logged_out`, and the browser, now `user`'s, must not keep
    getting the other player's pushes. Call it before `login(request, user)`. Returns how many
    devices were removed (0 when nobody or `user` was signed in)."""
    current = getattr(request, "user", None)
    if current is None or not current.is_authenticated or current.pk == getattr(user, "pk", None):
        return 0
    return remove_sessions_devices(request.session, getattr(current, "email", "") or "")


def follow_session_key(session, email: str) -> int:
    """After `session`'s key changed with its data kept (`cycle_key`: Django's `login()` of the
    account already signed in, a seat link followed), the devices it turned on that are still
    the player of `email`'s are kept under the new key, so that `remove_devices_of_ended_sessions`
    does not take the old key's end for theirs. Returns how many devices were updated."""
    endpoints = [str(endpoint) for endpoint in session.get(SESSION_ENDPOINTS, [])]
    if not endpoints or not email or not session.session_key:
        return 0
    return PushSubscription.objects.filter(
        player__email=canonical_address(email), endpoint__in=endpoints
    ).update(session_key=session.session_key)


def remove_devices_of_ended_sessions(*, now=None) -> int:
    """Remove the devices whose browser session has ended without a sign-out: no session of
    their `session_key` is left, or it expired (`expire_date` before `now`; Django's
    `clearsessions` deletes those rows later). Each removal is a device removed
    (`notifications.channels.reach.email_when_no_device_is_left`). Devices with no session key
    (turned on before sessions were kept) stay. At most ENDED_SESSIONS_BATCH a call; returns how
    many were removed. With a session engine that keeps sessions elsewhere than the database
    (not DATABASE_SESSION_ENGINES), nothing: the table would not know the live sessions."""
    if settings.SESSION_ENGINE not in DATABASE_SESSION_ENGINES:
        return 0
    live = Session.objects.filter(session_key=OuterRef("session_key"), expire_date__gt=now or timezone.now())
    ended = list(
        PushSubscription.objects.exclude(session_key="")
        .exclude(Exists(live))
        .order_by()
        .values_list("pk", flat=True)[:ENDED_SESSIONS_BATCH]
    )
    if not ended:
        return 0
    removed, _by_model = PushSubscription.objects.filter(pk__in=ended).delete()
    return removed


def set_email_after_push(player: Player, seconds: int | None) -> None:
    """Save how long a decision's email waits after its push (`Player.email_after_push`): one of
    EMAIL_AFTER_PUSH_CHOICES. Raises DeviceError, nothing saved, for another value or a player
    whose account was erased since `player` was read ("This account was erased: nothing was
    saved.")."""
    if seconds not in {value for value, _words in EMAIL_AFTER_PUSH_CHOICES}:
        raise DeviceError(_("Choose one of the delays offered."))
    with transaction.atomic():
        # Under the player's row lock, as an erasure takes it: a save of a row deleted meanwhile
        # would fail (no row to change), or write the erased address back in a new one.
        if not Player.objects.select_for_update().filter(pk=player.pk).exists():
            raise DeviceError(erased_account())
        player.email_after_push = seconds
        player.save(update_fields=["email_after_push", "updated_at"])
