"""Prompts written when they are delivered, not in the command that called for them.

A command that gives a seat a decision writes the seat's prompt row in its own transaction, as
every email is, but only with what the prompt is made from (`spec`): the decision's `seq` (the
row's `seq` and `decision_seq`), the seq of the seat's previous prompt (what happened since then
is told), and the table talk that waited for a digest, by its messages' numbers (found now: the
same transaction marks its lines mailed; its words are opened when the email is written, so
that no row waiting for its delivery holds a copy of a player's words, and a message whose
author was erased meanwhile is not told: docs/privacy.md). The delivery (`notifications.outbox.deliver`, in the worker) writes the email from the
log (`write`) just before sending it, and keeps it on the row. Its Message-ID comes from the row,
so a delivery retried after a failed attempt sends the same one (a provider that took the first
attempt after all delivers one email, or mail clients see one).

Why: rendering a prompt (its decision block, board, news lines and three templates) was a third
of a command's time; in the worker it no longer holds the game's row lock or the player's reply,
and a prompt that went stale before its delivery (the decision was taken on the web meanwhile)
is never written at all.

What the email shows does not change: the state is the fold of the log up to the row's `seq`
(the log is append-only, so that state is the one the command left), the news lines are the
same events redacted for the same seat. The deadline, and the player's preferences (language,
time zone), are read when it is written: a deadline rescheduled meanwhile (a vacation) shows as
it now stands.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from django.utils import translation

from games import rules, store
from notifications import happenings, prompts, talk
from notifications.models import Outbox
from players import preferences
from players.display_names import game_seat_names
from players.models import Player


def spec(*, after_seq: int, talk_numbers: list[int], fingerprint: str | None = None) -> dict:
    """What a prompt row is written from, as JSON: after_seq: the seq of the seat's previous
    prompt (the events after it up to the row's `seq` are told); talk_numbers: the numbers of
    the table-talk messages that waited for the seat's digest (`notifications.talk`), never
    their words; fingerprint: the log's short hash at the row's `seq`, when the command has it
    in hand (`games.store.selectors.log_fingerprint`; None: read when written)."""
    return {"after_seq": after_seq, "talk_numbers": list(talk_numbers), "fingerprint": fingerprint}


def _state_and_events(game, seq: int, after: int):
    """The fold of the game's log up to `seq` and `[(seq, rules.Event)]` of its events after
    `after`: this process's latest state when it is that one (committed events never change)
    and its recent events, else both from one read of the log (`store.load_telling`)."""
    recent = store.recent_state(game)
    if recent is not None and recent[1] == seq:
        return recent[0], store.events_between(game, after, seq, upto_hash=recent[2])
    return store.load_telling(game, until=seq, after=after)


def write(
    row: Outbox, *, deadline: datetime | None, player: Player | None = None, accepted: list | tuple = ()
) -> prompts.RenderedEmail:
    """The prompt email of `row` (a PROMPT row with a `render_spec`), for its seat as the seat
    may see the game at `row.seq` (`notifications.prompts.prompt_email`); deadline: the seat
    clock's, as it now stands (the caller read the clock to know the prompt is not stale);
    player: the Player of the row's address when the caller read it (None: looked up here);
    accepted: the seat's replies accepted since its last email (`acceptances.Accepted`), said
    at the top.

    Queries: the seat's player unless given, the state with the events to tell (a snapshot and
    one read of the log; none when this process holds them), the seats with their names (one
    query), the seat's standing orders unless the delivery's read found none
    (`row.seat_has_orders`), and the log's fingerprint unless the row has it. Raises
    store.StoreError when the log cannot be folded up to `row.seq`.
    """
    player = player or preferences.player_for(row.to_email)
    # Every sentence names the players ("Ann (blue)"): names are public at the table. A bot's
    # seat and a departed player's are named in the reader's language ("Robot au hasard").
    with translation.override(player.language or "en"):
        names = game_seat_names(row.game.pk)
    with rules.players_named(names):
        return _write(row, deadline=deadline, player=player, accepted=accepted)


def _write(row: Outbox, *, deadline: datetime | None, player: Player, accepted) -> prompts.RenderedEmail:
    written_from = row.render_spec
    game, seat = row.game, row.seat
    state, events = _state_and_events(game, row.seq, written_from["after_seq"])
    lines = [
        line
        for _seq, line in happenings.lines_for(
            events,
            seat.colour,
            language=player.language,
            passed_for_the_hand=happenings.passes_for_the_hand(game, seat.colour, events),
        )
    ]
    recipient = prompts.Recipient.of(seat, player)
    if getattr(row, "seat_has_orders", True) is False:  # the delivery's read said so: no query
        recipient = replace(recipient, standing_orders=list)
    known = written_from.get("fingerprint")
    if known:
        looked_up = recipient.log_fingerprint
        recipient = replace(
            recipient, log_fingerprint=lambda seq: known if seq == row.seq else looked_up(seq)
        )
    # The talk is opened now, under the names of the caller's `players_named`. A row written
    # before the talk was kept by number holds its lines ("talk").
    said = talk.lines_of(seat, player, written_from.get("talk_numbers", [])) + written_from.get("talk", [])
    return prompts.prompt_email(
        recipient,
        state,
        happened=lines + said,
        deadline=deadline,
        decision_seq=row.decision_seq,
        message_key=f"{row.pk}.{row.created_at:%Y%m%d%H%M%S%f}",
        accepted=list(accepted),
    )
