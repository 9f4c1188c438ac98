from django.apps import AppConfig


class WatchingConfig(AppConfig):
    """Spectators who follow public games: the "Games to watch" list, following and unfollowing,
    and followers' daily digests by email (docs/spectators.md)."""

    name = "watching"
    verbose_name = "Watching"
    default_auto_field = "django.db.models.BigAutoField"
