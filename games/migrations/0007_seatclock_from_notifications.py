"""SeatClock moves from `notifications` to the play room of `games` (`games.play.models`), its table
and rows untouched.

The table keeps its name (`notifications_seatclock`, `SeatClock.Meta.db_table`): this migration
changes Django's state only, and the model's content type (with any admin permission given on
it) follows the model. `notifications` 0010 removes SeatClock from that app's state.
tests/games/play/test_migrations.py migrates a database with clocks in it across the move.
"""
import django.db.models.deletion
from django.db import migrations, models


def content_type_to_games(apps, schema_editor):
    """The existing content type of `notifications.seatclock` becomes `games.seatclock` (none on
    a new database; left alone when `games.seatclock` exists already, as Django leaves a stale
    content type)."""
    types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    if not types.filter(app_label="games", model="seatclock").exists():
        types.filter(app_label="notifications", model="seatclock").update(app_label="games")


def content_type_to_notifications(apps, schema_editor):
    types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    types.filter(app_label="games", model="seatclock").update(app_label="notifications")


class Migration(migrations.Migration):

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0006_game_chain_version"),
        ("notifications", "0009_player_to_players"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="SeatClock",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("seq", models.PositiveIntegerField(blank=True, null=True)),
                        ("kind", models.CharField(blank=True, default="", max_length=32)),
                        ("opened_at", models.DateTimeField(blank=True, null=True)),
                        ("deadline", models.DateTimeField(blank=True, null=True)),
                        ("remind_at", models.DateTimeField(blank=True, null=True)),
                        ("reminded", models.BooleanField(default=False)),
                        ("last_prompt_seq", models.PositiveIntegerField(default=0)),
                        ("missed_in_row", models.PositiveSmallIntegerField(default=0)),
                        ("stand_in", models.BooleanField(default=False)),
                        ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="clocks", to="games.game")),
                        ("seat", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="clock", to="games.seat")),
                    ],
                    options={
                        "db_table": "notifications_seatclock",
                    },
                ),
            ],
            database_operations=[
                migrations.RunPython(content_type_to_games, content_type_to_notifications),
            ],
        ),
    ]
