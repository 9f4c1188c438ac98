"""Web pages of a game: the game page (and its decision forms), the island at any event, the
history, the JSON export; and the seat links of game emails.

Views only parse and render: reads go through `web.pages` / `games.store.selectors`, writes through
`games.services.submit_command`. Who acts: the signed-in user for the seats they play, and a
visitor holding a seat link (`players.seat_links`, in the session) for that one seat of that one
game. A POST acts only for one of those seats, and is refused (403, nothing written) for any
other.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import rules, services, store
from games.models import Command, Game, Seat
from games.play import standing_orders
from games.rules import colour_name
from games.store import exports, selectors
from games.story.descriptions import describe_command
from notifications.command_language import read_order_line
from players import seat_links
from players.display_names import seat_names
from web import confirm, live, live_part, page_cache, page_readers, pages, public_part, spectator_part
from web.decision_forms import FormError, command_from_post, group_key, legal_match
from web.forms import DecisionForm, new_nonce


def _game_or_404(game_id: int) -> Game:
    try:
        return selectors.game_get(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None


def _viewer(request: HttpRequest, game: Game, wanted: str | None) -> tuple[Seat | None, list[Seat]]:
    """(the seat the page is for, all the visitor's seats here: the signed-in user's and those
    of the seat links in the session). `wanted`: a colour asked for (`?as=` or the form's
    seat); PermissionDenied when the visitor holds no such seat."""
    mine = selectors.seats_of(game=game, user=request.user)
    mine += [s for s in seat_links.granted_seats(request, game) if s.pk not in {m.pk for m in mine}]
    mine.sort(key=lambda s: s.position)
    if wanted:
        seat = next((s for s in mine if s.colour == wanted), None)
        if seat is None:
            raise PermissionDenied(
                _("You do not play {colour} in this game.").format(colour=colour_name(wanted))
            )
        return seat, mine
    return (mine[0] if mine else None), mine


def _page_url(game: Game, seat: Seat | None, mine: list) -> str:
    url = reverse("games:detail", args=[game.pk])
    return url + (f"?as={seat.colour}" if seat is not None and len(mine) > 1 else "")


def game_list(request: HttpRequest) -> HttpResponse:
    """All games, each player named as the game pages name them (`pages.listed_games`)."""
    return render(request, "games/game_list.html", {"games": pages.listed_games()})


# The largest decision POST read, in bytes: the biggest builder form (a Migration split over
# many territories) is a few kilobytes; anything far larger is not a decision.
DECISION_POST_MAX_BYTES = 64 * 1024


@require_http_methods(["GET", "POST"])
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the game as the visitor's seat sees it (signed in, or by a seat link; `?as=` when
    they hold several), or as a spectator.
    POST: one decision form; a move that ends the turn or starts a fight, not yet confirmed, by a
    player who has moves confirmed → the confirm step (web/confirm.py); the "Take back" form →
    the seat's last move taken back (games.services.take_back); accepted → redirect back with
    the result; refused → the page again,
    status 400, with the rules' message (the same as by email); a POST larger than
    DECISION_POST_MAX_BYTES → 413. Only the legal command the form names is sent on and
    recorded, never the posted data. Nothing is written on refusal; a seat that changed hands
    (an erasure, a host's hand-over) before the move or take-back reached the game → 403,
    saying it is no longer the poster's."""
    if request.method == "GET":
        game = _game_for_page_or_404(request, game_id)
        if request.GET.get("part") == "live":
            return _live_only(request, game)
        return _game_page(request, game)
    game = _game_or_404(game_id)
    held = _posters_seats(request, game)
    if _content_length(request) > DECISION_POST_MAX_BYTES:
        return _render_game(
            request,
            game,
            held[0],
            held,
            status=413,
            error=_("That form is far larger than any decision: reload the page and choose again."),
        )
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return _render_game(
            request,
            game,
            held[0],
            held,
            status=400,
            error=_("The form was incomplete: reload the page and try again."),
        )
    seat, mine = _viewer(request, game, form.cleaned_data["seat"])
    # The move, its refusal or its take-back in words names the players as the page does
    # ("Attack Aoife (green)"), not by their colours alone.
    with rules.players_named(seat_names(game.seats.all())):
        return _decision_posted(request, game, seat, mine, form)


