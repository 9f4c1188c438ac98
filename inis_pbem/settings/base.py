"""Applications, middleware, templates, time and logging: what every deployment shares.

Environment:
- DJANGO_DEBUG (default on): development mode. Off in production, where `inis_pbem.checks`
  refuses unsafe settings.
- SITE_URL (default http://127.0.0.1:8000): the public address, used in emailed links.
- SNAPSHOT_EVERY (default 100): write a state snapshot (a cache) every that many events.
"""

from pathlib import Path

from inis_pbem.env import env_bool, env_int, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DEBUG = env_bool("DJANGO_DEBUG", True)

SITE_URL = (env_str("SITE_URL", "http://127.0.0.1:8000") or "").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "pgtrigger",
    "anymail",
    "inis_pbem.apps.InisPbemConfig",
    "players.apps.PlayersConfig",
    "games.apps.GamesConfig",
    "web.apps.WebConfig",
    "lobby.apps.LobbyConfig",
    "notifications.apps.NotificationsConfig",
    "press.apps.PressConfig",
    "watching.apps.WatchingConfig",
    "community.apps.CommunityConfig",
]

MIDDLEWARE = [
    # Posts up to 12 MiB on the inbound webhooks only (settings/email.py).
    "inis_pbem.middleware.PostSizeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Scripts only from the site's own files, nothing from elsewhere, no framing (docs/security.md).
    "inis_pbem.middleware.ContentSecurityPolicyMiddleware",
    # The development mailbox shows sign-in links: it exists only with DEBUG on.
    "inis_pbem.middleware.DevelopmentPagesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Signs a player in from the ?sesame= token of an emailed link, then drops it from the URL.
    "inis_pbem.middleware.SignInLinkMiddleware",
    # Pages in the player's language: their preference, else the browser's.
    "inis_pbem.middleware.PlayerLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A 405 reads as the site's page, saying what to do, not as an empty one.
    "inis_pbem.middleware.MethodNotAllowedPageMiddleware",
]

ROOT_URLCONF = "inis_pbem.urls"
WSGI_APPLICATION = "inis_pbem.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

LANGUAGE_CODE = "en"
# English is the source; French is complete (docs/translation.md). A player's preference decides,
# else the browser's Accept-Language (inis_pbem.middleware.PlayerLanguageMiddleware).
LANGUAGES = [("en", "English"), ("fr", "Français")]
# The language cookie holds a player's choice (inis_pbem.middleware.choose_language): a year.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
# One catalog per area, the most specific first: `makemessages` files a string in the first
# catalog whose directory holds its source file, so each area's catalog can be regenerated alone.
LOCALE_PATHS = [
    BASE_DIR / "games" / "rules" / "locale",
    BASE_DIR / "games" / "locale",
    BASE_DIR / "web" / "locale",
    BASE_DIR / "notifications" / "locale",
    BASE_DIR / "players" / "locale",
    BASE_DIR / "lobby" / "locale",
    BASE_DIR / "press" / "locale",
    BASE_DIR / "watching" / "locale",
    BASE_DIR / "community" / "locale",
    BASE_DIR / "templates" / "games" / "locale",
    BASE_DIR / "templates" / "emails" / "locale",
    BASE_DIR / "templates" / "notifications" / "locale",
    BASE_DIR / "templates" / "lobby" / "locale",
    BASE_DIR / "templates" / "press" / "locale",
    BASE_DIR / "templates" / "watching" / "locale",
    BASE_DIR / "templates" / "community" / "locale",
    BASE_DIR / "locale",
]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Snapshots are a pure cache of the fold (games.store): one every SNAPSHOT_EVERY events bounds the
# number of events a load has to fold.
SNAPSHOT_EVERY = env_int("SNAPSHOT_EVERY", 100)

# Seconds the bots at a table wait before acting on a player's move, so that it can be taken back
# as at a table of people (games.play.bot_seats.take_back_grace; 0: none). Only with a relay.
BOT_TAKE_BACK_GRACE = env_int("BOT_TAKE_BACK_GRACE", 20)

# The strong bot's search (games.bots.strong): CPU milliseconds a decision, and at most this many
# iterations (0: no bound but the time; a bound alone makes its moves reproducible). Without a
# broker (no REDIS_URL) the bots play in the request of the move that gave them a decision, so the
# page waits while they think: there the default is the arena's 500, the budget it rates them at.
BOT_STRONG_MS = env_int("BOT_STRONG_MS", 2000 if env_str("REDIS_URL") else 500)
BOT_STRONG_ITERATIONS = env_int("BOT_STRONG_ITERATIONS", 0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # One line per successful task (every email, every bot run) drowns everything else.
        "celery.app.trace": {"level": env_str("CELERY_TRACE_LOG_LEVEL", "WARNING")},
        # apprise's DEBUG lines hold each chat message whole, a seat's link (which opens its
        # hand) and the player's chat address included: never below WARNING, whatever LOG_LEVEL.
        "apprise": {"level": "WARNING"},
    },
}
