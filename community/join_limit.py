"""How many seats one player may take at open tables an hour, on the web and by email together
(docs/open-tables.md, "Limits"): OPEN_TABLE_JOINS_PER_HOUR seats taken in a window of
JOIN_WINDOW_SECONDS.

Only a seat taken counts. A join refused by the table (full, closed, started, already seated
there, removed by its host, a block) or by this limit itself costs nothing: a player who tries
three full tables in a row may still take a seat at the fourth. The count is a `web.rate_limits`
counter of the account, read before the join (`peek`) and added to once the seat is taken, after
the commit (`transaction.on_commit`), so a join whose transaction rolls back (the mail's
processing failing after the join) is not counted either.

Setting: OPEN_TABLE_JOINS_PER_HOUR (inis_pbem/settings/signin.py).
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from lobby.models import Proposal
from lobby.services import LobbyError, table_join
from web.rate_limits import count, peek

# Fixed windows of an hour, as every limit of the site (`web.rate_limits`).
JOIN_WINDOW_SECONDS = 3600
_SCOPE = "tables:join"


class JoinLimitReached(LobbyError):
    """The player took OPEN_TABLE_JOINS_PER_HOUR seats this hour already; nothing was written."""


def join_within_limit(*, proposal_id: int, user) -> Proposal:
    """`user` takes a seat at the open table `proposal_id` (`lobby.services.table_join`, whose
    trust rule and refusals hold), unless they took OPEN_TABLE_JOINS_PER_HOUR seats this hour
    already. Returns the table (its `game_id` set when this seat filled it). Raises
    JoinLimitReached (the limit: nothing written, nothing counted) or LobbyError (the table
    refused the seat: nothing written, nothing counted).

    A race, accepted: two joins of one player at once (two tabs, a click and a mail) may both
    read a count below the limit before either is counted, and both take their seat; the player
    then holds one seat more than the limit (one more per join that ran at the same moment). The
    limit stops a player filling the list's tables, not a double click; counting first and giving
    the count back on a refusal would close that gap but count a refusal whose process died."""
    who = str(user.pk)
    if peek(_SCOPE, who, window_seconds=JOIN_WINDOW_SECONDS) >= settings.OPEN_TABLE_JOINS_PER_HOUR:
        raise JoinLimitReached(_("You joined tables too often this hour: try again later."))
    proposal = table_join(proposal_id=proposal_id, user=user)
    # After the commit: a seat rolled back with the mail's processing was never taken. Robust:
    # a cache that fails then loses one count, never the seat just taken.
    transaction.on_commit(partial(count, _SCOPE, who, window_seconds=JOIN_WINDOW_SECONDS), robust=True)
    return proposal
