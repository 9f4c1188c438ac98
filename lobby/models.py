"""Games being gathered: a host's proposal and one invitation per seat, before the log exists.

A game's log starts (`games.services.create_game`) only when every seat is taken, because the
set-up events fix the seats, the seed and the island. Until then the proposal holds what the
host chose, and each invitation says who is asked to sit where and what they answered.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.bots import LEVELS as BOT_LEVELS
from games.models import Game
from games.store.fields import OrderedJSONField
from games.store.models import append_only_triggers, wakes_relay_on_insert
from players.display_names import LEFT_SEAT, name_for, public_name


class Proposal(models.Model):
    """A game being gathered by `host`: set-up, options (docs/game-options.md), invitations.

        status: open (waiting for answers), started (`game` is the game), cancelled (by the host),
        closed (an open table not filled within a week, `lobby.services.close_stale_tables`).
        listed: an open table, in the public list (docs/open-tables.md): anyone signed in may take
        one of its open seats; otherwise private, by invitation only. language: the language the
        table plays in ("en", "fr"); rated: whether the host asks for a rated game (its end changes
    its players' ratings, docs/ratings.md); rematch_of: the finished game it asks again
    (docs/rematch.md); bot_level: how the host chose the bots to play, for every bot seated
    later too.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        STARTED = "started", _("started")
        CANCELLED = "cancelled", _("cancelled")
        CLOSED = "closed", _("closed: not filled within a week")

    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="proposals")
    created_at = models.DateTimeField(auto_now_add=True)
    setup = models.CharField(
        max_length=16, choices=[(s, s) for s in ("random", "discovery")], default="random"
    )
    options = OrderedJSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="proposal"
    )
    listed = models.BooleanField(default=False)
    # When the table was last made open (listed): its week in the list runs from then
    # (`lobby.services.close_stale_tables`). None while it was never listed.
    listed_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=8, default="en")
    rated = models.BooleanField(default=False)
    rematch_of = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematches",
        help_text="the finished game whose seats this table asks again (lobby.rematch)",
    )
    # How the host chose the bots to play (`games.bots.LEVELS`), kept for the seats given to bots
    # after the table was proposed ("Give the open seats to bots", a seat given to a bot).
    bot_level = models.CharField(
        max_length=8, choices=[(level, level) for level in BOT_LEVELS], default="hard"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Proposal {self.pk} by {self.host}"

    @property
    def among_strangers(self) -> bool:
        """Whether its players may not know each other by address: an open table, a rematch
        (they met at a table), or one a player joined. They then read no part of an address
        (docs/profiles.md, "Names"). Uses the invitations prefetched, else one query."""
        return self.listed or self.rematch_of_id is not None or any(i.joined for i in self.invitations.all())

    @property
    def host_name(self) -> str:
        """The host as the table's players read them: never the address; among strangers
        (`among_strangers`) no part of it either, "a player with no name yet" until they choose
        a name (docs/profiles.md, "Names"); once they erased their account, `left_host_name`.
        One or two queries."""
        email = self.host.email
        if not email:
            return self.left_host_name()
        return public_name(email) if self.among_strangers else name_for(email)

    def left_host_name(self) -> str:
        """The host as the table names them once they erased their account (docs/privacy.md: an
        erased account keeps no address): their own place's "Player N (left)", or "a player who
        left" when they did not play; "" for a host still here. Their own place is the one taken
        when the table was proposed (`lobby.services.proposal_create`: the host plays the first
        seat, accepted at once), answered no later than the table's first row in the gathering's
        log: every other player answered after that commit. One or two queries."""
        if self.host.email:
            return ""
        first = self.invitations.order_by("position").first()
        if first is None or not first.left or first.answered_at is None:
            return gettext("a player who left")
        proposed = self.gathering_events.order_by("id").values_list("recorded_at", flat=True).first()
        return (
            first.left_name
            if proposed is None or first.answered_at <= proposed
            else gettext("a player who left")
        )


class Invitation(models.Model):
    """The seat at `position` (0 = first seat) of a proposal: a player asked by email, a bot, or
    an open seat (no email, not a bot, pending) that anyone may take at an open table.

    A bot's place and the host's own are accepted from the start. A declined place stays
    declined until the host asks somebody else (the same row, asked again).
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", pgettext_lazy("an invitation", "declined")

    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="invitations")
    position = models.PositiveSmallIntegerField()
    email = models.EmailField(blank=True, default="")
    is_bot = models.BooleanField(default=False)
    # How a bot seat plays (`games.bots.LEVELS`); the game's seat takes it when the game starts.
    bot_level = models.CharField(
        max_length=8, choices=[(level, level) for level in BOT_LEVELS], default="hard"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="invitations"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)
    # Taken by a player who joined the open table (`lobby.services.table_join`), not asked by the
    # host: their address is shown to nobody, the host included.
    joined = models.BooleanField(default=False)
    # Asked again from the seats of the game it is a rematch of (`lobby.rematch`), not typed by
    # the host: the address is shown to nobody, the host included (docs/rematch.md).
    from_rematch = models.BooleanField(default=False)

    class Meta:
        ordering = ["proposal", "position"]
        constraints = [
            models.UniqueConstraint(fields=["proposal", "position"], name="unique_invitation_position"),
        ]

    def __str__(self) -> str:
        return f"{self.proposal}: {'bot' if self.is_bot else self.email} ({self.status})"

    @property
    def address_hidden(self) -> bool:
        """Whether its player's address is hidden from the host too: a player who joined the
        open table, or one asked again for a rematch; the host typed every other address."""
        return self.joined or self.from_rematch

    @property
    def left(self) -> bool:
        """Whether its player erased their account (docs/privacy.md, `lobby.erasure`) at a table
        no longer being gathered (started, cancelled or closed): the place keeps no address, is
        no bot's and was answered, as no other place of such a table is (an open seat nobody took
        is still unanswered). It reads `left_name`. At a table still gathering the erasure gave
        the seat up (open again, or declined for the host to fill), and it reads so. Reads the
        proposal (no query from `proposal.invitations`)."""
        return (
            not self.is_bot
            and not self.email
            and self.status != self.Status.PENDING
            and self.proposal.status != Proposal.Status.OPEN
        )

    @property
    def left_name(self) -> str:
        """ "Player N (left)" (N: its position + 1) in the active language: the words the game's
        pages give the seat of a player who erased their account (`players.display_names
        .seat_names`), the place being that seat."""
        return gettext(LEFT_SEAT).format(number=self.position + 1)


# An open seat again (`lobby.services.table_remove`, `table_leave`; `lobby.erasure`): nobody's,
# unanswered, as the open seats a table is proposed with.
OPEN_AGAIN = {
    "email": "",
    "user": None,
    "joined": False,
    "from_rematch": False,
    "status": Invitation.Status.PENDING,
    "answered_at": None,
}


class GatheringEvent(models.Model):
    """The gathering's log: one row per change of a table being gathered, append-only.

    A game's own logs start with the game; before that the lobby's rows change in place, so
    each write of the lobby also appends here what the table publicly is after it (`payload`,
    `lobby.gathering.public_facts`: never an address, never a hand). The read models of the
    open tables (`community`) fold these rows in `id` order; the writes that append take one
    lock (`lobby.gathering.record`), so `id` order is commit order.

    On PostgreSQL a trigger refuses every UPDATE and DELETE, and an insert wakes the relay.
    """

    id = models.BigAutoField(primary_key=True)
    proposal = models.ForeignKey(Proposal, on_delete=models.PROTECT, related_name="gathering_events")
    type = models.CharField(max_length=32)
    payload = OrderedJSONField(default=dict)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        triggers = [
            *append_only_triggers("gathering"),
            wakes_relay_on_insert("gathering_wakes_relay"),
        ]

    def __str__(self) -> str:
        return f"{self.proposal} gathering #{self.pk} {self.type}"


class Removal(models.Model):
    """The host of an open table gave back the seat `user` had taken by joining it, before the
    start (`lobby.services.table_remove`): that player may not join this table again. Not in the
    gathering's log, whose rows hold public facts only (the log says a seat opened again)."""

    proposal = models.ForeignKey(Proposal, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="removals")
    removed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["removed_at", "id"]

    def __str__(self) -> str:
        return f"{self.proposal}: {self.user_id} removed"
