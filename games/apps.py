from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games of Inis: the event store, the services that write it, the pages that read it."""

    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"
