"""The lobby's signal receivers: a player who signs in reads the pages in their chosen language."""
from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from inis_pbem.middleware import choose_language, signed_in_players_language


@receiver(user_logged_in)
def speak_the_players_language(sender, request, user, **kwargs):
    """On sign-in (an emailed link, a test's force_login), the player's `Player.language` becomes
    this browser's language cookie: one read of the preference per sign-in, none per page."""
    if request is None:
        return
    language = signed_in_players_language(request)
    if language:
        choose_language(request, language)
