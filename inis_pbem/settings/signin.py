"""Players' accounts: sign-in without passwords, by a link in every email (django-sesame).

A player is a Django user whose username and email are their email address (games.players).
Every email we send carries a signed link (`?sesame=<token>`) that signs its reader in; the
token is checked by `sesame.backends.ModelBackend` and removed from the address bar by
`sesame.middleware.AuthenticationMiddleware` (settings/base.py).

Environment:
- SIGN_IN_LINK_DAYS (default 30): how long an emailed link signs in. Games are slow, but every
  prompt carries a fresh link, and /signin/ sends a new one to any player who asks.
"""
from datetime import timedelta

from inis_pbem.env import env_int

AUTHENTICATION_BACKENDS = [
    "sesame.backends.ModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Only the current token format: nothing was ever signed with the legacy one.
SESAME_TOKENS = ["sesame.tokens_v2"]
SESAME_MAX_AGE = timedelta(days=env_int("SIGN_IN_LINK_DAYS", 30))
# A player who changes their email (admin) must not be signed in by links sent to the old one.
SESAME_INVALIDATE_ON_EMAIL_CHANGE = True

LOGIN_URL = "lobby:sign_in"
LOGIN_REDIRECT_URL = "lobby:home"
LOGOUT_REDIRECT_URL = "lobby:home"
