from django.db import migrations
from django.db.models import Count, F


def unwin_stand_in_wins(apps, schema_editor):
    """The `profiles` read model as its fold now makes it: a seat left to the stand-in is no
    win of its player, even when the stand-in won (what `rebuild_projections profiles` gives)."""
    FinishedSeat = apps.get_model("community", "FinishedSeat")
    PlayerRecord = apps.get_model("community", "PlayerRecord")
    wrong = FinishedSeat.objects.filter(won=True, abandoned=True)
    for row in wrong.values("player_id").annotate(n=Count("id")):
        PlayerRecord.objects.filter(player_id=row["player_id"]).update(won=F("won") - row["n"])
    wrong.update(won=False)


class Migration(migrations.Migration):
    dependencies = [
        ("community", "0005_seat_leavers"),
    ]

    operations = [
        migrations.RunPython(unwin_stand_in_wins, migrations.RunPython.noop),
    ]
