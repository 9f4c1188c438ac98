"""System checks that refuse unsafe production settings.

They run with every management command that checks (runserver, migrate, check, a worker started
through Django) and when the WSGI application is built (`inis_pbem.wsgi`, so gunicorn refuses to
start too), and report nothing while DEBUG is on: development runs on the embedded defaults
(SQLite, in-process Celery, the development mailbox). With DEBUG off each unsafe or missing
setting is an Error, which stops the command or the server.

A setting that works but serves players badly is a Warning of a deployment check (`deploy=True`,
tag DEPLOYMENT_WARNINGS): `manage.py check --deploy` lists it, and gunicorn, the Celery worker
and beat print it when they start (`refuse_unsafe_settings`), where the operator reads their
logs; the other management commands (receive_email in a mail server's pipe) stay quiet.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

# The shortest Strict-Transport-Security lifetime production accepts, in seconds: a day. Below it
# a browser forgets after a short absence that the site is https-only, and the first request of a
# returning player (its sign-in token in the address) may go out in clear. The default is a year
# (settings/security.py).
MIN_HSTS_SECONDS = 24 * 3600

# Backends that never deliver mail to a player: fine in development, a silent loss in production.
NON_DELIVERING_EMAIL_BACKENDS = {
    "notifications.backends.DevMailboxBackend",
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
}


# What each provider's inbound webhook view (anymail 15.2) needs besides ANYMAIL_WEBHOOK_SECRET,
# by the provider's name in its anymail backend (EMAIL_BACKEND anymail.backends.<name>.EmailBackend):
# (ANYMAIL_* settings, Python packages). Without one, every post the provider makes is refused
# (anymail answers 400 or 500) and the provider gives up: replies lost without an answer.
# Mailgun's signing key is not its sending key (anymail falls back to that, which Mailgun's real
# signature does not match); Resend's svix secret would need the `svix` package, not installed:
# its post is then authenticated by ANYMAIL_WEBHOOK_SECRET alone.
INBOUND_WEBHOOK_NEEDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "mailgun": (("MAILGUN_WEBHOOK_SIGNING_KEY",), ()),
    "mandrill": (("MANDRILL_WEBHOOK_KEY",), ()),
    "postal": (("POSTAL_WEBHOOK_KEY",), ("cryptography",)),
    "mailersend": (("MAILERSEND_INBOUND_SECRET",), ()),
    "resend": (("RESEND_API_KEY",), ()),
    "amazon_ses": ((), ("boto3",)),
}
# Set, these settings make the provider's view check a signature with a package of its own.
INBOUND_WEBHOOK_OPTIONAL_NEEDS = {"RESEND_INBOUND_SECRET": "svix"}


# The guide's example of the webhook's credentials (docs/operations.md), which an operator
# copying the env file as written would otherwise put in production.
WEBHOOK_SECRET_PLACEHOLDER = "A-LONG-RANDOM-PASSWORD"  # noqa: S105 - the one password refused
# The least characters of the webhook's password (after the "user:").
MIN_WEBHOOK_PASSWORD = 20


def webhook_secret_is_strong(secret: str) -> bool:
    """Whether `secret` ("user:password", anymail's WEBHOOK_SECRET) has a password of at least
    MIN_WEBHOOK_PASSWORD characters that is not the guide's placeholder: the provider's posts
    are the only proof an inbound reply is a provider's."""
    user, colon, password = secret.partition(":")
    return (
        bool(user and colon)
        and len(password) >= MIN_WEBHOOK_PASSWORD
        and password != WEBHOOK_SECRET_PLACEHOLDER
    )


def _secret_key_problem() -> str | None:
    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:  # Django refuses to even read an empty SECRET_KEY.
        return "SECRET_KEY is not set."
    if not key:
        return "SECRET_KEY is not set."
    dev_key = getattr(settings, "DEV_SECRET_KEY", None)
    # The same thresholds as Django's own deployment check (security.W009).
    if key == dev_key or key.startswith("django-insecure-") or len(key) < 50 or len(set(key)) < 5:
        return "SECRET_KEY is weak: use at least 50 random characters (not the development key)."
    return None


@register(Tags.security)
def check_production_settings(app_configs, **kwargs) -> list[Error]:
    """Return one Error per unsafe setting when DEBUG is off, none when DEBUG is on."""
    if settings.DEBUG:
        return []
    errors = []
    problem = _secret_key_problem()
    if problem:
        errors.append(Error(problem, hint="Set the SECRET_KEY environment variable.", id="inis_pbem.E001"))
    engine = settings.DATABASES.get("default", {}).get("ENGINE", "")
    if engine.endswith("sqlite3"):
        errors.append(
            Error(
                "The database is SQLite, which is for development only.",
                hint="Set DATABASE_URL=postgres://user:password@host:5432/name.",
                id="inis_pbem.E002",
            )
        )
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False) or str(
        getattr(settings, "CELERY_BROKER_URL", "")
    ).startswith("memory://"):
        errors.append(
            Error(
                "Celery runs tasks in the web process (no broker): emails and bot moves would block "
                "requests and be lost on a crash.",
                hint="Set REDIS_URL=redis://host:6379/0 and run a Celery worker.",
                id="inis_pbem.E003",
            )
        )
    if settings.EMAIL_BACKEND in NON_DELIVERING_EMAIL_BACKENDS:
        errors.append(
            Error(
                f"EMAIL_BACKEND {settings.EMAIL_BACKEND} never delivers mail to players.",
                hint="Set EMAIL_BACKEND to an anymail backend and its ANYMAIL_* settings, or to "
                "django.core.mail.backends.smtp.EmailBackend with EMAIL_HOST and EMAIL_PORT of a "
                "mail server (docs/operations.md).",
                id="inis_pbem.E004",
            )
        )
    if not settings.ALLOWED_HOSTS:
        errors.append(
            Error(
                "ALLOWED_HOSTS is empty.",
                hint="Set DJANGO_ALLOWED_HOSTS=example.org (comma-separated).",
                id="inis_pbem.E005",
            )
        )
    if "*" in settings.ALLOWED_HOSTS:
        errors.append(
            Error(
                "ALLOWED_HOSTS accepts any host ('*'): a forged Host header would then be taken as "
                "this site's name.",
                hint="Set DJANGO_ALLOWED_HOSTS to the site's own host names, e.g. inis.example.org.",
                id="inis_pbem.E008",
            )
        )
    if (getattr(settings, "SECURE_HSTS_SECONDS", 0) or 0) < MIN_HSTS_SECONDS:
        errors.append(
            Error(
                f"SECURE_HSTS_SECONDS is {getattr(settings, 'SECURE_HSTS_SECONDS', 0) or 0}: browsers "
                "would not keep to https between visits, and a link's token could travel in clear.",
                hint=f"Unset SECURE_HSTS_SECONDS (a year) or set it to at least {MIN_HSTS_SECONDS}.",
                id="inis_pbem.E009",
            )
        )
    if not getattr(settings, "SECURE_SSL_REDIRECT", False):
        errors.append(
            Error(
                "SECURE_SSL_REDIRECT is off: pages (and sign-in links) would be served over plain http.",
                hint="Unset SECURE_SSL_REDIRECT (on by default without DEBUG).",
                id="inis_pbem.E010",
            )
        )
    secret = str((getattr(settings, "ANYMAIL", None) or {}).get("WEBHOOK_SECRET") or "")
    # Only the webhooks need it: with EMAIL_WEBHOOKS off they are not served at all.
    if getattr(settings, "EMAIL_WEBHOOKS", True) and not webhook_secret_is_strong(secret):
        errors.append(
            Error(
                "ANYMAIL['WEBHOOK_SECRET'] is not set, its password is too short, or it is the "
                "guide's placeholder: the inbound email webhooks (/anymail/<provider>/inbound/) "
                "would act on the posts of anybody who guesses it.",
                hint="Set ANYMAIL_WEBHOOK_SECRET=user:<20+ random characters> and give the same "
                "credentials to the provider's inbound webhook address; or, when replies come "
                "through a mail server's pipe (manage.py receive_email) and no provider posts, "
                "set EMAIL_WEBHOOKS=0.",
                id="inis_pbem.E007",
            )
        )
    if getattr(settings, "EMAIL_WEBHOOKS", True):
        errors += _inbound_webhook_errors()
    if getattr(settings, "WEB_PUSH", False) and not (
        getattr(settings, "WEB_PUSH_VAPID_PRIVATE_KEY", "")
        and getattr(settings, "WEB_PUSH_VAPID_PUBLIC_KEY", "")
    ):
        errors.append(
            Error(
                "WEB_PUSH is on but its VAPID key pair is not set: no push could be signed.",
                hint="Set WEB_PUSH_VAPID_PRIVATE_KEY and WEB_PUSH_VAPID_PUBLIC_KEY (docs/operations.md, "
                '"Web push"), or WEB_PUSH=0.',
                id="inis_pbem.E012",
            )
        )
    if getattr(settings, "LOOPBACK_TARGETS_FOR_TESTS", False):
        errors.append(
            Error(
                "LOOPBACK_TARGETS_FOR_TESTS is on: players' chat addresses, table channels and push "
                "endpoints could make the server post to services of this machine (127.0.0.1).",
                hint="Unset LOOPBACK_TARGETS_FOR_TESTS: it is for the tests' own chat and push services.",
                id="inis_pbem.E013",
            )
        )
    site = urlsplit(getattr(settings, "SITE_URL", "") or "")
    if site.scheme != "https" or not site.netloc:
        errors.append(
            Error(
                f"SITE_URL {getattr(settings, 'SITE_URL', '')!r} is not an https:// address: seat "
                "links carry secret tokens and must not travel in clear.",
                hint="Set SITE_URL=https://your.host",
                id="inis_pbem.E006",
            )
        )
    return errors


