"""Private messages of a version-2 chain keep their random salt (`press.chain`); the messages
written before it ("" here) are of version-1 games, salted from the seed."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("press", "0001_initial"),
        # New games write version-2 talk from the migration that gives games a chain version.
        ("games", "0006_game_chain_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="pressmessage",
            name="salt",
            field=models.CharField(blank=True, default="", max_length=64,
                                   help_text="a private message's random salt (chain version 2); '' otherwise"),
        ),
    ]
