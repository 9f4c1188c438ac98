from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games of Inis: the rules (`games.rules`), the record (`games.record`), the event store
    (`games.store`), the story (`games.story`) and the play room (`games.play`).

    ready() wires the play room: the clocks follow every append (`games.play.clocks`, a receiver
    of `events_recorded`; their deadlines follow a player's vacation, `games.play.schedule`), and
    the bot seats' task is enqueued after the appends that leave a bot seat to decide.
    """

    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Imported here, not at the top: an AppConfig's module is imported before the models
        # are, and these modules import models (Django's documented place for such wiring).
        from django.utils import translation

        from games import rules
        from games.play import clocks, commands, schedule, standing_orders, tasks  # noqa: F401  (receivers)

        # The rules write their sentences in Django's active language from now on
        # (games/rules/language.py): a player's preference, an email's `translation.override`.
        rules.install_translation(translation)
        from games.play.departures import collect_seats, erase_seats
        from players import personal_data

        commands.register_after_append(tasks.bots_after_append)
        # Erasing a person leaves their seats (docs/privacy.md).
        personal_data.register(personal_data.Holder("seats", erase=erase_seats, collect=collect_seats))
        standing_orders.register_orders_column()
