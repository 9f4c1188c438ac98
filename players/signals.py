"""Signals of players, and their receivers: a player who signs in reads the pages in their chosen
language; other rooms hear when a player's preferences change.

preferences_saved: sent inside the transaction that saved a player's preferences
(`players.preferences.update_preferences`), before it commits. Keyword argument: player (the
saved `Player`). The play room moves the deadlines of the player's open decisions (a vacation
changed them) in the same transaction.
"""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.dispatch import Signal, receiver

from players.language import choose_language, signed_in_players_language

preferences_saved = Signal()


@receiver(user_logged_in)
def speak_the_players_language(sender, request, user, **kwargs):
    """On sign-in (an emailed link, a test's force_login), the player's `Player.language` becomes
    this browser's language cookie: one read of the preference per sign-in, none per page."""
    if request is None:
        return
    language = signed_in_players_language(request)
    if language:
        choose_language(request, language)
