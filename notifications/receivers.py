"""The mail follows the decisions: prompts, news and the end of the game, the stand-in notice,
and the host's notice of a player who left.

Runs inside the transaction that appended the events: the seats' clocks announce the decisions
that changed (`games.play.signals.decisions_changed`), and the rows written here commit or roll
back with them; delivery is enqueued only after the commit.

For every player seat whose clock opened on a new decision: one prompt, which tells what
happened since its previous prompt and is written by its delivery
(`notifications.prompts_at_delivery`) (none for a seat the stand-in bot plays, nor for a move
the table can see has only one way to make). A seat that was not prompted gets the news among the new
events as its player chose: only in its next prompt (the default), in news emails (at most one a
minute, `notifications.news`), or in its digest. While a seat's email reply is being played, the
seat's next prompt is written but its delivery waits for the answer to that reply
(`outbox.holding_prompts`, used by `notifications.inbound`), so the player reads "Accepted"
before the next "Your move". When the game ends, every player seat gets the game-over email
(which says the acceptances still held for the seat: `notifications.acceptances`). A game with a
table channel gets one row of public news for the whole append (`channels.table_news`).

This runs on every command, so it writes in bulk: the command's own events from the signal
(older ones from this process's recent events, `games.store.events_between`, or one query), one
insert of the emails carrying the update of the clocks (one statement on PostgreSQL,
`ClockUpdate.take`), and one delivery task after the commit (tests/games/play/test_query_count.py).
Whether a seat has news waiting is read with the clocks (`register_news_waiting`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.conf import settings
from django.dispatch import receiver
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games import rules, store
from games.play import sql as play_sql
from games.play.clocks import Change
from games.play.models import SeatClock
from games.play.signals import decisions_changed, player_left, seat_handed_over, stand_in_started
from games.record.options import can_be_dealt_again
from games.store import selectors
from notifications import acceptances, happenings, news, outbox, prompts, prompts_at_delivery, talk
from notifications import sql as mail_sql
from notifications.channels import reach, table_news
from notifications.models import NewsItem, Outbox
from players import preferences
from players.display_names import seat_names, seat_names_in
from players.models import Player


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
        self._names: dict[str, dict[str, str]] | None = None

    def names(self, language: str) -> dict[str, str]:
        """{colour: the name the table reads} in `language`, the reader's ("en", "fr"; a bot's
        and a departed player's seat are named in it: `players.display_names.seat_names_in`):
        one query, the first time an email of this append needs it, for every language the
        site speaks (an unknown one reads English, as the emails do)."""
        if self._names is None:
            spoken = [code for code, _name in settings.LANGUAGES]
            self._names = seat_names_in(self.game.seats.all(), spoken)
        return self._names.get(language) or self._names[settings.LANGUAGE_CODE]

    def between(self, after: int, upto: int) -> list[tuple[int, object]]:
        if self.new is None or upto != self.last_seq:
            return events_between(self.game, after, upto)
        if after < self.older_from:
            # Older events, up to the one before this append (whose hash the new events chain to).
            self.older = store.events_between(self.game, after, self.first_seq - 1, upto_hash=self.prev_hash)
            self.older_from = after
        return [(seq, e) for seq, e in self.older if seq > after] + [
            (seq, e) for seq, e in self.new if seq > after
        ]


@dataclass
class _Writes:
    """What the receivers write for one append, in one statement each at the end."""

    outbox: list = field(default_factory=list)
    news_items: list = field(default_factory=list)
    news_mailed: list = field(default_factory=list)  # seat ids whose waiting news a prompt told
    news_emails: list = field(default_factory=list)  # seat ids to schedule a news email for


def register_news_waiting() -> None:
    """Have the clocks' locked read tell, for each clock, whether its seat has news not yet mailed
    (`clock.news_waiting`): a prompt marks it mailed (NotificationsConfig.ready())."""
    play_sql.register_clock_column("news_waiting", mail_sql.news_waiting_column)
    # And whether its game has a table channel (`clock.table_channel`: its public news).
    play_sql.register_clock_column("table_channel", mail_sql.table_channel_column)


@receiver(decisions_changed, dispatch_uid="notifications.queue_emails")
def queue_emails(  # noqa: PLR0913 - the keywords of the decisions_changed signal (games/play/signals.py)
    sender,
    *,
    game,
    state,
    clocks,
    updates,
    first_seq,
    last_seq,
    events=None,
    acting_seat_id=None,
    prev_hash=None,
    last_hash=None,
    now,
    **kwargs,
) -> None:
    """Write every player seat's prompt, news or game-over email (see the module docstring).

    Queries: at most one read of older events (none when this process appended them:
    `games.store.events_between`), one insert of the outbox rows carrying the update of the
    clocks that changed (on PostgreSQL; two statements elsewhere); news lines, when a player
    takes them, one insert more.
    """
    # The log's short hash at the state the prompts show, in hand: their delivery need not read it.
    head_fingerprint = (
        last_hash[: selectors.FINGERPRINT_DIGITS] if last_hash and state.seq == last_seq else None
    )
    happened = _Happened(game, events, first_seq, last_seq, prev_hash)
    writes = _Writes()
    for clock in clocks:
        seat, player = clock.seat, clock.player
        if clock.change is Change.OVER:
            _game_over(happened, writes, clock, state, last_hash)
        elif clock.change is Change.OPENED:
            _prompt(writes, game, seat, clock, player, state, head_fingerprint)
        elif clock.change in (Change.CLOSED, Change.UNCHANGED) and seat.pk != acting_seat_id:
            # The seat whose command this was knows what it did (it gets an answer or its page).
            _news(happened, writes, game, seat, player, first_seq, last_seq)
    if settings.CHAT_TARGETS and any(getattr(clock, "table_channel", False) for clock in clocks):
        # The table's public news: one row for the whole append (notifications.channels.table_news).
        writes.outbox.append(table_news.item(game, after=first_seq - 1, upto=last_seq))
    _write(writes, clocks, updates, now)


def _game_over(happened: _Happened, writes: _Writes, clock, state, last_hash: str | None) -> None:
    """Write the game-over email of the clock's seat into `writes`: what happened since its last
    prompt, the seed, and the acceptance held for it, if any."""
    with rules.players_named(happened.names(clock.player.language)):
        _game_over_email(happened, writes, clock, state, last_hash)


def _game_over_email(happened: _Happened, writes: _Writes, clock, state, last_hash: str | None) -> None:
    seat, player, game, last_seq = clock.seat, clock.player, happened.game, happened.last_seq
    lines = _lines(happened, seat.colour, player, clock.last_prompt_seq, last_seq) + talk.waiting_lines(
        seat, player
    )
    recipient = _in_hand(prompts.Recipient.of(seat, player), last_seq, last_hash)
    email = prompts.game_over_email(
        recipient,
        state,
        seed=game.seed,
        seed_commitment=game.seed_commitment,
        happened=lines,
        accepted=acceptances.fold_into(seat.pk, seat.email),
        rematch=can_be_dealt_again(game.setup),
    )
    writes.outbox.append(
        dict(
            kind=Outbox.Kind.GAME_OVER, to_email=seat.email, email=email, seq=state.seq, game=game, seat=seat
        )
    )
    clock.last_prompt_seq = last_seq
    writes.news_mailed.append(seat.pk)


@receiver(stand_in_started, dispatch_uid="notifications.stand_in_notice")
def stand_in_notice(sender, *, game, clock, **kwargs) -> None:
    """Tell the player that the bot now plays their seat, and how to take it back (a NOTICE)."""
    seat = clock.seat
    player = preferences.player_for(seat.email)
    state, head = store.load(game)
    with translation.override(player.language or "en"):
        message = _(
            "You let {count} deadlines in a row run out, so a bot now plays {colour} for you "
            "and the game goes on. To take your seat back, reply to this email (any text), or "
            "play a move on your page: the bot stops at once."
        ).format(count=clock.missed_in_row, colour=rules.colour_name(seat.colour))
        email = prompts.notice_email(
            prompts.Recipient.of(seat, player),
            state,
            message=message,
            decision_seq=head,
            about=_("a bot now plays for you"),
        )
    outbox.enqueue(kind=Outbox.Kind.NOTICE, to_email=seat.email, email=email, seq=head, game=game, seat=seat)


@receiver(seat_handed_over, dispatch_uid="notifications.news_of_the_previous_holder")
def news_of_the_previous_holder(sender, *, game, seat, **kwargs) -> None:
    """The news lines kept for `seat` and not mailed yet were written for the person who held it
    (redacted for them: table talk to them among them): they are not the newcomer's, and the one
    who left no longer gets the game's mail. Deleted in the hand-over's transaction."""
    NewsItem.objects.filter(seat=seat, mailed_at__isnull=True).delete()


@receiver(player_left, dispatch_uid="notifications.host_told_of_departure")
def host_told_of_departure(sender, *, game, seat, by_host: bool, **kwargs) -> None:
    """Tell the game's host (a NOTICE, in the host's language) that the player of `seat` left
    (they erased their account) and that the stand-in bot plays the seat now. The email names
    the seat only as the table reads it now ("Player 2 (left)"): never the person who left.
    Nothing when the host is the one who left, or the game has no host (any more). Its link is
    the host's page of the game, which signs nobody in."""
    host = game.host if game.host_id is not None and not by_host else None
    if host is None or not host.email:
        return
    player = preferences.player_for(host.email)
    with translation.override(player.language or "en"):
        context = {
            "game_id": game.pk,
            "name": seat_names([seat])[seat.colour],
            "colour": seat.colour,
            # The host's page, plain: it asks a visitor to sign in, so a forwarded notice
            # gives away nothing (docs/security.md; only the sign-in email signs in).
            "link": f"{settings.SITE_URL}{reverse('lobby:host', args=[game.pk])}",
        }
        email = prompts.render_email("player_left", context, headers={})
    outbox.enqueue(
        kind=Outbox.Kind.NOTICE, to_email=host.email, email=email, seq=store.head(game)[0], game=game
    )


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


