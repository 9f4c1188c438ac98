"""Pages reached from emails: one-click unsubscribe from news, and the email preferences."""

from django.urls import path

from notifications import views

app_name = "email"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("preferences/<str:token>/", views.preferences, name="preferences"),
]
