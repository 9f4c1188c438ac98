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
        from web import live

        # The players' live parts are rendered ahead by a worker (web.prerender), published by
        # the outbox relay with the game's emails (inis_pbem/relay.py): the command pays nothing.

        # Whether the viewer has moves confirmed (their preference) is read with the game row, in
        # the page's one query, and is part of the page's cache key.
        live.register_page_column(
            live.PageColumn("page_confirm_moves", live.confirm_moves_column, user_params=1, convert=bool)
        )
        # A signed-in player's own standing orders are on the game page (outside its live part):
        # a change to them changes the page's cache key. Only the viewer's own seats are read,
        # so another seat's orders never change what this viewer's key is made of. Setting or
        # cancelling orders deletes rows and makes new ones with larger ids: with the count beside
        # the sum of ids, no such change leaves the key as it was.
        live.register_page_column(live.PageColumn("page_my_orders", live.my_orders_column, user_params=1))
        # The talk panel leaves out the talk of players the viewer blocked (press.muting), seated
        # or watching: a block or an unblock changes the page's cache key.
        live.register_page_column(live.PageColumn("page_my_blocks", live.my_blocks_column, user_params=1))
        # An erasure changes every page's key, its live parts' and its talk lines' (docs/privacy.md):
        # the caches of the other web processes, which the erasure cannot empty, no longer serve
        # the erased player's name or words.
        live.register_page_column(live.PageColumn("page_erasures", live.erasures_column))
