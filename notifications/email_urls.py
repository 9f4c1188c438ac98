"""Pages reached from emails: one-click unsubscribe from news, the email preferences, the
erasure of an account (its link is on the preferences page, docs/privacy.md), and the download
of a person's data (signed in, or by the link answering a "my data" email)."""

from django.urls import path

from notifications import views, your_data_views

app_name = "email"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("preferences/<str:token>/", views.preferences, name="preferences"),
    path("erase/<str:token>/", your_data_views.erase, name="erase"),
    path("my-data/", your_data_views.my_data, name="my_data"),
    path("my-data/<str:token>/", your_data_views.my_data_link, name="my_data_link"),
]
