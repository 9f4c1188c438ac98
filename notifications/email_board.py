"""The board as an email shows it to one seat: each territory with its clans, chieftain,
buildings and neighbours, then a line per player on the victory conditions.

Everything comes from the public part of `rules.view_for(state, colour)` and the public facts of
the state (adjacency, the victory counts of `games.rules.victory.condition_values`, which count
only clans on the island): no hand or private decision is read here. Rulebook, Victory
Conditions: "Be present in six or more territories. Be chieftain over a combined total of six or
more opposing clans. Be present in territories with a combined total of six sanctuaries." Each
Deed counts towards one condition (rulebook, Deeds); only a Pretender can be elected.
"""
from __future__ import annotations

from games import rules
from games.rules.victory import TARGET, condition_values


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _who(seat: str, colour: str | None) -> str:
    return f"{seat} (you)" if seat == colour else seat


def territory_lines(state, colour: str | None) -> list[str]:
    """One line per territory, by name: "- the Valley: green 2, blue 1; chieftain green; Capital,
    1 Sanctuary. Neighbours: Cove, Plains." (clans with "(you)" for `colour`)."""
    view = rules.view_for(state, colour)
    names = {tid: rules.territory_name(tid) for tid in view["territories"]}
    lines = []
    for tid, d in sorted(view["territories"].items(), key=lambda item: names[item[0]]):
        clans = ", ".join(f"{_who(s, colour)} {n}" for s, n in sorted(d["clans"].items()) if n) or "no clans"
        marks = []
        if view["capital"] == tid:
            marks.append("Capital")
        if d["citadels"]:
            marks.append(_plural(d["citadels"], "Citadel"))
        if d["sanctuaries"]:
            marks.append(_plural(d["sanctuaries"], "Sanctuary", "Sanctuaries"))
        if view["festival"] == tid:
            marks.append("Festival")
        neighbours = sorted(names[t] for t in state.adjacent(tid) if t in names)
        line = f"- {names[tid]}: {clans}"
        if d["chieftain"]:
            line += f"; chieftain {_who(d['chieftain'], colour)}"
        if marks:
            line += "; " + ", ".join(marks)
        line += ". Neighbours: " + (", ".join(neighbours) if neighbours else "none") + "."
        lines.append(line)
    return lines


def victory_lines(state, colour: str | None) -> list[str]:
    """One line per player, in seating order: territories present in, opposing clans under their
    chieftainship, Sanctuaries in the territories they are present in (each out of 6), Deeds,
    Pretender, and the cards in hand by type (a public count)."""
    view = rules.view_for(state, colour)
    lines = []
    for seat in view["seats"]:
        values = condition_values(state, seat)
        hand = view["hands"].get(seat, {})
        parts = [
            f"present in {values['territories']}/{TARGET} territories",
            f"chieftain over {values['opposing_clans']}/{TARGET} opposing clans",
            f"{values['sanctuaries']}/{TARGET} Sanctuaries where present",
            _plural(view["deeds"].get(seat, 0), "Deed"),
        ]
        if seat in view["pretenders"]:
            parts.append("Pretender")
        if view["brenn"] == seat:
            parts.append("Brenn")
        line = f"- {_who(seat, colour)}: " + ", ".join(parts)
        line += (f"; {view['reserve'].get(seat, 0)} clans in reserve; hand: "
                 f"{hand.get('action', 0)} Action, {hand.get('advantage', 0)} Advantage, "
                 f"{hand.get('epic', 0)} Epic Tale.")
        lines.append(line)
    return lines


def board_text(state, colour: str | None) -> str:
    """The whole board for an email to `colour`: round, phase, Brenn and Flock of Crows, the
    territories (`territory_lines`) and the players (`victory_lines`)."""
    view = rules.view_for(state, colour)
    head = (f"Round {view['round']}, {view['phase']}. Brenn: {_who(view['brenn'], colour)}. "
            f"Flock of Crows: {view['flock']}.")
    if view["winner"]:
        head += f" The game is over: {_who(view['winner'], colour)} is elected High King."
    return "\n".join([head, "Territories:", *territory_lines(state, colour),
                      f"Players (victory conditions, each out of {TARGET}):", *victory_lines(state, colour)])
