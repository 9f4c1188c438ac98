"""The board as an email shows it to one seat: each territory with its clans, chieftain,
buildings and neighbours, then a line per player on the victory conditions.

Everything comes from the public part of `rules.view_for(state, colour)` and the public facts of
the state (adjacency, the victory counts of `games.rules.condition_values`, which count
only clans on the island): no hand or private decision is read here. Rulebook, Victory
Conditions: "Be present in six or more territories. Be chieftain over a combined total of six or
more opposing clans. Be present in territories with a combined total of six sanctuaries." Each
Deed counts towards one condition (rulebook, Deeds); only a Pretender can be elected.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import rules
from games.rules import VICTORY_TARGET as TARGET
from games.rules import condition_values
from games.story.names import player_name


def _who(seat: str, colour: str | None) -> str:
    name = rules.colour_name(seat)
    return _("{seat} (you)").format(seat=name) if seat == colour else name


def _named(seat: str, colour: str | None) -> str:
    """A player as the board's head and player lines name them: "Aoife (green)" inside
    `rules.players_named` (the names are public at the table), else the colour; the reader,
    `colour`, "green (you)"."""
    return _who(seat, colour) if seat == colour else player_name(seat)


def territory_lines(state, colour: str | None) -> list[str]:
    """One line per territory, by name: "- the Valley: green 2, blue 1; chieftain green; Capital,
    1 Sanctuary. Neighbours: Cove, Plains." (clans with "(you)" for `colour`), in the active
    language."""
    view = rules.view_for(state, colour)
    names = {tid: rules.territory_name(tid) for tid in view["territories"]}
    lines = []
    for tid, d in sorted(view["territories"].items(), key=lambda item: names[item[0]]):
        clans = ", ".join(f"{_who(s, colour)} {n}" for s, n in sorted(d["clans"].items()) if n) or _(
            "no clans"
        )
        marks = []
        if view["capital"] == tid:
            marks.append(_("Capital"))
        if d["citadels"]:
            marks.append(
                ngettext("{count} Citadel", "{count} Citadels", d["citadels"]).format(count=d["citadels"])
            )
        if d["sanctuaries"]:
            marks.append(
                ngettext("{count} Sanctuary", "{count} Sanctuaries", d["sanctuaries"]).format(
                    count=d["sanctuaries"]
                )
            )
        if view["festival"] == tid:
            marks.append(_("Festival"))
        neighbours = sorted(names[t] for t in state.adjacent(tid) if t in names)
        line = _("- {territory}: {clans}").format(territory=names[tid], clans=clans)
        if d["chieftain"]:
            line += _("; chieftain {seat}").format(seat=_who(d["chieftain"], colour))
        if marks:
            line += _("; {marks}").format(marks=", ".join(marks))
        line += _(". Neighbours: {territories}.").format(
            territories=", ".join(neighbours) if neighbours else _("none")
        )
        lines.append(line)
    return lines


def victory_lines(state, colour: str | None) -> list[str]:
    """One line per player, in seating order, by name (`_named`): territories present in,
    opposing clans under their chieftainship, Sanctuaries in the territories they are present in
    (each out of 6), Deeds, Pretender, and the cards in hand by type (a public count)."""
    view = rules.view_for(state, colour)
    lines = []
    for seat in view["seats"]:
        values = condition_values(state, seat)
        hand = view["hands"].get(seat, {})
        deeds = view["deeds"].get(seat, 0)
        parts = [
            _("present in {count}/{target} territories").format(count=values["territories"], target=TARGET),
            _("chieftain over {count}/{target} opposing clans").format(
                count=values["opposing_clans"], target=TARGET
            ),
            _("{count}/{target} Sanctuaries where present").format(
                count=values["sanctuaries"], target=TARGET
            ),
            ngettext("{count} Deed", "{count} Deeds", deeds).format(count=deeds),
        ]
        if seat in view["pretenders"]:
            parts.append(_("Pretender"))
        if view["brenn"] == seat:
            parts.append("Brenn")
        line = _("- {seat}: {parts}").format(seat=_named(seat, colour), parts=", ".join(parts))
        reserve, action = view["reserve"].get(seat, 0), hand.get("action", 0)
        advantage, epic = hand.get("advantage", 0), hand.get("epic", 0)
        line += _("; {reserve}; hand: {action}, {advantage}, {epic}.").format(
            reserve=ngettext("{count} clan in reserve", "{count} clans in reserve", reserve).format(
                count=reserve
            ),
            action=ngettext("{count} Action", "{count} Actions", action).format(count=action),
            advantage=ngettext("{count} Advantage", "{count} Advantages", advantage).format(count=advantage),
            epic=ngettext("{count} Epic Tale", "{count} Epic Tales", epic).format(count=epic),
        )
        lines.append(line)
    return lines


def board_text(state, colour: str | None) -> str:
    """The whole board for an email to `colour`: round, phase, Brenn and Flock of Crows, the
    territories (`territory_lines`) and the players (`victory_lines`), in the active language."""
    view = rules.view_for(state, colour)
    head = (
        _("Setup, before round 1. Brenn: {brenn}. Flock of Crows: {flock}.")
        if view["phase"] == "setup"
        else _("Round {round}, {phase}. Brenn: {brenn}. Flock of Crows: {flock}.")
    ).format(
        round=view["round"],
        phase=rules.phase_name(view["phase"]),
        brenn=_named(view["brenn"], colour),
        flock=rules.flock_name(view["flock"]),
    )
    if view["winner"]:
        head += _(" The game is over: {seat} is elected High King.").format(
            seat=_named(view["winner"], colour)
        )
    return "\n".join(
        [
            head,
            _("Territories:"),
            *territory_lines(state, colour),
            _("Players (victory conditions, each out of {target}):").format(target=TARGET),
            *victory_lines(state, colour),
        ]
    )
