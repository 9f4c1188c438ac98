"""Web push on the player's devices (docs/notifications.md): the service worker, and the
player's devices added and removed, and the delay of the emails after a push.

Every change needs the visitor signed in (the account of the player's address: a device gets
the player's decisions in every game, `players.push_devices`); the answers are JSON for the
page's script (static/push.js), `{"ok": true, "message": ...}` or `{"error": ...}` with 400
(a subscription that cannot be kept, or a player erased since the request read their
account: "This account was erased: nothing was saved."), 403 (not signed in, or the account
erased as the request arrived, with the same sentence) or 404 (web push is off).
"""

from __future__ import annotations

import json
from functools import cache, wraps
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from players import preferences
from players.chat_targets import TargetError, remove_target, set_target, unguessable_topic_example
from players.models import Player
from players.push_devices import (
    EMAIL_AFTER_PUSH_CHOICES,
    DeviceError,
    add_device,
    forget_in_session,
    is_device_of,
    remember_in_session,
    remove_device,
)
from players.push_devices import set_email_after_push as save_email_after_push

# The service worker and the page's script, served by Django itself as /live.js is (web.live):
# a plain WSGI deployment needs no static file server for them.
STATIC = Path(settings.BASE_DIR) / "static"


@cache
def _source(name: str) -> bytes:
    return (STATIC / name).read_bytes()


def push_enabled() -> bool:
    """Whether players may turn web push on (WEB_PUSH with its VAPID public key)."""
    return bool(settings.WEB_PUSH and settings.WEB_PUSH_VAPID_PUBLIC_KEY)


