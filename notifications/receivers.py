"""Reacting to games: each seat's clock, prompts, news and the end of the game.

Runs inside the transaction that appended the events (games.signals.events_recorded), so the rows
commit or roll back with them; delivery and the stand-in bot are enqueued only after the commit.

For every player seat: when its pending decisions changed, its clock opens at the new seq (with a
deadline) and it gets one prompt (none for a move the table can see has only one way to make, which
the service plays at once, `games.forced_moves`), which tells what happened since its previous prompt
and is written by its delivery (`notifications.prompts_at_delivery`); when they are gone, the
clock closes (a prompt still in the outbox for the old decision is then skipped).
A seat that was not prompted gets the news among the new events as its player chose: only in its
next prompt (the default), in news emails (at most one a minute, `notifications.news`), or in
its digest. While a seat's email reply is being played, the seat's next prompt is written but its
delivery waits for the answer to that reply (`outbox.holding_prompts`, used by
`notifications.inbound`), so the player reads "Accepted" before the next "Your move". When
the game ends, every player seat gets the game-over email. A seat whose player acted by
themselves (not a deadline default, not the stand-in bot) has come back: its missed deadlines are
forgotten and the bot stops playing it.

This runs on every command, so it reads and writes in bulk: one locking read of the clocks with
the players' preferences, the command's own events from the signal (older ones from this
process's recent events, `games.store.events_between`, or one query), one insert of the emails
with the update of the clocks (one statement on PostgreSQL), and one delivery task after the
commit (tests/games/test_query_count.py).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

from django.db import connection, transaction
from django.dispatch import receiver
from django.utils import timezone

from games import rules, selectors, store
from games.forced_moves import forced_command
from games.models import Seat
from games.signals import events_recorded
from games.written_sql import Columns
from notifications import happenings, news, outbox, players, prompts, prompts_at_delivery
from notifications.models import NewsItem, Outbox, Player, SeatClock
from press.relay import waiting_lines as waiting_talk

# Idempotency-key prefixes of commands the system sends for a seat (the player did not act):
# deadline defaults, the stand-in bot, and moves the rules leave only one way to make.
PROXY_PREFIXES = ("deadline:", "standin:", "forced:")


def _decisions_by_seat(decisions) -> dict[str, list]:
    by_seat: dict[str, list] = {}
    for decision in decisions:
        by_seat.setdefault(decision.seat, []).append(decision)
    return by_seat


def is_proxy(command_id: str | None) -> bool:
    """True when a command was sent for the seat by the system (deadline default, stand-in bot)."""
    return bool(command_id) and command_id.startswith(PROXY_PREFIXES)


def events_between(game, after: int, upto: int) -> list[tuple[int, object]]:
    """`[(seq, rules.Event)]` of the game's events after seq `after` up to `upto` included."""
    return store.events_between(game, after, upto)


class _Happened:
    """The events the receivers word for one append: those of the append itself (in hand) and,
    read at most once more, the older ones since the earliest last prompt that needs them."""

    def __init__(self, game, events, first_seq: int, last_seq: int, prev_hash: str | None):
        self.game, self.first_seq, self.last_seq, self.prev_hash = game, first_seq, last_seq, prev_hash
        self.new = list(events) if events is not None else None
        self.older: list = []
        self.older_from = first_seq - 1  # self.older holds the events after this seq

    def between(self, after: int, upto: int) -> list[tuple[int, object]]:
        if self.new is None or upto != self.last_seq:
            return events_between(self.game, after, upto)
        if after < self.older_from:
            # Older events, up to the one before this append (whose hash the new events chain to).
            self.older = store.events_between(self.game, after, self.first_seq - 1, upto_hash=self.prev_hash)
            self.older_from = after
        return [(seq, e) for seq, e in self.older if seq > after] + [(seq, e) for seq, e in self.new if seq > after]


@dataclass
class _Writes:
    """What the receivers write for one append, in one statement each at the end."""

    outbox: list = field(default_factory=list)
    news_items: list = field(default_factory=list)
    news_mailed: list = field(default_factory=list)  # seat ids whose waiting news a prompt told
    news_emails: list = field(default_factory=list)  # seat ids to schedule a news email for


