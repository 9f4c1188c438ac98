"""Pages reached from emails: one-click unsubscribe from news, the email preferences, and the
erasure of an account (its link is on the preferences page, docs/privacy.md)."""

from django.urls import path

from notifications import erasure_views, views

app_name = "email"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("preferences/<str:token>/", views.preferences, name="preferences"),
    path("erase/<str:token>/", erasure_views.erase, name="erase"),
]
