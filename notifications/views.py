"""Pages of notifications.

- The development mailbox: every stored email, each readable; 404 unless the development mailbox
  backend is the active EMAIL_BACKEND (so it never exists in production). An email with a reply
  address has a reply form: the reply goes through the `receive_email` path
  (`notifications.dev_mailbox`), and the answer lands in the mailbox.
- `unsubscribe`: the List-Unsubscribe target. POST is the one-click unsubscribe of RFC 8058 (a
  mail provider posts `List-Unsubscribe=One-Click`, without cookies or CSRF token): it stops news
  and digests, never the prompts of a game in progress. GET shows a page with the same button.
- `preferences`: delivery (news in prompts only / news emails too / daily digest), news,
  acceptances, confirming moves, time zone, language, vacation, the name at the table; web push
  on this device and when emails follow a push, for a visitor signed in as the player
  (`notifications.push_views`).
Both are reached through a player's signed email links token (`players.signed_tokens`). A link
that opens nothing says why and to use the link of a recent email: 404 when damaged or forged,
410 for an old email's link past its grace.
That token never expires and is in every email, so whoever an email was forwarded to holds it
too: it reads the preferences and changes how news comes, the time zone and the language, but a
vacation (it stops the player's deadlines in every game) and the name the other players read
need the visitor signed in as that player (the sign-in link by email; the page offers to send
one to the player's address). A seat link is not enough: it acts for one seat of one game.
"""

from __future__ import annotations

from datetime import datetime, time
from functools import wraps
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications import dev_mailbox
from notifications.forms import MailboxReplyForm
from notifications.models import DevEmail
from notifications.push_views import push_context
from players import preferences as player_preferences
from players.email_addresses import canonical_address
from players.forms import PreferencesForm
from players.language import choose_language
from players.models import Player
from players.signed_tokens import BadToken, email_links_token, erasure_token, read_email_links_token


def _require_dev_mailbox() -> None:
    if settings.EMAIL_BACKEND != settings.DEV_MAILBOX_BACKEND:
        raise Http404("The development mailbox is not in use.")


def mailbox(request: HttpRequest) -> HttpResponse:
    """Every stored email, newest first, and the replies sent from the mailbox with what became
    of each."""
    _require_dev_mailbox()
    return render(
        request,
        "notifications/mailbox_list.html",
        {"emails": DevEmail.objects.all()[:500], "replies": dev_mailbox.recent_replies()},
    )


@require_http_methods(["GET", "POST"])
def mailbox_detail(request: HttpRequest, email_id: int) -> HttpResponse:
    """One email; POST `text` replies to it as its reader's mail client would (only for an email
    with a reply address), then back to the mailbox, where the answer is."""
    _require_dev_mailbox()
    email = get_object_or_404(DevEmail, pk=email_id)
    reply_to = dev_mailbox.reply_address(email)
    can_reply = reply_to is not None
    form = MailboxReplyForm(request.POST or None)
    if request.method == "POST" and can_reply and form.is_valid():
        reply = dev_mailbox.send_reply(email, form.cleaned_data["text"])
        messages.success(
            request, _("Your reply was read: {status}.").format(status=reply.get_status_display())
        )
        return redirect("notifications:mailbox")
    return render(
        request,
        "notifications/mailbox_detail.html",
        {"email": email, "form": form, "can_reply": can_reply, "reply_to": reply_to},
        status=400 if request.method == "POST" else 200,
    )


class _RefusedLink(Exception):
    """A player's email link that opens nothing (`players.signed_tokens`): `old` for one of the
    old form past its grace, else damaged, forged, or of a player who is no more."""

    def __init__(self, *, old: bool):
        super().__init__("old" if old else "invalid")
        self.old = old


def _player_of_link(token: str) -> Player:
    """The Player of an email links token; raises _RefusedLink."""
    try:
        return Player.objects.get(pk=read_email_links_token(token))
    except BadToken as refused:
        raise _RefusedLink(old=refused.reason == "expired") from None
    except Player.DoesNotExist:
        raise _RefusedLink(old=False) from None


def _refused_link_page(view):
    """A link that opens nothing says why and what to use instead (a recent email's link):
    410 for an old email's link past its grace, 404 for a damaged or forged one."""

    @wraps(view)
    def wrapped(request: HttpRequest, token: str) -> HttpResponse:
        try:
            return view(request, token)
        except _RefusedLink as refused:
            return render(
                request,
                "notifications/email_link_refused.html",
                {"old": refused.old},
                status=410 if refused.old else 404,
            )

    return wrapped


