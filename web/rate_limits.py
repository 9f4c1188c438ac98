"""Counting requests per client (or per address) and per window of time, in Django's cache: the
one counter behind every rate limit of the site (the sign-in page, `lobby.sign_in_limits`; the
live pages' heads, `web.live`; the reports, `community.reports`; the seats taken at open tables,
`community.join_limit`, which reads its count with `peek` and counts only what succeeded; the
inbound mail stored a day, `notifications.inbound_cap`, which counts bytes too).

Counts live in the default cache (`settings.CACHES`: Redis when REDIS_URL is set, so that every
web process shares them; otherwise this process's memory), one counter per scope, who and fixed
window (windows start at whole multiples of their length since the epoch, so every process agrees
on them). Keys hold a hash of who is counted, never an address.

Setting: CLIENT_IP_HEADER (inis_pbem/settings/signin.py).
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's IP address: REMOTE_ADDR, or the header named by CLIENT_IP_HEADER (e.g.
    "X-Real-IP") when a reverse proxy in front sets it on every request, overwriting whatever
    the client sent; a header a client can set itself must never be named there."""
    header = getattr(settings, "CLIENT_IP_HEADER", None)
    if header:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        if value:
            return value.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "")


def _key(scope: str, who: str, window_seconds: int) -> str:
    """The cache key of `who` in `scope` for the current window: a hash of who, never an address."""
    digest = hashlib.sha256(f"{scope}:{who}".encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{scope}:{digest}:{int(time.time() // window_seconds)}"


def count(scope: str, who: str, *, window_seconds: int, by: int = 1) -> int:
    """Add `by` (one: a request; or a message's bytes, for a budget of bytes) to the count of
    `who` in `scope` (e.g. "sign-in:client") for the current window of `window_seconds` and
    return the count, this request included. Kept a minute past the window."""
    key = _key(scope, who, window_seconds)
    timeout = window_seconds + 60
    try:
        return cache.incr(key, by)
    except ValueError:  # the window's first request (or the key expired meanwhile)
        if cache.add(key, by, timeout=timeout):
            return by
        return cache.incr(key, by)  # another process added it first


def peek(scope: str, who: str, *, window_seconds: int) -> int:
    """The count of `who` in `scope` for the current window of `window_seconds`, adding nothing
    (0 when nothing was counted yet): for a limit that counts only what succeeded, read before
    acting and `count` after. Between the two another request may read the same count, so such
    a limit may be passed by the requests that run at once; a limit that must hold exactly
    counts first."""
    return int(cache.get(_key(scope, who, window_seconds), 0))


def seconds_left(window_seconds: int) -> int:
    """Whole seconds until the current window of `window_seconds` ends (at least 1): what a
    refused client is told to wait (`Retry-After`)."""
    now = time.time()
    return max(1, math.ceil((now // window_seconds + 1) * window_seconds - now))
