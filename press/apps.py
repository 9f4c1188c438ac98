from django.apps import AppConfig


class PressConfig(AppConfig):
    """Table talk: messages between the players of a game, in a log of their own (docs/press.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "press"
    verbose_name = "table talk"

    def ready(self) -> None:
        # Imported here, not at the top: an AppConfig's module is imported before the models
        # are (Django's documented place for such wiring).
        from django.db.models.signals import pre_save

        from games.models import Seat
        from games.play import departures
        from games.store import exports
        from notifications import talk
        from players import personal_data
        from press.answers import press_from_reply
        from press.models import PressMessage
        from press.reply import split_talk
        from press.sealing import held_at, key_for_outgoing_player, remember_words, shred_person
        from press.selectors import collect_talk, export_entries, export_proofs, hidden_links
        from press.waiting_talk import lines_of, waiting_lines, waiting_numbers
        from web import live

        # Every export of a game carries the table talk its viewer may read (docs/press.md).
        exports.register_section(
            "press", export_entries, proofs={"press": export_proofs, "press_hidden": hidden_links}
        )
        # Replies carry table talk, and prompts the talk waiting for a digest (by its numbers:
        # its words are opened when the prompt is written).
        talk.register(
            waiting_lines=waiting_lines,
            waiting_numbers=waiting_numbers,
            lines_of=lines_of,
            split=split_talk,
            send=press_from_reply,
        )
        # Erasing a person destroys their talk keys, once the mail found the copies of their words.
        personal_data.register(
            personal_data.Holder("talk", prepare=remember_words, erase=shred_person, collect=collect_talk)
        )
        # Talk keys record who held a seat: one for a seat's outgoing player, and their traces
        # for the play room, whose archive part gives each person the moves of their own time.
        pre_save.connect(key_for_outgoing_player, sender=Seat, dispatch_uid="press-outgoing-player-key")
        departures.register_traces(held_at)
        # A new message changes the game page (its table-talk panel): its number is in the key.
        live.register_page_column(
            live.PageColumn("page_talk_number", lambda: live.latest_of(PressMessage, "number"))
        )
