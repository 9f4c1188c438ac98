"""inis_pbem.checks: production settings (DEBUG off) that are missing or unsafe are refused."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from inis_pbem.checks import check_client_address, check_production_settings, refuse_unsafe_settings

SAFE = {
    "DEBUG": False,
    "SECRET_KEY": "k3y-" + "x9Q2vL7pR4tZ8wN1bM6cF3hJ5kD0sG" * 2,
    "DATABASES": {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "inis"}},
    "CELERY_TASK_ALWAYS_EAGER": False,
    "CELERY_BROKER_URL": "redis://redis:6379/0",
    "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
    "ALLOWED_HOSTS": ["inis.example.org"],
    "SITE_URL": "https://inis.example.org",
    "ANYMAIL": {"POSTMARK_SERVER_TOKEN": "tok", "WEBHOOK_SECRET": "inbound:Zq8vL2pX7rT4wN9bM1cF"},
    "SECURE_HSTS_SECONDS": 365 * 24 * 3600,
    "SECURE_SSL_REDIRECT": True,
}


def ids(settings_obj, **overrides) -> set[str]:
    for key, value in {**SAFE, **overrides}.items():
        setattr(settings_obj, key, value)
    return {error.id for error in check_production_settings(None)}


def test_safe_production_settings_pass(settings):
    assert ids(settings) == set()


def test_web_push_with_its_vapid_keys_passes(settings):
    assert (
        ids(settings, WEB_PUSH=True, WEB_PUSH_VAPID_PRIVATE_KEY="x" * 43, WEB_PUSH_VAPID_PUBLIC_KEY="B" * 87)
        == set()
    )


def test_development_settings_pass_while_debug_is_on(settings):
    assert (
        ids(
            settings,
            DEBUG=True,
            SECRET_KEY="dev",
            SECURE_HSTS_SECONDS=0,
            SECURE_SSL_REDIRECT=False,
            EMAIL_BACKEND="notifications.backends.DevMailboxBackend",
            DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3"}},
            CELERY_TASK_ALWAYS_EAGER=True,
            ALLOWED_HOSTS=[],
            SITE_URL="http://127.0.0.1:8000",
        )
        == set()
    )


@pytest.mark.parametrize(
    "override, error",
    [
        ({"SECRET_KEY": ""}, "inis_pbem.E001"),
        ({"SECRET_KEY": "short"}, "inis_pbem.E001"),
        ({"SECRET_KEY": "django-insecure-" + "a1b2c3d4e5" * 5}, "inis_pbem.E001"),
        ({"SECRET_KEY": "ab" * 40}, "inis_pbem.E001"),
        (
            {"DATABASES": {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "db"}}},
            "inis_pbem.E002",
        ),
        ({"CELERY_TASK_ALWAYS_EAGER": True}, "inis_pbem.E003"),
        ({"CELERY_BROKER_URL": "memory://localhost/"}, "inis_pbem.E003"),
        ({"EMAIL_BACKEND": "notifications.backends.DevMailboxBackend"}, "inis_pbem.E004"),
        ({"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}, "inis_pbem.E004"),
        ({"ALLOWED_HOSTS": []}, "inis_pbem.E005"),
        ({"SITE_URL": "http://inis.example.org"}, "inis_pbem.E006"),
        ({"SITE_URL": ""}, "inis_pbem.E006"),
        ({"ANYMAIL": {"POSTMARK_SERVER_TOKEN": "tok"}}, "inis_pbem.E007"),
        ({"ANYMAIL": {"WEBHOOK_SECRET": "user:short"}}, "inis_pbem.E007"),
        # 20 characters in all, but a password of 8: the length is the password's.
        ({"ANYMAIL": {"WEBHOOK_SECRET": "a-long-username:password"[:20]}}, "inis_pbem.E007"),
        ({"ANYMAIL": {"WEBHOOK_SECRET": ":Zq8vL2pX7rT4wN9bM1cF"}}, "inis_pbem.E007"),
        # docs/operations.md's example, copied as written.
        ({"ANYMAIL": {"WEBHOOK_SECRET": "inbound:A-LONG-RANDOM-PASSWORD"}}, "inis_pbem.E007"),
        ({"ALLOWED_HOSTS": ["*"]}, "inis_pbem.E008"),
        ({"ALLOWED_HOSTS": ["inis.example.org", "*"]}, "inis_pbem.E008"),
        ({"SECURE_HSTS_SECONDS": 0}, "inis_pbem.E009"),
        ({"SECURE_HSTS_SECONDS": 3600}, "inis_pbem.E009"),
        ({"SECURE_SSL_REDIRECT": False}, "inis_pbem.E010"),
        (
            {"WEB_PUSH": True, "WEB_PUSH_VAPID_PRIVATE_KEY": "", "WEB_PUSH_VAPID_PUBLIC_KEY": ""},
            "inis_pbem.E012",
        ),
        (
            {"WEB_PUSH": True, "WEB_PUSH_VAPID_PRIVATE_KEY": "x" * 43, "WEB_PUSH_VAPID_PUBLIC_KEY": ""},
            "inis_pbem.E012",
        ),
        ({"LOOPBACK_TARGETS_FOR_TESTS": True}, "inis_pbem.E013"),
    ],
)
def test_each_unsafe_production_setting_is_refused(settings, override, error):
    assert ids(settings, **override) == {error}


def test_a_local_mail_server_without_webhooks_passes(settings):
    """docs/operations.md, "without a mail provider": Django's SMTP backend to the machine's
    Postfix, replies through its pipe; no provider posts, so no webhook secret is needed."""
    assert (
        ids(
            settings,
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=25,
            EMAIL_WEBHOOKS=False,
            ANYMAIL={},
        )
        == set()
    )
    # The webhooks served without a secret are still refused.
    assert ids(settings, EMAIL_WEBHOOKS=True, ANYMAIL={}) == {"inis_pbem.E007"}


def test_without_webhooks_the_anymail_addresses_are_not_served(client, db, settings):
    import importlib

    from django.urls import clear_url_caches

    from inis_pbem import urls

    post = {"RecordType": "Inbound", "Subject": "hello"}
    settings.ANYMAIL = {"WEBHOOK_SECRET": "inbound:Zq8vL2pX7rT4wN9bM1cF"}
    try:
        settings.EMAIL_WEBHOOKS = False
        importlib.reload(urls)
        clear_url_caches()
        for address in (
            "/anymail/postmark/inbound/",
            "/anymail/mailgun/inbound_mime/",
            "/anymail/sendgrid/inbound/",
        ):
            assert client.post(address, post, content_type="application/json").status_code == 404
        settings.EMAIL_WEBHOOKS = True
        importlib.reload(urls)
        clear_url_caches()
        assert (
            client.post("/anymail/postmark/inbound/", post, content_type="application/json").status_code
            != 404
        )
    finally:
        settings.EMAIL_WEBHOOKS = True
        importlib.reload(urls)
        clear_url_caches()


def test_the_development_key_is_refused_in_production(settings):
    from inis_pbem.settings.security import DEV_SECRET_KEY

    assert ids(settings, SECRET_KEY=DEV_SECRET_KEY) == {"inis_pbem.E001"}


def test_manage_py_check_stops_on_unsafe_production_settings(settings):
    for key, value in SAFE.items():
        setattr(settings, key, value)
    settings.SITE_URL = "http://inis.example.org"
    with pytest.raises(SystemCheckError, match="inis_pbem.E006"):
        call_command("check")


def test_production_without_a_client_address_header_warns_the_operator(settings, capsys):
    """Behind the reverse proxy every request comes from the proxy's address: without
    CLIENT_IP_HEADER every visitor counts as one client for the per-client limits. A warning,
    printed where a server or worker starts and by `check --deploy`, not by every command."""
    for key, value in SAFE.items():
        setattr(settings, key, value)
    settings.CLIENT_IP_HEADER = None
    [warning] = check_client_address(None)
    assert warning.id == "inis_pbem.W001" and not warning.is_serious()
    assert "every visitor counts as the same client" in warning.msg
    assert "CLIENT_IP_HEADER=X-Real-IP" in warning.hint and "X-Real-IP $remote_addr" in warning.hint

    refuse_unsafe_settings()  # what gunicorn, a Celery worker and beat run when they start
    assert "inis_pbem.W001" in capsys.readouterr().err
    call_command("check")  # any other management command's checks (receive_email in a pipe)
    assert "inis_pbem.W001" not in capsys.readouterr().err

    settings.CLIENT_IP_HEADER = "X-Real-IP"
    assert check_client_address(None) == []
    refuse_unsafe_settings()
    assert capsys.readouterr().err == ""
    settings.CLIENT_IP_HEADER, settings.DEBUG = None, True
    assert check_client_address(None) == []


def test_the_development_mailbox_exists_only_with_debug_on(client, db, settings):
    """With DEBUG off the mailbox (every sign-in link we sent) is not served, whatever the
    EMAIL_BACKEND says; with DEBUG on it is."""
    from django.urls import reverse

    settings.EMAIL_BACKEND = settings.DEV_MAILBOX_BACKEND
    settings.DEBUG = False
    assert client.get(reverse("notifications:mailbox")).status_code == 404
    assert client.get(reverse("notifications:mailbox_detail", args=[1])).status_code == 404
    settings.DEBUG = True
    assert client.get(reverse("notifications:mailbox")).status_code == 200


@pytest.mark.parametrize(
    "backend, keys, refused",
    [
        # Mailgun set up with its sending key only: Mailgun's real signature would be refused.
        ("mailgun", {"MAILGUN_API_KEY": "key-1"}, "ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY"),
        ("mandrill", {"MANDRILL_API_KEY": "k"}, "ANYMAIL_MANDRILL_WEBHOOK_KEY"),
        ("postal", {"POSTAL_API_KEY": "k"}, "ANYMAIL_POSTAL_WEBHOOK_KEY"),
        ("mailersend", {"MAILERSEND_API_TOKEN": "k"}, "ANYMAIL_MAILERSEND_INBOUND_SECRET"),
        ("resend", {}, "ANYMAIL_RESEND_API_KEY"),
        ("resend", {"RESEND_API_KEY": "re_1", "RESEND_INBOUND_SECRET": "whsec_1"}, "the Python package svix"),
        ("amazon_ses", {}, "the Python package boto3"),
    ],
)
def test_a_provider_whose_inbound_webhook_lacks_a_key_or_package_is_refused(settings, backend, keys, refused):
    anymail = {"WEBHOOK_SECRET": SAFE["ANYMAIL"]["WEBHOOK_SECRET"], **keys}
    errors = [
        error
        for error in _errors(
            settings, EMAIL_BACKEND=f"anymail.backends.{backend}.EmailBackend", ANYMAIL=anymail
        )
        if error.id == "inis_pbem.E011"
    ]
    assert len(errors) == 1 and refused in errors[0].msg and f"/anymail/{backend}/inbound/" in errors[0].msg


@pytest.mark.parametrize(
    "backend, keys",
    [
        ("mailgun", {"MAILGUN_API_KEY": "key-1", "MAILGUN_WEBHOOK_SIGNING_KEY": "sig"}),
        ("mandrill", {"MANDRILL_WEBHOOK_KEY": "k"}),
        ("postal", {"POSTAL_WEBHOOK_KEY": "MIIBIjAN"}),  # cryptography is installed
        ("mailersend", {"MAILERSEND_INBOUND_SECRET": "s"}),
        ("resend", {"RESEND_API_KEY": "re_1"}),
        ("postmark", {"POSTMARK_SERVER_TOKEN": "t"}),
        ("sendgrid", {"SENDGRID_API_KEY": "k"}),
    ],
)
def test_a_provider_with_what_its_inbound_webhook_needs_passes(settings, backend, keys):
    anymail = {"WEBHOOK_SECRET": SAFE["ANYMAIL"]["WEBHOOK_SECRET"], **keys}
    assert ids(settings, EMAIL_BACKEND=f"anymail.backends.{backend}.EmailBackend", ANYMAIL=anymail) == set()


def test_without_webhooks_the_inbound_keys_are_not_asked_for(settings):
    backend = "anymail.backends.mailgun.EmailBackend"
    assert (
        ids(settings, EMAIL_BACKEND=backend, ANYMAIL={"MAILGUN_API_KEY": "k"}, EMAIL_WEBHOOKS=False) == set()
    )


def _errors(settings_obj, **overrides) -> list:
    for key, value in {**SAFE, **overrides}.items():
        setattr(settings_obj, key, value)
    return check_production_settings(None)
