"""Signals sent by `games.services`, so that other apps react without `games` importing them.

events_recorded: sent inside the transaction that appended events, before it commits; a receiver
that raises rolls the whole append back. Keyword arguments:
    game (Game), state (GameState after the new events; do not modify it),
    pending_before (list[rules.Decision] before them), first_seq, last_seq (int, the new events).
"""
from django.dispatch import Signal

events_recorded = Signal()
