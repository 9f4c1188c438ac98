from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Who must be told what, by email, web push or chat: prompts from pending decisions, news,
    reminders and digests, the outbox and delivery, and replies coming back by email."""

    name = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig's module is imported before the models
        # are, and these modules import models (Django's documented place for such wiring).
        # inbound and tracking: anymail's inbound and tracking signals.
        from notifications import inbound, receivers, tracking  # noqa: F401
        from notifications.channels import chat, email, registry, web_push
        from notifications.models import Outbox

        # The mail listens to the play room's decisions_changed and stand_in_started (receivers),
        # and reads with the clocks whether a seat's news is waiting.
        receivers.register_news_waiting()
        # Each channel's sender (docs/architecture.md, "A new channel"): email first.
        registry.register(Outbox.Channel.EMAIL, email.send)
        registry.register(Outbox.Channel.WEB_PUSH, web_push.send)
        registry.register(Outbox.Channel.CHAT, chat.send)
        # Erasing a person deletes the stored copies of their mail (docs/privacy.md).
        from notifications.erasure import collect_mail, erase_mail, remember_seats
        from players import personal_data

        personal_data.register(
            personal_data.Holder("mail", prepare=remember_seats, erase=erase_mail, collect=collect_mail)
        )
        # `my data` and `erase my account` by email (docs/email-commands.md).
        from notifications.inbound_hooks import register_unseated_mail
        from notifications.your_data_mail import answer_your_data_mail

        register_unseated_mail(answer_your_data_mail)
