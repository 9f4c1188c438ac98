from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Who must be told what: prompt emails from pending decisions, the outbox, delivery."""

    name = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects to games.signals.events_recorded)
