"""The web push channel (W3C Push API, VAPID RFC 8292, payload encrypted RFC 8291 by
`pywebpush`): a decision's note to every device of the row's player (`players.PushSubscription`).

A device the push service answers 404 or 410 for (the browser dropped the subscription), or
whose keys cannot be encrypted to, is removed and counts as done; any other failure (a time-out,
a 5xx) raises after the other devices are tried, for the outbox's retries, and the devices
reached are kept on the row (`headers["reached"]`) so that a retry reaches only the others.
"""

from __future__ import annotations

import functools
import json
import logging

import requests
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from notifications.channels.decision_note import note_for
from notifications.models import Outbox
from players.email_addresses import canonical_address
from players.models import PushSubscription

logger = logging.getLogger(__name__)

# Answers of a push service that mean the subscription is gone for good (RFC 8030, 8.3).
GONE = (404, 410)


class PushFailed(Exception):
    """A push service refused or did not answer for at least one device (retried)."""


@functools.cache
def _vapid(private_key: str) -> Vapid:
    """The server's VAPID key from WEB_PUSH_VAPID_PRIVATE_KEY (PEM, or base64url of its raw 32
    bytes or DER), read once. Raises ValueError (or py_vapid's error) for a key it cannot read."""
    if "-----BEGIN" in private_key:
        return Vapid.from_pem(private_key.encode())
    return Vapid.from_string(private_key=private_key)


def server_key() -> Vapid:
    """The VAPID key of WEB_PUSH_VAPID_PRIVATE_KEY; raises when it cannot be read (the row is
    retried, and no device is blamed for it)."""
    return _vapid(settings.WEB_PUSH_VAPID_PRIVATE_KEY)


def _claims() -> dict:
    contact = settings.WEB_PUSH_CONTACT or f"mailto:{settings.DEFAULT_FROM_EMAIL}"
    return {"sub": contact}


def devices_of(email: str) -> list[PushSubscription]:
    """The push devices of the Player of `email`, oldest first."""
    return list(PushSubscription.objects.filter(player__email=canonical_address(email)).order_by("id"))


def push(subscription: PushSubscription, payload: dict, *, key: Vapid) -> None:
    """Encrypt `payload` (JSON) to `subscription` and post it to its push service, signed with
    the server's VAPID `key` (`server_key()`). Raises pywebpush's WebPushException (with the `response`) or
    ValueError (keys that are no P-256 point or 16-byte secret)."""
    webpush(
        subscription.as_subscription_info(),
        json.dumps(payload, ensure_ascii=False),
        vapid_private_key=key,
        vapid_claims=_claims(),
        timeout=settings.WEB_PUSH_TIMEOUT,
        ttl=settings.WEB_PUSH_TTL,
    )


def send(row: Outbox) -> None:
    """The channel's sender: the row's note (`decision_note.note_for`, kept on the row as its
    subject and text) to each device of its player not yet reached. Raises PushFailed when a
    device could not be reached for now."""
    key = server_key()
    note = note_for(row)
    row.subject, row.body_text = note.title, note.body
    reached = set(row.headers.get("reached", []))
    failures = []
    for device in devices_of(row.to_email):
        if device.pk in reached:
            continue
        try:
            push(device, note.as_payload(), key=key)
        except (WebPushException, ValueError, requests.RequestException) as error:
            status = getattr(getattr(error, "response", None), "status_code", None)
            bad_keys = isinstance(error, ValueError) and not isinstance(error, requests.RequestException)
            if status in GONE or bad_keys:
                logger.info("web push: device %s removed (%s)", device.pk, status or "bad keys")
                device.delete()
                continue
            failures.append(error)
            continue
        reached.add(device.pk)
    row.headers = {**row.headers, "reached": sorted(reached)}
    Outbox.objects.filter(pk=row.pk).update(subject=row.subject, body_text=row.body_text, headers=row.headers)
    if failures:
        raise PushFailed(f"{len(failures)} device(s) not reached: {failures[0]!r}")
