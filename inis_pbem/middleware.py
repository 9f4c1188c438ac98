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
