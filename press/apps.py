from django.apps import AppConfig


class PressConfig(AppConfig):
    """Table talk: messages between the players of a game, in a log of their own (docs/press.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "press"
    verbose_name = "table talk"

    def ready(self) -> None:
        # Every export of a game carries the table talk its viewer may read (docs/press.md).
        from games.store import exports
        from press.selectors import export_entries

        exports.register_section("press", export_entries)