@csrf_exempt  # RFC 8058: the provider's one-click POST carries no CSRF token; the signed link is the proof
@require_http_methods(["GET", "POST"])
@_refused_link_page
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with the unsubscribe button. POST: no more news emails nor digests. The
    page names the player's address only to the player signed in (the link is in every email's
    footer and header, forwarded with it)."""
    player = _player_of_link(token)
    if request.method == "POST":
        Player.objects.filter(pk=player.pk).update(news=False)
        player.news = False
    return render(
        request,
        "notifications/unsubscribe.html",
        {
            "player": player,
            "token": token,
            "done": request.method == "POST",
            "signed_in": _signed_in_as(request, player),
        },
    )


def _local_date(value: datetime | None, zone: str):
    return value.astimezone(ZoneInfo(zone)).date() if value else None


def _signed_in_as(request: HttpRequest, player: Player) -> bool:
    """Whether the visitor is signed in with the account of `player`'s address."""
    user = request.user
    return bool(
        user.is_authenticated
        and user.email
        and canonical_address(user.email) == canonical_address(player.email)
    )


def _erase_token(request: HttpRequest) -> str:
    """The token of the link erasing the signed-in visitor's account (docs/privacy.md)."""
    user = request.user
    return erasure_token(user_id=int(user.pk or 0), email=str(getattr(user, "email", "")))


def _render(request: HttpRequest, player: Player, form: PreferencesForm, status: int = 200) -> HttpResponse:
    return render(
        request,
        "notifications/preferences.html",
        {
            "player": player,
            "form": form,
            "signed_in": form.signed_in,
            "max_days": settings.VACATION_MAX_DAYS,
            "push": push_context(player, signed_in=form.signed_in, session=request.session),
            # The visitor's "email me a sign-in link" names the player by this, not by address.
            "link_token": email_links_token(player.pk),
            # Only the account's owner, signed in, is given the link that erases it.
            "erase_token": _erase_token(request) if form.signed_in else None,
        },
        status=status,
    )


def _initial(player) -> dict:
    """The preferences form's values as the player's preferences stand (the vacation's days in
    the player's time zone)."""
    return {
        "display_name": player.display_name,
        "delivery": player.delivery,
        "news": player.news,
        "acceptances": player.acceptances,
        "confirm_moves": player.confirm_moves,
        "forced_moves_at_once": player.forced_moves_at_once,
        "time_zone": player.time_zone,
        "language": player.language,
        "away_from": _local_date(player.away_from, player.time_zone),
        "away_until": _local_date(player.away_until, player.time_zone),
    }


@require_http_methods(["GET", "POST"])
@_refused_link_page
def preferences(request: HttpRequest, token: str) -> HttpResponse:
    """The player's email preferences; a saved vacation moves the deadlines at once. Only
    delivery, news, time zone and language change for a visitor who holds the link without
    being signed in as the player (`PreferencesForm.OPEN_BY_LINK`): a post that would change
    anything else is refused whole (403, nothing saved), and the page does not show them the
    player's address."""
    player = _player_of_link(token)
    initial = _initial(player)
    signed_in = _signed_in_as(request, player)
    if request.method == "POST":
        form = PreferencesForm(request.POST, initial=initial, signed_in=signed_in, email=player.email)
        if form.locked_changes():
            form.is_valid()
            form.add_error(
                None,
                _(
                    "Nothing was saved: the link in an email changes only how your emails come, "
                    "your time zone and your language. To change the rest, sign in first (above)."
                ),
            )
            return _render(request, player, form, status=403)
        if form.is_valid():
            data = form.cleaned_data
            zone = ZoneInfo(data["time_zone"])
            start = datetime.combine(data["away_from"], time.min, zone) if data["away_from"] else None
            # The last day is a whole day off: the vacation ends at the next midnight.
            end = datetime.combine(data["away_until"], time.max, zone) if data["away_until"] else None
            if not signed_in:  # the locked fields stand as they are, to the microsecond
                start, end = player.away_from, player.away_until
            try:
                player_preferences.update_preferences(
                    player,
                    delivery=data["delivery"],
                    news=data["news"],
                    time_zone=data["time_zone"],
                    language=data["language"],
                    away_from=start,
                    away_until=end,
                    display_name=data["display_name"] if signed_in else None,
                    acceptances=data["acceptances"],
                    confirm_moves=data["confirm_moves"],
                    forced_moves_at_once=data["forced_moves_at_once"],
                )
            except player_preferences.PreferenceError as error:
                form.add_error(None, str(error))
            else:
                # The pages follow the new language at once, on this browser from now on too.
                choose_language(request, data["language"])
                messages.success(request, _("Your email preferences are saved."))
                return redirect("email:preferences", token=token)
        return _render(request, player, form, status=400)
    return _render(request, player, PreferencesForm(initial=initial, signed_in=signed_in, email=player.email))
