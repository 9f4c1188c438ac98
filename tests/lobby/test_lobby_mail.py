"""The lobby's emails (sign-in links, invitations) go through the outbox like every other email:
written with the request's writes, delivered by a task after the commit. A mail provider or a
broker that is down during the request neither fails the page nor loses the email."""

from __future__ import annotations

import re

import pytest
from celery.app.task import Task
from django.core import mail
from django.test import Client
from django.urls import reverse
from kombu.exceptions import OperationalError

from inis_pbem.celery import app as celery_app
from inis_pbem.tasks import sweep
from lobby import services
from notifications.models import Outbox
from players.accounts import user_for_email

# Real commits: the delivery task is sent when the request's transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)


class Broker:
    """Stands in for Redis: `up` keeps each task sent (name, args) for `work` to run, as a
    worker would; `down` refuses them as a stopped broker does."""

    def __init__(self):
        self.up = True
        self.queue: list[tuple[str, tuple, dict]] = []

    def send(self, task, args=None, kwargs=None, **options):
        if not self.up:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.queue.append((task.name, tuple(args or ()), dict(kwargs or {})))

    def work(self) -> None:
        """Run every task queued so far, once, in this process (tasks they send are queued)."""
        queued, self.queue = self.queue, []
        for name, args, kwargs in queued:
            celery_app.tasks[name].apply(args=args, kwargs=kwargs)


@pytest.fixture
def broker(monkeypatch):
    broker = Broker()
    monkeypatch.setattr(
        Task, "apply_async", lambda task, args=None, kwargs=None, **o: broker.send(task, args, kwargs, **o)
    )
    return broker


@pytest.fixture
def provider(monkeypatch):
    """The mail provider: `provider["down"] = True` makes every send fail as a refused connection."""
    state = {"down": False}
    send = mail.EmailMultiAlternatives.send

    def maybe_send(message, fail_silently=False):
        if state["down"]:
            raise ConnectionError("the mail provider is down")
        return send(message, fail_silently)

    monkeypatch.setattr(mail.EmailMultiAlternatives, "send", maybe_send)
    return state


def ask_for_a_link(client, email):
    return client.post(reverse("lobby:sign_in"), {"email": email})


def the_link(message) -> str:
    return re.search(r"http://127\.0\.0\.1:8000(/\S*sesame=\S+)", message.body).group(1)


def test_the_sign_in_page_answers_without_waiting_for_the_mail_provider(client, broker, provider):
    provider["down"] = True
    response = ask_for_a_link(client, "ann@example.org")
    assert response.status_code == 200 and "on its way" in response.content.decode()
    row = Outbox.objects.get(to_email="ann@example.org")
    assert row.status == Outbox.Status.PENDING and row.attempts == 0  # the page tried nothing
    assert [name for name, _, _ in broker.queue] == ["notifications.tasks.deliver_many"]
    # The worker tries while the provider is still down: the link waits, the error is kept.
    broker.work()
    row.refresh_from_db()
    assert row.status == Outbox.Status.PENDING and "provider is down" in row.last_error
    assert mail.outbox == []
    # The provider is back; the retry delivers the link, and it signs Ann in.
    provider["down"] = False
    broker.work()
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    landing = client.get(the_link(mail.outbox[0]))
    assert landing.status_code == 302
    assert "ann@example.org" in client.get(landing.url).content.decode()


def test_a_sign_in_link_asked_for_while_the_broker_is_down_is_sent_by_the_sweep(client, broker, settings):
    broker.up = False
    response = ask_for_a_link(client, "bob@example.org")
    assert response.status_code == 200 and "on its way" in response.content.decode()
    assert Outbox.objects.get(to_email="bob@example.org").status == Outbox.Status.PENDING
    broker.up = True
    settings.OUTBOX_RESEND_AFTER = 0  # the sweep's wait for a lost delivery, cut short
    sweep.apply()
    broker.work()
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    assert Outbox.objects.get(to_email="bob@example.org").status == Outbox.Status.SENT
    assert client.get(the_link(mail.outbox[0])).status_code == 302


def test_the_page_is_the_same_for_a_known_and_an_unknown_address_while_the_provider_is_down(broker, provider):
    provider["down"] = True
    user_for_email("known@example.org")
    pages = {}
    for email in ("known@example.org", "unknown@example.org"):
        response = ask_for_a_link(Client(), email)
        body = response.content.decode().replace(email, "ADDRESS")
        pages[email] = (response.status_code, re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", body))
    assert pages["known@example.org"] == pages["unknown@example.org"]
    assert pages["known@example.org"][0] == 200


def test_invitations_are_written_with_the_proposal_and_delivered_once_the_provider_is_back(broker, provider):
    provider["down"] = True
    host = user_for_email("host@example.org")
    proposal = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="ann@example.org"), services.PlaceSpec(email="cat@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
    )
    rows = Outbox.objects.filter(to_email__in=["ann@example.org", "cat@example.org"])
    assert sorted(rows.values_list("to_email", "status")) == [
        ("ann@example.org", "pending"),
        ("cat@example.org", "pending"),
    ]
    broker.work()
    assert mail.outbox == []
    provider["down"] = False
    broker.work()
    invited = {m.to[0]: m for m in mail.outbox}
    assert set(invited) == {"ann@example.org", "cat@example.org"}
    # Each carries the link that answers that invitation (docs/security.md): no sign-in link.
    assert all(re.search(r"http://127\.0\.0\.1:8000/invitation/\S+/", m.body) for m in invited.values())
    assert not any("sesame" in m.body for m in invited.values())
    assert proposal.invitations.filter(status="pending").count() == 2
