"""Lobby pages: home ("my games"), sign in by emailed link, propose a game, answer an
invitation, the host's tools of a game in progress, and the language switch of every page.

Writes go through `lobby.services` and `games.play.table`; every page that acts needs the signed-in
user (the sign-in email's link signs them in; a visitor is sent to /signin/, which leads back),
and acts only for what is theirs (403 otherwise). One exception: the page of an invitation
email's link (`invitation`), which answers that one invitation for whoever holds the link,
signing nobody in.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from community.open_tables import count_open_tables
from community.profiles import hidden_among
from games.models import Game, TableChannel
from games.play import answer_times, table
from games.record.options import DEADLINE_PRESETS, DEFAULT_DEADLINES, deadline_hours, is_paused, reaction_mode
from games.rules import colour_name, current_language, players_named
from games.store import selectors as game_selectors
from games.story.table_events import describe_table_event
from lobby import mail, selectors, services
from lobby import rematch as rematch_service
from lobby.forms import ExtendForm, NewGameForm, ReplaceForm, SignInForm
from lobby.models import Invitation, Proposal
from lobby.sign_in_limits import players_asked_allowed, sign_in_allowed, tables_created_allowed
from lobby.speeds import expected_length
from players.accounts import account_for_sign_in, is_site_path
from players.display_names import needs_name, public_names_for, seat_names
from players.email_addresses import canonical_address
from players.forms import DisplayNameForm
from players.language import choose_language
from players.models import Player
from players.preferences import PreferenceError, player_of_account, save_display_name, save_language
from players.signed_tokens import (
    BadToken,
    check_invitation_token,
    email_links_token,
    invitation_token_id,
    read_email_links_token,
)


def home(request: HttpRequest) -> HttpResponse:
    """Signed in: my games (waiting for me first), invitations to answer, the tables waiting to
    start where I host or have a seat, and, until they chose one, the question of their name at
    the table. Otherwise: how to sign in, and how many open tables look for players (one query)."""
    if not request.user.is_authenticated:
        return render(
            request, "lobby/welcome.html", {"form": SignInForm(), "open_tables": count_open_tables()}
        )
    email = request.user.email
    return _home(request, DisplayNameForm(email=email) if needs_name(email) else None)


def _home(request: HttpRequest, name_form, status: int = 200) -> HttpResponse:
    return render(
        request,
        "lobby/home.html",
        {
            "games": selectors.my_games(user=request.user),
            "invitations": selectors.open_invitations(user=request.user),
            "tables": selectors.gathering_tables(user=request.user),
            "name_form": name_form,
        },
        status=status,
    )


@login_required
@require_POST
def display_name(request: HttpRequest) -> HttpResponse:
    """POST `display_name`: the name other players see at the table, asked for at first sign-in
    on "My games" (also in the preferences). Saved: back to "My games"; refused (an address, an
    empty name, control characters): "My games" again, status 400, saying why. For an account
    erased as the name arrived: refused ("This account was erased: nothing was saved."),
    nothing saved (`players.preferences.save_display_name`)."""
    form = DisplayNameForm(request.POST, email=request.user.email)  # type: ignore[union-attr]  # login_required
    if not form.is_valid():
        return _home(request, form, status=400)
    try:
        save_display_name(request.user, form.cleaned_data["display_name"])
    except PreferenceError as refused:
        # The account was erased as the name arrived: nothing saved, said on the page.
        messages.error(request, str(refused))
        return redirect("lobby:home")
    messages.success(
        request, _("Other players now see you as {name}.").format(name=form.cleaned_data["display_name"])
    )
    return redirect("lobby:home")


@login_required
@require_http_methods(["GET"])
def preferences(request: HttpRequest) -> HttpResponse:
    """The signed-in player's preferences (how the game reaches them: email, push, chat; news,
    vacation, name, language, time zone; their data and erasure): the page every email's footer
    links to (`email:preferences`, docs/email-commands.md), reached from the site's header. For
    an account erased as the request arrived: refused, no preferences made again for its address
    (`players.preferences.player_of_account`)."""
    try:
        with transaction.atomic():
            player = player_of_account(request.user)
    except PreferenceError as refused:
        messages.error(request, str(refused))
        return redirect("lobby:home")
    return redirect("email:preferences", token=email_links_token(player.pk))


@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest) -> HttpResponse:
    """Ask for a sign-in link by email: the account of that address is made if it is new (the
    link proves the address is yours; there is nothing else to sign up for). The answer is the
    same for every address, so the page tells nobody who our players are. `next` (where the link
    leads) must be a path of this site; anything else leads to the home page. Too many requests
    for one address or from one client in an hour (lobby.sign_in_limits): 429, nothing sent. The
    link is written to the outbox and delivered after the commit. A post from the preferences
    page of a visitor not signed in names the player by their email links token
    (`preferences_link`) rather than by address, and the answer does not name the address: the
    page shows it to nobody who is not signed in as its player."""
    next_path = request.POST.get("next") or request.GET.get("next") or reverse("lobby:home")
    if not is_site_path(next_path):
        # Only a path of this site: the emailed link carries a sign-in token, which must never
        # be sent to another host ("@evil.example/", ".evil.example/", "//evil.example"...).
        next_path = reverse("lobby:home")
    owner = _owner_of_preferences_link(request.POST.get("preferences_link", ""))
    form = SignInForm({**request.POST.dict(), "email": owner} if owner else (request.POST or None))
    if request.method == "POST" and form.is_valid():
        if not sign_in_allowed(request, form.cleaned_data["email"]):
            # The same answer whoever the address belongs to, or nobody: it was asked too often.
            return render(request, "lobby/sign_in_limited.html", status=429)
        # The account and its link's email commit together; the email is delivered after the
        # commit, so a mail provider that is down neither fails this page nor loses the link
        # (the outbox retries it, then the sweep).
        with transaction.atomic():
            user = account_for_sign_in(form.cleaned_data["email"])
            _first_language(user.email, request)
            mail.send_sign_in(user, next_path)
        return render(
            request, "lobby/sign_in_sent.html", {"email": "" if owner else form.cleaned_data["email"]}
        )
    # A visitor sent here from a page that needs a sign-in (`login_required`: the table's page,
    # the host's tools, "my data") is told why.
    for_page = next_path != reverse("lobby:home")
    return render(request, "lobby/sign_in.html", {"form": form, "next": next_path, "for_page": for_page})


def _owner_of_preferences_link(token: str) -> str:
    """The address of the player whose email links token (`players.signed_tokens`) is `token`;
    "" for no token, a damaged or forged one, or a player no longer there."""
    if not token:
        return ""
    try:
        player_id = read_email_links_token(token)
    except BadToken:
        return ""
    return Player.objects.filter(pk=player_id).values_list("email", flat=True).first() or ""


def _first_language(email: str, request: HttpRequest) -> None:
    """A new player's language: the one their browser asked for when they first signed in (its
    language cookie, else Accept-Language; `translation.get_language_from_request`: "en" or
    "fr"). Only when no Player exists for `email` yet: a player's own choice is never
    overwritten, and the answer of the page is the same either way."""
    Player.objects.get_or_create(
        email=canonical_address(email), defaults={"language": translation.get_language_from_request(request)}
    )


@require_POST
def language(request: HttpRequest) -> HttpResponse:
    """The language switch of every page (POST `language` "en"/"fr", `next` a path of this site):
    Django's `set_language` (the language cookie, then back to `next`), and for a signed-in
    player their `Player.language` too, so that their emails and every device follow it; for an
    account erased as the switch arrived, refused ("This account was erased: nothing was
    saved."), nothing saved, the page's language unchanged (`players.preferences.save_language`)."""
    chosen = request.POST.get("language", "")
    if request.user.is_authenticated and chosen in dict(settings.LANGUAGES) and request.user.email:
        try:
            save_language(request.user, chosen)
        except PreferenceError as refused:
            # The account was erased as the switch arrived: nothing changes, not even the page's.
            messages.error(request, str(refused))
            next_path = request.POST.get("next", "")
            return redirect(next_path if is_site_path(next_path) else "lobby:home")
        choose_language(request, chosen)
    return i18n.set_language(request)


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("lobby:home")


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    """Propose a game: players by email, bots, set-up, deadlines, reaction mode, spectators and
    what becomes of private table talk at the end."""
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        places = [services.PlaceSpec(email=e) for e in form.emails()]
        level = data["bot_level"] or "hard"
        places += [services.PlaceSpec(is_bot=True, bot_level=level)] * data["bots"]
        places += [services.PlaceSpec(is_open=True)] * (data["open_seats"] or 0)
        try:
            if not tables_created_allowed(request.user):
                raise services.LobbyError(_("You opened too many tables this hour: try again later."))
            proposal = services.proposal_create(
                host=request.user,
                places=places,
                host_plays=data["host_plays"],
                setup=data["setup"],
                deadlines=dict(DEADLINE_PRESETS[data["deadlines"]]),
                reaction_mode=data["reaction_mode"],
                public=data["public"],
                press_public_after_end=data["press_public_after_end"],
                listed=data["listed"],
                language=data["language"] or current_language(),
                rated=data["rated"],
                bot_level=level,
            )
        except services.LobbyError as error:
            form.add_error(None, str(error))
        else:
            proposal.refresh_from_db()
            if proposal.game_id:
                messages.success(request, _("Every seat was taken: the game has begun."))
                return redirect("games:detail", game_id=proposal.game_id)
            messages.success(
                request,
                _("The table is open. The game starts when every seat is taken.")
                if proposal.listed
                else _("Invitations sent. The game starts when every seat is taken."),
            )
            return redirect("lobby:proposal", proposal_id=proposal.pk)
    return render(request, "lobby/new_game.html", {"form": form}, status=400 if form.errors else 200)


# The proposal page's words for the set-up and the reaction mode (the stored values are data).
SETUP_WORDS = {"random": pgettext_lazy("set-up", "random"), "discovery": pgettext_lazy("set-up", "discovery")}
# What each reaction mode does, in words (never the option's own value, "holders").
REACTION_WORDS = {
    "holders": pgettext_lazy("reaction mode", "only the players who can answer are asked"),
    "strict": pgettext_lazy("reaction mode", "every player who could answer is asked"),
    "quick": pgettext_lazy("reaction mode", "nobody is asked unless they turn asking on"),
}


def _seat_position(post) -> int:
    """The seat a host's form names (`position`, from 0), as an int; raises LobbyError saying so
    when the form names none (a damaged or forged form: the page's buttons always carry one)."""
    try:
        return int(post.get("position", ""))
    except ValueError:
        raise services.LobbyError(_("Choose a seat of this table.")) from None


@login_required
@require_http_methods(["GET", "POST"])
def proposal(request: HttpRequest, proposal_id: int) -> HttpResponse:
    """A game being gathered: its seats and answers. POST `action`: accept / decline (the invited
    player), reinvite / bot (the host, for a seat not taken), listed / unlisted (the host makes
    the table open or private), fill_bots (the host gives the open seats to bots), remove (the
    host gives back the seat at `position` that a player joined: `services.table_remove`),
    leave (a seated player other than the host gives up their seat: `services.table_leave`),
    cancel (the host). A player who joined an open table reads it as an invited player does."""
    item = Proposal.objects.select_related("host", "game").filter(pk=proposal_id).first()
    if item is None:
        raise Http404(_("There is no table {number}.").format(number=proposal_id))
    invitations = list(item.invitations.order_by("position"))
    for invitation in invitations:
        # The invited player's median answer time over their games, in words ("" for none yet).
        invitation.answers = (  # type: ignore[attr-defined]  # read by the template
            answer_times.in_words(answer_times.median_for_address(invitation.email))
            if invitation.email and not invitation.is_bot
            else ""
        )
    mine = next((i for i in invitations if i.user_id == request.user.pk), None)
    is_host = item.host_id == request.user.pk
    # Names link to profiles, but those hidden from strangers (these players have not played
    # together yet, as far as this page knows), and never a bot or an open seat.
    hidden = hidden_among([item.host_id, *(i.user_id for i in invitations)]) - {request.user.pk}
    for invitation in invitations:
        invitation.profile_id = (  # type: ignore[attr-defined]  # read by the template
            invitation.user_id if invitation.user_id not in hidden and not invitation.is_bot else None
        )
    seated = mine is not None and mine.status == Invitation.Status.ACCEPTED
    if request.method == "POST" and request.POST.get("action") == "leave" and not (is_host or seated):
        # A repeated "Leave this table" (the invitation they left reads declined), or one from a
        # player with no seat taken here: nothing of theirs to give up, which is what they asked
        # for; say so, and where their tables are.
        return _no_seat_here(request, item.pk)
    if not (is_host or mine):
        raise PermissionDenied(_("This game is being gathered by its host and the players invited."))
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action in ("accept", "decline"):
                if mine is None:
                    raise services.LobbyError(_("You are not invited to this game."))
                services.invitation_answer(invitation=mine, user=request.user, accept=action == "accept")
            elif action in ("reinvite", "bot"):
                position = _seat_position(request.POST)
                email = request.POST.get("email", "") if action == "reinvite" else None
                if email is not None and not players_asked_allowed(request.user):
                    raise services.LobbyError(_("You asked too many players this hour: try again later."))
                services.place_reinvite(proposal=item, user=request.user, position=position, email=email)
            elif action == "cancel":
                services.proposal_cancel(proposal=item, user=request.user)
            elif action in ("listed", "unlisted"):
                services.table_set_listed(proposal_id=item.pk, user=request.user, listed=action == "listed")
            elif action == "fill_bots":
                services.table_fill_with_bots(proposal_id=item.pk, user=request.user)
            elif action == "remove":
                position = _seat_position(request.POST)
                services.table_remove(proposal_id=item.pk, user=request.user, position=position)
            elif action == "leave":
                services.table_leave(proposal_id=item.pk, user=request.user)
                # A seat taken by joining is no longer theirs: the table's page is not theirs either.
                messages.success(request, _("You left table {number}.").format(number=item.pk))
                return redirect("lobby:home")
            else:
                raise services.LobbyError(_("Unknown action."))
        except (services.LobbyError, ValueError) as error:
            messages.error(request, str(error))
        else:
            item.refresh_from_db()
            if item.game_id and action in ("accept", "reinvite", "bot", "fill_bots"):
                messages.success(request, _("Every seat is taken: the game has begun."))
                return redirect("games:detail", game_id=item.game_id)
            messages.success(
                request,
                {
                    "accept": _("You accepted."),
                    "decline": _("You declined."),
                    "reinvite": _("Invitation sent."),
                    "bot": _("A bot takes that seat."),
                    "cancel": _("The game is cancelled."),
                    "listed": _("The table is open: it is in the list of open tables."),
                    "unlisted": _("The table is private: only the players you invite sit here."),
                    "fill_bots": _("Bots take the open seats."),
                    "remove": _(
                        "The seat is open again; that player was told by email and cannot join again."
                    ),
                }[action],
            )
        return redirect("lobby:proposal", proposal_id=item.pk)
    return render(
        request,
        "lobby/proposal.html",
        {
            "proposal": item,
            "invitations": invitations,
            "mine": mine,
            "is_host": is_host,
            "host_unnamed": is_host and needs_name(request.user.email),  # type: ignore[union-attr]  # login_required
            "strangers": item.among_strangers,  # then no part of an address (`public_player_name`)
            "host_left": item.left_host_name(),  # "Player N (left)": the host erased their account
            "host_profile_id": item.host_id if item.host_id not in hidden else None,
            "Status": Invitation.Status,
            "open_seats": any(not i.is_bot and not i.email and i.status == "pending" for i in invitations),
            **_table_words(item),
        },
    )


def _no_seat_here(request: HttpRequest, number: int) -> HttpResponse:
    """To "My games", saying that the player has no seat at table `number` (any more) and where
    the tables with a seat for them are."""
    messages.error(
        request,
        _(
            "You have no seat at table {number} (any more): your games and tables are below, "
            "and “Open tables” lists the tables looking for players."
        ).format(number=number),
    )
    return redirect("lobby:home")


def _table_words(item: Proposal) -> dict:
    """What a table's page says of its settings: the hours a decision, the expected length of a
    game at that speed, the set-up and the reaction mode in words."""
    return {
        "deadline": deadline_hours(item.options, "default"),
        "length": expected_length(
            item.options.get("deadlines") or DEFAULT_DEADLINES, reaction_mode(item.options) or "holders"
        ),
        "setup_word": SETUP_WORDS.get(item.setup, item.setup),
        "reaction_word": REACTION_WORDS.get(
            item.options.get("reaction_mode"), item.options.get("reaction_mode")
        ),
    }


def _invitation_of_link(token: str) -> Invitation:
    """The invitation an invitation link answers now (`players.signed_tokens.invitation_token`),
    with its table and host. Raises BadToken: damaged, forged, of no invitation, or of a seat
    the host has since asked of another address (the address is in the token's salt)."""
    invitation = (
        Invitation.objects.select_related("proposal__host", "user")
        .filter(pk=invitation_token_id(token), is_bot=False)
        .first()
    )
    if invitation is None or not invitation.email or invitation.user_id is None:
        raise BadToken("forged", "the invitation link names no invitation asked of an address")
    check_invitation_token(token, email=invitation.email)
    return invitation


def _answered_words(invitation: Invitation, item: Proposal) -> str:
    """What the invitation page says once there is nothing to answer (answered, or the table no
    longer gathering), in words."""
    if invitation.status == Invitation.Status.ACCEPTED:
        said = _("You accepted.")
        if item.status in (Proposal.Status.OPEN, Proposal.Status.STARTED):
            return f"{said} " + (
                _("The game has begun: the email “Game started” brings you the link to your seat's page.")
                if item.game_id
                else _(
                    "The game starts when every seat is taken: an email then brings you the link to your seat's page."
                )
            )
        return f"{said} " + _("This game is {status}.").format(status=item.get_status_display())
    if invitation.status == Invitation.Status.DECLINED:
        return _("You declined.")
    return _("This game is {status}: nothing to answer.").format(status=item.get_status_display())


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The page of an invitation email's link: the table (its settings, its seats by the names
    strangers read, never an address) and Accept / Decline for that invitation only, for whoever
    holds the link, signing nobody in (a forwarded invitation gives away that seat only:
    docs/security.md). POST `action` accept / decline answers as its invitee
    (`services.invitation_answer`), then back to this page, which says what became of it;
    accepting the last seat starts the game, and its "Game started" email brings the seat's link
    (the invitee signed in on this browser is also given a link to the game here). A damaged or forged link, or one whose seat was asked of somebody else since: 400, saying so."""
    try:
        mine = _invitation_of_link(token)
    except BadToken:
        refused = _(
            "This link answers no invitation: it was cut on its way, or the host has asked somebody "
            "else for that seat."
        )
        return render(request, "lobby/invitation.html", {"refused": refused}, status=400)
    item = mine.proposal
    pending = mine.status == Invitation.Status.PENDING and item.status == Proposal.Status.OPEN
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action not in ("accept", "decline"):
                raise services.LobbyError(_("Unknown action."))
            services.invitation_answer(invitation=mine, user=mine.user, accept=action == "accept")
        except services.LobbyError as error:
            messages.error(request, str(error))
        return redirect("lobby:invitation", token=token)
    invitations = list(item.invitations.order_by("position"))
    return render(
        request,
        "lobby/invitation.html",
        {
            "proposal": item,
            "host": item.host_name,
            "mine": mine,
            "pending": pending,
            "said": "" if pending else _answered_words(mine, item),
            # The invitee signed in here reads their seat at once; the link alone signs nobody
            # in, so a visitor holding it (a forwarded email) is shown no way to the game.
            "game_link": reverse("games:detail", args=[item.game_id])
            if item.game_id and mine.status == Invitation.Status.ACCEPTED and request.user.pk == mine.user_id
            else None,
            "invitations": invitations,
            "Status": Invitation.Status,
            **_table_words(item),
        },
    )


def _seats_for_host(game: Game) -> list:
    """The game's seats, each with `shown`: the display name of a player who chose one; else the
    address of a player the host invited (the host typed it), and for one who joined the open
    table or was asked again for a rematch the name strangers read ("a player with no name yet":
    no part of an address, docs/open-tables.md, docs/rematch.md). A seat the host has since
    given to an address they typed (`table.seat_replace`) shows that address; the seat of a
    player who erased their account, "Player N (left)" (`seat_names`), though the stand-in plays
    it (docs/privacy.md: so on every page)."""
    hidden = {
        (position, email)
        for position, email in Invitation.objects.filter(proposal__game=game)
        .filter(Q(joined=True) | Q(from_rematch=True))
        .values_list("position", "email")
    }
    seats = list(game.seats.all())
    names = public_names_for([s.email for s in seats if s.email and not s.is_bot])
    chosen = seat_names(seats)  # {colour: the display name chosen, or ""}
    for seat in seats:
        if chosen.get(seat.colour) or (seat.position, seat.email) in hidden:
            shown = chosen.get(seat.colour) or names.get(seat.email, "")
        else:
            shown = seat.email
        seat.shown = shown  # type: ignore[attr-defined]  # read by the template
    return seats


def _table_log(game: Game) -> list:
    """[(table event, its line)] of `game`, the host's acts, each naming its players as the game
    names them ("Ann (green)", `rules.players_named`)."""
    with players_named(seat_names(game.seats.all())):
        return [(t, describe_table_event(t.type, t.payload)) for t in game_selectors.table_events(game=game)]


@login_required
@require_http_methods(["GET", "POST"])
def host_tools(request: HttpRequest, game_id: int) -> HttpResponse:
    """The host's tools: extend a deadline, pause or resume, make the game public or private,
    set or remove the table channel, replace a player by the bot or by a new email (in a rated
    game or among strangers, only an absent player: `table.seat_replace` refuses the others,
    saying when it becomes possible). Each act of a game in progress is recorded in the game's
    table log (shown in the history). In a game over, only the table channel's removal is left
    (its address is the host's data). Anybody but the host: 403, saying so, and a host erased in
    the instant they posted (`Game.host` emptied: `table.NotTheHost`, checked under the game's
    row lock where the act is written) too, nothing written. A table channel's address refused
    answers 400, the page saying why above the address as typed."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404(_("There is no game {number}.").format(number=game_id))
    if game.host_id != request.user.pk:
        raise PermissionDenied(_("Only the host of this game has these tools."))
    colours = [s.colour for s in game.seats.all()]
    extend = ExtendForm(colours=colours)
    replace = ReplaceForm(colours=colours)
    refused_channel = None  # a table channel's address refused: shown again as typed, to correct
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "extend":
                extend = ExtendForm(request.POST, colours=colours)
                if extend.is_valid():
                    table.deadline_extend(
                        game=game,
                        colour=extend.cleaned_data["seat"] or None,
                        hours=extend.cleaned_data["hours"],
                        host=request.user,
                    )
                    messages.success(request, _("Deadline extended."))
                    return redirect("lobby:host", game_id=game.pk)
            elif action in ("pause", "resume"):
                (table.game_pause if action == "pause" else table.game_resume)(game=game, host=request.user)
                messages.success(request, _("Game paused.") if action == "pause" else _("Game resumed."))
                return redirect("lobby:host", game_id=game.pk)
            elif action in ("public", "private"):
                table.game_set_public(game=game, public=action == "public", host=request.user)
                messages.success(
                    request,
                    _("The game is public: anyone may follow it.")
                    if action == "public"
                    else _("The game is private: followers get nothing more."),
                )
                return redirect("lobby:host", game_id=game.pk)
            elif action in ("table_channel", "table_channel_remove"):
                _table_channel_act(request, game, action)
                return redirect("lobby:host", game_id=game.pk)
            elif action == "replace":
                replace = ReplaceForm(request.POST, colours=colours)
                if replace.is_valid():
                    seat = table.seat_replace(
                        game=game,
                        colour=replace.cleaned_data["seat"],
                        email=replace.cleaned_data["email"] or None,
                        host=request.user,
                    )
                    if not seat.is_bot:
                        mail.send_seat_given(seat.pk)
                    messages.success(
                        request,
                        (
                            _("{colour} is now played by the bot.")
                            if seat.is_bot
                            else _("{colour} is now played by {email}.")
                        ).format(colour=colour_name(seat.colour), email=seat.email),
                    )
                    return redirect("lobby:host", game_id=game.pk)
            else:
                raise table.TableError(_("Unknown action."))
        except table.NotTheHost:
            # No longer the host under the game's lock (erased as this was posted): as for anybody.
            raise PermissionDenied(_("Only the host of this game has these tools.")) from None
        except table.TableError as error:
            messages.error(request, str(error))
            if action != "table_channel":
                return redirect("lobby:host", game_id=game.pk)
            refused_channel = request.POST.get("url", "")[:1000]
    return render(
        request,
        "lobby/host.html",
        {
            "game": game,
            "seats": _seats_for_host(game),
            "extend": extend,
            "replace": replace,
            "paused": is_paused(game.options),
            "public": bool(game.options.get("public", False)),
            "chat_on": settings.CHAT_TARGETS,
            "seats_kept": selectors.seats_kept(game),
            "table_channel": TableChannel.objects.filter(game=game).first(),
            "table_channel_keep_days": settings.TABLE_CHANNEL_KEEP_DAYS,
            "refused_channel": refused_channel,
            "log": _table_log(game),
        },
        status=400 if (extend.errors or replace.errors or refused_channel is not None) else 200,
    )


def _table_channel_act(request: HttpRequest, game: Game, action: str) -> None:
    """Set (with the posted `url`, in the host's language) or remove the game's table channel
    (`games.play.table`), and say so. Raises TableError."""
    if action == "table_channel":
        language = (getattr(request, "LANGUAGE_CODE", "") or "en")[:2]
        table.table_channel_set(
            game=game, url=request.POST.get("url", ""), language=language, host=request.user
        )
        messages.success(request, _("The table channel is set: it gets the game's public news."))
    else:
        table.table_channel_remove(game=game, host=request.user)
        messages.success(request, _("The table channel is removed."))


@login_required
@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """POST: the signed-in player asks for a rematch of the finished game `game_id`
    (`lobby.rematch.rematch`): to the rematch table's page, or to the new game when their answer
    filled it; refused: back to the game's page, saying why."""
    try:
        proposal = rematch_service.rematch(game_id=game_id, user=request.user)
    except services.LobbyError as error:
        messages.error(request, str(error))
        return redirect("games:detail", game_id=game_id)
    if proposal.game_id:
        messages.success(request, _("Every seat is taken: the rematch has begun."))
        return redirect("games:detail", game_id=proposal.game_id)
    messages.success(request, _("You have a seat at the rematch. It starts when every player has accepted."))
    return redirect("lobby:proposal", proposal_id=proposal.pk)
