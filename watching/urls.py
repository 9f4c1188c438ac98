"""Following public games (docs/spectators.md)."""

from django.urls import path

from watching import views

app_name = "watching"

urlpatterns = [
    path("watch/", views.watch_list, name="list"),
    path("watch/<int:game_id>/follow/", views.follow, name="follow"),
    path("watch/<int:game_id>/unfollow/", views.unfollow, name="unfollow"),
    path("watch/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
