"""URL map: the games pages, email links and inbound webhooks, the development mailbox, the
admin, and the health report for monitoring."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from inis_pbem import error_pages, health
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

if settings.EMAIL_WEBHOOKS:  # off when replies come only through a mail server's pipe
    urlpatterns += [
        # Inbound webhooks, /anymail/<provider>/inbound/: ours for the documented providers
        # (they drop impossible addresses instead of failing), anymail's for the others.
        path("anymail/postmark/inbound/", webhooks.PostmarkInbound.as_view(), name="postmark_inbound"),
        re_path(
            r"^anymail/mailgun/inbound(_mime)?/$", webhooks.MailgunInbound.as_view(), name="mailgun_inbound"
        ),
        path("anymail/", include("anymail.urls")),
    ]

# Refusals and dead addresses in the reader's language, with the view's reason (Django's hooks).
handler403 = error_pages.permission_denied
handler404 = error_pages.page_not_found
