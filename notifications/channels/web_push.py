"""The web push channel (W3C Push API, VAPID RFC 8292, payload encrypted RFC 8291 by
`pywebpush`): a decision's note to every device of the row's player (`players.PushSubscription`).

A device the push service answers 404 or 410 for (the browser dropped the subscription), or
whose keys cannot be encrypted to, is removed and counts as done; any other failure (a time-out,
a 5xx, a redirect, an endpoint whose host now leads to this site or a private network) raises
after the other devices are tried, for the outbox's retries, and the devices reached are kept on
the row (`headers["reached"]`) so that a retry reaches only the others.

The endpoint's host was checked when the device was added (`players.push_devices`); it is
checked again just before each post, as a name may lead elsewhere later, and the post follows
no redirect: a push service's answer must not send it elsewhere. A row delivered after the
operator turned push off (WEB_PUSH) is pushed to no device (`turned_off`): its player's decision
comes by email.
"""

from __future__ import annotations

import functools
import json
import logging

import requests
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from notifications.channels import turned_off
from notifications.channels.decision_note import note_for
from notifications.models import Outbox
from players.email_addresses import canonical_address
from players.models import PushSubscription
from players.push_devices import DeviceError, check_endpoint_host

logger = logging.getLogger(__name__)

# Answers of a push service that mean the subscription is gone for good (RFC 8030, 8.3).
GONE = (404, 410)


class PushFailed(Exception):
    """A push service refused or did not answer for at least one device (retried)."""


class EndpointRefused(Exception):
    """A device's endpoint leads to this site or a private network now, or to no address."""


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
    the server's VAPID `key` (`server_key()`), following no redirect. Raises EndpointRefused
    (before any post) when the endpoint's host may not be posted to now
    (`push_devices.check_endpoint_host`), pywebpush's WebPushException (with the `response`),
    requests' TooManyRedirects for a redirect (with the `response`) or another
    RequestException, or ValueError (keys that are no P-256 point or 16-byte secret)."""
    try:
        check_endpoint_host(subscription.endpoint)
    except DeviceError as refused:
        raise EndpointRefused(str(refused)) from None
    with requests.Session() as session:
        session.max_redirects = 0  # a 3xx raises TooManyRedirects instead of being followed
        webpush(
            subscription.as_subscription_info(),
            json.dumps(payload, ensure_ascii=False),
            vapid_private_key=key,
            vapid_claims=_claims(),
            timeout=settings.WEB_PUSH_TIMEOUT,
            ttl=settings.WEB_PUSH_TTL,
            requests_session=session,
        )


def send(row: Outbox) -> None:
    """The channel's sender: the row's note (`decision_note.note_for`, kept on the row as its
    subject and text) to each device of its player not yet reached. Raises PushFailed when a
    device could not be reached for now. With push turned off (WEB_PUSH), nothing is pushed: the
    row is closed (`turned_off.close`)."""
    if turned_off.is_off(Outbox.Channel.WEB_PUSH):
        turned_off.close(row)
        return
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
        except (WebPushException, ValueError, requests.RequestException, EndpointRefused) as error:
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
