"""Season cards seen from a test: which plays are offered, what a play declares, what stays hidden.

Built on `positions.Table`:

    table = Table(ISLAND, decline=True, hands={"green": ["ep_eriu"]})
    assert plays(table, "green", "ep_eriu") == [{"territories": ["moor"]}]
    assert declared(table, "green", {"type": "play", "card": "ep_eriu", "territories": ["moor"]})
    hidden_from(events, "blue", ["ep_eriu"])
"""

from __future__ import annotations

import json

from games.rules import decide, redact, rng_for
from games.rules.catalog import CARDS

from .positions import first


def plays(table, seat: str, card: str) -> list:
    """The arguments of every `play` of `card` for its effect among `seat`'s legal commands
    (the play for no effect of a card that cannot do anything is left out: docs/rulings.md)."""
    return [
        {k: v for k, v in c.items() if k not in ("type", "card")}
        for c in table.legal(seat)
        if c["type"] == "play" and c["card"] == card and not c.get("no_effect")
    ]


def offered(table, seat: str, card: str) -> bool:
    """True when `seat` may play `card` now for its effect (a `play` of it is among its legal
    commands, not only the play for no effect)."""
    return bool(plays(table, seat, card))


def only_for_no_effect(table, seat: str, card: str) -> bool:
    """True when `card`'s only legal play is the play for no effect: nothing of it can be done."""
    return [c for c in table.legal(seat) if c["type"] == "play" and c["card"] == card] == [
        {"type": "play", "card": card, "no_effect": True}
    ]


def declared(table, seat: str, command: dict) -> dict:
    """The public arguments recorded when `seat` sends `command` (decided, not applied).

    For commands in another form than the listed one (`Table.do` accepts only listed commands):
    such a command is accepted and recorded in the listed form.
    """
    events = decide(table.state, seat, command, rng=rng_for(table.seed, table.state.seq))
    return first(events, "CardPlayed").payload["args"]


def hidden_from(events, seat: str, cards) -> None:
    """Fails when an event of `events`, as `seat` may see it (`redact`), names one of `cards`."""
    for event in events:
        text = json.dumps(redact(event, seat).payload)
        for card in cards:
            assert card not in text, f"{event.type} shows {card} to {seat}"


def epics(table, seat: str) -> list:
    """The Epic Tales in `seat`'s hand, sorted."""
    return sorted(c for c in table.hand(seat) if CARDS[c].type == "epic")
