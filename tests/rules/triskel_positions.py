"""Reaction windows seen from a test: who is asked, what they may play, answering them.

Built on `positions.Table` (not a copy of it). Tables for these tests are made with
`decline=False`, so every Triskel window stays open until the test answers it:

    table = warlord_clash(ISLAND, {"blue": ["ep_lugs_spear"]})  # green's Warlord in the Moor
    skip_to(table, "clash_started")          # decline every window before that one
    assert asked(table) == ["blue"]
    assert offered(table, "blue", "ep_lugs_spear")
    react(table, "blue", "ep_lugs_spear")    # the other asked seats decline

A window is one Decision of kind "reaction" per asked seat (docs/rules-api.md); its trigger is in
`Decision.context["trigger"]`. For the seat whose maneuver comes next in the clash under the
window, the window is folded into that maneuver: a "maneuver" decision whose context names the
window (`context["triskel"]`); `asks_triskel` tells both. Answers are `{"type": "react", "card": ..., args}` or `decline`.
"""

from __future__ import annotations

from games.rules import Event, asks_triskel

from .positions import Table


def window(table) -> dict | None:
    """The open reaction window (the innermost procedure), or None."""
    top = table.state.top()
    return top if top is not None and top["kind"] == "window" else None


def trigger(table) -> str | None:
    """The trigger of the open window, or None when no window is open."""
    frame = window(table)
    return frame["trigger"] if frame else None


def asked(table) -> list:
    """The seats asked in the open window that have not answered yet, in asking order."""
    return [d.seat for d in table.pending() if asks_triskel(d)]


def reactions(table, seat: str) -> list:
    """The `react` commands `seat` may send now (empty when it is not asked)."""
    return [c for c in table.legal(seat) if c["type"] == "react"]


def offered(table, seat: str, card: str) -> bool:
    """True when `seat` is asked in the open window and may play `card` in it.

    Checks both halves of the brief's definition: the seat has a pending decision of kind
    "reaction", and a `react` command for the card is among its legal commands.
    """
    return seat in asked(table) and any(c["card"] == card for c in reactions(table, seat))


def decline(table, *seats) -> list[Event]:
    """`seats` (default: every asked seat) decline the open window."""
    events = []
    for seat in seats or asked(table):
        events += table.do(seat, "decline")
    return events


def skip_to(table, wanted: str) -> list:
    """Decline every window until one for `wanted` is open; returns the seats asked in it.

    Fails when the game reaches a decision that is not a reaction window before that.
    """
    while trigger(table) != wanted:
        assert trigger(table) is not None, f"no {wanted} window opened; awaiting {table.awaiting()}"
        decline(table)
    return asked(table)


def decline_watching(table, seat: str, card: str) -> list:
    """Decline every window until none is open, checking that `seat` is never offered `card`.

    Returns the triggers of the windows declined, in order.
    """
    seen = []
    while trigger(table) is not None:
        seen.append(trigger(table))
        assert not offered(table, seat, card), f"{card} offered to {seat} at {trigger(table)}"
        decline(table)
    return seen


def settle(table) -> list[Event]:
    """Decline every window until a decision that is not a reaction is awaited."""
    return table.decline_reactions()


def react(table, seat: str, card: str, **args) -> list[Event]:
    """`seat` plays `card` in the open window; every other asked seat declines.

    Returns all the events, up to the next decision (which may be another window, such as the
    card_declared window in which The Dagda may answer the card just played).
    """
    frame = window(table)
    events = table.do(seat, {"type": "react", "card": card, **args})
    if frame is not None and window(table) is frame and frame["queue"] is None:
        events += decline(table)
    return events


def warlord_clash(
    island: str, hands: dict, *, territory: str = "moor", seats=("green", "blue", "orange"), **position
):
    """A table on `island` where green has just played Warlord (added to green's hand) in
    `territory`, starting a clash there; the Triskel windows are still open."""
    hands = {s: list(h) for s, h in hands.items()}
    hands.setdefault("green", []).insert(0, "act_warlord")
    table = Table(island, seats=seats, decline=False, hands=hands, **position)
    table.play("green", "act_warlord", territory=territory)
    return table


def attack_with_raid_for_later() -> Table:
    """A 4-seat table where green has moved into the Hills by Migration and attacked orange there;
    green, holding the Iron Mine and Raid, is asked about its attack: each answer with and
    without Raid said ahead for later in the clash's step (`{"type": "decline", "then":
    "act_raid"}`; docs/rulings.md, "One Triskel question per clash step")."""
    table = Table(
        """
        hills   0,0  green 5  orange 5
        valley  1,0  green 3
        """,
        seats=("green", "blue", "orange", "white"),
        capital="valley",
        brenn="green",
        decline=False,
        options={"reactions": "holders"},
        hands={"green": ["act_migration", "adv_iron_mine", "act_raid"], "orange": ["act_warlord"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 1}})
    table.decline_reactions()
    table.do("green", "attack", target="orange")
    return table


def by_seed(make, wanted, *, tries: int = 300, prefix: str = "seed"):
    """The first table `make(seed)` for which `wanted(table)` holds, seeds tried in a fixed order.

    For effects that depend on the seeded coin toss (the Flock of Crows at the Assembly): the
    search is deterministic, so the test always runs on the same seed.
    """
    for i in range(tries):
        table = make(f"{prefix}-{i}")
        if wanted(table):
            return table
    raise AssertionError(f"no seed among {tries} gives the wanted position")


def warlord_after_an_attack() -> Table:
    """Green migrates 1 clan from the Cove into the Valley (blue and orange have 2 clans there)
    and attacks orange: blue's maneuver comes next, with the window about Warlord (blue holds it
    and Bard) folded into it, one decision."""
    table = Table(
        """
        valley  0,0  green 3  blue 2  orange 2
        cove    1,0  green 2
    """,
        seats=("green", "blue", "orange"),
        capital="cove",
        brenn="green",
        decline=False,
        hands={"green": ["act_migration"], "blue": ["act_warlord", "act_bard"]},
    )
    table.play("green", "act_migration", **{"from": "cove", "moves": {"valley": 1}})
    table.decline_reactions()
    table.do("green", "attack", target="orange")
    return table
