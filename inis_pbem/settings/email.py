"""Outgoing email.

Environment:
- EMAIL_BACKEND (default: the development mailbox, which stores every message in the database and
  shows it at /dev/mailbox/). In production, an anymail backend such as
  `anymail.backends.postmark.EmailBackend`, configured by:
- ANYMAIL_* variables: every variable named ANYMAIL_<KEY> becomes ANYMAIL["<KEY>"] (for example
  ANYMAIL_POSTMARK_SERVER_TOKEN -> ANYMAIL["POSTMARK_SERVER_TOKEN"]), the one namespaced dict
  anymail reads.
- DEFAULT_FROM_EMAIL (default "Inis by email <inis@localhost>").
- INBOUND_EMAIL (default: the address of DEFAULT_FROM_EMAIL): where replies go. Each email's
  Reply-To is `<local>+<signed token>@<domain>` of it, so the provider (or the mail server piping
  to `manage.py receive_email`) must deliver every `<local>+...@<domain>` to the app. Inbound
  webhooks are at /anymail/<provider>/inbound/, authenticated by ANYMAIL_WEBHOOK_SECRET (HTTP
  basic auth, "user:password") and the provider's own signature where it has one.
- EMAIL_ANSWERS_PER_HOUR (default 10): per seat and hour, answers to its replies that changed
  nothing (a reply that played is always answered, and so is the first reply to each prompt);
  counted apart, answers to mail without a valid reply address per sender. Beyond, replies still
  act but are not answered (no storm with an auto-responder; notifications.inbound).
- INBOUND_MAILS_PER_SENDER_PER_DAY (default 20), INBOUND_MIB_PER_SENDER_PER_DAY (default 50),
  INBOUND_STRANGERS_MIB_PER_DAY (default 256): inbound mail without a valid reply address of
  ours (a seat's, the open tables' list's) is stored at most this many messages and MiB a day
  per sender (its mailbox: case, +tags and look-alike domains are one), and, from addresses
  that are no account's, this many MiB a day in all; beyond, it is not stored nor answered,
  and a log line says so (notifications.inbound_cap). A seat's reply is never counted. At the
  defaults, strangers' mail holds at most 256 MiB a day, 7.5 GiB over INBOUND_KEEP_DAYS (30).
- ACCEPTANCE_GRACE (default 120 seconds): how long the acceptance of a reply that played waits
  for the seat's next prompt, which then carries it (one email); after it, the sweep sends it
  alone, to a player who takes acceptances (notifications.acceptances).
- OUTBOX_RESEND_AFTER (default 300 seconds): the sweep re-enqueues an email (or an inbound
  message) still waiting after this long; its task was lost (broker down, worker killed).
- OUTBOX_RETRY_DAYS (default 3): an email whose delivery failed (the mail server or provider
  down, refusing) is tried again by the sweep, with a delay doubling from
  OUTBOX_RETRY_FIRST_DELAY (default 30 seconds) to OUTBOX_RETRY_MAX_DELAY (default 600 seconds),
  for this many days after it was written; then it stays failed, counted by /healthz, and an
  operator sends it again from the admin (notifications.outbox.retry_failed).
- OUTBOX_KEEP_DAYS (default 30): the sweep deletes emails sent (or skipped) more than this many
  days ago; INBOUND_KEEP_DAYS (default 30): it empties the message of inbound emails processed
  more than this many days ago (notifications/retention.py).
- EMAIL_BODY_KEEP_DAYS (default 90): no stored email keeps its subject and body longer, whatever
  its status (failed mail included); its Message-ID and status stay (docs/privacy.md).
- VACATION_MAX_DAYS (default 30): the longest vacation a player may set on the preferences page
  (first and last day included); deadlines do not run during it (docs/deadlines.md).
- EMAIL_HOST (default localhost), EMAIL_PORT (default 25), EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
  EMAIL_USE_TLS: for Django's SMTP backend (`django.core.mail.backends.smtp.EmailBackend`), the
  production path without a provider: a mail server on the machine, or one elsewhere with a login
  (docs/operations.md).
- EMAIL_WEBHOOKS (default on): serve the providers' webhooks at /anymail/ (inbound mail). Off
  when no provider posts to the service (replies come through a mail server's pipe,
  `manage.py receive_email`): /anymail/ then answers 404, and production needs no
  ANYMAIL_WEBHOOK_SECRET.
"""

import os
from email.utils import parseaddr

from inis_pbem.env import env_bool, env_int, env_str

DEV_MAILBOX_BACKEND = "notifications.backends.DevMailboxBackend"

EMAIL_BACKEND = env_str("EMAIL_BACKEND", DEV_MAILBOX_BACKEND)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Inis by email <inis@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
INBOUND_EMAIL = env_str("INBOUND_EMAIL", parseaddr(DEFAULT_FROM_EMAIL)[1])
EMAIL_ANSWERS_PER_HOUR = env_int("EMAIL_ANSWERS_PER_HOUR", 10)
# A person writes the plain address a few times a day (`list`, `my data`, a question); no text
# reply comes near a MiB (attachments are not stored). 256 MiB a day keeps strangers' mail under
# 7.5 GiB over INBOUND_KEEP_DAYS, room for some 2,500 mails of 100 KB a day.
INBOUND_MAILS_PER_SENDER_PER_DAY = env_int("INBOUND_MAILS_PER_SENDER_PER_DAY", 20)
INBOUND_MIB_PER_SENDER_PER_DAY = env_int("INBOUND_MIB_PER_SENDER_PER_DAY", 50)
INBOUND_STRANGERS_MIB_PER_DAY = env_int("INBOUND_STRANGERS_MIB_PER_DAY", 256)
OUTBOX_RESEND_AFTER = env_int("OUTBOX_RESEND_AFTER", 300)
ACCEPTANCE_GRACE = env_int("ACCEPTANCE_GRACE", 120)
OUTBOX_RETRY_DAYS = env_int("OUTBOX_RETRY_DAYS", 3)
OUTBOX_RETRY_FIRST_DELAY = env_int("OUTBOX_RETRY_FIRST_DELAY", 30)
OUTBOX_RETRY_MAX_DELAY = env_int("OUTBOX_RETRY_MAX_DELAY", 600)
OUTBOX_KEEP_DAYS = env_int("OUTBOX_KEEP_DAYS", 30)
INBOUND_KEEP_DAYS = env_int("INBOUND_KEEP_DAYS", 30)
EMAIL_BODY_KEEP_DAYS = env_int("EMAIL_BODY_KEEP_DAYS", 90)
VACATION_MAX_DAYS = env_int("VACATION_MAX_DAYS", 30)

ANYMAIL = {
    key[len("ANYMAIL_") :]: value for key, value in os.environ.items() if key.startswith("ANYMAIL_") and value
}

EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)

EMAIL_WEBHOOKS = env_bool("EMAIL_WEBHOOKS", True)

# Posts: an inbound webhook carries a whole email (a phone photo, base64 in JSON), up to the
# proxy's limit (docs/operations.md: nginx's client_max_body_size 12m); Django's own limit is
# raised to it, and `inis_pbem.middleware.PostSizeMiddleware` keeps every other URL to Django's
# default (2.5 MiB), read from the request's Content-Length as Django does.
INBOUND_POST_MAX_BYTES = 12 * 1024 * 1024
INBOUND_URL_PREFIX = "/anymail/"
PAGE_POST_MAX_BYTES = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = INBOUND_POST_MAX_BYTES
