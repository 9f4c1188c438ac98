"""Player has moved to the `players` app (players/migrations/0001_initial.py): it leaves this
app's state only; its table (`notifications_player`) and rows stay as they are."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("notifications", "0008_clock_times_unindexed"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Player")],
        ),
    ]
