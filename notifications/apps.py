from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Who must be told what: prompts from pending decisions, the outbox and delivery, deadlines,
    and replies coming back by email."""

    name = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import (
            inbound,  # noqa: F401  (connects to anymail's inbound signal)
            receivers,  # noqa: F401  (connects to games.signals.events_recorded)
        )
