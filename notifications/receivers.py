"""Reacting to games: each seat's clock, prompts, news and the end of the game.

Runs inside the transaction that appended the events (games.signals.events_recorded), so the rows
commit or roll back with them; delivery and the stand-in bot are enqueued only after the commit.

For every player seat: when its pending decisions changed, its clock opens at the new seq (with a
deadline) and it gets one prompt (none for a move the rules leave only one way to make, which the
service plays at once, `games.forced_moves`), which tells what happened since its previous prompt; when they
are gone, the clock closes (a prompt still in the outbox for the old decision is then skipped).
A seat that was not prompted gets the news among the new events as its player chose: only in its
next prompt (the default), in news emails (at most one a minute, `notifications.news`), or in
its digest. While a seat's email reply is being played, the seat's next prompt is written but its
delivery waits for the answer to that reply (`outbox.holding_prompts`, used by
`notifications.inbound`), so the player reads "Accepted" before the next "Your move". When
the game ends, every player seat gets the game-over email. A seat whose player acted by
themselves (not a deadline default, not the stand-in bot) has come back: its missed deadlines are
forgotten and the bot stops playing it.
"""
from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games import rules, store
from games.forced_moves import forced_command
from games.models import Command, Event
from games.signals import events_recorded
from notifications import happenings, news, outbox, players, prompts
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
    rows = Event.objects.filter(game=game, seq__gt=after, seq__lte=upto).order_by("seq")
    return [(row.seq, store.to_rules_event(row)) for row in rows]


@receiver(events_recorded, dispatch_uid="notifications.queue_emails")
def queue_emails(sender, *, game, state, pending_before, first_seq, last_seq, **kwargs) -> None:
    """Update every player seat's clock and write its prompt, news or game-over email (see the
    module docstring)."""
    before = _decisions_by_seat(pending_before)
    after = _decisions_by_seat(rules.pending(state))
    over = rules.is_over(state)
    command = Command.objects.filter(game=game, first_seq=first_seq).only("seat_id", "command_id").first()
    acted_by_player = command.seat_id if command is not None and not is_proxy(command.command_id) else None
    now = timezone.now()
    stand_ins_waiting = False
    for seat in game.seats.all():
        if seat.is_bot or not seat.email:
            continue
        clock, _ = SeatClock.objects.select_for_update().get_or_create(seat=seat, defaults={"game": game})
        player = players.player_for(seat.email)
        recipient = prompts.Recipient.of(seat, player)
        if seat.pk == acted_by_player:
            clock.missed_in_row = 0
            clock.stand_in = False
        mine = after.get(seat.colour)
        if over:
            clock.seq, clock.kind, clock.deadline, clock.remind_at = None, "", None, None
            happened = _lines(game, seat.colour, player, clock.last_prompt_seq, last_seq) + waiting_talk(seat, player)
            email = prompts.game_over_email(recipient, state, seed=game.seed,
                                            seed_commitment=game.seed_commitment, happened=happened)
            outbox.enqueue(kind=Outbox.Kind.GAME_OVER, to_email=seat.email, email=email,
                           seq=state.seq, game=game, seat=seat)
            clock.last_prompt_seq = last_seq
            NewsItem.objects.filter(seat=seat, mailed_at__isnull=True).update(mailed_at=now)
        elif mine != before.get(seat.colour) and mine and forced_command(state, seat.colour) is not None:
            # The service plays it at once in this transaction (games.services): nobody is asked,
            # and the seat's next real prompt tells it among what happened.
            clock.seq, clock.kind, clock.deadline, clock.remind_at = None, "", None, None
        elif mine != before.get(seat.colour) and mine:
            clock.seq, clock.kind, clock.opened_at, clock.reminded = state.seq, mine[0].kind, now, False
            players.schedule(clock, game, player, now)
            if clock.stand_in:
                stand_ins_waiting = True
            else:
                _prompt(game, seat, clock, recipient, player, state)
        else:
            if mine != before.get(seat.colour):  # its decision is gone
                clock.seq, clock.kind, clock.deadline, clock.remind_at = None, "", None, None
            if seat.pk != (command.seat_id if command is not None else None):
                # The seat whose command this was knows what it did (it gets an answer or its page).
                _news(game, seat, recipient, player, state, first_seq, last_seq)
            if clock.stand_in and mine:
                stand_ins_waiting = True
        clock.save()
    if stand_ins_waiting and not (command is not None and (command.command_id or "").startswith("standin:")):
        # The stand-in loop goes on by itself; only a command from elsewhere starts it.
        from notifications.tasks import play_standins  # tasks import this module

        game_id = game.pk
        transaction.on_commit(lambda: play_standins.delay(game_id), robust=True)


def _lines(game, colour, player: Player, after: int, upto: int, only=None) -> list[str]:
    events = events_between(game, after, upto)
    return [line for _seq, line in happenings.lines_for(events, colour, language=player.language,
                                                        only=only)]


def _prompt(game, seat, clock: SeatClock, recipient, player: Player, state) -> None:
    # Table talk waiting for a digest is told here, since the prompt marks it mailed (press.relay).
    happened = _lines(game, seat.colour, player, clock.last_prompt_seq, state.seq) + waiting_talk(seat, player)
    email = prompts.prompt_email(recipient, state, happened=happened, deadline=clock.deadline,
                                 decision_seq=clock.seq)
    outbox.enqueue(kind=Outbox.Kind.PROMPT, to_email=seat.email, email=email, seq=state.seq,
                   game=game, seat=seat, decision_seq=clock.seq)
    clock.last_prompt_seq = state.seq
    # The prompt told what happened: news waiting for the digest is now old news.
    NewsItem.objects.filter(seat=seat, mailed_at__isnull=True).update(mailed_at=timezone.now())


def _news(game, seat, recipient, player: Player, state, first_seq: int, last_seq: int) -> None:
    """Store the news lines of the new events for the seat's news emails or digest; nothing when
    its player takes news only in prompts (the prompt words the events themselves)."""
    if not player.news or player.delivery == Player.Delivery.PROMPT:
        return
    events = events_between(game, first_seq - 1, last_seq)
    lines = happenings.lines_for(events, seat.colour, language=player.language,
                                 only=happenings.NEWS_TYPES)
    if not lines:
        return
    NewsItem.objects.bulk_create([NewsItem(game=game, seat=seat, seq=seq, text=line) for seq, line in lines])
    if player.delivery == Player.Delivery.EVERY:
        news.schedule(seat.pk)
