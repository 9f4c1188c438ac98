"""Give every existing player seat the account of its email (as `players.accounts.user_for_email`
does for new seats), so that the player can sign in and act for it on the web."""
from django.conf import settings
from django.db import migrations


def link_seats(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    for seat in Seat.objects.filter(is_bot=False, user__isnull=True).exclude(email=""):
        email = seat.email.strip().lower()
        user = User.objects.filter(email__iexact=email).order_by("pk").first()
        if user is None:
            user = User.objects.create(username=email[:150], email=email, password="!")
        Seat.objects.filter(pk=seat.pk).update(user=user)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_players_and_table_log"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(link_seats, migrations.RunPython.noop),
    ]
