"""Commands and events lose their index on `game` alone: the unique (game, seq), (game,
command_id) and (game, first_seq) indexes serve every lookup by game, and each index less is one
less to write with every command (bench: WAL bytes per command).

Only the index is dropped. Django's own AlterField would also drop and re-add the foreign key
constraint, which checks every row of the log again."""
import django.db.models.deletion
from django.db import migrations, models

# (table, index) as Django named them when it made the foreign keys.
INDEXES = [("games_command", "games_command_game_id_afa72104"), ("games_event", "games_event_game_id_afa0391c")]


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_refuse_truncate"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(f'DROP INDEX IF EXISTS "{index}"',
                                  reverse_sql=f'CREATE INDEX "{index}" ON "{table}" ("game_id")')
                for table, index in INDEXES
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="command",
                    name="game",
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT,
                                            related_name="commands", to="games.game"),
                ),
                migrations.AlterField(
                    model_name="event",
                    name="game",
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT,
                                            related_name="events", to="games.game"),
                ),
            ],
        ),
    ]