def _decision_posted(request, game: Game, seat: Seat, mine: list, form: DecisionForm) -> HttpResponse:
    """The POST of one decision form of `seat`, its fields read (`game_detail`): taken back,
    refused, sent to be confirmed, or submitted."""
    command_id = f"web:{form.cleaned_data['nonce']}"
    if request.POST.get("take_back"):
        return _take_back(request, game, seat, mine, form.cleaned_data["expected_seq"], command_id)
    state, seq = store.load(game)
    # A seat with no decision may still send what it may do at any time (a peace proposal).
    legal = rules.legal_commands(state, seat.colour) or rules.anytime_commands(state, seat.colour)
    try:
        posted = command_from_post(request.POST, legal)
    except FormError as error:
        return _render_game(request, game, seat, mine, status=400, error=str(error))
    command = legal_match(posted, legal)
    if command is None and not Command.objects.filter(game=game, command_id=command_id).exists():
        return _render_game(
            request,
            game,
            seat,
            mine,
            status=400,
            error=_refusal(game, state, seq, seat, posted, expected_seq=form.cleaned_data["expected_seq"]),
        )
    if (
        command is not None
        and request.POST.get("confirmed") != "1"
        and confirm.needs_confirm(command)
        and confirm.wants_confirm(request.user)
    ):
        return _confirm_step(request, game, seat, mine, state, command)
    # No legal match but this form was accepted before (sent twice): submit_command answers
    # with that first result and writes nothing, whatever is posted now.
    result = services.submit_command(
        game=game,
        seat=seat,
        command=command or posted,
        expected_seq=form.cleaned_data["expected_seq"],
        command_id=command_id,
        by_holder=True,
    )
    if result.accepted:
        messages.success(request, result.message)
        return redirect(_page_url(game, seat, mine))
    _refuse_if_seat_changed_hands(result)
    game.refresh_from_db()
    return _render_game(request, game, seat, mine, status=400, error=result.message)


def _refuse_if_seat_changed_hands(result: services.CommandResult) -> None:
    """Raise PermissionDenied (403, the page saying `result.message`: the seat is no longer
    yours, nothing was played) when `result` refused a command because its seat changed hands
    (an erasure, a host's hand-over) after the poster's seats were read: the page is not shown
    as that seat, whose hand and decision are its new holder's now."""
    if result.error_kind == services.SEAT_CHANGED:
        raise PermissionDenied(result.message)


def _posters_seats(request: HttpRequest, game: Game) -> list[Seat]:
    """The seats of `game` the poster of a decision holds (signed in, or by a seat link in the
    session), in turn order; never empty. Raises PermissionDenied before anything posted is read
    when they hold none (docs/web.md: a decision by a player of another game or a visitor who
    holds no seat "is refused with 403 and writes nothing"): a visitor is told to sign in, a
    signed-in account that it does not play in this game."""
    if not request.user.is_authenticated and not seat_links.granted_seats(request, game):
        raise PermissionDenied(_("Sign in to play: use the link in your latest email."))
    held = _viewer(request, game, None)[1]
    if not held:
        # Even a form missing its fields: its poster learns that the game is not theirs, not
        # that the form was incomplete.
        raise PermissionDenied(_("You do not play in this game."))
    return held


# The posted fields a confirm step carries over as they were (the CSRF token is the page's own).
NOT_CARRIED = {"csrfmiddlewaretoken", "confirmed"}


def _confirm_step(request, game, seat, mine, state, command) -> HttpResponse:
    """The page asking to confirm `command` (web/confirm.py) before it is sent: the move in
    words, and the same form (every posted field) to send again confirmed, or a way back."""
    fields = [
        (name, value)
        for name in request.POST
        for value in request.POST.getlist(name)
        if name not in NOT_CARRIED
    ]
    context = {
        "game": game,
        "seat": seat,
        "move": describe_command(state, command, seat.colour),
        "consequence": confirm.consequence(group_key(command)),
        "fields": fields,
        "back": _page_url(game, seat, mine) + "#decision",
    }
    return render(request, "games/confirm.html", context)


