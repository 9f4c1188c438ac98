"""The pages of a refusal (403) and of an address that leads nowhere (404), in the reader's
language, with the reason the view gave.

Django's own handlers (`django.views.defaults`) render 403.html and 404.html too, but they put the
exception's class name where no message was given ("Resolver404"); these say it in words. Wired
as `handler403` and `handler404` in `inis_pbem.urls` (Django's documented hooks); with DEBUG on,
Django shows its technical 404 page instead. A form refused by Django's CSRF check gets the same
403 page (`csrf_failure`, the `CSRF_FAILURE_VIEW` setting), never Django's bare one.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise


def _reason(exception: Exception) -> str:
    """The message a view raised with (`PermissionDenied(_("You do not play blue in this game."))`,
    `Http404(_("No such game."))`), written for players; "" when there is none (a resolver's
    404 carries a dict of the patterns tried, never shown)."""
    message = exception.args[0] if exception.args else None
    return str(message) if isinstance(message, str | Promise) else ""


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403: the view's reason, or a general sentence."""
    return render(request, "403.html", {"reason": _reason(exception)}, status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: the view's reason, or a general sentence."""
    return render(request, "404.html", {"reason": _reason(exception)}, status=404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """403 for a form that failed Django's CSRF check (`CSRF_FAILURE_VIEW`; docs/web.md,
    "Refusals"): the site's refusal page, saying in words that the form was out of date and to
    reload the page and send it again. Django's `reason` is for the log (it logs it itself, on
    `django.security.csrf`), never for the reader. Nothing was done: the view never ran."""
    return render(request, "403.html", {"stale_form": True}, status=403)
