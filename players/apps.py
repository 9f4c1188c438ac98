from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Players: their accounts (found by email), preferences (`Player`), and the language the
    pages speak to them. Below the play room: the clocks read vacations from here; nothing here
    reads a game's play."""

    name = "players"
    verbose_name = "Players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from players import personal_data, signals  # noqa: F401  (signals: connects to user_logged_in)
        from players.own_data import collect_own_data, erase_own_data

        personal_data.register(
            personal_data.Holder("devices and blocks", erase=erase_own_data, collect=collect_own_data)
        )
