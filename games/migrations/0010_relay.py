"""The relay: when a game's bot moves are due, and the trigger that wakes the relay."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_standing_orders"),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='bots_due_at',
            field=models.DateTimeField(blank=True, help_text="when the relay publishes the bot seats' moves (empty: none due)", null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='bots_publishes',
            field=models.PositiveSmallIntegerField(default=0, help_text="times the relay published the bot seats' moves since they became due"),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('bots_due_at__isnull', False)), fields=['bots_due_at'], name='games_bots_due'),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='game',
            trigger=pgtrigger.compiler.Trigger(name='bots_due_wakes_relay', sql=pgtrigger.compiler.UpsertTriggerSql(condition='WHEN (NEW.bots_due_at IS NOT NULL AND NEW.bots_due_at <= now())', func="PERFORM pg_notify('inis_relay', ''); RETURN NULL;", hash='40ff2cd334c0dc6033f97b4982261ae9bdfec11c', operation='UPDATE OF "bots_due_at"', pgid='pgtrigger_bots_due_wakes_relay_22ed5', table='games_game', when='AFTER')),
        ),
    ]
