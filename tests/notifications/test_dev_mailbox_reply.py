"""The development mailbox's reply form: a newcomer answers a prompt by email locally, the reply
is read as `receive_email` reads a piped message, and the answer lands in the mailbox."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import store
from games.models import Event
from notifications.models import DevEmail, InboundEmail
from tests.notifications.email_positions import END, game_from
from tests.notifications.grace import after_the_grace

DEV = "notifications.backends.DevMailboxBackend"


def send_all() -> None:
    """Deliver every pending outbox row (in these tests the on-commit enqueue does not fire),
    after ACCEPTANCE_GRACE: an acceptance no prompt carried goes alone."""
    after_the_grace()


@pytest.fixture
def mailbox(db, settings):
    settings.DEBUG = True  # the mailbox exists only in development (inis_pbem.middleware)
    settings.EMAIL_BACKEND = DEV


@pytest.fixture
def game(mailbox):
    game = game_from(END, seed="mailbox-reply")
    send_all()
    return game


def latest_prompt(address: str) -> DevEmail:
    return next(
        e for e in DevEmail.objects.order_by("-id") if e.to == [address] and e.subject.startswith("Your move")
    )


def reply(client, email: DevEmail, text: str):
    return client.post(reverse("notifications:mailbox_detail", args=[email.pk]), {"text": text})


def test_a_reply_typed_in_the_mailbox_is_played_and_its_answer_lands_there(client, game):
    prompt = latest_prompt("player1@example.org")  # green: become a pretender, or pass
    page = client.get(reverse("notifications:mailbox_detail", args=[prompt.pk])).content.decode()
    assert "Send the reply" in page and prompt.headers["Reply-To"] in page
    before = Event.objects.filter(game=game).count()

    response = reply(client, prompt, "Pretender")
    assert response.status_code == 302 and response.url == reverse("notifications:mailbox")
    send_all()

    state, _ = store.load(game)
    assert "green" in state.pretenders and Event.objects.filter(game=game).count() > before
    row = InboundEmail.objects.get()
    assert (row.status, row.source, row.from_email) == ("accepted", "dev-mailbox", "player1@example.org")
    listing = client.get(reverse("notifications:mailbox")).content.decode()
    assert "Your reply was read: accepted." in listing
    assert f"Re: {prompt.subject}" in listing  # the reply, listed with what became of it
    answers = [e for e in DevEmail.objects.filter(id__gt=prompt.id) if e.to == ["player1@example.org"]]
    assert answers and answers[0].subject in listing


def test_a_reply_the_service_cannot_read_is_answered_in_the_mailbox_and_changes_nothing(client, game):
    prompt = latest_prompt("player1@example.org")
    before = Event.objects.filter(game=game).count()
    reply(client, prompt, "Hello there, what should I do?")
    send_all()
    assert Event.objects.filter(game=game).count() == before
    assert InboundEmail.objects.get().status == "rejected"
    answer = DevEmail.objects.filter(id__gt=prompt.id).order_by("id").last()
    assert answer.to == ["player1@example.org"] and answer.headers.get("In-Reply-To")
    # The quoted prompt under the reply was not read as commands: the answer speaks of the reply.
    assert "Hello there" in answer.body_text


def test_an_email_without_a_reply_address_has_no_reply_form(client, mailbox):
    from lobby.mail import send_sign_in
    from players.accounts import user_for_email

    send_sign_in(user_for_email("new@example.org"), "/")
    send_all()
    email = DevEmail.objects.get()
    assert "Reply-To" not in email.headers
    page = client.get(reverse("notifications:mailbox_detail", args=[email.pk])).content.decode()
    assert "Send the reply" not in page
    assert reply(client, email, "2").status_code == 400 and not InboundEmail.objects.exists()


def test_the_reply_form_does_not_exist_without_the_development_mailbox(client, game, settings):
    prompt = latest_prompt("player1@example.org")
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert reply(client, prompt, "Pretender").status_code == 404
    settings.EMAIL_BACKEND, settings.DEBUG = DEV, False
    assert reply(client, prompt, "Pretender").status_code == 404
    assert not InboundEmail.objects.exists()
