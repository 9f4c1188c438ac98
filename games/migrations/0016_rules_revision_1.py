"""Every game stored before rules revisions keeps the rules it began with (`games.rules.revisions`).

A fix of the rules that changes what they decide applies from a revision on; a game created
since 2026-11-30 records its revision in `GameStarted`. The games stored before have none, so
they get the rules key `rules_revision: 1` in their options (docs/game-options.md), which
`rules.start_game` reads and never records: an audit (`verify_game`, `python -m games.verify`)
deals them again and decides their commands again as they were.
"""

from django.db import migrations


def mark_revision_1(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("pk", "options").iterator():
        options = dict(game.options or {})
        if "rules_revision" not in options:
            options["rules_revision"] = 1
            Game.objects.filter(pk=game.pk).update(options=options)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_seat_bot_level_strong"),
    ]

    operations = [
        migrations.RunPython(mark_revision_1, migrations.RunPython.noop),
    ]
