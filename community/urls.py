from django.urls import path

from community import profile_views, report_views, views

app_name = "community"

urlpatterns = [
    path("tables/", views.open_tables_page, name="open_tables"),
    path("tables/join/", views.join_posted, name="join_posted"),
    path("tables/<int:number>/join/", views.join, name="join"),
    path("players/", profile_views.leaderboard_page, name="leaderboard"),
    path("players/me/", profile_views.own_profile, name="own_profile"),
    path("players/<int:player_id>/", profile_views.profile_page, name="profile"),
    path("players/<int:player_id>/block/", profile_views.block_choice, name="block"),
    path("players/<int:player_id>/report/", report_views.report_player_posted, name="report_player"),
    path(
        "games/<int:game_id>/talk/<int:number>/report/",
        report_views.report_message_posted,
        name="report_message",
    ),
    path("players/profile/visibility/", profile_views.profile_visibility, name="profile_visibility"),
]
