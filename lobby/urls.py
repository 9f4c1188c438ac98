from django.urls import path

from lobby import live, views

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("signin/", views.sign_in, name="sign_in"),
    path("signout/", views.sign_out, name="sign_out"),
    path("name/", views.display_name, name="name"),
    path("preferences/", views.preferences, name="preferences"),
    path("language/", views.language, name="language"),
    path("new/", views.new_game, name="new"),
    path("lobby/<int:proposal_id>/", views.proposal, name="proposal"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("games/<int:game_id>/host/", views.host_tools, name="host"),
    path("games/<int:game_id>/rematch/", views.rematch, name="rematch"),
]

# The live heads of "My games" and of a game being gathered (lobby/live.py), named `games:*`
# as they always were: the project's URL map puts them in that namespace (inis_pbem/urls.py).
live_urlpatterns = [
    path("live/home.json", live.home_head, name="home_head"),
    path("lobby/<int:proposal_id>/head.json", live.proposal_head, name="proposal_head"),
]
