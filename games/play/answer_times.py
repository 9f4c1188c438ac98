"""Answer times: how long each seat's player takes to answer a decision, shown to the table.

An *answer* is a command the seat's player sends themselves, by email (a reply) or on the web,
that settles the seat's open decision (its clock's decisions change). Its time runs from when
the decision opened (`SeatClock.opened_at`) to the command. A delayed pass
(`games.play.delayed_passes`: a Season turn the seat's hand leaves only the pass) counts as an
answer by email: its time was drawn from the seat's answers, and the table, which reads these
times, must not tell it from the player's own pass. Not answers: the deadline default,
the stand-in bot, moves the service plays because they have one way to make, bots, and
commands that leave the decision open (the Moor, a standing policy).

**Online.** A web answer is made *while online* when the decision it answers opened at most
ONLINE_SECONDS (15 minutes) after the seat's previous answer on the web: the player was at the
table with the game's page open, and an answer within seconds then says how fast that sitting
went, not how soon the player comes back to the game. Those are left out. Answers by email always
count: the email is how a player is called back to the table.

Each seat keeps its KEPT latest answer times on its clock (written with the clock, in the
command's transaction: no statement more); the median of those is what the game page and the
lobby show. Public: the table sees when each seat moves anyway.
"""

from __future__ import annotations

import statistics
from datetime import datetime, timedelta

from django.utils.translation import ngettext

from games.play.models import SeatClock

KEPT = 25  # answer times kept per seat
ONLINE_SECONDS = 15 * 60
# Idempotency-key prefixes of the commands a player sends themselves.
PLAYER_CHANNELS = ("email:", "web:")
# ... and of the delayed pass, counted like an answer by email (module docstring).
DELAYED_PASS = "hand:"  # noqa: S105 - a command key prefix, not a password


def record(clock: SeatClock, *, command_id: str | None, opened_at: datetime | None, now: datetime) -> None:
    """Note on `clock` (not saved) the answer its player just gave to the decision that opened at
    `opened_at`, with the command `command_id` (its idempotency key says the channel): kept
    unless it was made on the web while online (module docstring). Nothing for a command the
    player did not send themselves, or without an open decision."""
    if not command_id or not command_id.startswith((*PLAYER_CHANNELS, DELAYED_PASS)) or opened_at is None:
        return
    web = command_id.startswith("web:")
    online = (
        web
        and clock.last_web_at is not None
        and opened_at - clock.last_web_at <= timedelta(seconds=ONLINE_SECONDS)
    )
    if web:
        clock.last_web_at = now
    if online:
        return
    seconds = max(0, round((now - opened_at).total_seconds()))
    # A new list: the clocks compare it with the one they read to know what to write.
    clock.answer_seconds = [*(clock.answer_seconds or []), seconds][-KEPT:]


def median_seconds(answers: list | None) -> float | None:
    """The median of `answers` (seconds), or None for none."""
    return statistics.median(answers) if answers else None


def medians_by_seat(seat_ids) -> dict[int, float | None]:
    """{seat id: its median answer time in seconds, or None}: one query."""
    found = dict(
        SeatClock.objects.filter(seat_id__in=list(seat_ids)).values_list("seat_id", "answer_seconds")
    )
    return {seat_id: median_seconds(found.get(seat_id)) for seat_id in seat_ids}


def median_for_address(email: str) -> float | None:
    """The median answer time of the player at `email` over all their seats' kept answers, or
    None when they have none: one query. A seat's clock keeps its present player's answers only:
    they start afresh when it changes hands (`table.seat_replace`), so a newcomer never shows the
    previous player's, and a seat handed over no longer counts for the one who left it."""
    answers: list[float] = []
    for kept in SeatClock.objects.filter(seat__email__iexact=email.strip()).values_list(
        "answer_seconds", flat=True
    ):
        answers.extend(kept or [])
    return median_seconds(answers)


def in_words(seconds: float | None) -> str:
    """ "answers in about 3 hours" ("about 20 minutes", "about 2 days"), in the active language;
    "" for None (no answer yet)."""
    if seconds is None:
        return ""
    if seconds < 90 * 60:
        count = max(1, round(seconds / 60))
        return ngettext("answers in about {count} minute", "answers in about {count} minutes", count).format(
            count=count
        )
    if seconds < 36 * 3600:
        count = round(seconds / 3600)
        return ngettext("answers in about {count} hour", "answers in about {count} hours", count).format(
            count=count
        )
    count = round(seconds / 86400)
    return ngettext("answers in about {count} day", "answers in about {count} days", count).format(
        count=count
    )
