"""Reports to the operator (docs/profiles.md, "Reporting"): anyone signed in reports a player,
from their profile, or a table-talk message, from the game page, with a short reason; the
reports land in Django's admin (`community.admin`), and the reported player is never told.

The trust rule: a report is made by the signed-in account for itself, about what it may see: a
profile it may read, a message it may read (as a player of the game, or as a spectator of a
public game whose talk to the whole table anybody reads). At most REPORTS_PER_HOUR reports an
hour per account.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from community.models import Report
from community.profile_page import no_such_player
from games.models import Game, Seat
from games.play import departures
from games.store import selectors as game_selectors
from press import selectors as press_selectors
from web.rate_limits import count

# The longest reason, in characters (`Report.reason`).
MAX_REASON = 500
REPORT_WINDOW_SECONDS = 3600


class ReportRefused(Exception):
    """The report is not taken (the message says why, for the reporter); nothing written."""


def report_player(*, reporter, player_id: int, reason: str) -> Report:
    """`reporter` (a signed-in user) reports the account `player_id`. Raises ReportRefused: no
    such player (an erased account, or a hidden profile the reporter may not read: the same
    answer), oneself, no reason or a reason over MAX_REASON characters, too many reports this
    hour."""
    reason = _reason(reason)
    if no_such_player(reporter.pk, player_id):
        raise ReportRefused(_("There is no such player."))
    if player_id == reporter.pk:
        raise ReportRefused(_("You cannot report yourself."))
    _within_limit(reporter)
    return Report.objects.create(reporter=reporter, reported_id=player_id, reason=reason)


def report_message(*, reporter, game_id: int, number: int, reason: str) -> Report:
    """`reporter` reports message `number` of the table talk of game `game_id`. Raises
    ReportRefused: no such message that the reporter may read (`readable_message`), one of their
    own, no reason or one too long, too many reports this hour."""
    reason = _reason(reason)
    found = readable_message(reporter, game_id, number)
    if found is None:
        raise ReportRefused(_("There is no such message at this table that you may read."))
    message, sender = found
    author = _author(game_id, message, sender)
    if author is not None and author == reporter.pk:
        raise ReportRefused(_("You cannot report your own message."))
    _within_limit(reporter)
    return Report.objects.create(
        reporter=reporter,
        reported_id=author,
        game_id=game_id,
        message_number=number,
        message_text=message.text,
        reason=reason,
    )


def _author(game_id: int, message, sender: Seat | None) -> int | None:
    """The account that wrote `message`: its talk key's (`press.selectors.author_id`); when that
    is unknown (talk written before it was sealed), the sender seat's player, but only if the seat
    never changed hands since (else the newcomer would answer for words not theirs); else None."""
    author = press_selectors.author_id(message)
    if author is not None or sender is None:
        return author
    return sender.user_id if departures.held_since(game_id, sender.colour) is None else None


def readable_message(reporter, game_id: int, number: int):
    """(the message, its sender's seat or None) when `reporter` may read message `number` of game
    `game_id`: as one of its players (through each of their seats), or as a spectator when the
    game is public; else None."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    colours: list[str | None] = [s.colour for s in game_selectors.seats_of(game=game, user=reporter)]
    if not colours and (game.options or {}).get("public"):
        colours = [None]
    for colour in colours:
        for message in press_selectors.messages_for(game=game, colour=colour):
            if message.number == number:
                return message, Seat.objects.filter(game=game, colour=message.sender).first()
    return None


def _reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise ReportRefused(_("Say in a few words what is wrong."))
    if len(reason) > MAX_REASON:
        raise ReportRefused(
            _("Say it in {limit} characters at most, not {count}.").format(
                limit=MAX_REASON, count=len(reason)
            )
        )
    return reason


def _within_limit(reporter) -> None:
    if count("reports", str(reporter.pk), window_seconds=REPORT_WINDOW_SECONDS) > settings.REPORTS_PER_HOUR:
        raise ReportRefused(_("You sent too many reports this hour: try again later."))
