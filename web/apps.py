from django.apps import AppConfig


class WebConfig(AppConfig):
    """The game pages: the game page and its live part, the history and the island at any event,
    the export, the decision forms, seat links and the live heads (docs/web.md). Its URL names
    stay `games:*` (web/urls.py)."""

    name = "web"
    verbose_name = "Game pages"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Imported here: an AppConfig's module is imported before the models.
        from games.play.models import StandingOrder
        from games.store.models import Seat
        from web import live

        # A signed-in player's own standing orders are on the game page (outside its live part):
        # a change to them changes the page's cache key. Only the viewer's own seats are read,
        # so another seat's orders never change what this viewer's key is made of.
        live.register_page_column(
            live.PageColumn(
                "page_my_orders",
                lambda: (
                    f"COALESCE((SELECT SUM(o.id) FROM {StandingOrder._meta.db_table} o "
                    f"INNER JOIN {Seat._meta.db_table} s ON s.id = o.seat_id "
                    "WHERE o.game_id = g.id AND s.user_id = %s), 0)"
                ),
                user_params=1,
            )
        )