CLOCK_FIELDS = ("seq", "kind", "opened_at", "deadline", "remind_at", "reminded", "last_prompt_seq",
                "missed_in_row", "stand_in")


def _clock_fields(clock: SeatClock) -> tuple:
    return tuple(getattr(clock, name) for name in CLOCK_FIELDS)


# The clock, whether news waits, and the Player of the seat's address, in that order in each
# row of `_locked_clocks`.
_CLOCKS = Columns(SeatClock, "c")
_PLAYERS = Columns(Player, "p", _CLOCKS.after() + 1)


@functools.cache
def _locked_clocks_sql(vendor: str, seats: int) -> str:
    """The SQL of `_locked_clocks` for `seats` seats on the database `vendor`, built once."""
    q = connection.ops.quote_name
    clock_table, seat_table, player_table, news_table = (
        q(m._meta.db_table) for m in (SeatClock, Seat, Player, NewsItem))
    lock_clause = " FOR UPDATE OF c" if connection.features.has_select_for_update_of else ""
    return (f"SELECT {_CLOCKS.sql()}, EXISTS (SELECT 1 FROM {news_table} n WHERE n.seat_id = c.seat_id "
            f"AND n.mailed_at IS NULL), {_PLAYERS.sql()} "
            f"FROM {clock_table} c INNER JOIN {seat_table} s ON s.id = c.seat_id "
            f"LEFT JOIN {player_table} p ON p.email = LOWER(TRIM(s.email)) "
            f"WHERE c.seat_id IN ({', '.join(['%s'] * seats)}){lock_clause}")


def _locked_clocks(game, seats) -> dict[int, SeatClock]:
    """{seat id: SeatClock} of the player `seats`, locked, in one query (missing clocks are made).

    Each clock carries `news_waiting` (the seat has news not yet mailed) and `player` (the
    seat's `Player`, read in the same query; created when the address has none yet). The SQL
    is written out: it runs on every command, and the ORM took longer to build it than the
    database to answer it.
    """
    with connection.cursor() as cursor:
        cursor.execute(_locked_clocks_sql(connection.vendor, len(seats)), [seat.pk for seat in seats])
        found = cursor.fetchall()
    clocks = {}
    for row in found:
        clock = _CLOCKS.build(row)
        clock.news_waiting, clock.player = bool(row[_CLOCKS.after()]), _PLAYERS.build(row)
        clocks[clock.seat_id] = clock
    missing = [SeatClock(seat=seat, game=game) for seat in seats if seat.pk not in clocks]
    for clock in SeatClock.objects.bulk_create(missing) if missing else ():
        clock.news_waiting, clock.player = False, None
        clocks[clock.seat_id] = clock
    by_id = {seat.pk: seat for seat in seats}
    for clock in clocks.values():
        clock.seat = by_id[clock.seat_id]
        clock.game = game
        if clock.player is None or clock.player.email != clock.seat.email.strip().lower():
            clock.player = players.player_for(clock.seat.email)
        clock.before = _clock_fields(clock)
    return clocks


def _update_clocks(changed: list) -> None:
    """Save the `changed` clocks' CLOCK_FIELDS in one statement (PostgreSQL: `_clocks_update`;
    elsewhere bulk_update)."""
    if connection.vendor != "postgresql":
        SeatClock.objects.bulk_update(changed, CLOCK_FIELDS)
        return
    with connection.cursor() as cursor:
        cursor.execute(*_clocks_update(changed))


