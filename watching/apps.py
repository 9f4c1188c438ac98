from django.apps import AppConfig


class WatchingConfig(AppConfig):
    """Spectators who follow public games: the "Games to watch" list, following and unfollowing,
    and followers' daily digests by email (docs/spectators.md)."""

    name = "watching"
    verbose_name = "Watching"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig's module is imported before the models
        # are (Django's documented place for such wiring).
        from players import personal_data
        from watching import sql
        from watching.erasure import collect_follows, erase_follows
        from web import live

        personal_data.register(personal_data.Holder("follows", erase=erase_follows, collect=collect_follows))

        # Following a game changes its page (the follow button): whether the viewer follows it
        # is in the page's cache key.
        live.register_page_column(
            live.PageColumn(
                "page_following",
                sql.following_column,
                user_params=1,
                convert=bool,
            )
        )  # SQLite answers 0 or 1
