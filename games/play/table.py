"""The table log: what the host (and the service) did around the table, outside the rules.

Writes here never touch the rules log (`Event`): the rules log holds only what `rules.decide`
produced, so that it replays and verifies from the seed. Each act is one `TableEvent` row
(docs/table-log.md), written in the same transaction as the change it records (to the game's
options or a seat), under the game's row lock (the same lock as `store.append`), so two hosts'
clicks or a click and a command never interleave.

Types and payloads (no email address ever: the history is public):
    DeadlineExtended {"seat": colour or None (every seat), "hours": n}
    GamePaused {}
    GameResumed {"paused_hours": float}
    SeatReplaced {"seat": colour, "now": "bot" | "player", "before": "bot" | "player"}
    PlayerLeft {"seat": colour} (its player erased their account: the bot plays the seat)
    VisibilityChanged {"public": bool}
    TableChannelSet {"chat": "Discord" | "Matrix" | "Telegram" | "ntfy"} (never the address)
    TableChannelRemoved {} (by the host), {"by": "operator" | "host_left"} (actor "service")

Every function raises `TableError` (with a message for the host) when the act is not possible,
and writes nothing then. The host's acts take `host`, the account acting as the game's host (the
host tools page passes the signed-in account): it is checked under the game's row lock, where the
act is written, so that the tools of a host erased (`Game.host` None) in the instant they posted
act no more (`NotTheHost`); None (the default) checks nobody, for the service's own callers.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from games import rules, store
from games.play import tasks
from games.play.commands import submit_command
from games.play.models import SeatClock, StandingOrder, TableChannel
from games.play.schedule import schedule
from games.play.signals import player_left, seat_handed_over
from games.play.standins import enqueue_after_commit as play_stand_ins_after_commit
from games.play.standins import stand_in_level
from games.record.options import is_paused
from games.rules import colour_name
from games.store.models import Event, Game, Seat, TableEvent, new_seat_token
from games.story.dates import dated
from players import preferences
from players.accounts import normalise_email, user_for_email
from players.chat_targets import TargetError, check_url
from players.display_names import seat_names

# The longest single extension a host may grant (hours): a typo of 2400 would freeze a game.
MAX_EXTENSION_HOURS = 24 * 14


class TableError(Exception):
    """The host's act is not possible now (the message says why); nothing was written."""


class NotTheHost(TableError):
    """The act was asked for as the game's host by an account that is not its host as the game's
    row lock finds it (the host erased their account just before); nothing was written."""


# Whether a game's present players keep their seats against its host (`seat_replace`): a rated
# game, or one of players who may not know each other (an open table's, a rematch's). The lobby,
# which knows the tables games come from, fills it (`register_seats_kept`); a game no check
# claims (private among friends, or started without a table) leaves the host every seat.
_SEATS_KEPT: list[Callable[[Game], bool]] = []


def register_seats_kept(check: Callable[[Game], bool]) -> None:
    """Add `check(game) -> bool`: True when the present players of `game` keep their seats (the
    host may give away only an absent player's seat, docs/rulings.md "Host tools"). From a room's
    AppConfig.ready(); registering the same function again changes nothing."""
    if check not in _SEATS_KEPT:
        _SEATS_KEPT.append(check)


def record(*, game: Game, type: str, payload: dict, actor: str) -> TableEvent:
    """Append one table event to `game`'s table log; call inside a transaction that holds the
    game's row lock (`_locked`). actor: "host" or "service"."""
    seq = (TableEvent.objects.filter(game=game).aggregate(m=Max("seq"))["m"] or 0) + 1
    return TableEvent.objects.create(
        game=game,
        seq=seq,
        type=type,
        payload=payload,
        actor=actor,
        at_seq=store.head(game)[0],
    )


def _locked(game: Game, host=None, *, over: bool = False) -> Game:
    """`game`'s row, locked (the lock `store.append` takes), once `host` (an account, or None: not
    checked) is found to be its host there (`NotTheHost` otherwise) and, unless `over`, the game
    is found in progress (TableError otherwise)."""
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if host is not None and (locked.host_id is None or locked.host_id != host.pk):
        raise NotTheHost(_("Only the host of this game has these tools."))
    if locked.is_over and not over:
        raise TableError(_("The game is over."))
    return locked


