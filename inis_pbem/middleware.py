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
