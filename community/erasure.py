"""The community's part of erasing a person (docs/privacy.md).

The read models: first every projection folds what its log holds (`projections.feed`, waiting
for a feed or a rebuild another process runs), so that a game's end the relay has not folded yet
is rated with the person's rating as the log gives it, and no feed after the erasure brings
their rows back; then their rows go, their name leaves the open tables they host. The positions
stay locked until the erasure commits. A rebuild folds their games again, for the other
players' ratings, and then forgets their rows (`Projection.forget_erased`): it gives what the
feeds gave. The ratings and profiles of an erased account are also left out when read
(`community.ratings.leaderboard`, `community.profile_page.profile`).

The reports (`Report`, the operator's): a report of one of their messages loses the words it
kept, and any report whose words or reason hold their address, name or words loses them, as
the stored emails do (a name or words where they stand as words: "Don" is not in "Done."); the
reports they wrote lose their reason (their words) but stay, with what was reported, for the
operator to act on. Their archive lists the reports they wrote.

Registered as personal data holders (`players.personal_data`) in `CommunityConfig.ready()`.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Q
from django.urls import reverse

from community import projections
from community.models import (
    FinishedSeat,
    OpenTable,
    PlayerRating,
    PlayerRecord,
    ProfileChoice,
    Report,
    SeatLeaver,
)
from players.personal_data import Person


def erase_read_models(person: Person) -> None:
    """Fold what the logs hold into every read model, then delete the rows of `person`'s account
    and empty the host's name of the open tables they host, in the caller's transaction. Each
    projection's position is locked before its rows are touched (the order the feeds take)."""
    projections.feed(wait=True)
    for model in (PlayerRating, PlayerRecord, FinishedSeat, ProfileChoice, SeatLeaver):
        model.objects.filter(player_id=person.user_id).delete()
    OpenTable.objects.filter(host_id=person.user_id).update(host_name="")


def _holding(field: str, person: Person) -> Q:
    """A filter of the reports whose `field` holds one of `person`'s traces as `Person.tracer`
    finds it (their name or words as words of their own: "Don" is not in "Done.", a message
    "ok" not in "book"): those holding one anywhere, in any case, as the database finds them,
    then read."""
    found = Q(pk__in=[])
    for trace in person.traces():
        found |= Q(**{f"{field}__icontains": trace})
    holds = person.tracer()
    return Q(pk__in=[pk for pk, text in Report.objects.filter(found).values_list("pk", field) if holds(text)])


def erase_reports(person: Person) -> None:
    """Empty what the reports keep of `person` (see the module docstring), in the caller's
    transaction. `person.words` must be filled (the talk's `prepare` step)."""
    Report.objects.filter(
        Q(reported_id=person.user_id, game_id__isnull=False) | _holding("message_text", person)
    ).update(message_text="")
    Report.objects.filter(Q(reporter_id=person.user_id) | _holding("reason", person)).update(reason="")


def collect_reports(person: Person) -> dict[str, object]:
    """`person`'s part of their archive: "reports.json", each report they wrote: when, what it
    was about (a game's message by their numbers, or a player's profile page), their reason,
    and how far the operator took it. Not the reported words: they are another player's."""
    reports = Report.objects.filter(reporter_id=person.user_id).order_by("created_at", "id")
    return {
        "reports.json": [
            {
                "made_at": report.created_at.isoformat(),
                "game": report.game_id,
                "message": report.message_number,
                "player_page": (
                    settings.SITE_URL + reverse("community:profile", args=[report.reported_id])
                    if report.game_id is None and report.reported_id is not None
                    else None
                ),
                "reason": report.reason,
                "status": report.status,
            }
            for report in reports
        ]
    }