def deadline_extend(
    *, game: Game, colour: str | None, hours: int, actor: str = "host", host=None
) -> TableEvent:
    """Give `colour`'s pending decision (None: every seat's) `hours` more hours. `host`: the
    account acting as the host, checked under the lock (`NotTheHost`; None: nobody checked).

    Recorded in options["extensions"] as {"seat", "hours", "at_seq"}: see
    `games.record.options.extension_hours` for which decision it applies to.
    """
    # `type`, not isinstance: True is a Python int (1), and no number of hours.
    if type(hours) is not int or not 1 <= hours <= MAX_EXTENSION_HOURS:
        raise TableError(_("An extension is 1 to {hours} hours.").format(hours=MAX_EXTENSION_HOURS))
    with transaction.atomic():
        locked = _locked(game, host)
        if colour is not None and not locked.seats.filter(colour=colour).exists():
            raise TableError(_("Nobody plays {colour} in this game.").format(colour=colour_name(colour)))
        options = dict(locked.options)
        options["extensions"] = list(options.get("extensions", [])) + [
            {"seat": colour, "hours": hours, "at_seq": store.head(locked)[0]}
        ]
        _save_options(locked, options, game)
        return record(
            game=locked, type="DeadlineExtended", payload={"seat": colour, "hours": hours}, actor=actor
        )


def game_pause(*, game: Game, actor: str = "host", host=None) -> TableEvent:
    """Stop the deadline clocks until `game_resume` (commands are still accepted meanwhile).
    `host`: the account acting as the host, checked under the lock (`NotTheHost`)."""
    with transaction.atomic():
        locked = _locked(game, host)
        if is_paused(locked.options):
            raise TableError(_("The game is already paused."))
        options = dict(locked.options)
        options["pauses"] = list(options.get("pauses", [])) + [
            {"from": timezone.now().isoformat(), "until": None}
        ]
        _save_options(locked, options, game)
        return record(game=locked, type="GamePaused", payload={}, actor=actor)


def game_resume(*, game: Game, actor: str = "host", host=None) -> TableEvent:
    """Start the deadline clocks again; the time paused is added to every pending deadline, and
    the stand-in bot plays again for the seats of absent players (docs/deadlines.md). `host`: the
    account acting as the host, checked under the lock (`NotTheHost`)."""
    with transaction.atomic():
        locked = _locked(game, host)
        if not is_paused(locked.options):
            raise TableError(_("The game is not paused."))
        options = dict(locked.options)
        pauses = [dict(p) for p in options["pauses"]]
        now = timezone.now()
        pauses[-1]["until"] = now.isoformat()
        options["pauses"] = pauses
        _save_options(locked, options, game)
        hours = (now - datetime.fromisoformat(pauses[-1]["from"])).total_seconds() / 3600
        if SeatClock.objects.filter(game=locked, stand_in=True, seq__isnull=False).exists():
            play_stand_ins_after_commit(locked.pk)  # they waited for the resume
        return record(game=locked, type="GameResumed", payload={"paused_hours": round(hours, 2)}, actor=actor)


def game_set_public(*, game: Game, public: bool, actor: str = "host", host=None) -> TableEvent:
    """Make the game public (anyone may follow it: it is listed under "Games to watch" and its
    followers get a daily digest, docs/spectators.md) or not public any more (followers get
    nothing until it is public again). The table option `public` (docs/game-options.md).
    Raises TableError when the game is already so, or over; NotTheHost when `host` (the account
    acting as the host) is not the host under the lock."""
    public = bool(public)
    with transaction.atomic():
        locked = _locked(game, host)
        if bool(locked.options.get("public", False)) == public:
            raise TableError(_("The game is already public.") if public else _("The game is not public."))
        _save_options(locked, {**locked.options, "public": public}, game)
        return record(game=locked, type="VisibilityChanged", payload={"public": public}, actor=actor)


# The chat service of a table channel's address (its apprise scheme), as the table log names it.
CHAT_SERVICES = {
    "discord": "Discord",
    "matrix": "Matrix",
    "matrixs": "Matrix",
    "tgram": "Telegram",
    "ntfy": "ntfy",
    "ntfys": "ntfy",
}


def table_channel_set(*, game: Game, url: str, language: str = "en", host=None) -> TableChannel:
    """Make `url` (an apprise URL, e.g. a Discord or Matrix webhook) the game's table channel,
    in place of any other: it gets the table's public news in `language` ("en"/"fr",
    `notifications.channels.table_news`). Checked as a player's chat target is
    (`players.chat_targets.check_url`: never this site nor a local address). The table log says
    which chat service gets the news (`TableChannelSet`), so that every player of the game knows
    its news leave the table, never the address (it may hold the chat service's secret, and the
    history is public). Raises TableError when chat is off on this site (CHAT_TARGETS), the game
    is over or the URL refused; NotTheHost when `host` (the account acting as the host) is not
    the host under the lock."""
    if not settings.CHAT_TARGETS:
        raise TableError(_("Chat is not turned on on this site."))
    try:
        checked = check_url(url)
    except TargetError as error:
        raise TableError(str(error)) from None
    with transaction.atomic():
        locked = _locked(game, host)
        channel, _created = TableChannel.objects.update_or_create(
            game=locked, defaults={"url": checked, "language": language if language == "fr" else "en"}
        )
        service = CHAT_SERVICES.get(checked.split("://", 1)[0].lower(), "chat")
        record(game=locked, type="TableChannelSet", payload={"chat": service}, actor="host")
    return channel


