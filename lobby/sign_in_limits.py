"""How many sign-in links may be asked for: per client, per mailbox and in all, per hour.

Without a limit, anybody could have us send a player (or any address) an email every second.
The counts are `web.rate_limits` counters of one hour. A mailbox is counted by its
canonical form (`players.email_addresses.mailbox_key`: NFKC, lower case, IDNA domain, `+tag`
dropped), so "ana+1@example.org", "Ana@EXAMPLE.org" and "ana@exaｍple.org" (a full-width m) share
one quota, as they share one inbox; the link still goes to the address typed. Addresses are
counted whether or not they have an account, so a refusal tells nobody who plays here. The cap
on all links an hour stops a flood spread over many clients and mailboxes, which would get the
site's mail refused by the providers; while it holds, every player still has the seat links of
their game emails.

The tables a host proposes are counted the same way (`tables_created_allowed`), so that nobody
fills the list of open tables, nor sends invitations in bulk; and so are the players a host asks
for a seat again ("Ask somebody else", `players_asked_allowed`), each an invitation email, which
without a limit a host could send any address (the same one again and again) as fast as they post.
Those are per host: many hosts (or one person with many accounts) together could still mail one
address without end. So each address is also counted for all hosts together, a day
(`addresses_asked_allowed`, by its mailbox as above), whether or not it has an account: a
refusal says nothing of who plays here.

Settings: SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR, SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR,
SIGN_IN_LINKS_PER_HOUR, TABLES_CREATED_PER_HOUR, PLAYERS_ASKED_PER_HOUR,
INVITATIONS_PER_ADDRESS_PER_DAY, CLIENT_IP_HEADER (inis_pbem/settings/signin.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest

from players.email_addresses import mailbox_key
from web.rate_limits import client_address, count, peek

WINDOW_SECONDS = 3600
DAY_SECONDS = 86_400


def sign_in_allowed(request: HttpRequest, email: str) -> bool:
    """Count one request for a sign-in link to `email` from this client; False when this client,
    this mailbox or everybody together asked more often this hour than the settings allow (then
    send nothing). The client is counted first, so one client cycling through addresses is
    stopped too; the total counts only the requests that passed the two others (the links that
    are sent)."""
    if (
        count("sign-in:client", client_address(request), window_seconds=WINDOW_SECONDS)
        > settings.SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR
    ):
        return False
    if (
        count("sign-in:address", mailbox_key(email), window_seconds=WINDOW_SECONDS)
        > settings.SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR
    ):
        return False
    return count("sign-in:all", "", window_seconds=WINDOW_SECONDS) <= settings.SIGN_IN_LINKS_PER_HOUR


def tables_created_allowed(user) -> bool:
    """Count one table proposed by `user` (a signed-in account); False when they proposed more
    than TABLES_CREATED_PER_HOUR this hour (then create nothing)."""
    proposed = count("tables:create", str(user.pk), window_seconds=WINDOW_SECONDS)
    return proposed <= settings.TABLES_CREATED_PER_HOUR


def players_asked_allowed(user) -> bool:
    """Count one player asked by email for a seat by the host `user` ("Ask somebody else");
    False when they asked more than PLAYERS_ASKED_PER_HOUR this hour (then ask nobody)."""
    asked = count("tables:ask", str(user.pk), window_seconds=WINDOW_SECONDS)
    return asked <= settings.PLAYERS_ASKED_PER_HOUR


def addresses_asked_allowed(emails: Iterable[str]) -> bool:
    """Count one invitation to each of `emails` (the addresses about to be asked for a seat, by
    any host); False when one of them was already asked INVITATIONS_PER_ADDRESS_PER_DAY times
    today (a day in UTC) by all hosts together: then ask nobody. Read first, so that a refused
    table spends nothing of its other addresses' count; counted then, and refused should two
    tables have asked an address at once past the limit."""
    mailboxes = {mailbox_key(email) for email in emails}
    limit = settings.INVITATIONS_PER_ADDRESS_PER_DAY
    if any(peek("invitations:address", m, window_seconds=DAY_SECONDS) >= limit for m in mailboxes):
        return False
    counts = [count("invitations:address", m, window_seconds=DAY_SECONDS) for m in mailboxes]
    return all(n <= limit for n in counts)
