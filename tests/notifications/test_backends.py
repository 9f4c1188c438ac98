"""notifications.backends.DevMailboxBackend and the /dev/mailbox/ pages."""

from __future__ import annotations

from django.core.mail import EmailMultiAlternatives
from django.urls import reverse

from notifications.models import DevEmail

DEV = "notifications.backends.DevMailboxBackend"


def send_one():
    message = EmailMultiAlternatives(
        "Hello",
        "plain body",
        "from@example.org",
        ["to@example.org"],
        headers={"Message-ID": "<m1@example.org>"},
    )
    message.attach_alternative("<p>html body</p>", "text/html")
    return message.send()


def test_the_dev_backend_stores_each_message(db, settings):
    settings.EMAIL_BACKEND = DEV
    assert send_one() == 1
    stored = DevEmail.objects.get()
    assert (stored.subject, stored.body_text, stored.body_html) == ("Hello", "plain body", "<p>html body</p>")
    assert stored.to == ["to@example.org"] and stored.headers["Message-ID"] == "<m1@example.org>"


def test_the_mailbox_pages_list_and_show_messages(client, db, settings):
    settings.DEBUG = True  # the mailbox exists only in development (inis_pbem.middleware)
    settings.EMAIL_BACKEND = DEV
    send_one()
    listing = client.get(reverse("notifications:mailbox"))
    assert listing.status_code == 200 and "Hello" in listing.content.decode()
    detail = client.get(reverse("notifications:mailbox_detail", args=[DevEmail.objects.get().pk]))
    assert detail.status_code == 200 and "plain body" in detail.content.decode()


def test_the_mailbox_does_not_exist_with_another_backend(client, db, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert client.get(reverse("notifications:mailbox")).status_code == 404


def test_prompts_land_in_the_dev_mailbox(db, settings, django_capture_on_commit_callbacks):
    from games.services import SeatSpec, create_game

    settings.EMAIL_BACKEND = DEV
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game(seats=[SeatSpec(email="me@example.org")] + [SeatSpec(is_bot=True)] * 3, seed="box")
    mails = list(DevEmail.objects.all())
    assert mails and all(m.to == ["me@example.org"] for m in mails)
    assert mails[0].subject == f"Your move: place a clan (set-up) — Inis {game.pk}"