# The tag of this project's deployment warnings (`refuse_unsafe_settings` runs them alone, without
# Django's own `--deploy` advice).
DEPLOYMENT_WARNINGS = "inis_pbem_deployment"


@register(Tags.security, DEPLOYMENT_WARNINGS, deploy=True)
def check_client_address(app_configs, **kwargs) -> list[Warning]:
    """Return a Warning (inis_pbem.W001) when DEBUG is off and CLIENT_IP_HEADER is unset: behind
    a reverse proxy every request then comes from the proxy's address, and the per-client limits
    (web.rate_limits) count all visitors as one. None when DEBUG is on or the header is named."""
    if settings.DEBUG or getattr(settings, "CLIENT_IP_HEADER", None):
        return []
    return [
        Warning(
            "CLIENT_IP_HEADER is not set: behind the reverse proxy every visitor counts as the "
            "same client, so the per-client limits apply to the whole site at once (after "
            f"{getattr(settings, 'SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR', 20)} sign-in requests "
            "in an hour, nobody can ask for a sign-in link).",
            hint="Make the proxy set the visitor's address on every request (nginx: "
            "proxy_set_header X-Real-IP $remote_addr;) and set CLIENT_IP_HEADER=X-Real-IP "
            '(docs/operations.md, "Reverse proxy").',
            id="inis_pbem.W001",
        )
    ]


