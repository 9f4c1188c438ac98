"""The store's models, the persistent record of games: who sits where, and the append-only log of
what happened. Django and the rooms above name them through `games.models`.

The log (`Event`) is the source of truth; a game's state is the fold of its events through
`games.rules.evolve` (see `games.store`). `Snapshot` is a cache of that fold. `Command` keeps every
accepted command so that `verify_game` can decide it again and compare.

JSON values that the rules read (payloads, commands, positions, snapshots) are stored as JSON
text that keeps key order (`games.store.fields.OrderedJSONField`), not as PostgreSQL jsonb.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import pgtrigger
from django.conf import settings
from django.db import models

from games.bots import LEVELS as BOT_LEVELS
from games.record.hashchain import LATEST_CHAIN_VERSION
from games.store.fields import OrderedJSONField

COLOURS = ("green", "blue", "orange", "white")

# The PostgreSQL channel the relay LISTENs on (`inis_pbem.relay`): a commit that wrote outbox rows
# (notifications.Outbox), appended to a log a read model reads, or made a game's bot moves due
# (`Game.bots_due_at`) notifies it. A log's insert names its table in the payload, so that the
# relay feeds only the read models of the logs that grew; a bot move made due names nothing.
RELAY_CHANNEL = "inis_relay"
WAKE_RELAY = f"PERFORM pg_notify('{RELAY_CHANNEL}', ''); RETURN NULL;"
WAKE_RELAY_NAMING_TABLE = f"PERFORM pg_notify('{RELAY_CHANNEL}', TG_TABLE_NAME); RETURN NULL;"


# The body of the statement trigger that refuses TRUNCATE on the append-only tables (row
# triggers, which refuse UPDATE and DELETE, do not fire on TRUNCATE).
REFUSE_TRUNCATE = "RAISE EXCEPTION 'The table % is append-only: TRUNCATE is refused.', TG_TABLE_NAME;"


def append_only_triggers(table: str) -> list[pgtrigger.Trigger]:
    """The PostgreSQL triggers of an append-only log table (installed by `migrate`, named after
    `table`): `<table>_append_only` refuses every UPDATE and DELETE, `<table>_no_truncate` every
    TRUNCATE (which fires no row trigger)."""
    return [
        pgtrigger.Protect(name=f"{table}_append_only", operation=pgtrigger.Update | pgtrigger.Delete),
        pgtrigger.Trigger(
            name=f"{table}_no_truncate",
            operation=pgtrigger.Truncate,
            level=pgtrigger.Statement,
            when=pgtrigger.Before,
            func=REFUSE_TRUNCATE,
        ),
    ]


def wakes_relay_on_insert(name: str) -> pgtrigger.Trigger:
    """The PostgreSQL trigger `name` that wakes the relay (`inis_pbem.relay`) once per statement
    inserting rows into its table, the table's name as the payload (PostgreSQL folds the repeats
    of one transaction): the relay feeds the read models whose log that table is."""
    return pgtrigger.Trigger(
        name=name,
        operation=pgtrigger.Insert,
        level=pgtrigger.Statement,
        when=pgtrigger.After,
        func=WAKE_RELAY_NAMING_TABLE,
    )


def new_seat_token() -> str:
    """A random, URL-safe secret of 32 characters (192 bits)."""
    return secrets.token_urlsafe(24)


def seed_commitment(seed: str) -> str:
    """The published commitment to a game's secret seed: sha256 of its UTF-8 bytes, hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Game(models.Model):
    """One game of Inis.

    `seed` is the secret from which every random draw is derived (`rules.rng_for`); it is shown to
    nobody until the game is over. `seed_commitment` = sha256(seed) is public from the start, so
    that once the seed is revealed anybody can check that it was fixed before the first draw.
    `chain_version` is the version of the hash chain its event log and table talk were written
    with (`games.record.hashchain`, `press.chain`): 1 for the games created before version 2, whose
    private events can only be checked once the seed is revealed; 2 for every newer game.

    `bots_due_at`: when the relay (`inis_pbem.relay`) publishes the task that plays the game's bot
    seats (`games.play.bot_seats`); set to the commit's time by a command that leaves a bot seat
    a decision, put a little later by each publication (`bots_publishes` counts them, so that a
    task lost with its worker is published again, less and less often), emptied by the task
    once no bot seat waits.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "in progress"
        OVER = "over", "over"

    class Setup(models.TextChoices):
        RANDOM = "random", "random island"
        DISCOVERY = "discovery", "discovery"
        POSITION = "position", "described position"

    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    winner = models.CharField(max_length=16, blank=True, default="")
    seed = models.CharField(max_length=128)
    seed_commitment = models.CharField(max_length=64)
    chain_version = models.PositiveSmallIntegerField(
        default=LATEST_CHAIN_VERSION,
        help_text="the hash chain's version (games.record.hashchain): 1 for games created before version 2",
    )
    setup = models.CharField(max_length=16, choices=Setup.choices, default=Setup.RANDOM)
    position = OrderedJSONField(
        null=True, blank=True, help_text="the described position, when setup is 'position'"
    )
    options = OrderedJSONField(
        default=dict,
        blank=True,
        help_text="rules options (given to rules.start_game) and table options: docs/game-options.md",
    )
    player_count = models.PositiveSmallIntegerField()
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="hosted_games",
        help_text="who may use the host tools (None: nobody)",
    )
    bots_due_at = models.DateTimeField(
        null=True, blank=True, help_text="when the relay publishes the bot seats' moves (empty: none due)"
    )
    bots_publishes = models.PositiveSmallIntegerField(
        default=0, help_text="times the relay published the bot seats' moves since they became due"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The relay's read of due bot moves: few games at a time, so a small index.
            models.Index(
                fields=["bots_due_at"], name="games_bots_due", condition=models.Q(bots_due_at__isnull=False)
            )
        ]
        triggers = [
            # A command made the bot moves due now (the relay's own later times wake nobody).
            pgtrigger.Trigger(
                name="bots_due_wakes_relay",
                operation=pgtrigger.UpdateOf("bots_due_at"),  # type: ignore[no-untyped-call]  # unannotated
                level=pgtrigger.Row,
                when=pgtrigger.After,
                condition=pgtrigger.Condition("NEW.bots_due_at IS NOT NULL AND NEW.bots_due_at <= now()"),
                func=WAKE_RELAY,
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}"

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.OVER

    @property
    def revealed_seed(self) -> str | None:
        """The seed once the game is over, None before: the only way templates may read it."""
        return self.seed if self.is_over else None

    def setup_argument(self) -> str | dict[str, Any]:
        """What `rules.start_game(setup=...)` was given: "random", "discovery" or the position."""
        return self.position if self.setup == self.Setup.POSITION else self.setup


class Seat(models.Model):
    """A clan colour at the table and who plays it.

    `user` is the player's account (found or made from `email` by `players.accounts`): only that
    user may act for the seat on the web. `token` is the seat's secret: the seat links of its
    emails (`players.seat_links`) and its reply addresses are signed with it, so replacing the
    player (`games.play.table.seat_replace`), which gives the seat a new token, retires them. Bot
    seats have no email and no user. `left_at`: when the seat's player erased their account
    (docs/privacy.md): it has no email and no user any more, and every page names it
    "Player N (left)" (N: its position + 1); a game in progress gave it to the stand-in bot.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    colour = models.CharField(max_length=16, choices=[(c, c) for c in COLOURS])
    position = models.PositiveSmallIntegerField(help_text="0 = first seat, then clockwise")
    email = models.EmailField(blank=True, default="")
    token = models.CharField(max_length=64, unique=True, default=new_seat_token, editable=False)
    is_bot = models.BooleanField(default=False)
    # How a bot seat plays (`games.bots.LEVELS`): "random", "easy", "hard" or "strong". Ignored for a
    # player's seat (its stand-in plays the strongest level within its CPU budget:
    # `games.play.standins.stand_in_level`).
    bot_level = models.CharField(
        max_length=8, choices=[(level, level) for level in BOT_LEVELS], default="random"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    left_at = models.DateTimeField(
        null=True, blank=True, help_text="when its player erased their account: it reads 'Player N (left)'"
    )

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "colour"], name="unique_colour_per_game"),
            models.UniqueConstraint(fields=["game", "position"], name="unique_position_per_game"),
        ]

    def __str__(self) -> str:
        who = f"{self.bot_level} bot" if self.is_bot else self.email
        return f"{self.colour} ({who})"


