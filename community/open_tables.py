"""The open tables: the projection of the gathering's log that lists the tables seeking
players, and its read (docs/open-tables.md).

A table is listed while it is gathering (status open), open (listed by its host) and has an open
seat; every event of the gathering's log carries what its table publicly is after the change
(`lobby.gathering.public_facts`), so folding one is writing or deleting one row.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, QuerySet, Window
from django.utils.dateparse import parse_datetime

from community.models import OpenTable, ProfileChoice
from community.projections import Projection, feed
from lobby.models import GatheringEvent
from players.display_names import chosen_names_for
from players.models import Player

PLAYER_COUNTS = (2, 3, 4)


class OpenTablesProjection(Projection):
    """`open_tables`: one `OpenTable` row per table seeking players."""

    name = "open_tables"
    source = GatheringEvent

    def handle(self, row: GatheringEvent) -> None:
        facts = row.payload
        if not (facts["status"] == "open" and facts["listed"] and facts["open_seats"] > 0):
            OpenTable.objects.filter(number=row.proposal_id).delete()
            return
        # Waiting since it was listed (rows written before "listed_at": since it was created).
        created_at = parse_datetime(facts.get("listed_at") or facts["created_at"])
        assert created_at is not None  # written by `public_facts` as ISO 8601
        OpenTable.objects.update_or_create(
            number=row.proposal_id,
            defaults={
                "host_name": _host_name(facts["host_id"]),
                "host_id": facts["host_id"],
                "speed": facts["speed"],
                "language": facts["language"],
                "reaction_mode": facts["reaction_mode"],
                "rated": facts["rated"],
                "player_count": facts["player_count"],
                "seats_filled": facts["seats_filled"],
                "open_seats": facts["open_seats"],
                "created_at": created_at,
            },
        )

    def reset(self) -> None:
        OpenTable.objects.all().delete()

    def forget_erased(self) -> None:
        """Nothing: the log keeps no name, and a rebuild reads an erased host's as none."""


def host_renamed(sender, instance: Player, update_fields=None, **kwargs) -> None:
    """Django's `post_save` of a `Player` (their preferences): when the display name may have
    changed (every field saved, or `display_name` among them), the open tables the person hosts
    read their new name, in the saving transaction. The gathering's log keeps no name (a rebuild
    reads the current one), so a rename is no event of it; the projection is fed first, its
    position locked until the rename commits (as an erasure does, `community.erasure`), so that
    a feed folding the host's table meanwhile cannot write the old name back after it."""
    if update_fields is not None and "display_name" not in update_fields:
        return
    hosts = get_user_model().objects.filter(email=instance.email).values("pk")
    if not OpenTable.objects.filter(host_id__in=hosts).exists():
        return
    feed(OpenTablesProjection.name, wait=True)
    # Their chosen name, "" for none, as `_host_name` reads it.
    OpenTable.objects.filter(host_id__in=hosts).update(host_name=instance.display_name)


def _host_name(user_id: int) -> str:
    """The host's chosen name, "" for none (the list then reads `UNNAMED` in its reader's
    language, `community.words.table_lines`); never a word of their address."""
    email = get_user_model().objects.filter(pk=user_id).values_list("email", flat=True).first() or ""
    return chosen_names_for([email]).get(email, "") if email else ""


@dataclass(frozen=True)
class Filters:
    """What the list is narrowed to: speed (a preset name), language ("en"/"fr"), player count
    (2 to 4); None: any."""

    speed: str | None = None
    language: str | None = None
    players: int | None = None


# Tables on one page of the list (the email lists fewer).
PAGE_SIZE = 50


def open_tables(
    filters: Filters = Filters(), *, limit: int = PAGE_SIZE, offset: int = 0
) -> QuerySet[OpenTable]:
    """The tables seeking players that fit `filters`, the longest waiting first: `limit` of them
    from the `offset`-th (0: the first), in one query. Each row also carries `total` (how many
    tables fit `filters`: a window count, taken before the limit) and `host_hidden` (whether
    the host hides their profile from strangers, `community.profiles`)."""
    hidden = ProfileChoice.objects.filter(player_id=OuterRef("host_id"), hidden=True)
    return (
        _fitting(filters)
        .annotate(total=Window(Count("number")), host_hidden=Exists(hidden))
        .order_by("created_at", "number")[offset : offset + limit]
    )


def count_open_tables(filters: Filters = Filters()) -> int:
    """How many tables seeking players fit `filters`."""
    return _fitting(filters).count()


def _fitting(filters: Filters) -> QuerySet[OpenTable]:
    tables = OpenTable.objects.all()
    if filters.speed:
        tables = tables.filter(speed=filters.speed)
    if filters.language:
        tables = tables.filter(language=filters.language)
    if filters.players:
        tables = tables.filter(player_count=filters.players)
    return tables
