"""URL map: the games pages, email links and inbound webhooks, the development mailbox, the
admin, and the health report for monitoring."""

import functools
import re

from anymail import urls as anymail_urls
from django.conf import settings
from django.contrib import admin
from django.core.exceptions import ImproperlyConfigured
from django.http import Http404
from django.urls import URLPattern, include, path, re_path

from inis_pbem import checks, error_pages, health
from lobby import urls as lobby_urls
from notifications import webhooks
from web import urls as web_urls

urlpatterns = [
    path("", include("lobby.urls")),
    # The game pages and the live heads, named games:* (web/urls.py, lobby/urls.py).
    path("", include((web_urls.urlpatterns + lobby_urls.live_urlpatterns, "games"))),
    path("", include("press.urls")),  # table talk (docs/press.md)
    path("", include("watching.urls")),  # games to watch, followers (docs/spectators.md)
    path("", include("community.urls")),  # open tables (docs/open-tables.md)
    path("dev/mailbox/", include("notifications.urls")),
    path("email/", include("notifications.email_urls")),
    path("push/", include("notifications.push_urls")),  # web push (docs/notifications.md)
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),  # docs/operations.md, "Watching it"
]

# A webhook address's provider: the first part of its path ("mailgun" of "^mailgun/inbound(_mime)?/$").
_PROVIDER = re.compile(r"\^?([a-z_]+)/")


def _provider_of(pattern) -> str:
    found = _PROVIDER.match(str(pattern.pattern))
    return found.group(1) if found else ""


def provider_webhooks(provider: str | None) -> list:
    """The webhook addresses served under /anymail/ (`URLPattern`s): the inbound and tracking
    views of `provider` alone (anymail's name of the provider whose backend EMAIL_BACKEND names,
    `checks.inbound_provider()`): ours for Postmark and Mailgun (they drop impossible addresses
    instead of failing), anymail's for the others. Every provider's view authenticates with the
    shared ANYMAIL_WEBHOOK_SECRET, and only the provider's own checks its signature (Mailgun's
    signing key): served beside it, another provider's view would take unsigned posts. Every
    provider's views that its settings and packages allow when `provider` has none (None: the
    development mailbox or Django's SMTP backend, whose replies may come through any provider;
    anymail's test backend)."""
    ours = [
        path("postmark/inbound/", webhooks.PostmarkInbound.as_view(), name="postmark_inbound"),
        re_path(r"^mailgun/inbound(_mime)?/$", webhooks.MailgunInbound.as_view(), name="mailgun_inbound"),
    ]
    replaced = {str(pattern.pattern) for pattern in ours}
    every = ours + [pattern for pattern in anymail_urls.urlpatterns if str(pattern.pattern) not in replaced]
    return [pattern for pattern in every if _provider_of(pattern) == provider] or [
        URLPattern(
            pattern.pattern,
            _not_found_unless_it_can_answer(pattern.callback),
            pattern.default_args,
            pattern.name,
        )
        for pattern in every
    ]


def _not_found_unless_it_can_answer(view):
    """`view`, answering 404 while this deployment's settings and packages cannot make it:
    anymail's views read their keys and packages when made, at each request (Brevo's inbound
    view its API key, Amazon SES's boto3), and fail with ImproperlyConfigured, a server error
    written to the log for any post, even one without the webhook's password."""

    @functools.wraps(view)  # keeps the view's csrf_exempt mark
    def answer(request, *args, **kwargs):
        try:
            view.view_class(**view.view_initkwargs)
        except ImproperlyConfigured:
            raise Http404("This provider's webhook is not set up here.") from None
        return view(request, *args, **kwargs)

    return answer


if settings.EMAIL_WEBHOOKS:  # off when replies come only through a mail server's pipe
    # /anymail/<provider>/inbound/ and /anymail/<provider>/tracking/, docs/operations.md.
    urlpatterns += [path("anymail/", include((provider_webhooks(checks.inbound_provider()), "anymail")))]

# Refusals and dead addresses in the reader's language, with the view's reason (Django's hooks).
handler403 = error_pages.permission_denied
handler404 = error_pages.page_not_found
