from django.apps import AppConfig


class LobbyConfig(AppConfig):
    """Around the table: sign-in by emailed link, games being gathered (invitations), my games,
    and the host's tools."""

    name = "lobby"
    verbose_name = "Lobby"
    default_auto_field = "django.db.models.BigAutoField"
