"""The outbox relay (`manage.py relay_outbox`, `inis_pbem.relay`) and the hand-off of an email to
the mail backend (`notifications.outbox.deliver`).

Environment:
- RELAY_POLL (default 2 seconds): how often the relay looks for due rows when nothing woke it
  (PostgreSQL's NOTIFY wakes it at each commit that wrote some; SQLite has no NOTIFY).
- RELAY_BATCH (default 200): rows (and games with bot moves) published per transaction.
- OUTBOX_REPUBLISH_AFTER (default 5 seconds): a published row still pending after this long is
  published again (its task was lost with a worker or the broker), then after twice as long,
  and so on up to OUTBOX_REPUBLISH_MAX (default 60 seconds). The same for bot moves.
- RELAY_DATABASE_URL (default: DATABASE_URL): the relay's own connection for LISTEN. Behind
  PgBouncer (in session mode, the one supported: a LISTEN would hold a pooled server
  connection for good), point it at PostgreSQL itself (docs/operations.md, "Database").
- MAIL_TRACKING (default off): the provider posts anymail's tracking webhook
  (/anymail/<provider>/tracking/), so an email handed over by a delivery that stopped before
  recording it is sent again only if the provider never reported it (docs/operations.md).
- OUTBOX_HAND_OFF_WAIT (default 600 seconds): how long after such an interrupted hand-off the
  delivery waits (for the provider's report, and for a send still under way) before sending it
  again; keep it well above EMAIL_TIMEOUT.
"""

from inis_pbem.env import env_bool, env_int, env_str

RELAY_POLL = env_int("RELAY_POLL", 2)
RELAY_BATCH = env_int("RELAY_BATCH", 200)
OUTBOX_REPUBLISH_AFTER = env_int("OUTBOX_REPUBLISH_AFTER", 5)
OUTBOX_REPUBLISH_MAX = env_int("OUTBOX_REPUBLISH_MAX", 60)
RELAY_DATABASE_URL = env_str("RELAY_DATABASE_URL")
MAIL_TRACKING = env_bool("MAIL_TRACKING", False)
OUTBOX_HAND_OFF_WAIT = env_int("OUTBOX_HAND_OFF_WAIT", 600)
