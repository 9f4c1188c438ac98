"""The game page's public part: its live part (`templates/games/_live.html`) as a spectator sees
it at one version of the game, in one language, for one audience ("visitor": not signed in,
shown the hint to sign in; "member": signed in, playing no seat there), rendered once and served
to every such reader from one address, `/games/<id>/public/<language>/<audience>/?v=<version>`
(`web.live_part.spectator_address`; the version is the head's, `web.live.game_version`).

Why: a spectator's page (static/live.js) used to fetch its live part again (`?part=live`) through
the session, the user and a render of its own after every move, though every spectator reads the
same thing. Now the page's script fetches this address without its cookies, and its answer is the
same bytes for every reader of a version, language and audience: one query of the game (its
versions and the site's latest erasure, `web.live.public_head_values`) and one cache read, no
session, no user, no CSRF token, nothing written for the reader. The first fetch of a version
renders it (from the page's shared reads, `web.public_part`) and keeps it in the "prerendered"
cache (`web.page_cache.keep_ahead_many`) for `web.public_part.PUBLIC_SECONDS`, under a key
naming the game, the versions, the latest erasure (a part kept before an erasure is never served
after it), the language and the audience; a spectator's whole page takes its live part from there
too (`web.views._live_part`).

Who may read it: anybody. Every game page is readable by any visitor as a spectator
(docs/spectators.md: a public game only adds the list and the follow), so the address carries no
token. What it holds is the spectator's view alone, never more: the page is built for no seat
(`rules.view_for(state, None)`, each line through `rules.redact(event, None)`), so no hand, no
set-aside card, no private event and no deck order can be in it; a host who plays no seat has
their own page (its host tools link), never this one.

Only the game's current version is rendered; an earlier one is served while it is kept, and any
other answers 404 (the page's script asks its head again). Nothing is kept with the speed layers
off (settings.SPEED_LAYERS): each fetch renders the current version.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from web import live, live_part, page_cache, public_part

AUDIENCES = ("visitor", "member")
# How long a browser or a shared cache may keep an answer, in seconds: an address names its
# version, so only a display name changed or an erasure can make it stale (web.page_cache).
PUBLIC_MAX_AGE = page_cache.PAGE_SECONDS


def _key(game_id: int, seed_commitment: str, erasures: int, versions: tuple[int, int], audience: str) -> str:
    parts = [
        str(game_id),
        seed_commitment,
        str(versions[0]),
        str(versions[1]),
        str(erasures),  # an erasure changes it (`live.erasures_column`)
        translation.get_language() or "en",
        audience,
    ]
    return "spectator-live:" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]


def part(game, versions: tuple[int, int], audience: str) -> dict | None:
    """{"html", "your_turn": False, "versions"}: the spectator's live part of `game` (as
    `web.live.game_for_page` reads it, for no user) at `versions` (log length, table log length)
    for `audience`, in the active language, "html" as its address answers: the live part in a
    page holding only it and the title (`templates/games/live_only.html`; `live_html` takes the
    live part out). Kept, or built when `versions` are the game's current ones (and kept when it
    was read at them: the game may move on meanwhile); None otherwise."""
    key = _key(game.pk, game.seed_commitment, game.page_erasures, versions, audience)
    kept = page_cache.cached(key)
    if kept is not None:
        return kept
    if versions != (game.page_seq, game.page_table_seq):
        return None
    public = public_part.read(game, versions)
    built = live_part.build(
        game, None, [], is_host=False, reads=public.reads, fragments=public.fragments, audience=audience
    )
    public_part.keep(game, public)
    live_html = mark_safe(built["html"])  # noqa: S308 - our own render, with no per-request value
    context = {"game": game, "seat": None, "your_turn": False, "live_html": live_html}
    built["html"] = render_to_string("games/live_only.html", context)
    if built["versions"] == versions:
        # As long as the page's shared reads: its spectators fetch it within seconds of the move.
        page_cache.keep_ahead_many({key: built}, public_part.PUBLIC_SECONDS)
        page_cache.keep(key, built)
    return built


def live_html(found: dict) -> str:
    """The live part alone (`<div id="live">`) of what `part` gives, as the whole page includes it."""
    return found["html"].split("<body>", 1)[1].rsplit("</body>", 1)[0]


@require_GET
def public_live(request: HttpRequest, game_id: int, language: str, audience: str) -> HttpResponse:
    """GET /games/<id>/public/<language>/<audience>/?v=<version>: the spectator's live part of
    the game at `version` ("12.0", the head's) in `language` for `audience`, in a page holding
    only it and the title, the same bytes for every reader; it reads no session and no user.
    404 for no such game, language, audience or version (a version neither current nor kept)."""
    seq, _dot, table_seq = request.GET.get("v", "").partition(".")
    if language not in dict(settings.LANGUAGES) or audience not in AUDIENCES:
        raise Http404(_("No such game."))
    if not (seq.isdigit() and table_seq.isdigit()):
        raise Http404(_("No such game."))
    head = live.public_head_values(game_id=game_id)
    if head is None:
        raise Http404(_("No such game."))
    versions = (int(seq), int(table_seq))
    with translation.override(language):
        # Kept: one lean query and one cache read. Else read as the page reads it, and built.
        found = page_cache.cached(
            _key(game_id, head["seed_commitment"], head["erasures"], versions, audience)
        )
        if found is None:
            game = live.game_for_page(game_id=game_id, user=None)
            found = part(game, versions, audience) if game is not None else None
    if found is None:
        raise Http404(_("This moment of the game is no longer shown: reload the page."))
    response = HttpResponse(found["html"])
    response["Cache-Control"] = f"public, max-age={PUBLIC_MAX_AGE}"
    response["Content-Language"] = language  # the address's, not the reader's cookie's
    return response
