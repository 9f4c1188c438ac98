"""The open tables page, rendered once per version of the list and kept a minute.

Many visitors read the same list, and it changes only when a table opens, fills, starts or
closes: each of those moves the `open_tables` projection's stored position
(`community.models.ProjectionPosition`). A rendered page is kept in the per-process "pages"
cache (Django's cache framework, as the game pages are: `web.page_cache`) under a key naming
that position, the viewer (the header shows a signed-in player's address), the page's path with
its query (filters, page number) and the language, for PAGE_SECONDS at most: what the position
does not see (a waiting time passing an hour, a host hiding their profile, a host's new
display name, which `community.open_tables.host_renamed` writes into the read model at once)
shows within that time. The CSRF token is a placeholder in what is kept, filled in for each
request. A request with a one-time message to show is never served from nor kept under a key.
With the speed layers off (settings.SPEED_LAYERS) nothing is kept.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.core.cache import caches
from django.http import HttpRequest
from django.utils import translation

from community.models import ProjectionPosition
from community.open_tables import OpenTablesProjection

# How long a rendered list is kept, in seconds: the most a waiting time or a hidden profile lags.
PAGE_SECONDS = 60


def page_key(request: HttpRequest) -> str | None:
    """The key of the open tables page for `request` (one query: the projection's position), or
    None when the page must be rendered for this request alone (a one-time message to show, or
    the speed layers off)."""
    if not settings.SPEED_LAYERS or len(messages.get_messages(request)):
        return None
    position = (
        ProjectionPosition.objects.filter(name=OpenTablesProjection.name)
        .values_list("position", flat=True)
        .first()
    )
    user = request.user
    parts = [
        str(position),
        f"{user.pk}:{user.email}" if user.is_authenticated else "-",
        request.get_full_path(),
        translation.get_language() or "en",
    ]
    return "open-tables:" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]


def cached(key: str | None) -> str | None:
    """The page's HTML kept under `key` (placeholders in it), or None."""
    return None if key is None else caches["pages"].get(key)


def keep(key: str | None, html: str) -> None:
    """Keep `html` (rendered with the placeholders) under `key` for PAGE_SECONDS; nothing when
    `key` is None."""
    if key is not None:
        caches["pages"].set(key, html, PAGE_SECONDS)