def _take_back(request, game, seat, mine, expected_seq: int, command_id: str) -> HttpResponse:
    """A POST of the "Take back" form: the seat's last move taken back (games.services.take_back),
    then the page; refused: the page again, status 400, saying why."""
    result = services.take_back(game=game, seat=seat, expected_seq=expected_seq, command_id=command_id)
    if result.accepted:
        messages.success(request, result.message)
        return redirect(_page_url(game, seat, mine))
    _refuse_if_seat_changed_hands(result)
    return _render_game(request, game, seat, mine, status=400, error=result.message)


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _refusal(game: Game, state, seq: int, seat: Seat, posted: dict, *, expected_seq: int) -> str:
    """Why `posted` (no legal command now) is refused: the rules' own message when the rules
    refuse it as against a rule, else that it is not one of the choices offered (a command the
    rules would take but the page never offers, such as one with a field of no command, or one
    the rules cannot read: a form changed by hand)."""
    offered_none = _("That is not one of the choices offered: reload the page and choose again.")
    try:
        rules.decide(state, seat.colour, posted, rng=rules.rng_for(game.seed, seq))
    except rules.InvalidCommand:
        # Malformed: an unknown type or name, a field of the wrong kind. The page never sends
        # it; the rules' words for it name fields and types, which are no player's words.
        message = offered_none
    except rules.CommandError as error:
        message = str(error)
    else:
        message = offered_none
    if expected_seq != seq:
        message += _(" (The game has moved on since your page: {before} → {now} events.)").format(
            before=expected_seq, now=seq
        )
    return message


def _game_for_page_or_404(request, game_id: int) -> Game:
    """The game with what its pages' cache keys need (`web.live.game_for_page`), read for
    `request.user` (Django's authentication: a session whose password hash no longer matches
    is signed out); 404 for none."""
    game = live.game_for_page(game_id=game_id, user=request.user)
    if game is None:
        raise Http404(_("No such game."))
    return game


def _served_again(request, game) -> tuple[HttpResponse | None, str | None]:
    """(the page from the page cache or None, the key to keep it under or None) for a GET of one
    of `game`'s pages (`game` from `_game_for_page_or_404`), before the viewer's seats are read
    (web/page_cache.py). No key for a session holding a seat link of the game (the link is
    checked on each request) or with a one-time message to show."""
    if seat_links.holds_links(request, game) or len(messages.get_messages(request)):
        return None, None
    key = page_cache.page_key(game=game, user=request.user, path=request.get_full_path())
    whole = page_cache.cached(key)
    if whole is None:
        return None, key
    return HttpResponse(page_cache.filled(whole["html"], request, new_nonce())), key


def _game_page(request, game) -> HttpResponse:
    """A GET of the game page, `game` from `_game_for_page_or_404`: served again when this viewer
    already had it at this version of the game, its table talk, their follow and seats."""
    served, whole_key = _served_again(request, game)
    if served is not None:
        return served
    seat, mine = _reader(request, game)
    if page_cache.positions_mask(mine) != game.page_my_positions:
        whole_key = None  # their seats changed since the key was read: not kept under it
    versions = (game.page_seq, game.page_table_seq)
    return _render_game(request, game, seat, mine, versions=versions, whole_key=whole_key)


def _reader(request, game) -> tuple[Seat | None, list]:
    """(seat, seats) of the viewer of a GET of `game`'s page (`_viewer`, `?as=`), noted as a
    reader of the page when they are a signed-in player of it (`web.page_readers`)."""
    seat, mine = _viewer(request, game, request.GET.get("as"))
    if mine and request.user.is_authenticated:
        # Built here, not ahead: from now on the worker renders this player's pages after a move.
        page_readers.note(game_id=game.pk, user_id=request.user.pk)
    return seat, mine


def _render_game(  # noqa: PLR0913 - the page's viewer, then keyword-only answers to a form
    request, game, seat, mine, *, status=200, error=None, versions=None, whole_key=None, orders_refused=None
) -> HttpResponse:
    """The game page as `seat` (of the viewer's seats `mine`) sees it. The live part comes from
    the page cache when `versions` ((log length, table log length) read with the key) is given
    and this viewer had it at that version, else it is built and kept; the page is kept under
    `whole_key` when given. Only what was read at those versions is kept (the game may have moved
    on since). A page answering a refused form (`error`: a decision's; `orders_refused`, a
    standing order's: {"error": why, "line": the order as typed}) is never kept: it shows what
    was posted."""
    part = _live_part(request, game, seat, mine, status=status, error=error, versions=versions)
    html = live_part.page_html(game, seat, part, request=request, orders_refused=orders_refused)
    if whole_key is not None and versions is not None and part["versions"] == versions:
        page_cache.keep(whole_key, {"html": html})
    return HttpResponse(page_cache.filled(html, request, new_nonce()), status=status)


