"""Who asks a live page's head, without reading the session: the viewer's token.

Every open game page asks its head every few seconds (`web.live.game_head`), move or not. Read
through Django's authentication, each of those asks reads the session (a cache read) and the
user (a query) again: about two fifths of a head's CPU (bench/README.md, "cost"). So the page
carries a token naming its signed-in viewer's account (`issue`: Django's `TimestampSigner`, salted
for this use alone), and its script sends it with each head in the X-Inis-Viewer header; a head
whose token is good names its viewer from it (`viewer_id`) and reads neither.

"My games" and a game being gathered (`lobby.live`) carry and read the same token.

The token's trust rule: it says only who the viewer of a page is, to the live pages' heads
(never to a page, a form or another address), and only for HEAD_VIEWER_SECONDS after it was
issued. A head answered without one (none sent, forged, or too old) reads the viewer as every
other request does, through Django's authentication, and returns a fresh token for a signed-in
viewer. So a page whose account signed out, was made inactive or changed its password answers
as that account's for at most HEAD_VIEWER_SECONDS more, and only what a head says: whether a
seat of theirs has a decision open (or, for "My games" and a table being gathered, their games'
and the table's versions), and their mark at the table (`players.at_the_table`).
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.http import HttpRequest

# The request header a page's script sends its token in (static/live.js): a header, not the
# address, so that no access log keeps it.
HEADER = "X-Inis-Viewer"
_SALT = "web.head_viewer"


def viewer_or_session(request: HttpRequest) -> tuple[int | None, dict]:
    """(the viewer's account id, what the head adds to its answer): the account the request's
    token names, with nothing to add; else the request's user as Django's authentication reads
    it, with {"viewer": a fresh token} for a signed-in one; (None, {}) for a visitor."""
    viewer = viewer_id(request)
    if viewer is not None:
        return viewer, {}
    if request.user.is_authenticated:
        return request.user.pk, {"viewer": issue(request.user.pk)}
    return None, {}


def issue(user_id: int) -> str:
    """A token naming account `user_id` as a page's viewer, good for HEAD_VIEWER_SECONDS
    seconds from now (a short ASCII string)."""
    return signing.TimestampSigner(salt=_SALT).sign(str(user_id))


def viewer_id(request: HttpRequest) -> int | None:
    """The account id the request's token names, or None when it sent none, or one that is
    forged, altered or older than HEAD_VIEWER_SECONDS (the caller then asks Django's
    authentication). Reads neither the session nor the database."""
    token = request.headers.get(HEADER)
    if not token:
        return None
    try:
        value = signing.TimestampSigner(salt=_SALT).unsign(token, max_age=settings.HEAD_VIEWER_SECONDS)
    except signing.BadSignature:  # SignatureExpired included
        return None
    return int(value) if value.isdigit() else None
