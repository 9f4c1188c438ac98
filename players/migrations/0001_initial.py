"""Player moves from `notifications` to `players`, its table and rows untouched.

The table keeps its name (`notifications_player`, `Player.Meta.db_table`): this migration changes
Django's state only, and the content type of the model (and so any admin permission given on it)
follows the model to its new app. `notifications` 0009 removes Player from that app's state.
tests/players/test_migrations.py migrates a database with players in it across the move.
"""
from django.db import migrations, models


def content_type_to_players(apps, schema_editor):
    """The existing content type of `notifications.player` becomes `players.player` (none on a
    new database: content types are made after the migrations; left alone when `players.player`
    exists already, as Django leaves a stale content type)."""
    types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    if not types.filter(app_label="players", model="player").exists():
        types.filter(app_label="notifications", model="player").update(app_label="players")


def content_type_to_notifications(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.using(schema_editor.connection.alias).filter(
        app_label="players", model="player").update(app_label="notifications")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("notifications", "0008_clock_times_unindexed"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("email", models.EmailField(max_length=254, unique=True)),
                        ("delivery", models.CharField(choices=[("prompt", "news only in my next prompt"), ("every", "news emails too (at most one a minute per game)"), ("digest", "a daily digest of news (prompts still at once)")], default="prompt", max_length=8)),
                        ("news", models.BooleanField(default=True, help_text="news emails and digests (prompts always come)")),
                        ("time_zone", models.CharField(default="UTC", max_length=64)),
                        ("language", models.CharField(choices=[("en", "English"), ("fr", "Français")], default="en", max_length=2)),
                        ("away_from", models.DateTimeField(blank=True, null=True)),
                        ("away_until", models.DateTimeField(blank=True, null=True)),
                        ("display_name", models.CharField(blank=True, default="", help_text="the name other players see at the table", max_length=30)),
                        ("last_digest_at", models.DateTimeField(blank=True, null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        "db_table": "notifications_player",
                        "ordering": ["email"],
                    },
                ),
            ],
            database_operations=[
                migrations.RunPython(content_type_to_players, content_type_to_notifications),
            ],
        ),
    ]
