"""The game pages' URLs, named `games:*` as they always were (templates, emails and tests reverse
those names). The lobby's live heads share the namespace (`lobby.urls.live_urlpatterns`): the
project's URL map puts them together (inis_pbem/urls.py)."""

from django.urls import path

from web import live, spectator_part, views

app_name = "games"

urlpatterns = [
    path("games/", views.game_list, name="list"),
    path("games/<int:game_id>/", views.game_detail, name="detail"),
    path("games/<int:game_id>/at/<int:seq>/", views.island_at, name="island_at"),
    path("games/<int:game_id>/history/", views.history, name="history"),
    path("games/<int:game_id>/orders/", views.standing_orders_form, name="orders"),
    path("games/<int:game_id>/export.json", views.export_json, name="export"),
    # Live pages (web/live.py): what a page's script asks every few seconds, and the script.
    path("games/<int:game_id>/head.json", live.game_head, name="head"),
    # A spectator's live part, the same for every spectator (web/spectator_part.py): no session.
    path(
        "games/<int:game_id>/public/<slug:language>/<slug:audience>/",
        spectator_part.public_live,
        name="public_live",
    ),
    path("live.js", live.script, name="live_script"),
    # Seat links (emails carry them, players/seat_links.py): that seat of that game, for a while.
    path("games/<int:game_id>/seat/<str:token>/", views.seat_link, name="seat"),
    path("games/<int:game_id>/seat/<str:token>/history/", views.seat_history_link, name="seat_history"),
]
