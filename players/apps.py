from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Players: their accounts (found by email), preferences (`Player`), and the language the
    pages speak to them. Below the play room: the clocks read vacations from here; nothing here
    reads a game's play."""

    name = "players"
    verbose_name = "Players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from players import signals  # noqa: F401  (connects to django.contrib.auth's user_logged_in)