def table_channel_remove(*, game: Game, host=None) -> None:
    """Remove the game's table channel: it gets nothing more (news already written is not sent
    either), and the table log says so (`TableChannelRemoved`), except in a game over: its
    address (the host's data, maybe holding the chat service's secret) is the host's to remove
    then too, but nothing is recorded after a game's end (as for `table_channel_stopped`).
    Raises TableError when the game has none; NotTheHost when `host` (the account acting as the
    host) is not the host under the lock."""
    with transaction.atomic():
        locked = _locked(game, host, over=True)
        if locked.is_over:
            removed, _by_model = TableChannel.objects.filter(game=locked).delete()
        else:
            removed = _channel_removed(locked, payload={}, actor="host")
        if not removed:
            raise TableError(_("This game has no table channel."))


# Who, besides the host, stops a table channel (`TableChannelRemoved`'s "by", actor "service"):
# the site's operator in the admin, or the host's own departure (their account erased).
STOPPED_BY = ("operator", "host_left")


def table_channel_stopped(*, game: Game, by: str) -> bool:
    """Remove the game's table channel for somebody else than its host (`by`, one of
    `STOPPED_BY`): like `table_channel_remove`, the history says it stopped
    (`TableChannelRemoved` {"by": by}, actor "service"; docs/notifications.md, "Your table's
    chat": "The game's history tells every player [...] when it stops"), except in a game over,
    whose news stopped with its end (nothing is recorded after it, as for `seat_left`). Returns
    whether the game had a channel. In the caller's transaction, if any; locks the game's row.
    Raises ValueError for another `by`."""
    if by not in STOPPED_BY:
        raise ValueError(f"a table channel is stopped by one of {STOPPED_BY}, not {by!r}")
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.is_over:
            removed, _by_model = TableChannel.objects.filter(game=locked).delete()
            return bool(removed)
        return _channel_removed(locked, payload={"by": by}, actor="service")


def forget_ended_table_channels(*, keep_days: int, now: datetime | None = None) -> int:
    """Delete the table channels of the games that ended more than `keep_days` days before
    `now` (TABLE_CHANNEL_KEEP_DAYS, by the sweep; docs/privacy.md): a game over gets no news
    but those already written (its result among them, retried OUTBOX_RETRY_DAYS, then sent
    again by the operator), so its address, which may hold the chat service's secret, is kept
    no longer than that. A game ended when its last event was recorded. Nothing is recorded in
    the table log (nothing is after a game's end). Returns how many were deleted."""
    cutoff = (now or timezone.now()) - timedelta(days=keep_days)
    ended = Event.objects.filter(game=OuterRef("game")).order_by("-seq").values("recorded_at")[:1]
    old = (
        TableChannel.objects.filter(game__status=Game.Status.OVER)
        .annotate(ended_at=Subquery(ended))
        .filter(ended_at__lt=cutoff)
    )
    removed, _by_model = TableChannel.objects.filter(pk__in=list(old.values_list("pk", flat=True))).delete()
    return removed


def _channel_removed(game: Game, *, payload: dict, actor: str) -> bool:
    """Delete the table channel of `game` (locked by the caller) and, if it had one, record
    `TableChannelRemoved` with `payload` and `actor`. Whether it had one."""
    removed, _by_model = TableChannel.objects.filter(game=game).delete()
    if removed:
        record(game=game, type="TableChannelRemoved", payload=payload, actor=actor)
    return bool(removed)


