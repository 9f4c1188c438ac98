from django.urls import path

from press import views

app_name = "press"

urlpatterns = [
    path("games/<int:game_id>/talk/", views.send, name="send"),
]
