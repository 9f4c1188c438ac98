"""URL map: the games pages, the development mailbox and the admin."""
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("lobby.urls")),
    path("", include("games.urls")),
    path("dev/mailbox/", include("notifications.urls")),
    path("admin/", admin.site.urls),
]