@require_GET
def worker(request: HttpRequest) -> HttpResponse:
    """The service worker, allowed to control the whole site (`Service-Worker-Allowed: /`): the
    seat's page a push opens is under /games/."""
    if not push_enabled():
        raise Http404("Web push is off.")
    response = HttpResponse(_source("push-worker.js"), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def script(request: HttpRequest) -> HttpResponse:
    """The page's script that turns push on and off on this device (static/push.js)."""
    if not push_enabled():
        raise Http404("Web push is off.")
    response = HttpResponse(_source("push.js"), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def _signed_in_player(*, chat_too: bool = False):
    """Run `view(request, player)` for the Player of the signed-in account; 404 with web push
    off (and, if `chat_too`, chat targets off too), 403 JSON when nobody is signed in."""

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest) -> HttpResponse:
            if not (push_enabled() or (chat_too and settings.CHAT_TARGETS)):
                raise Http404("Web push is off.")
            email = getattr(request.user, "email", "") if request.user.is_authenticated else ""
            if not email:
                return JsonResponse(
                    {"error": _("Sign in first: push goes to the devices of a signed-in player.")}, status=403
                )
            try:
                player = _player_of(request)
            except preferences.PreferenceError as refused:  # erased as the request arrived
                return JsonResponse({"error": str(refused)}, status=403)
            return view(request, player)

        return wrapper

    return decorate


def _player_of(request: HttpRequest) -> Player:
    """The Player of the signed-in account, read under the account's lock
    (`preferences.player_of_account`): an account erased since the request read it gets no new
    row of preferences. Raises PreferenceError for it ("This account was erased: nothing was
    saved.")."""
    with transaction.atomic():
        return preferences.player_of_account(request.user)


def _json_body(request: HttpRequest) -> dict:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise DeviceError(_("The subscription is not what a browser sends.")) from None
    if not isinstance(body, dict):
        raise DeviceError(_("The subscription is not what a browser sends."))
    return body


@require_POST
@_signed_in_player()
def add(request: HttpRequest, player: Player) -> HttpResponse:
    """Keep the posted subscription as a device of the signed-in player (201), remembered in the
    session and keeping its key: signing out of this browser, another account signing in there
    or the session's end removes it (`players.push_devices`)."""
    try:
        body = _json_body(request)
        kept = add_device(
            player, body, device=str(body.get("device") or ""), session_key=request.session.session_key or ""
        )
    except DeviceError as error:
        return JsonResponse({"error": str(error)}, status=400)
    remember_in_session(request.session, kept.endpoint)
    return JsonResponse(
        {"ok": True, "message": _("Push is on for this device: your decisions come here first.")}, status=201
    )


@require_POST
@_signed_in_player()
def known(request: HttpRequest, player: Player) -> HttpResponse:
    """`{"known": true}` when the posted endpoint (JSON `{"endpoint": ...}`) is a device of the
    signed-in player, else false: the page's script shows push on or off in this browser by it
    (a browser keeps its subscription after a sign-out removed its device). POST: an endpoint
    is a secret of the device, kept out of addresses and logs."""
    try:
        endpoint = str(_json_body(request).get("endpoint") or "")
    except DeviceError as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse({"known": is_device_of(player, endpoint)})


@require_POST
@_signed_in_player()
def remove(request: HttpRequest, player: Player) -> HttpResponse:
    """Remove the signed-in player's device of the posted endpoint (JSON `{"endpoint": ...}`, or
    a form's `endpoint`); a form post goes back to `next`."""
    if request.content_type == "application/json":
        try:
            endpoint = str(_json_body(request).get("endpoint") or "")
        except DeviceError as error:
            return JsonResponse({"error": str(error)}, status=400)
        remove_device(player, endpoint)
        forget_in_session(request.session, endpoint)
        return JsonResponse({"ok": True, "message": _("Push is off for this device.")})
    remove_device(player, request.POST.get("endpoint", ""))
    forget_in_session(request.session, request.POST.get("endpoint", ""))
    messages.success(request, _("Push is off for that device."))
    return _back(request)


@require_POST
@_signed_in_player(chat_too=True)
def email_after_push(request: HttpRequest, player: Player) -> HttpResponse:
    """Save the form's `email_after_push` ("never" or seconds among the choices) and go back to
    `next`; refused, saying why, for another value or a player erased since the request read
    their account ("This account was erased: nothing was saved.")."""
    posted = request.POST.get("email_after_push", "")
    try:
        save_email_after_push(player, None if posted == "never" else int(posted))
    except DeviceError as refused:
        messages.error(request, str(refused))
    except ValueError:
        messages.error(request, _("Choose one of the delays offered."))
    else:
        messages.success(request, _("Your choice of when emails follow a push is saved."))
    return _back(request)


# The session's key of a chat address just refused (`chat_target`), read once by `push_context`.
REFUSED_CHAT_URL = "chat_url_refused"


@require_POST
def chat_target(request: HttpRequest) -> HttpResponse:
    """Set the signed-in player's chat target to the form's `url`, or remove it (`remove`), and
    go back to `next`; a target refused says why (`players.chat_targets.check_url`). 404 with
    CHAT_TARGETS off; nobody signed in, or the account erased as the request arrived: refused,
    nothing saved."""
    if not settings.CHAT_TARGETS:
        raise Http404("Chat targets are off.")
    email = getattr(request.user, "email", "") if request.user.is_authenticated else ""
    if not email:
        messages.error(request, _("Sign in first: your chat gets your decisions in every game."))
        return _back(request)
    try:
        player = _player_of(request)
    except preferences.PreferenceError as refused:  # erased as the request arrived
        messages.error(request, str(refused))
        return _back(request)
    if request.POST.get("remove"):
        remove_target(player)
        messages.success(request, _("Your chat no longer gets your decisions."))
        return _back(request)
    try:
        set_target(player, request.POST.get("url", ""))
    except TargetError as error:
        messages.error(request, str(error))
        # The page it goes back to (at its push section, screens below the message above) shows
        # the address as typed, once, under why it was refused, to be corrected.
        request.session[REFUSED_CHAT_URL] = {"url": request.POST.get("url", "")[:1000], "error": str(error)}
    else:
        messages.success(request, _("Your chat now gets your decisions."))
    return _back(request)


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        target = "/"
    return redirect(target)


def push_context(player: Player, *, signed_in: bool, session=None) -> dict | None:
    """What a page shows of web push and chat for `player` (None with both off): whether push
    is on (`enabled`) and its VAPID public key, whether chat targets are (`chat`) and the
    player's target (with an ntfy address the site takes to show as an example,
    `ntfy_example`), the player's devices and delay choices when `signed_in` (else only that
    signing in is needed). `session` (the request's): an address `chat_target` just refused is
    taken from it, shown as typed in place of the target with why (`chat_refused`: {"url": str,
    "error": str}, or None)."""
    if not (push_enabled() or settings.CHAT_TARGETS):
        return None
    target = getattr(player, "chat_target", None) if signed_in and player.pk else None
    refused = session.pop(REFUSED_CHAT_URL, None) if session is not None and signed_in else None
    return {
        "enabled": push_enabled(),
        "chat": settings.CHAT_TARGETS,
        "chat_url": target.url if target is not None else "",
        "chat_refused": refused,
        # A fresh topic each time: an example copied as it is names a topic nobody else has.
        "ntfy_example": unguessable_topic_example(),
        "key": settings.WEB_PUSH_VAPID_PUBLIC_KEY,
        "signed_in": signed_in,
        "devices": list(player.push_subscriptions.all()) if signed_in and player.pk else [],
        "delay": "never" if player.email_after_push is None else str(player.email_after_push),
        "choices": [
            ("never" if value is None else str(value), words) for value, words in EMAIL_AFTER_PUSH_CHOICES
        ],
    }
