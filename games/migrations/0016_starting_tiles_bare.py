"""Games created before the starting tiles brought their Sanctuary keep the set-up they were dealt.

Until 2026-11-30 Gates of Tír na nÓg and Stone Circle drawn as starting tiles entered play
without their Sanctuary. An audit (`verify_game`, `python -m games.verify`) deals a game again
from its seed and options, so every game created before then gets the rules key
`starting_tiles: "bare"` (docs/game-options.md), which `rules.start_game` reads and never
records: its set-up is dealt again exactly as it was. Games created later have no such key.
"""

from django.db import migrations


def mark_bare(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("pk", "options").iterator():
        options = dict(game.options or {})
        if "starting_tiles" not in options:
            options["starting_tiles"] = "bare"
            Game.objects.filter(pk=game.pk).update(options=options)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_seat_bot_level_strong"),
    ]

    operations = [
        migrations.RunPython(mark_bare, migrations.RunPython.noop),
    ]
