from django.apps import AppConfig
from django.db.models.signals import post_save


class CommunityConfig(AppConfig):
    """The front door for strangers: the read models fed by the logs (`community.projections`),
    the open tables (their list on the web and by email, joining one)."""

    name = "community"
    verbose_name = "Community"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: Django imports app configs before models.
        from community import feeding, game_ends, mail, rematch_mail  # noqa: PLC0415
        from community.erasure import collect_reports, erase_read_models, erase_reports  # noqa: PLC0415
        from community.open_tables import OpenTablesProjection, host_renamed  # noqa: PLC0415
        from community.profile_data import collect_profile_choice  # noqa: PLC0415
        from community.profiles import ProfilesProjection  # noqa: PLC0415
        from community.projections import register  # noqa: PLC0415
        from community.ratings import RatingsProjection  # noqa: PLC0415
        from games.play.signals import events_recorded, seat_handed_over  # noqa: PLC0415
        from lobby.gathering import register_recorded  # noqa: PLC0415
        from notifications.inbound_hooks import register_unseated_mail  # noqa: PLC0415
        from players import personal_data  # noqa: PLC0415
        from players.models import Player  # noqa: PLC0415

        register(OpenTablesProjection())
        register(RatingsProjection())
        register(ProfilesProjection())
        # A host's new name, on the open tables they host at once (docs/open-tables.md).
        post_save.connect(host_renamed, sender=Player, dispatch_uid="community.open_tables.host_renamed")
        events_recorded.connect(game_ends.on_events_recorded, dispatch_uid="community.game_ends.record")
        seat_handed_over.connect(game_ends.on_seat_handed_over, dispatch_uid="community.game_ends.leavers")
        register_recorded(feeding.feed_after_commit)
        # Each with the locks it takes before the message's row (the service's lock order).
        register_unseated_mail(mail.answer_tables_mail, locks_first=mail.locks_first)
        register_unseated_mail(rematch_mail.answer_rematch_mail, locks_first=rematch_mail.locks_first)
        personal_data.register(personal_data.Holder("read models", erase=erase_read_models))
        personal_data.register(personal_data.Holder("reports", erase=erase_reports, collect=collect_reports))
        # The profile's choice is erased with the read models; the archive gives it too.
        personal_data.register(personal_data.Holder("profile", collect=collect_profile_choice))
