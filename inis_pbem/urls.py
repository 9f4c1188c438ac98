"""URL map: the games pages, email links and inbound webhooks, the development mailbox, the
admin, and the health report for monitoring."""
from django.contrib import admin
from django.urls import include, path

from inis_pbem import health

urlpatterns = [
    path("", include("lobby.urls")),
    path("", include("games.urls")),
    path("dev/mailbox/", include("notifications.urls")),
    path("email/", include("notifications.email_urls")),
    path("anymail/", include("anymail.urls")),  # inbound webhooks: /anymail/<provider>/inbound/
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),  # docs/operations.md, "Watching it"
]