def seat_replace(*, game: Game, colour: str, email: str | None, actor: str = "host", host=None) -> Seat:
    """Give the seat `colour` to the bot (email None; it plays as the stand-in for an absent
    player does, `standins.stand_in_level()`) or to the player of `email`.

    The trust rule (docs/rulings.md, "Host tools"): in a game whose present players keep their
    seats (`register_seats_kept`: rated, or among strangers), the host gives away a player's
    seat only when that player is absent (`absent`) or it is the host's own. The seat gets a new
    secret token, so the previous player's links and reply addresses stop acting for it; the
    previous player's standing orders are deleted and their "never ask" policies set back to
    "ask" (`set_policy` commands of the seat in the rules log), so the newcomer starts with
    none; the seat's attendance starts afresh (no stand-in, no deadline missed), and so do its
    answer times (`answer_times`: the clock keeps bare durations, with no holder and no date, so
    the previous player's at this seat are not kept; their other seats' are theirs, and the
    decisions they settled here stay counted for them by when they held it), and
    `seat_handed_over` tells who held it and whether they left it (absent, or the host's own:
    the ratings rank them last, docs/ratings.md). A bot that now has a decision plays after the
    commit. Raises TableError for an unknown colour, a present player's kept seat (saying when
    it may be given), an invalid email, or an email that already plays another seat here;
    NotTheHost when `host` (the account acting as the host) is not the host under the lock.
    """
    with transaction.atomic():
        locked = _locked(game, host)
        seat = locked.seats.select_for_update().filter(colour=colour).first()
        if seat is None:
            raise TableError(_("Nobody plays {colour} in this game.").format(colour=colour_name(colour)))
        before = "bot" if seat.is_bot else "player"
        previous_player, previous_email = (None, "") if seat.is_bot else (seat.user_id, seat.email)
        clock = SeatClock.objects.filter(seat=seat).first()
        stood_in = bool(clock and clock.stand_in)
        left = _leaves(locked, seat, clock, actor=actor)
        _hand_to(locked, seat, email)
        seat.token = new_seat_token()
        seat.save(update_fields=["is_bot", "bot_level", "email", "user", "token"])
        # The previous player's attendance and answer times are not the newcomer's: nobody stands
        # in for them yet, and their profile and the table read no answer of theirs yet.
        SeatClock.objects.filter(seat=seat).update(
            stand_in=False, missed_in_row=0, answer_seconds=[], last_web_at=None
        )
        # Orders and "never ask" policies belong to the person who left them, not to the seat:
        # the newcomer starts with none (and never reads the previous player's).
        StandingOrder.objects.filter(seat=seat).delete()
        record(
            game=locked,
            type="SeatReplaced",
            payload={"seat": colour, "now": "bot" if seat.is_bot else "player", "before": before},
            actor=actor,
        )
        _forget_policies(locked, seat)
        seat_handed_over.send(
            sender=seat_replace,
            game=locked,
            seat=seat,
            previous_player=previous_player,
            previous_email=previous_email,
            stood_in=stood_in,
            left=left,
        )
        if seat.is_bot:
            tasks.enqueue_after_commit(locked.pk)
    return seat


def _hand_to(game: Game, seat: Seat, email: str | None) -> None:
    """Make `seat` (locked, not saved) the bot's (`email` None; a player's seat gets the
    stand-in's level) or the player's of `email`. Raises TableError for an invalid email, or one
    that already plays this seat or another seat of `game`."""
    if email is None:
        if not seat.is_bot:
            seat.bot_level = stand_in_level()
        seat.is_bot, seat.email, seat.user = True, "", None
        return
    try:
        user = user_for_email(email)
    except ValueError as error:
        raise TableError(str(error)) from None
    if game.seats.filter(user=user).exclude(pk=seat.pk).exists():
        raise TableError(_("{email} already plays another seat in this game.").format(email=email))
    if seat.user_id == user.pk:
        raise TableError(
            _("{email} already plays {colour}.").format(email=email, colour=colour_name(seat.colour))
        )
    seat.is_bot, seat.email, seat.user = False, normalise_email(email), user


def absent(game: Game, seat: Seat, clock: SeatClock | None, now: datetime | None = None) -> bool:
    """Whether the player of `seat` (a player seat of `game`) is away from it as of `now`: the
    stand-in bot plays for them (docs/deadlines.md), a deadline of theirs ran out with their
    decision open since they last acted themselves (`SeatClock.missed_in_row`, reset by a
    command of their own), or their open decision's deadline has passed and its default is
    about to be played (computed again: a pause, an extension or a vacation moves it)."""
    if clock is None:
        return False
    if clock.stand_in or clock.missed_in_row > 0:
        return True
    if clock.seq is None or _decision_is_private(game, seat):
        return False
    clock.seat = seat
    schedule(clock, game, preferences.player_for(seat.email), now)  # in memory, not saved
    return clock.deadline is not None and clock.deadline <= (now or timezone.now())