def _write(writes: _Writes, clocks: list, updates, now) -> None:
    """The receivers' writes for one append, one statement each (those with nothing to write
    cost nothing); on PostgreSQL the clocks' update rides with the outbox insert."""
    along = updates.take() if writes.outbox else None
    # Push first, email after (notifications.channels.reach).
    rows = reach.with_pushes(writes.outbox, now=now) if writes.outbox else []
    waiting = {clock.seat_id for clock in clocks if clock.news_waiting}
    _mark_news_told(rows, [seat_id for seat_id in writes.news_mailed if seat_id in waiting], now)
    if rows:
        outbox.enqueue_all(rows, along=along)
    if writes.news_items:
        NewsItem.objects.bulk_create(writes.news_items)
    for seat_id in writes.news_emails:
        news.schedule(seat_id)


def _mark_news_told(rows: list[dict], seat_ids: list[int], now) -> None:
    """Mark mailed the news waiting for the digest or news emails (`NewsItem`s, table talk
    among them) of the seats `seat_ids` whose prompt or game-over email is among the outbox
    `rows`: that email tells it. A seat whose prompt goes by push or chat alone ("never",
    `reach.with_pushes`) keeps its news for its digest. A prompt's row notes the items it marked
    (`render_spec["news_ids"]`), so that a prompt never sent, answered first, gives them back
    to the digest (`outbox.news_untold`). One query to read them, one to mark; none without."""
    emails = {
        row["seat"].pk: row
        for row in reversed(rows)
        if row.get("channel") is None and row.get("seat") is not None and row["kind"] in _TELLING
    }
    told = [seat_id for seat_id in seat_ids if seat_id in emails]
    if not told:
        return
    waiting = NewsItem.objects.filter(seat_id__in=told, mailed_at__isnull=True)
    found = list(waiting.values_list("pk", "seat_id"))
    for seat_id, row in emails.items():
        if row.get("render_spec") is not None:
            row["render_spec"]["news_ids"] = [pk for pk, seat in found if seat == seat_id]
    NewsItem.objects.filter(pk__in=[pk for pk, _seat in found]).update(mailed_at=now)


