"""URL map: the games pages, email links and inbound webhooks, the development mailbox, the admin."""
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("lobby.urls")),
    path("", include("games.urls")),
    path("dev/mailbox/", include("notifications.urls")),
    path("email/", include("notifications.email_urls")),
    path("anymail/", include("anymail.urls")),  # inbound webhooks: /anymail/<provider>/inbound/
    path("admin/", admin.site.urls),
]
