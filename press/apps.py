from django.apps import AppConfig


class PressConfig(AppConfig):
    """Table talk: messages between the players of a game, in a log of their own (docs/press.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "press"
    verbose_name = "table talk"

    def ready(self) -> None:
        from games.store import exports
        from notifications import talk
        from press.answers import press_from_reply
        from press.relay import waiting_lines
        from press.reply import split_talk
        from press.selectors import export_entries

        # Every export of a game carries the table talk its viewer may read (docs/press.md).
        exports.register_section("press", export_entries)
        # Replies carry table talk, and prompts the talk waiting for a digest.
        talk.register(waiting_lines=waiting_lines, split=split_talk, send=press_from_reply)
