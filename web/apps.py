from django.apps import AppConfig


class WebConfig(AppConfig):
    """The game pages: the game page and its live part, the history and the island at any event,
    the export, the decision forms, seat links and the live heads (docs/web.md). Its URL names
    stay `games:*` (web/urls.py)."""

    name = "web"
    verbose_name = "Game pages"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Read in AppConfig.ready(): the models are loaded only now.
        from web import confirm, live

        # Whether the viewer has moves confirmed (their preference) is read with the game row, in
        # the page's one query, and is part of the page's cache key.
        live.register_page_column(
            live.PageColumn("page_confirm_moves", confirm.page_column_sql, user_params=1, convert=bool)
        )