# The emails that tell a seat what happened since its last one (`_mark_news_told`).
_TELLING = frozenset({Outbox.Kind.PROMPT, Outbox.Kind.GAME_OVER})


def _lines(happened: _Happened, colour, player: Player, after: int, upto: int, only=None) -> list[str]:
    events = happened.between(after, upto)
    # News (`only`) leaves passes out; the game-over email tells the seat's own passes.
    passed = happenings.passes_for_the_hand(happened.game, colour, events) if only is None else frozenset()
    return [
        line
        for _seq, line in happenings.lines_for(
            events, colour, language=player.language, only=only, passed_for_the_hand=passed
        )
    ]


def _prompt(
    writes: _Writes, game, seat, clock: SeatClock, player: Player, state, fingerprint: str | None
) -> None:
    """The seat's prompt row, written by its delivery (`notifications.prompts_at_delivery`);
    fingerprint: the log's short hash at `state.seq`, or None."""
    # Table talk waiting for a digest is found now: this transaction marks it mailed
    # (press.relay); the prompt keeps its numbers, and opens its words when it is written.
    render_spec = prompts_at_delivery.spec(
        after_seq=clock.last_prompt_seq or 0,
        talk_numbers=talk.waiting_numbers(seat, player),
        fingerprint=fingerprint,
    )
    writes.outbox.append(
        dict(
            kind=Outbox.Kind.PROMPT,
            to_email=seat.email,
            render_spec=render_spec,
            seq=state.seq,
            game=game,
            seat=seat,
            decision_seq=clock.seq,
        )
    )
    clock.last_prompt_seq = state.seq
    writes.news_mailed.append(seat.pk)


def _news(
    happened: _Happened, writes: _Writes, game, seat, player: Player, first_seq: int, last_seq: int
) -> None:
    """The news lines of the new events for the seat's news emails or digest; nothing when its
    player takes news only in prompts (the prompt words the events themselves)."""
    if not player.news or player.delivery == Player.Delivery.PROMPT:
        return
    events = happened.between(first_seq - 1, last_seq)
    # The lines are stored as written: they name the players as the table does ("Ann (blue)").
    with rules.players_named(happened.names(player.language)):
        lines = happenings.lines_for(
            events, seat.colour, language=player.language, only=happenings.NEWS_TYPES
        )
    if not lines:
        return
    writes.news_items.extend(NewsItem(game=game, seat=seat, seq=seq, text=line) for seq, line in lines)
    if player.delivery == Player.Delivery.EVERY:
        writes.news_emails.append(seat.pk)