def _clocks_update(changed: list) -> tuple[str, list]:
    """`(sql, params)` of the PostgreSQL statement that saves the `changed` clocks'
    CLOCK_FIELDS: UPDATE ... FROM VALUES, written out because the ORM's bulk_update built its
    CASE expressions slower than the database ran them."""
    q = connection.ops.quote_name
    fields = [SeatClock._meta.get_field(name) for name in CLOCK_FIELDS]
    casts = ", ".join(["%s::integer"] + [f"%s::{f.db_type(connection)}" for f in fields])
    values, params = [], []
    for clock in changed:
        values.append(f"({casts})")
        params.append(clock.pk)
        params.extend(f.get_db_prep_save(getattr(clock, f.attname), connection) for f in fields)
    names = ", ".join(q(f.column) for f in fields)
    sets = ", ".join(f"{q(f.column)} = v.{q(f.column)}" for f in fields)
    return (f"UPDATE {q(SeatClock._meta.db_table)} AS c SET {sets} FROM (VALUES {', '.join(values)}) "
            f"AS v(id, {names}) WHERE c.id = v.id", params)


@receiver(events_recorded, dispatch_uid="notifications.queue_emails")
def queue_emails(sender, *, game, state, pending_before, first_seq, last_seq, events=None, seat=None,
                 command_id=None, prev_hash=None, last_hash=None, **kwargs) -> None:
    """Update every player seat's clock and write its prompt, news or game-over email (see the
    module docstring).

    Queries: the seats come with the append's row lock; then one locking read of the clocks with
    the players' preferences, at most one read of older events (none when this process appended them:
    `games.store.events_between`), one insert of the outbox rows carrying the update of the
    clocks that changed (on PostgreSQL; two statements elsewhere); news lines, when a player
    takes them, one insert more.
    """
    seats = [s for s in game.seats.all() if not s.is_bot and s.email]
    if not seats:
        return
    before = _decisions_by_seat(pending_before)
    after = _decisions_by_seat(rules.pending(state))
    over = rules.is_over(state)
    acting_id = seat.pk if seat is not None else None
    acted_by_player = acting_id if not is_proxy(command_id) else None
    now = timezone.now()
    stand_ins_waiting = False
    clocks = _locked_clocks(game, seats)
    # The log's short hash at the state the prompts show, in hand: their delivery need not read it.
    head_fingerprint = (last_hash[:selectors.FINGERPRINT_DIGITS]
                        if last_hash and state.seq == last_seq else None)
    happened = _Happened(game, events, first_seq, last_seq, prev_hash)
    # The public view, on which forced moves are decided: built once, and only if a seat needs it.
    public = functools.cache(lambda: rules.view_for(state, None))
    writes = _Writes()
    changed = []
    for seat in seats:
        clock = clocks[seat.pk]
        player = clock.player
        if seat.pk == acted_by_player:
            clock.missed_in_row = 0
            clock.stand_in = False
        mine = after.get(seat.colour)
        if over:
            clock.seq, clock.kind, clock.deadline, clock.remind_at = None, "", None, None
            lines = _lines(happened, seat.colour, player, clock.last_prompt_seq, last_seq) + waiting_talk(seat, player)
            recipient = _in_hand(prompts.Recipient.of(seat, player), last_seq, last_hash)
            email = prompts.game_over_email(recipient, state, seed=game.seed,
                                            seed_commitment=game.seed_commitment, happened=lines)
            writes.outbox.append(dict(kind=Outbox.Kind.GAME_OVER, to_email=seat.email, email=email,
                                      seq=state.seq, game=game, seat=seat))
            clock.last_prompt_seq = last_seq
            writes.news_mailed.append(seat.pk)
        elif mine != before.get(seat.colour) and mine and forced_command(state, seat.colour, public()) is not None:
            # The service plays it at once in this transaction (games.services): nobody is asked,
            # and the seat's next real prompt tells it among what happened.
            clock.seq, clock.kind, clock.deadline, clock.remind_at = None, "", None, None
        elif mine != before.get(seat.colour) and mine:
            clock.seq, clock.kind, clock.opened_at, clock.reminded = state.seq, mine[0].kind, now, False
            players.schedule(clock, game, player, now)
            if clock.stand_in:
                stand_ins_waiting = True
            else:
                _prompt(writes, game, seat, clock, player, state, head_fingerprint)
        else:
            if mine != before.get(seat.colour):  # its decision is gone
                clock.seq, clock.kind, clock.deadline, clock.remind_at = None, "", None, None
            if seat.pk != acting_id:
                # The seat whose command this was knows what it did (it gets an answer or its page).
                _news(happened, writes, game, seat, player, first_seq, last_seq)
            if clock.stand_in and mine:
                stand_ins_waiting = True
        if _clock_fields(clock) != clock.before:
            changed.append(clock)
    _write(writes, changed, clocks, now)
    if stand_ins_waiting and not (command_id or "").startswith("standin:"):
        # The stand-in loop goes on by itself; only a command from elsewhere starts it.
        from notifications.tasks import play_standins  # tasks import this module

        game_id = game.pk
        transaction.on_commit(lambda: play_standins.delay(game_id), robust=True)