def inbound_provider() -> str | None:
    """The provider whose inbound webhook the deployment uses, by its anymail name ("mailgun"),
    read from EMAIL_BACKEND (`anymail.backends.<name>.EmailBackend`); None for another backend."""
    parts = str(settings.EMAIL_BACKEND).split(".")
    if len(parts) == 4 and parts[:2] == ["anymail", "backends"]:
        return parts[2]
    return None


def _missing_package(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is None


def _inbound_webhook_errors() -> list[Error]:
    """One Error (inis_pbem.E011) naming what the provider's inbound webhook view lacks: the
    ANYMAIL_* settings and Python packages of INBOUND_WEBHOOK_NEEDS."""
    provider = inbound_provider()
    keys, packages = INBOUND_WEBHOOK_NEEDS.get(provider or "", ((), ()))
    anymail = getattr(settings, "ANYMAIL", None) or {}
    missing = [f"ANYMAIL_{key}" for key in keys if not anymail.get(key)]
    packages += tuple(package for key, package in INBOUND_WEBHOOK_OPTIONAL_NEEDS.items() if anymail.get(key))
    absent = [package for package in packages if _missing_package(package)]
    if not missing and not absent:
        return []
    what = ", ".join(missing + [f"the Python package {package}" for package in absent])
    return [
        Error(
            f"The inbound webhook of {provider} (/anymail/{provider}/inbound/) lacks {what}: every "
            "reply the provider posts would be refused, and the player never answered.",
            hint='Set the provider\'s keys named in docs/operations.md, "Inbound mail"; a provider '
            "whose package is not installed cannot post replies here: use another provider, or "
            "a mail server's pipe with EMAIL_WEBHOOKS=0.",
            id="inis_pbem.E011",
        )
    ]


def refuse_unsafe_settings() -> None:
    """Run every registered system check, as `manage.py check` does, and raise SystemCheckError
    (the same report) when any is an Error; then print this project's deployment warnings
    (DEPLOYMENT_WARNINGS) on standard error. Called where the WSGI application is built, so that a
    server started without manage.py (gunicorn) refuses the settings the checks refuse, and
    before a Celery worker or beat starts."""
    import io

    from django.core.management import call_command

    call_command("check", stdout=io.StringIO())
    # This project's deployment warnings, on standard error: the start of a server or worker is
    # where the operator reads them (its log).
    call_command("check", deploy=True, tags=[DEPLOYMENT_WARNINGS], stdout=io.StringIO())
