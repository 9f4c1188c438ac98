"""Signals sent by `games.services`, so that other apps react without `games` importing them.

events_recorded: sent inside the transaction that appended events, before it commits; a receiver
that raises rolls the whole append back. Keyword arguments:
    game (Game; `game.seats.all()` costs no query: the append read the seats with its row lock),
    state (GameState after the new events; do not modify it),
    pending_before (list[rules.Decision] before them), first_seq, last_seq (int, the new events),
    events (list of (seq, rules.Event): the new events as stored, or None: read them if needed),
    seat (the Seat whose command made them, None for the set-up), command_id (that command's
    idempotency key, or None), prev_hash, last_hash (the hashes of events first_seq - 1
    and last_seq, or None).
"""
from django.dispatch import Signal

events_recorded = Signal()