class Command(models.Model):
    """An accepted command and the events it produced (seq `first_seq`..`last_seq`).

    `command_id` is the idempotency key (form nonce, inbound Message-ID): the unique constraint on
    (game, command_id) is what answers a repeated submission with its first result instead of
    applying it twice. `client_seq` is the `expected_seq` the sender's prompt was made against;
    the command was decided against the log at `first_seq - 1` events. Rejected commands are not
    stored (they change nothing).

    A command can be hidden information (a draft pick names a card): `games.store.exports` shows it
    whole only to its own seat until the game is over.
    """

    # No index of its own: the unique (game, command_id) and (game, first_seq) indexes serve every
    # lookup by game, and one index less is one less to write with every command.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="commands", db_index=False)
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="commands")
    # NULL, not "": a command without an idempotency key; the unique (game, command_id) index
    # admits many NULLs but one "".
    command_id = models.CharField(max_length=255, null=True, blank=True)  # noqa: DJ001
    body = OrderedJSONField()
    client_seq = models.PositiveIntegerField()
    first_seq = models.PositiveIntegerField()
    last_seq = models.PositiveIntegerField()
    accepted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "first_seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "command_id"], name="unique_command_id_per_game"),
            models.UniqueConstraint(fields=["game", "first_seq"], name="unique_command_first_seq"),
        ]
        triggers = [
            *append_only_triggers("commands"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.first_seq}-{self.last_seq} {self.seat.colour}: {self.body.get('type')}"


class Event(models.Model):
    """One fact of a game's log, in the shape of `rules.Event.to_json()` plus its place and hash.

    seq: 1, 2, 3... without gaps within a game (`UniqueConstraint(game, seq)` guards it).
    visibility: None = public; otherwise the list of colours that may read the whole payload
    ([] = the server alone).
    hash: see `games.record.hashchain`; prev_hash of seq 1 is the game's seed commitment.

    On PostgreSQL a trigger refuses every UPDATE and DELETE on this table: the log is append-only.
    """

    # No index of its own: the unique (game, seq) index serves every lookup by game, and one
    # index less is one less to write with every event.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    version = models.PositiveSmallIntegerField(default=1)
    payload = OrderedJSONField(default=dict)
    visibility = OrderedJSONField(null=True, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)
    command = models.ForeignKey(
        Command, on_delete=models.PROTECT, null=True, blank=True, related_name="events"
    )
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_seq_per_game"),
        ]
        triggers = [
            *append_only_triggers("events"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.type}"

    def to_json(self) -> dict[str, Any]:
        """The stored event as `rules.Event.to_json()` gives it (before any upcast)."""
        return {
            "type": self.type,
            "version": self.version,
            "payload": self.payload,
            "visibility": self.visibility,
        }


class Snapshot(models.Model):
    """The state (`GameState.to_json()`) after the first `seq` events: a cache of the fold.

    Deleting snapshots changes nothing but the time a load takes.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = OrderedJSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "-seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_snapshot_per_seq"),
        ]

    def __str__(self) -> str:
        return f"snapshot of game {self.game_id} at event {self.seq}"


class TableEvent(models.Model):
    """What happened around the table rather than on the island: a second, append-only log.

    The rules log (`Event`) holds only what `rules.decide` produced, so that it replays and
    verifies from the seed alone. Host actions (a deadline extended, the game paused, a player
    replaced) and, later, the service's own acts (a deadline passed) are facts of the service:
    they go here (docs/table-log.md). `seq` counts 1, 2, 3... per game; `at_seq` is the length of
    the rules log when it was recorded, which places it in the history. `actor` is "host" or
    "service". Payloads never hold an email address: the history is public.

    On PostgreSQL a trigger refuses every UPDATE and DELETE on this table, as on `Event`.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="table_events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    payload = OrderedJSONField(default=dict)
    actor = models.CharField(max_length=16)
    at_seq = models.PositiveIntegerField()
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_table_seq_per_game"),
        ]
        triggers = [
            *append_only_triggers("table_events"),
        ]

    def __str__(self) -> str:
        return f"{self.game} table #{self.seq} {self.type}"
