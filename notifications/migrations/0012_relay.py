"""The relay: when an outbox row is published, its hand-off, the provider's report, and the
trigger that wakes the relay."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models
from django.db.models import F


def queue_pending(apps, schema_editor):
    """Rows pending at the upgrade are published by the relay at once."""
    Outbox = apps.get_model("notifications", "Outbox")
    Outbox.objects.filter(status="pending").update(queued_at=F("created_at"))


class Migration(migrations.Migration):

    dependencies = [
        ("notifications", "0011_outbox_retry_at"),
    ]

    operations = [
        migrations.AddField(
            model_name='outbox',
            name='handed_at',
            field=models.DateTimeField(blank=True, help_text='when it was last handed to the mail backend', null=True),
        ),
        migrations.AddField(
            model_name='outbox',
            name='provider_seen_at',
            field=models.DateTimeField(blank=True, help_text="when the provider's tracking webhook last reported it", null=True),
        ),
        migrations.AddField(
            model_name='outbox',
            name='publishes',
            field=models.PositiveSmallIntegerField(default=0, help_text='times the relay published it'),
        ),
        migrations.AddField(
            model_name='outbox',
            name='queued_at',
            field=models.DateTimeField(blank=True, help_text='when the relay publishes it (next); empty while held', null=True),
        ),
        migrations.RunPython(queue_pending, migrations.RunPython.noop),
        pgtrigger.migrations.AddTrigger(
            model_name='outbox',
            trigger=pgtrigger.compiler.Trigger(name='outbox_wakes_relay', sql=pgtrigger.compiler.UpsertTriggerSql(func="PERFORM pg_notify('inis_relay', ''); RETURN NULL;", hash='ade55ec7531466c0d4a25343e7185340abc0b207', level='STATEMENT', operation='INSERT', pgid='pgtrigger_outbox_wakes_relay_a13d7', table='notifications_outbox', when='AFTER')),
        ),
    ]