def _in_hand(recipient, last_seq: int, last_hash: str | None):
    """`recipient` answering the fingerprint of the log's head (event `last_seq`, whose hash is
    `last_hash`) from that hash rather than by a query; other events as before."""
    looked_up = getattr(recipient, "log_fingerprint", None)
    digits = getattr(selectors, "FINGERPRINT_DIGITS", None)
    if looked_up is None or last_hash is None or digits is None:
        return recipient

    def fingerprint(seq: int | None) -> str:
        return last_hash[:digits] if seq in (None, last_seq) else looked_up(seq)

    return replace(recipient, log_fingerprint=fingerprint)


def _write(writes: _Writes, changed: list, clocks: dict, now) -> None:
    """The receivers' writes for one append, one statement each (those with nothing to write
    cost nothing); on PostgreSQL the clocks' update rides with the outbox insert."""
    along = _clocks_update(changed) if changed and writes.outbox and connection.vendor == "postgresql" else None
    if writes.outbox:
        outbox.enqueue_all(writes.outbox, along=along)
    mailed = [seat_id for seat_id in writes.news_mailed if clocks[seat_id].news_waiting]
    if mailed:
        # The prompt told what happened: news waiting for the digest is now old news.
        NewsItem.objects.filter(seat_id__in=mailed, mailed_at__isnull=True).update(mailed_at=now)
    if writes.news_items:
        NewsItem.objects.bulk_create(writes.news_items)
    if changed and along is None:
        _update_clocks(changed)
    for seat_id in writes.news_emails:
        news.schedule(seat_id)


def _lines(happened: _Happened, colour, player: Player, after: int, upto: int, only=None) -> list[str]:
    events = happened.between(after, upto)
    return [line for _seq, line in happenings.lines_for(events, colour, language=player.language,
                                                        only=only)]


def _prompt(writes: _Writes, game, seat, clock: SeatClock, player: Player, state,
            fingerprint: str | None) -> None:
    """The seat's prompt row, written by its delivery (`notifications.prompts_at_delivery`);
    fingerprint: the log's short hash at `state.seq`, or None."""
    # Table talk waiting for a digest is read now: this transaction marks it mailed (press.relay).
    render_spec = prompts_at_delivery.spec(after_seq=clock.last_prompt_seq or 0,
                                           talk=waiting_talk(seat, player), fingerprint=fingerprint)
    writes.outbox.append(dict(kind=Outbox.Kind.PROMPT, to_email=seat.email, render_spec=render_spec,
                              seq=state.seq, game=game, seat=seat, decision_seq=clock.seq))
    clock.last_prompt_seq = state.seq
    writes.news_mailed.append(seat.pk)


def _news(happened: _Happened, writes: _Writes, game, seat, player: Player, first_seq: int,
          last_seq: int) -> None:
    """The news lines of the new events for the seat's news emails or digest; nothing when its
    player takes news only in prompts (the prompt words the events themselves)."""
    if not player.news or player.delivery == Player.Delivery.PROMPT:
        return
    events = happened.between(first_seq - 1, last_seq)
    lines = happenings.lines_for(events, seat.colour, language=player.language,
                                 only=happenings.NEWS_TYPES)
    if not lines:
        return
    writes.news_items.extend(NewsItem(game=game, seat=seat, seq=seq, text=line) for seq, line in lines)
    if player.delivery == Player.Delivery.EVERY:
        writes.news_emails.append(seat.pk)
