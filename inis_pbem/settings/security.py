"""Secrets, hosts and HTTPS.

Environment:
- SECRET_KEY: required when DJANGO_DEBUG is off; a fixed development key is used otherwise.
- DJANGO_ALLOWED_HOSTS: comma-separated host names (default in debug: 127.0.0.1, localhost).
- SECURE_SSL_REDIRECT (default on when DEBUG is off): redirect http to https; production refuses
  it off.
- SECURE_HSTS_SECONDS (default a year when DEBUG is off): how long browsers keep to https;
  production refuses less than a day.
- HEALTHZ_TOKEN (default unset): a monitor sending `Authorization: Bearer <HEALTHZ_TOKEN>` reads
  the whole /healthz report (queue length, mail waiting); anybody else reads only whether all
  is well, and a signed-in staff user reads it all too (inis_pbem.health). Unset: no header
  opens it.

Behind a reverse proxy, a request counts as https when its X-Forwarded-Proto header says so
(SECURE_PROXY_SSL_HEADER). That header is trusted: run the app only behind a proxy that sets it
on every request, overwriting whatever the client sent, and never let clients reach gunicorn
directly, or anybody could claim https.

`inis_pbem.checks` refuses to start without DEBUG when any of these is unsafe.
"""

from urllib.parse import urlsplit

from inis_pbem.env import env_bool, env_int, env_list, env_str

from .base import DEBUG, SITE_URL

# Only for DEBUG: anybody can read this key in the repository (the production checks,
# inis_pbem/checks.py, refuse it without DEBUG).
DEV_SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"  # noqa: S105

SECRET_KEY = env_str("SECRET_KEY") or (DEV_SECRET_KEY if DEBUG else "")
# Earlier keys, still accepted when checking what they signed (Django's signing, which every
# token of the site goes through: `players.signed_tokens`), so that a key is rotated by moving it
# here (docs/security.md); comma-separated.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])
HEALTHZ_TOKEN = env_str("HEALTHZ_TOKEN")

_site = urlsplit(SITE_URL)
# In development the site's own host is allowed too: `HOST=0.0.0.0 ./scripts/run` names the
# machine's address in SITE_URL, the address other machines reach it by (README.md).
_SITE_HOST = f"[{_site.hostname}]" if _site.hostname and ":" in _site.hostname else _site.hostname
_DEBUG_HOSTS = ["127.0.0.1", "localhost", "[::1]", *([_SITE_HOST] if _SITE_HOST else [])]
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", list(dict.fromkeys(_DEBUG_HOSTS)) if DEBUG else [])

CSRF_TRUSTED_ORIGINS = [f"{_site.scheme}://{_site.netloc}"] if _site.netloc else []
# A form refused by the CSRF check reads as the site's own 403 page, saying what to do (docs/web.md).
CSRF_FAILURE_VIEW = "inis_pbem.error_pages.csrf_failure"

# Addresses may carry a secret (a seat token, a sign-in token until the redirect drops it): never
# send them to another site. "same-origin", not "no-referrer": with no referrer at all Chromium
# sends `Origin: null` on our own form posts, and Django's CSRF check refuses them.
SECURE_REFERRER_POLICY = "same-origin"

# What a page may load and run (inis_pbem.middleware.ContentSecurityPolicyMiddleware): scripts
# only from the site's own files, never inline; styles of the site and inline ones (the island's
# SVG); images of the site and data: ones; forms posted to the site only; no page in a frame.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_CONTENT_TYPE_NOSNIFF = True
