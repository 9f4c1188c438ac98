from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.mailbox, name="mailbox"),
    path("<int:email_id>/", views.mailbox_detail, name="mailbox_detail"),
]
