from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.game_list, name="list"),
    path("games/<int:game_id>/", views.game_detail, name="detail"),
    path("games/<int:game_id>/history/", views.history, name="history"),
    path("games/<int:game_id>/seat/<str:token>/", views.seat_page, name="seat"),
    path("games/<int:game_id>/seat/<str:token>/history/", views.seat_history, name="seat_history"),
]
