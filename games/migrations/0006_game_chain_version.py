"""Games record the version of their hash chain (`games.hashchain`): every game that exists when
this runs keeps version 1, the chain its events were written with (added with a default of 1);
games created afterwards get version 2 (the model's default)."""
from django.db import migrations, models

HELP = "the hash chain's version (games.hashchain): 1 for games created before version 2"


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_game_lookups_by_unique_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="chain_version",
            field=models.PositiveSmallIntegerField(default=1, help_text=HELP),
        ),
        migrations.AlterField(
            model_name="game",
            name="chain_version",
            field=models.PositiveSmallIntegerField(default=2, help_text=HELP),
        ),
    ]
