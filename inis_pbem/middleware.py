"""Middleware of the project."""

from __future__ import annotations

from players.language import signed_in_players_language
from players.push_devices import remove_when_another_signs_in


class SignInLinkMiddleware:
    """django-sesame's AuthenticationMiddleware (a `?sesame=` token in any address signs its user
    in, then a redirect drops the token from the address bar), loaded when the first request
    handler is built rather than when this module is imported.

    Why: sesame reads SECRET_KEY as it is imported, and Django's system checks import every
    middleware class; with an empty SECRET_KEY the checks would crash before ours
    (inis_pbem.checks, E001) could say what is wrong.

    A link of another account than the one signed in makes Django's `login()` empty the session
    without `user_logged_out`: before sesame signs that account in, the push devices turned on
    from this session for the account signed in go, as at a sign-out
    (`players.push_devices.remove_when_another_signs_in`; docs/notifications.md, "Signing out").
    The link's account is read with sesame's documented `get_user` (the same check its
    middleware makes next), only when somebody is signed in and the address carries a token.
    """

    def __init__(self, get_response):
        from sesame import settings as sesame_settings
        from sesame.middleware import AuthenticationMiddleware

        self.inner = AuthenticationMiddleware(get_response)
        self.token_name = sesame_settings.TOKEN_NAME

    def __call__(self, request):
        if self.token_name in request.GET and request.user.is_authenticated:
            from sesame.utils import get_user

            incoming = get_user(request, update_last_login=False)
            if incoming is not None:
                remove_when_another_signs_in(request, incoming)
        response = self.inner(request)
        if self.token_name in request.GET and response.has_header("Location"):
            response["Location"] = _stays_on_this_site(response["Location"])
        return response


def _stays_on_this_site(location: str) -> str:
    """`location`, sesame's redirect to the link's own path without its token (`request.path`,
    decoded: "/%2F%2Fevil.example" arrives as "///evil.example"), kept on this site: a leading
    "//" or "/\\", which browsers read as another host, is escaped as Django escapes it
    (`django.utils.http.escape_leading_slashes`, with "\\" read as "/")."""
    from django.utils.http import escape_leading_slashes

    if location.startswith("/\\"):
        location = "//" + location[2:]
    return escape_leading_slashes(location)


class PostSizeMiddleware:
    """Refuses (400, as Django does: RequestDataTooBig) a request body larger than
    PAGE_POST_MAX_BYTES on every URL but the inbound webhooks (INBOUND_URL_PREFIX), which take
    up to DATA_UPLOAD_MAX_MEMORY_SIZE (INBOUND_POST_MAX_BYTES).

    Why: Django's limit is one setting for the whole site, read where the body is read; a reply
    with a photo posted by the provider would be refused, the provider would give up and the
    player never hear. The limit is raised for all, and kept here for the pages, by the request's
    Content-Length (the body Django reads is never longer: its stream stops there).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings
        from django.core.exceptions import RequestDataTooBig

        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.PAGE_POST_MAX_BYTES and not request.path.startswith(settings.INBOUND_URL_PREFIX):
            raise RequestDataTooBig("Request body exceeded settings.PAGE_POST_MAX_BYTES.")
        return self.get_response(request)


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


class PlayerLanguageMiddleware:
    """Activates the language of the pages for each request: Django's language cookie, which holds
    the signed-in player's preference (`players.language.choose_language` at sign-in, on the preferences page and on
    the language switch), else the browser's Accept-Language among `settings.LANGUAGES`, else
    English.

    Why a cookie and not a read of `Player.language` on each request: a page would then pay for
    the session and the user (two queries) even where it needs neither (the live heads, the
    script); the preference is read once, when the player signs in, or on the first request of a
    session that has no language cookie yet.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings
        from django.utils import translation
        from django.utils.cache import patch_vary_headers

        language = None
        if (
            settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
            and settings.SESSION_COOKIE_NAME in request.COOKIES
        ):
            # A session but no language cookie yet (signed in before the cookie existed, or by a
            # way that had no response to carry it): read the preference once, keep it as the cookie.
            language = signed_in_players_language(request)
            request.chosen_language = language
        translation.activate(language or translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        chosen = getattr(request, "chosen_language", None)
        if chosen:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                chosen,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        translation.deactivate()
        return response


class MethodNotAllowedPageMiddleware:
    """Gives a 405 (an address asked with a method it does not take: a form's address opened as
    a page, a page posted to) the site's page in the reader's language, saying what to do
    instead, where Django's `require_POST` and `require_safe` answer an empty body. The `Allow`
    header stays as Django set it. The inbound webhooks' answers are left as they are: no person
    reads them.

    Last in MIDDLEWARE, so the reader's language (`PlayerLanguageMiddleware`) and the signed-in
    user are there when the page is rendered.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings
        from django.shortcuts import render

        response = self.get_response(request)
        if (
            response.status_code != 405
            or response.content
            or request.path.startswith(settings.INBOUND_URL_PREFIX)
        ):
            return response
        allowed = {method.strip() for method in response.get("Allow", "").split(",")}
        page = render(request, "405.html", {"takes_a_form": "GET" not in allowed}, status=405)
        page["Allow"] = response.get("Allow", "")
        return page


class ContentSecurityPolicyMiddleware:
    """Sets `Content-Security-Policy` (settings.CONTENT_SECURITY_POLICY) on every answer that
    has none: scripts only from the site's own files (`/live.js`, the push scripts), no inline
    script and no `javascript:` address, nothing loaded from another site, forms posted to the
    site only, and no page framed.

    Why: every player's name and word is escaped where it is shown (docs/security.md, "Input");
    should a page ever print one unescaped, the browser still runs none of it. The pages hold
    no inline script (their scripts read what they need from `data-` attributes), so no nonce
    is needed; inline styles stay allowed (the island's SVG and a few pages use them). Django
    5.2 has no such setting of its own.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings

        response = self.get_response(request)
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", "")
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response