def _live_only(request, game) -> HttpResponse:
    """A GET of the game page's live part alone (`?part=live`, what static/live.js fetches when the
    game moves on): the page's title and its `<div id="live">`, nothing around it, as the same
    viewer's page would show them (`game` from `_game_for_page_or_404`)."""
    seat, mine = _reader(request, game)
    part = _live_part(request, game, seat, mine, versions=(game.page_seq, game.page_table_seq))
    live_html = mark_safe(part["html"])  # noqa: S308 - our own render, placeholders filled below
    context = {"game": game, "seat": seat, "your_turn": part["your_turn"], "live_html": live_html}
    html = render_to_string("games/live_only.html", context)
    return HttpResponse(page_cache.filled(html, request, new_nonce()))


def _live_part(request, game, seat, mine, *, status=200, error=None, versions=None) -> dict:
    """The live part of `seat`'s page (`live_part.build`'s dict): from the page cache when
    `versions` ((log length, table log length) read with the page's key) is given and this viewer
    had it at that version, else built, and kept when it was read at those versions; a
    spectator's (no seat, not the host) is the one every spectator shares (`web.spectator_part`).
    A part answering a refused form (`error`, or a status other than 200) is built and never kept."""
    is_host = request.user.is_authenticated and game.host_id == request.user.pk
    if seat is None and not is_host and versions is not None and error is None and status == 200:
        # A spectator's: the part every spectator's page fetches from one address.
        audience = "member" if request.user.is_authenticated else "visitor"
        found = spectator_part.part(game, versions, audience)
        if found is not None:
            return {**found, "html": spectator_part.live_html(found)}
    live_key = part = None
    if versions is not None and error is None and status == 200:
        live_key = page_cache.cache_key(
            game=game,
            seq=versions[0],
            table_seq=versions[1],
            seat=seat,
            my_seats=mine,
            signed_in=request.user.is_authenticated,
            is_host=is_host,
        )
        part = page_cache.cached(live_key)
    if part is None:
        shared = versions if live_key is not None else None
        part = _build_live(request, game, seat, mine, is_host=is_host, error=error, versions=shared)
        if live_key is not None and part["versions"] == versions:
            page_cache.keep(live_key, part)
    return part


def _build_live(request, game, seat, mine, *, is_host: bool, error: str | None, versions) -> dict:
    """The live part of `seat`'s page (`live_part.build`). With `versions` (the game's (log
    length, table log length) read with the page's key; None for a refusal's page, never kept) and
    the speed layers on, from the public part that every reader's page at those versions shares
    (`web.public_part`: kept by the first page built, read here otherwise and kept for the next)."""
    if versions is None or not settings.SPEED_LAYERS:
        return live_part.build(game, seat, mine, is_host=is_host, request=request, error=error)
    public = public_part.read(game, versions)
    part = live_part.build(
        game, seat, mine, is_host=is_host, request=request, reads=public.reads, fragments=public.fragments
    )
    public_part.keep(game, public)
    return part


# An order's line is short; more than this is no order (it is cut, then refused as unread).
MAX_ORDER_CHARS = 300


@require_POST
def standing_orders_form(request: HttpRequest, game_id: int) -> HttpResponse:
    """Set or cancel the posted seat's standing orders (fields: seat; `order`, an order written as
    in an email, docs/email-commands.md; or `cancel`, a number from the page's list or "all").
    302 back to the page with what was done, or 400 with what was not understood and what is
    allowed; nothing is stored then. 403 for a visitor who plays no such seat, or whose seat
    changed hands before the order reached the game (`standing_orders.SeatNotYours`)."""
    game = _game_or_404(game_id)
    seat, mine = _viewer(request, game, request.POST.get("seat") or None)
    if seat is None:
        raise PermissionDenied(_("Sign in to play: use the link in your latest email."))
    cancel = request.POST.get("cancel", "").strip()
    line = request.POST.get("order", "")[:MAX_ORDER_CHARS].strip()
    try:
        if cancel:
            which = "all" if cancel == "all" else int(cancel) if cancel.isdigit() else None
            commands = [{"type": "cancel_order", "which": which}]
        else:
            # Read as typed, with or without "order:", so a refusal quotes the player's own words.
            commands = read_order_line(line, translation.get_language() or "en", bare=True) or []
        done = [standing_orders.carry_out(game, seat, command) for command in commands]
    except standing_orders.SeatNotYours as error:
        # Its orders are the new holder's now: not shown (403, saying so), nothing changed.
        raise PermissionDenied(str(error)) from None
    except (rules.CommandError, standing_orders.OrderError) as error:
        # Said in the orders' panel, above the order as typed: not in the decision's, screens away.
        refused = {"error": str(error), "line": "" if cancel else line}
        return _render_game(request, game, seat, mine, status=400, orders_refused=refused)
    messages.success(request, pgettext("between the parts of a list", "; ").join(done))
    return redirect(_page_url(game, seat, mine) + "#orders")


