"""Pages reached from emails: one-click unsubscribe from news, the email preferences, and the
erasure of an account (its link is on the preferences page, docs/privacy.md)."""

from django.urls import path

from notifications import views, your_data_views

app_name = "email"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("preferences/<str:token>/", views.preferences, name="preferences"),
    path("erase/<str:token>/", your_data_views.erase, name="erase"),
    path("my-data/", your_data_views.my_data, name="my_data"),
]
