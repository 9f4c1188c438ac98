"""Players' accounts: sign-in without passwords, by the link of the sign-in email (django-sesame).

A player is a Django user whose username and email are their email address (players.accounts).
The sign-in email (asked for on /signin/) carries a signed link (`?sesame=<token>`) that signs its
reader in: the only email that does (docs/security.md); the others carry links of their own
purpose only (a seat link, players.signed_tokens) or a page's plain address. The token is
checked by `sesame.backends.ModelBackend` and removed from the address bar by
`sesame.middleware.AuthenticationMiddleware` (settings/base.py).

Environment:
- SIGN_IN_LINK_DAYS (default 30): how long the sign-in email's link signs in; /signin/ sends a
  new one to any player who asks.
- SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR (default 5), SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR (default
  20): /signin/ sends no more links than this to one mailbox (its canonical form: plus-tags,
  case and look-alike Unicode spellings of a domain count as one), nor for one client IP address
  (lobby.sign_in_limits); beyond, it answers "too many requests" (429) and sends nothing.
- SIGN_IN_LINKS_PER_HOUR (default 200): all the sign-in links /signin/ sends in an hour, whoever
  asks, for whatever address: a flood spread over many clients and mailboxes stops there.
- SEAT_LINK_DAYS (default 7): how long the seat link in a game email acts for its one seat
  (players.seat_links); it signs nobody in.
- HEAD_POLLS_PER_CLIENT_PER_MINUTE (default 240): the live pages' heads (`/games/<id>/head.json`,
  `/live/home.json`, `/lobby/<id>/head.json`, web.live) answer one client IP address at most
  this often a minute, all together; beyond, 429 with Retry-After. A page in view asks every 4
  seconds (15 a minute), so the default serves sixteen pages in view from one address.
- HEAD_VIEWER_SECONDS (default 300): how long the viewer's token a live page carries names its
  signed-in account to the page's head (web.head_viewer), so that a head reads no session; a
  head answered without a good one reads the session and gives a fresh token.
- OPEN_TABLE_JOINS_PER_HOUR (default 10), TABLES_CREATED_PER_HOUR (default 10): seats one
  player may take at open tables (web and email together), and tables one host may propose, an
  hour (docs/open-tables.md); beyond, the page or the answer says to try later.
- PLAYERS_ASKED_PER_HOUR (default 10): the times a host may ask somebody else by email for a
  seat of a table being gathered ("Ask somebody else", which sends an invitation), an hour;
  beyond, the page says to try later and nothing is sent.
- INVITATIONS_PER_ADDRESS_PER_DAY (default 5): the invitation emails one address (its mailbox,
  as above) may be sent a day (UTC) by all hosts together: new tables, "Ask somebody else" and
  rematches (lobby.sign_in_limits); beyond, the host reads that the address was invited too
  often today, whether or not it has an account, and nothing is sent.
- REPORTS_PER_HOUR (default 10): reports of players and of table-talk messages one account may
  send the operator an hour (docs/profiles.md, "Reporting"); beyond, the page says to try later.
- CLIENT_IP_HEADER (default unset: REMOTE_ADDR): the header a reverse proxy sets to the client's
  address on every request, overwriting the client's own (e.g. X-Real-IP). Unset, every request
  through a proxy comes from the proxy's address, and the per-client limit counts them all.

The counts are kept in Django's cache: Redis (REDIS_URL, shared by every web process) when set,
else the process's memory.

Sessions are kept in the database and, with REDIS_URL, read through the same Redis cache
(Django's `cached_db` engine: a request reads its session from Redis, the database only when
Redis has lost it; every write goes to both). Without Redis they are read from the database: a
cache in one process's memory would keep a session another process signed out.
"""

from datetime import timedelta

from inis_pbem.env import env_int, env_str

from .celery import REDIS_URL

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

SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR = env_int("SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR", 5)
SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR = env_int("SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR", 20)
SIGN_IN_LINKS_PER_HOUR = env_int("SIGN_IN_LINKS_PER_HOUR", 200)
HEAD_POLLS_PER_CLIENT_PER_MINUTE = env_int("HEAD_POLLS_PER_CLIENT_PER_MINUTE", 240)
HEAD_VIEWER_SECONDS = env_int("HEAD_VIEWER_SECONDS", 300)
CLIENT_IP_HEADER = env_str("CLIENT_IP_HEADER")

CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "inis-cache",
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "inis"}
    ),
    # The rendered game and history pages and the game page's live part (web.page_cache), and
    # the table-talk lines a game page showed (press.selectors.talk_for_page): per process, in
    # memory, since a rendered page is worth keeping only where it is served again soon. 500
    # entries of at most some 100 KB each.
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "inis-pages",
        "OPTIONS": {"MAX_ENTRIES": 500},
    },
    # The game page's live parts rendered by the worker after each commit (web.prerender), for
    # every web process: Redis when there is one (a worker and the web processes share it).
    "prerendered": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "inis-prerendered",
        }
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "inis-prerendered",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    ),
}

# Sessions (a signed-in player, the seat links followed): in the database, read through the
# shared cache when there is one (see above).
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db" if REDIS_URL else "django.contrib.sessions.backends.db"
)
SESSION_CACHE_ALIAS = "default"

# How long the seat link in a game email acts for its seat (players.seat_links): a few days
# longer than the longest preset deadline (four days), since every prompt and reminder carries
# a fresh link. Afterwards the page asks for a real sign-in.
SEAT_LINK_DAYS = env_int("SEAT_LINK_DAYS", 7)

OPEN_TABLE_JOINS_PER_HOUR = env_int("OPEN_TABLE_JOINS_PER_HOUR", 10)
TABLES_CREATED_PER_HOUR = env_int("TABLES_CREATED_PER_HOUR", 10)
PLAYERS_ASKED_PER_HOUR = env_int("PLAYERS_ASKED_PER_HOUR", 10)
# Few people are asked to more than one or two new tables a day; five lets a busy player's
# rematches through and stops a flood from many hosts at five emails a day.
INVITATIONS_PER_ADDRESS_PER_DAY = env_int("INVITATIONS_PER_ADDRESS_PER_DAY", 5)
REPORTS_PER_HOUR = env_int("REPORTS_PER_HOUR", 10)
# Table-talk messages one seat may send in a clock hour (docs/press.md, `press.services`).
PRESS_MESSAGES_PER_HOUR = env_int("PRESS_MESSAGES_PER_HOUR", 30)