@require_GET
def island_at(request: HttpRequest, game_id: int, seq: int) -> HttpResponse:
    """The island right after event `seq`, with steps to the previous and next events."""
    game = _game_or_404(game_id)
    seat, mine = _viewer(request, game, request.GET.get("as"))
    try:
        at = pages.island_at(game=game, seat=seat, seq=seq)
    except ValueError as error:
        raise Http404(str(error)) from None
    return render(request, "games/island_at.html", {"at": at, "game": game, "as": request.GET.get("as", "")})


@require_GET
def history(request: HttpRequest, game_id: int) -> HttpResponse:
    """The events in plain language, redacted for the viewer, `?page=N` (default: the last),
    `?steps=1` to include the engine's own steps; table events among them. Served again from
    the page cache while nothing it shows has changed (web/page_cache.py)."""
    game = _game_for_page_or_404(request, game_id)
    served, key = _served_again(request, game)
    if served is not None:
        return served
    seat, mine = _viewer(request, game, request.GET.get("as"))
    try:
        page = int(request.GET["page"]) if request.GET.get("page") else None
    except ValueError:
        page = None
    listing = pages.history_page(game=game, seat=seat, page=page, steps=request.GET.get("steps") == "1")
    html = render_to_string(
        "games/history.html",
        {
            "h": listing,
            "game": game,
            "as": request.GET.get("as", ""),
            "csrf_token": page_cache.CSRF_PLACEHOLDER,
        },
        request=request,
    )
    if (
        key is not None
        and listing.total == game.page_seq
        and page_cache.positions_mask(mine) == game.page_my_positions
    ):
        page_cache.keep(key, {"html": html})
    return HttpResponse(page_cache.filled(html, request, new_nonce()))


@require_GET
def export_json(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's log as JSON (games.store.exports), redacted for the viewer until the game is over."""
    game = _game_or_404(game_id)
    seat, _mine = _viewer(request, game, request.GET.get("as"))
    data = exports.export_game(game=game, colour=seat.colour if seat else None)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    name = f"inis-game-{game.pk}" + (f"-{seat.colour}" if seat else "") + ".json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _follow_seat_link(request: HttpRequest, game_id: int, token: str, url_name: str) -> HttpResponse:
    """Check a seat link; if it acts, grant its seat in the session (nobody is signed in) and
    go to the page `url_name` for that seat. A damaged link: 400; no such game: 404; the game
    is over: the public page; a link that ran out, of a seat that changed hands, or of the old
    form: 410, with the way to sign in."""
    game = _game_or_404(game_id)
    url = reverse(url_name, args=[game.pk])
    try:
        given = seat_links.check(game, token)
    except seat_links.LinkRefused as refused:
        if refused.reason == "damaged":
            return HttpResponseBadRequest(render(request, "games/bad_link.html").content)
        if refused.reason == "over":
            return redirect(url)
        context = {
            "game": game,
            "days": settings.SEAT_LINK_DAYS,
            "sign_in": reverse("lobby:sign_in") + "?" + urlencode({"next": url}),
        }
        return render(request, "games/seat_link_expired.html", context, status=410)
    seat_links.grant(request, given)
    return redirect(f"{url}?{urlencode({'as': given.seat.colour})}")


@require_GET
def seat_link(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    """A seat link from a game email (`players.seat_links`): lets the visitor act for that seat
    of that game, then goes to the game page."""
    return _follow_seat_link(request, game_id, token, "games:detail")


@require_GET
def seat_history_link(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    """As `seat_link`, to the history page."""
    return _follow_seat_link(request, game_id, token, "games:history")
