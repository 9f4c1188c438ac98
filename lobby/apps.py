from django.apps import AppConfig


class LobbyConfig(AppConfig):
    """Around the table: sign-in by emailed link, games being gathered (invitations), my games,
    and the host's tools."""

    name = "lobby"
    verbose_name = "Lobby"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: Django imports app configs before models.
        from games.play import table
        from games.play.signals import seat_handed_over
        from lobby import mail, selectors
        from lobby.archive import collect_tables
        from lobby.erasure import erase_invitations
        from players import personal_data

        # Erasing a person empties their places at tables being gathered; their archive holds
        # the tables they proposed and their places (docs/privacy.md).
        personal_data.register(
            personal_data.Holder("invitations", erase=erase_invitations, collect=collect_tables)
        )
        # A rated game's or strangers' present players keep their seats against the host; the
        # player whose seat the host gives away is told by email, in the hand-over's transaction.
        table.register_seats_kept(selectors.seats_kept)
        seat_handed_over.connect(mail.on_seat_handed_over, dispatch_uid="lobby.mail.seat_taken")
