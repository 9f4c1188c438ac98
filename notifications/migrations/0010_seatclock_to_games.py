"""SeatClock has moved to the play room of `games` (games/migrations/0007): it leaves this app's
state only; its table (`notifications_seatclock`) and rows stay as they are."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("notifications", "0009_player_to_players"),
        ("games", "0007_seatclock_from_notifications"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="SeatClock")],
        ),
    ]
