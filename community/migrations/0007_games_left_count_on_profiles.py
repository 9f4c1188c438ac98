from django.db import migrations
from django.db.models import F
from django.utils.dateparse import parse_datetime


def count_the_games_left(apps, schema_editor):
    """The `profiles` read model as its fold now makes it: a player who left a seat on the way
    (the `"left"` of a game's end, ranked last by the ratings) has that game among their finished
    games and seats left (what `rebuild_projections profiles` gives). Only the ends the
    projection has folded already: the later ones are folded by the new code."""
    GameEnd = apps.get_model("community", "GameEnd")
    FinishedSeat = apps.get_model("community", "FinishedSeat")
    PlayerRecord = apps.get_model("community", "PlayerRecord")
    ProjectionPosition = apps.get_model("community", "ProjectionPosition")
    folded = ProjectionPosition.objects.filter(name="profiles").values_list("position", flat=True).first()
    if not folded:
        return
    for end in GameEnd.objects.filter(id__lte=folded).order_by("id").iterator():
        for leaver in end.payload.get("left", ()):
            FinishedSeat.objects.create(
                player_id=leaver["player"],
                game_id=end.game_id,
                colour=leaver["colour"],
                won=False,
                abandoned=True,
                ended_at=parse_datetime(end.payload["ended_at"]),
            )
            PlayerRecord.objects.get_or_create(player_id=leaver["player"])
            PlayerRecord.objects.filter(player_id=leaver["player"]).update(
                finished=F("finished") + 1, abandoned=F("abandoned") + 1
            )


class Migration(migrations.Migration):
    dependencies = [
        ("community", "0006_stand_in_wins_are_not_the_players"),
    ]

    operations = [
        migrations.RunPython(count_the_games_left, migrations.RunPython.noop),
    ]
