"""Commands in words for players, never failing the page, the email or the write around them.

`rules.describe_command` is cosmetic, but it runs inside a command's transaction (the result
message, the prompt emails written with the events) and on every seat page: a fault in the
wording of one card must not refuse a legal command or hide a seat's page. On such a fault the
command's JSON stands in for its description and the fault is logged as an error.
"""
from __future__ import annotations

import logging

from games import rules
from games.hashchain import canonical_json

logger = logging.getLogger(__name__)


def describe_command(state, command: dict) -> str:
    """`rules.describe_command(state, command)`, or the command's JSON if that raises."""
    try:
        return rules.describe_command(state, command)
    except Exception:
        logger.exception("rules.describe_command failed for %s at seq %s", canonical_json(command), state.seq)
        return canonical_json(command)
