"""Signals of players, and their receivers: a player who signs in reads the pages in their chosen
language; a player who signs out of a browser stops getting pushes there; other rooms hear when
a player's preferences change.

preferences_saved: sent inside the transaction that saved a player's preferences
(`players.preferences.update_preferences`), before it commits. Keyword argument: player (the
saved `Player`). The play room moves the deadlines of the player's open decisions (a vacation
changed them) in the same transaction.
"""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import Signal, receiver

from players.language import choose_language, signed_in_players_language
from players.push_devices import remove_sessions_devices

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


@receiver(user_logged_out)
def stop_the_sessions_pushes(sender, request, user, **kwargs):
    """On sign-out (`django.contrib.auth.logout`, which sends this before it empties the
    session), the push devices turned on from this browser's session are removed
    (`push_devices.remove_sessions_devices`): each push is a link that acts for a seat, and the
    next person at a shared browser must not get them. The player's other browsers keep theirs."""
    if request is None or user is None:
        return
    remove_sessions_devices(request.session, getattr(user, "email", "") or "")
