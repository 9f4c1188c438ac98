from django.urls import path

from lobby import views

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("signin/", views.sign_in, name="sign_in"),
    path("signout/", views.sign_out, name="sign_out"),
    path("language/", views.language, name="language"),
    path("new/", views.new_game, name="new"),
    path("lobby/<int:proposal_id>/", views.proposal, name="proposal"),
    path("games/<int:game_id>/host/", views.host_tools, name="host"),
]
