"""How many sign-in links may be asked for: per email address and per client, per hour.

Without a limit, anybody could have us send a player (or any address) an email every second.
Counts live in Django's cache (`settings.CACHES`: Redis when REDIS_URL is set, so that every web
process shares them; otherwise this process's memory), one counter per address or client and
clock hour. Addresses are counted whether or not they have an account, so a refusal tells
nobody who plays here. Keys hold a hash of the address, never the address.

Settings: SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR, SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR,
CLIENT_IP_HEADER (inis_pbem/settings/signin.py).
"""
from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 3600


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


def _count(kind: str, who: str) -> int:
    """Add one to the counter of `who` for this hour and return it."""
    digest = hashlib.sha256(f"{kind}:{who}".encode("utf-8", "surrogatepass")).hexdigest()[:32]
    key = f"sign-in:{kind}:{digest}:{int(time.time() // WINDOW_SECONDS)}"
    cache.add(key, 0, timeout=WINDOW_SECONDS + 60)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=WINDOW_SECONDS + 60)
        return 1


def sign_in_allowed(request: HttpRequest, email: str) -> bool:
    """Count one request for a sign-in link to `email` from this client; False when this client
    or this address asked more often this hour than the settings allow (then send nothing).
    The client is counted first, so one client cycling through addresses is stopped too."""
    per_client = settings.SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR
    per_address = settings.SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR
    if _count("client", client_address(request)) > per_client:
        return False
    return _count("address", email.strip().lower()) <= per_address
