from django.apps import AppConfig


class PressConfig(AppConfig):
    """Table talk: messages between the players of a game, in a log of their own (docs/press.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "press"
    verbose_name = "table talk"
