from django.db import migrations, models
from django.db.models import F


def listed_since_created(apps, schema_editor):
    """The tables listed before the field existed: their week ran from their creation."""
    Proposal = apps.get_model("lobby", "Proposal")
    Proposal.objects.filter(listed=True).update(listed_at=F("created_at"))


class Migration(migrations.Migration):

    dependencies = [
        ('lobby', '0008_invitation_from_rematch'),
    ]

    operations = [
        migrations.AddField(
            model_name='proposal',
            name='listed_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(listed_since_created, migrations.RunPython.noop),
    ]
