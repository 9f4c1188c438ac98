"""Outgoing email.

Environment:
- EMAIL_BACKEND (default: the development mailbox, which stores every message in the database and
  shows it at /dev/mailbox/). In production, an anymail backend such as
  `anymail.backends.postmark.EmailBackend`, configured by:
- ANYMAIL_* variables: every variable named ANYMAIL_<KEY> becomes ANYMAIL["<KEY>"] (for example
  ANYMAIL_POSTMARK_SERVER_TOKEN -> ANYMAIL["POSTMARK_SERVER_TOKEN"]), the one namespaced dict
  anymail reads.
- DEFAULT_FROM_EMAIL (default "Inis by email <inis@localhost>").
- EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS: for Django's SMTP
  backend, if that is the one chosen.
"""
import os

from inis_pbem.env import env_bool, env_int, env_str

DEV_MAILBOX_BACKEND = "notifications.backends.DevMailboxBackend"

EMAIL_BACKEND = env_str("EMAIL_BACKEND", DEV_MAILBOX_BACKEND)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Inis by email <inis@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

ANYMAIL = {
    key[len("ANYMAIL_"):]: value
    for key, value in os.environ.items()
    if key.startswith("ANYMAIL_") and value
}

EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)