def _decision_is_private(game: Game, seat: Seat) -> bool:
    """Whether `seat`'s open decision is one nobody else may know of (`rules.pending` names the
    seat, `rules.pending_for` a spectator does not): a Triskel window that asks only the holders
    of an answer, where who was asked is hidden like a hand (docs/rulings.md, "Who is asked"), so
    the host's tools neither name its deadline nor count it as the player's absence."""
    state, _head = store.load(game)
    asked = any(decision.seat == seat.colour for decision in rules.pending(state))
    return asked and not any(decision.seat == seat.colour for decision in rules.pending_for(state, None))


def _leaves(game: Game, seat: Seat, clock: SeatClock | None, *, actor: str) -> bool:
    """Whether handing `seat` over makes its player one who left the game (ranked last when it
    is rated, docs/ratings.md): the host's own seat (they give it up themselves) or an absent
    player's (`absent`). Raises TableError, saying why and when it becomes possible, for a
    present player's seat in a game whose present players keep their seats (the trust rule,
    docs/rulings.md "Host tools"); a bot's seat leaves nobody."""
    if seat.is_bot:
        return False
    if _held_by_host(game, seat) or absent(game, seat, clock):
        return True
    if actor == "host" and any(check(game) for check in _SEATS_KEPT):
        private = clock is not None and clock.seq is not None and _decision_is_private(game, seat)
        raise TableError(_not_late(seat, None if private else clock))
    return False


def _not_late(seat: Seat, clock: SeatClock | None) -> str:
    """The refusal of a present player's seat, in words: who, and when it may be given away
    (`clock`: the seat's clock when its open decision is public, else None: nothing said of it)."""
    name = seat_names([seat]).get(seat.colour) or _("The player of {colour}").format(
        colour=colour_name(seat.colour)
    )
    said = _(
        "{name} is not late: you can give their seat away once a deadline of theirs passes with "
        "their decision open (or when they leave the game)."
    ).format(name=name)
    if clock is not None and clock.seq is not None and clock.deadline is not None:
        when = dated(clock.deadline.astimezone(UTC), "l j F Y, H:i")
        said += " " + _("Their decision now runs out on {when} UTC.").format(when=when)
    elif clock is not None and clock.seq is not None:
        said += " " + _("This game gives their decision now no deadline.")
    return said


def seat_left(*, seat: Seat) -> None:
    """The player of `seat` erased their account (docs/privacy.md): the seat keeps no address
    and no account, gets a new secret token (their links and reply addresses stop acting) and
    reads "Player N (left)" (`Seat.left_at`); their standing orders go. In a game in progress,
    the stand-in bot (`standins.stand_in_level()`) plays the seat from now on, its "never ask"
    policies set back to "ask", and the table log says so (`PlayerLeft`, told to every reader
    in the history, and to the host by email when the host is another person: `signals
    .player_left`). In the caller's transaction; locks the game's row first."""
    game = Game.objects.select_for_update().get(pk=seat.game_id)
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    in_progress = not game.is_over and not seat.is_bot
    by_host = _held_by_host(game, seat)
    if in_progress:
        seat.is_bot, seat.bot_level = True, stand_in_level()
    seat.email, seat.user, seat.token, seat.left_at = "", None, new_seat_token(), timezone.now()
    seat.save(update_fields=["is_bot", "bot_level", "email", "user", "token", "left_at"])
    StandingOrder.objects.filter(seat=seat).delete()
    if in_progress:
        record(game=game, type="PlayerLeft", payload={"seat": seat.colour}, actor="service")
        _forget_policies(game, seat)
        tasks.enqueue_after_commit(game.pk)
        player_left.send(sender=seat_left, game=game, seat=seat, by_host=by_host)


def _held_by_host(game: Game, seat: Seat) -> bool:
    """True when `seat` is played by the game's host (by account or by address)."""
    if game.host_id is None:
        return False
    if seat.user_id == game.host_id:
        return True
    host_email = game.host.email if game.host else ""
    return bool(seat.email and host_email) and normalise_email(seat.email) == normalise_email(host_email)


def _forget_policies(game: Game, seat: Seat) -> None:
    """Set back to "ask" every "never ask" policy of `seat` (`set_policy` commands of the seat,
    recorded in the rules log, keyed by the replacement), inside the caller's transaction."""
    state, head = store.load(game)
    for card, policy in sorted(state.policies.get(seat.colour, {}).items()):
        if policy != "never":
            continue
        result = submit_command(
            game=game,
            seat=seat,
            command={"type": "set_policy", "card": card, "policy": "ask"},
            expected_seq=head,
            command_id=f"seat-replaced:{seat.colour}:{head}:{card}",
            play_bots=False,
        )
        head = result.seq


def _save_options(locked: Game, options: dict, game: Game) -> None:
    Game.objects.filter(pk=locked.pk).update(options=options)
    locked.options = options
    game.options = options
