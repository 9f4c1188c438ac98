from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games of Inis: the event store, the services that write it, the pages that read it."""

    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # The rules write their sentences in Django's active language from now on
        # (games/rules/language.py): a player's preference, an email's `translation.override`.
        from django.utils import translation

        from games.rules import language

        language.install(translation)
