"""Middleware of the project."""
from __future__ import annotations


class SignInLinkMiddleware:
    """django-sesame's AuthenticationMiddleware (a `?sesame=` token in any address signs its user
    in, then a redirect drops the token from the address bar), loaded when the first request
    handler is built rather than when this module is imported.

    Why: sesame reads SECRET_KEY as it is imported, and Django's system checks import every
    middleware class; with an empty SECRET_KEY the checks would crash before ours
    (inis_pbem.checks, E001) could say what is wrong.
    """

    def __init__(self, get_response):
        from sesame.middleware import AuthenticationMiddleware

        self.inner = AuthenticationMiddleware(get_response)

    def __call__(self, request):
        return self.inner(request)


class DevelopmentPagesMiddleware:
    """Answers 404 for the development mailbox (/dev/mailbox/) unless DEBUG is on.

    Why: the mailbox shows every stored email, sign-in links included, to anybody. The mailbox
    view itself exists only while the development backend is the EMAIL_BACKEND; this makes it
    depend on DEBUG too, so that no production setting can open it. Read per request (not when
    the URLs load) so that a test can turn DEBUG on and off.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings
        from django.http import Http404
        from django.urls import reverse

        if not settings.DEBUG and request.path.startswith(reverse("notifications:mailbox")):
            raise Http404("There is no such page.")
        return self.get_response(request)


LANGUAGE_SESSION_KEY = "player_language"


class PlayerLanguageMiddleware:
    """Activates the language of the pages for each request: the signed-in player's preference
    (`Player.language`, kept in the session after its first read so a page costs no extra query),
    else the browser's Accept-Language among `settings.LANGUAGES`, else English.

    Why not Django's LocaleMiddleware alone: a player who chose French in their preferences must
    read French on every device, whatever that device's browser asks for.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.utils import translation
        from django.utils.cache import patch_vary_headers

        language = player_language(request) or translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        translation.deactivate()
        return response


def player_language(request) -> str | None:
    """The signed-in player's chosen language ("en"/"fr"), or None for a visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    session = getattr(request, "session", None)
    if session is not None and session.get(LANGUAGE_SESSION_KEY):
        return session[LANGUAGE_SESSION_KEY]
    from notifications.models import Player

    language = (Player.objects.filter(email=(user.email or "").strip().lower())
                .values_list("language", flat=True).first())
    if language and session is not None:
        session[LANGUAGE_SESSION_KEY] = language
    return language
