from django.db import migrations, models


def levels_from_the_bots_seated(apps, schema_editor):
    """A table proposed with bots keeps their level (the first bot's): the only trace of the
    host's choice before it was stored. A table proposed without bots never kept it: "hard"."""
    Proposal = apps.get_model("lobby", "Proposal")
    Invitation = apps.get_model("lobby", "Invitation")
    seated = Invitation.objects.filter(is_bot=True).order_by("proposal_id", "position")
    first_level: dict[int, str] = {}
    for proposal_id, level in seated.values_list("proposal_id", "bot_level"):
        first_level.setdefault(proposal_id, level)
    for level in set(first_level.values()):
        ids = [pk for pk, found in first_level.items() if found == level]
        Proposal.objects.filter(pk__in=ids).update(bot_level=level)


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0009_proposal_listed_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="proposal",
            name="bot_level",
            field=models.CharField(
                choices=[("random", "random"), ("easy", "easy"), ("hard", "hard"), ("strong", "strong")],
                default="hard",
                max_length=8,
            ),
        ),
        migrations.RunPython(levels_from_the_bots_seated, migrations.RunPython.noop),
    ]
