"""The language the pages speak to a player: their chosen one, remembered as the browser's
language cookie (`inis_pbem.middleware.PlayerLanguageMiddleware` sets and reads the cookie)."""

from __future__ import annotations

from django.utils import translation

from players.models import Player


def choose_language(request, language: str) -> None:
    """Remember `language` ("en"/"fr") for this browser: the response carries Django's language
    cookie (PlayerLanguageMiddleware sets it), and the rest of this request speaks it. Called when
    a player signs in (their preference) and when they change it."""
    request.chosen_language = language
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()


def signed_in_players_language(request) -> str | None:
    """The signed-in player's chosen language ("en"/"fr"), or None for a visitor or a user with
    no player record."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.email:
        return None
    return Player.objects.filter(email=user.email.strip().lower()).values_list("language", flat=True).first()
