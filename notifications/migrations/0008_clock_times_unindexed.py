# The clocks' deadline and reminder times lose their indexes: see SeatClock.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0007_outbox_render_spec'),
    ]

    operations = [
        migrations.AlterField(
            model_name='seatclock',
            name='deadline',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='seatclock',
            name='remind_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
