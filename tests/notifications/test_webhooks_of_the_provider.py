"""Only the provider the mail goes through has its webhooks served (inis_pbem/urls.py): every
provider's view takes the shared basic-auth secret, and only the provider's own checks its
signature, so another provider's address would take unsigned posts (docs/security.md)."""

from __future__ import annotations

import importlib
import json
from contextlib import contextmanager

import pytest
from django.urls import clear_url_caches

from games.models import Command, Event
from inis_pbem import urls
from notifications.models import InboundEmail
from tests.notifications import mail_clients
from tests.notifications.test_inbound import prompt_for, send_all
from tests.notifications.test_webhooks import (
    _basic,
    anymail_settings,  # noqa: F401  (the secret and Mailgun's signing key)
    game,  # noqa: F401
    mailgun_payload,
    post_mailgun,
    postmark_payload,
)


@contextmanager
def urls_of(settings, backend: str):
    """The URL map as a server whose EMAIL_BACKEND is `backend` builds it (at its start); the
    mail of the test itself still goes to the test's mailbox."""
    before = settings.EMAIL_BACKEND
    settings.EMAIL_BACKEND = backend
    try:
        importlib.reload(urls)
        clear_url_caches()
    finally:
        settings.EMAIL_BACKEND = before
    try:
        yield
    finally:
        importlib.reload(urls)
        clear_url_caches()


@pytest.mark.parametrize("other", ["postmark", "sendgrid"])
def test_with_mailgun_another_providers_inbound_address_is_not_served_and_nothing_is_played(
    client,
    game,  # noqa: F811
    settings,
    other,
    django_capture_on_commit_callbacks,
):
    raw = mail_clients.outlook(prompt_for(game, "green"), "pass", sender="player1@example.org")
    before = Event.objects.filter(game=game).count()
    with urls_of(settings, "anymail.backends.mailgun.EmailBackend"):
        # Unsigned, with the right basic auth: what anymail's Postmark or SendGrid view took.
        with django_capture_on_commit_callbacks(execute=True):
            if other == "postmark":
                body, kind = json.dumps(postmark_payload(raw)), {"content_type": "application/json"}
            else:
                envelope = json.dumps({"to": ["inis@localhost"], "from": "player1@example.org"})
                body, kind = {"email": raw.decode(), "envelope": envelope, "charsets": "{}"}, {}
            refused = client.post(f"/anymail/{other}/inbound/", body, HTTP_AUTHORIZATION=_basic(), **kind)
            tracking = client.post(
                f"/anymail/{other}/tracking/",
                "[]",
                content_type="application/json",
                HTTP_AUTHORIZATION=_basic(),
            )
        send_all()

        assert refused.status_code == 404 and tracking.status_code == 404
        assert InboundEmail.objects.count() == 0
        assert Event.objects.filter(game=game).count() == before

        # Mailgun's own view still takes its signed posts, and the reply is played.
        with django_capture_on_commit_callbacks(execute=True):
            assert post_mailgun(client, mailgun_payload(raw)).status_code == 200
        send_all()
    assert InboundEmail.objects.get().source == "mailgun"
    assert Command.objects.get(game=game).body == {"type": "pass"}


@pytest.mark.filterwarnings("ignore::anymail.exceptions.AnymailNotSupportedWarning")  # SendGrid's view
def test_without_a_provider_backend_every_providers_address_is_served(client, db, settings):
    """The development mailbox, or Django's SMTP backend with replies posted by a provider: the
    addresses of every provider answer (here: refused for want of credentials, not 404)."""
    with urls_of(settings, "django.core.mail.backends.smtp.EmailBackend"):
        for address in (
            "/anymail/postmark/inbound/",
            "/anymail/sendgrid/inbound/",
            "/anymail/mailgun/inbound/",
        ):
            assert client.post(address, "{}", content_type="application/json").status_code != 404


def test_without_a_provider_backend_a_provider_this_server_cannot_serve_answers_404_not_500(
    client,
    db,
    settings,
    anymail_settings,  # noqa: F811
):
    """Django's SMTP backend with replies posted by a provider, no Brevo API key and no boto3
    (Amazon SES's package): their addresses answered every post, even one without the webhook's
    password, with a server error, each one written to the error log. They are not served now,
    as a provider not configured; the others still are."""
    settings.EMAIL_WEBHOOKS = True
    assert not getattr(settings, "ANYMAIL_BREVO_API_KEY", None)
    with urls_of(settings, "django.core.mail.backends.smtp.EmailBackend"):
        client.raise_request_exception = False
        for address in (
            "/anymail/brevo/inbound/",
            "/anymail/amazon_ses/inbound/",
            "/anymail/amazon_ses/tracking/",
        ):
            for auth in ({}, {"HTTP_AUTHORIZATION": _basic()}):
                answer = client.post(address, '{"items": []}', content_type="application/json", **auth)
                assert answer.status_code == 404, (address, auth, answer.status_code)
        served = client.post("/anymail/postmark/inbound/", "{}", content_type="application/json")
        assert served.status_code == 400  # the password is missing: refused, not unknown
    assert InboundEmail.objects.count() == 0
