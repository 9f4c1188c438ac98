from django.apps import AppConfig


class WebConfig(AppConfig):
    """The game pages: the game page and its live part, the history and the island at any event,
    the export, the decision forms, seat links and the live heads (docs/web.md). Its URL names
    stay `games:*` (web/urls.py)."""

    name = "web"
    verbose_name = "Game pages"
    default_auto_field = "django.db.models.BigAutoField"
