"""Web push and chat: the service worker, the signed-in player's devices and chat target
(notifications.push_views)."""

from django.urls import path

from notifications import push_views

app_name = "push"

urlpatterns = [
    path("worker.js", push_views.worker, name="worker"),
    path("push.js", push_views.script, name="script"),
    path("devices/", push_views.add, name="add"),
    path("devices/remove/", push_views.remove, name="remove"),
    path("devices/known/", push_views.known, name="known"),
    path("email-after-push/", push_views.email_after_push, name="email_after_push"),
    path("chat/", push_views.chat_target, name="chat"),
]
