"""Web push and chat (docs/notifications.md for players, docs/operations.md for operators).

Environment:
- WEB_PUSH (default off): players may turn on web push on their devices; the decisions of a
  player with a device are pushed, and their emails wait (the player's `email_after_push`).
- WEB_PUSH_VAPID_PRIVATE_KEY: the server's VAPID key (RFC 8292), a P-256 private key as PEM or
  as base64url of its 32 bytes; WEB_PUSH_VAPID_PUBLIC_KEY: its public key, base64url of the
  65-byte uncompressed point (what browsers take as `applicationServerKey`). Production
  refuses WEB_PUSH on without both (inis_pbem.checks).
- WEB_PUSH_CONTACT (default mailto: of DEFAULT_FROM_EMAIL's address, without its name): the VAPID `sub` claim, the address a
  push service writes to about this sender.
- WEB_PUSH_TIMEOUT (default 10 seconds): how long one push service may take to answer.
- WEB_PUSH_TTL (default 86400 seconds): how long a push service keeps a push for a device that
  is offline.
- CHAT_TARGETS (default off): players may give a private chat target (an apprise URL: ntfy,
  Telegram, Matrix...) that gets their decisions as push does.
- CHAT_TIMEOUT (default 10 seconds): how long one chat service may take to answer.
- TABLE_CHANNEL_KEEP_DAYS (default 7): the sweep deletes a game's table channel (the chat
  address its host set for its public news) this many days after the game ended: long enough
  for its last news (the result) to be retried (OUTBOX_RETRY_DAYS) and sent again by the
  operator (games.play.table.forget_ended_table_channels; docs/privacy.md).
- LOOPBACK_TARGETS_FOR_TESTS (default off; for the tests and the bench only): chat targets, table
  channels and push endpoints may lead to this machine's loopback addresses (127.0.0.1, ::1),
  where the tests' own chat and push services listen; every other private address is still
  refused (players.chat_targets). Production refuses it on (inis_pbem.checks, E013).
- AT_TABLE_SECONDS (default 30): a player whose game page polled in the last this many seconds
  is at the table: the emails about their decisions in that game wait (players.at_the_table).
"""

from email.utils import parseaddr

from inis_pbem.env import env_bool, env_int, env_str

from .email import DEFAULT_FROM_EMAIL

WEB_PUSH = env_bool("WEB_PUSH", False)
WEB_PUSH_VAPID_PRIVATE_KEY = (env_str("WEB_PUSH_VAPID_PRIVATE_KEY") or "").replace("\\n", "\n")
WEB_PUSH_VAPID_PUBLIC_KEY = env_str("WEB_PUSH_VAPID_PUBLIC_KEY") or ""
# The address alone: "mailto:Inis by email <inis@...>" is no mailto: URI a push service can use.
WEB_PUSH_CONTACT = env_str("WEB_PUSH_CONTACT") or f"mailto:{parseaddr(DEFAULT_FROM_EMAIL or '')[1]}"
WEB_PUSH_TIMEOUT = env_int("WEB_PUSH_TIMEOUT", 10)
WEB_PUSH_TTL = env_int("WEB_PUSH_TTL", 86400)
CHAT_TARGETS = env_bool("CHAT_TARGETS", False)
CHAT_TIMEOUT = env_int("CHAT_TIMEOUT", 10)
TABLE_CHANNEL_KEEP_DAYS = env_int("TABLE_CHANNEL_KEEP_DAYS", 7)
LOOPBACK_TARGETS_FOR_TESTS = env_bool("LOOPBACK_TARGETS_FOR_TESTS", False)
AT_TABLE_SECONDS = env_int("AT_TABLE_SECONDS", 30)
