"""What leaves the rules toward a player: views of the state, redacted events, text.

`view_for` and `redact` are the only doors out for hidden information: hands, the set-aside
Action card, deck orders, draft cards and face-down discards are shown only to who may see them.
"""

from __future__ import annotations

from .catalog import CARDS, TERRITORY_INFO, card_name, territory_name
from .events import Event
from .language import (
    _,
    clans_from,
    clans_placed,
    clans_to,
    colour_clans,
    colour_name,
    gettext_noop,
    ngettext,
    territory_phrase,
)

# Public payload fields kept when another seat reads a private event.
PUBLIC_FIELDS = {
    "MoveTakenBack": ("seat", "first", "last"),
    "EpicTaleDrawn": ("seat",),
    "CardDiscarded": ("seat", "from_hand", "cause"),
    "ActionCardsDealt": ("seat", "block"),
    "DraftCardsKept": ("seat", "stage"),
    "DraftCardsPassed": ("from", "to", "stage"),
    "DraftPackTaken": ("seat", "from", "stage"),
    "DraftBlockCompleted": ("seat", "block"),
    "ReactionAnswered": ("seat",),
    "ReactionAnsweredPrivately": (),
    "ReactionsAsked": (),
    "CardGiven": ("from", "to", "cause"),
    "HandRevealed": ("seat", "to"),
    "CardTakenFromDiscard": ("seat",),
    "CardSecretDeclared": ("seat", "card"),
    "PolicySet": ("seat",),
    "ActionCardSetAside": ("seat",),
    "EpicDeckShuffled": ("from_discard",),
    "ActionDeckShuffled": (),
    "TileStackFormed": (),
    "TerritoryTilesDrawn": ("seat", "card"),
    "TerritoryTilesReturned": ("seat", "card"),
}


def redact(event: Event, seat: str | None) -> Event:
    """The event as `seat` may see it (None: a spectator). Hidden fields are dropped; counts of
    hidden lists are kept (`count`), as hand sizes and deck sizes are public."""
    if event.type == "DraftCardsPassed" and seat == event.payload.get("to") != event.payload.get("from"):
        # Logs written before the pack was hidden made the passed cards visible to the receiving
        # seat at once; it sees them only when it picks the pack up (DraftPackTaken, or its
        # choices in `view_for`), whatever the stored visibility says.
        return _redacted(event, seat)
    if event.visible_to(seat):
        return event
    return _redacted(event, seat)


def _redacted(event: Event, seat: str | None) -> Event:
    """The public part of a private event."""
    if event.type == "PositionDescribed":
        from .positions import public_position

        return Event(event.type, public_position(event.payload, seat), None, event.version)
    keep = PUBLIC_FIELDS.get(event.type, ())
    payload = {k: v for k, v in event.payload.items() if k in keep}
    for key in ("cards", "tiles"):
        if isinstance(event.payload.get(key), list):
            payload["count"] = len(event.payload[key])
    if event.type == "CardDiscarded":
        payload["type"] = CARDS[event.payload["card"]].type
    payload["redacted"] = True
    return Event(event.type, payload, None, event.version)


def hand_summary(state, seat: str) -> dict:
    """Public facts of a hand: its size and how many cards of each type.

    `{"size", "action", "advantage", "epic", "advantage_cards": [ids], "waiting"}`; during the
    draft the Action count includes the cards the seat picks from and has kept, and `waiting`
    counts the cards passed to it that it has not picked up yet (0 otherwise)."""
    hand = state.hands.get(seat, [])
    counts = {"action": 0, "advantage": 0, "epic": 0}
    for c in hand:
        counts[CARDS[c].type] += 1
    waiting = 0
    if state.draft and seat in state.draft:
        from .assembly import draft_cards_in_hand, draft_cards_waiting

        # A pack passed to the seat is not in its hand until it picks it up: only that it
        # waits is known (its size, "waiting").
        counts["action"] += len(draft_cards_in_hand(state, seat))
        waiting = draft_cards_waiting(state, seat)
    return {
        "size": sum(counts.values()),
        **counts,
        "advantage_cards": sorted(c for c in hand if CARDS[c].type == "advantage"),
        "waiting": waiting,
    }


def on_cauldron(state) -> dict:
    """`{seat: clans}` set on Dagda's Cauldron in the clashes in progress (public; empty
    outside such a clash): with the reserve and the island they make each player's 12 clans."""
    out = {}
    for frame in state.stack:
        if frame["kind"] == "clash":
            for seat, n in frame.get("cauldron", {}).items():
                if n:
                    out[seat] = out.get(seat, 0) + n
    return out


def view_for(state, seat: str | None) -> dict:
    """The state as `seat` may see it (JSON). `seat=None` is the public view.

    Keys: seats, round, phase, brenn, flock, capital, festival, territories, reserve, supply,
    deeds, pretenders, advantage_display, epic_discard, counts (decks, discards), hands (sizes
    and types for all; the cards only for `seat`), cauldron ({seat: clans} on Dagda's Cauldron,
    `on_cauldron`), hand (seat's own cards), draft (seat's own),
    winner, pending (the decisions `seat` may know of: `engine.pending_for`; an entry's seat
    is None for the anonymous "waiting for possible Triskel reactions").
    """
    from .engine import pending_for

    view = {
        "seq": state.seq,
        "seats": list(state.seats),
        "round": state.round,
        "phase": state.phase,
        "brenn": state.brenn,
        "flock": state.flock,
        "capital": state.capital,
        "festival": state.festival,
        "territories": {
            t: {
                "cell": list(d["cell"]),
                "clans": dict(d["clans"]),
                "sanctuaries": d["sanctuaries"],
                "citadels": d["citadels"],
                "chieftain": state.chieftain(t),
            }
            for t, d in state.territories.items()
        },
        "reserve": dict(state.reserve),
        "supply": dict(state.supply),
        "deeds": dict(state.deeds),
        "pretenders": list(state.pretenders),
        "advantage_display": list(state.advantage_display),
        "advantage_played_count": len(state.advantage_played),
        "epic_discard": list(state.epic_discard),
        "counts": {
            "epic_deck": len(state.epic_deck),
            "tile_stack": len(state.tile_stack),
            "action_discard": len(state.action_discard),
            "set_aside": 1 if state.set_aside else 0,
        },
        "hands": {s: hand_summary(state, s) for s in state.seats},
        # Clans set on Dagda's Cauldron during a clash: off the island, not in the reserve.
        "cauldron": on_cauldron(state),
        "winner": state.winner,
        "pending": [
            {"seat": d.seat, "kind": d.kind, "prompt": d.prompt, "context": d.context}
            for d in pending_for(state, seat)
        ],
    }
    if seat is not None and seat in state.seats:
        view["hand"] = list(state.hands.get(seat, []))
        if state.draft and seat in state.draft:
            from .assembly import _passer, draft_cards_waiting, draft_choices, draft_plan

            d = state.draft[seat]
            plan = state.draft["_plan"]
            view["draft"] = {
                "kept": list(d["kept"]),
                "choices": draft_choices(state, seat),
                # The draft's steps (rulebook, Assembly step 6), public: how many cards each step
                # keeps, how many times the whole draft is done, the cards dealt each time,
                # the stage the seat is at (block * len(keeps) + step), who it passes to and
                # who passes to it, and how many passed cards wait for it face down.
                "keeps": list(plan["keeps"]),
                "blocks": plan["blocks"],
                "hand": draft_plan(len(state.seats))["hand"],
                "stage": d["stage"],
                "to": state.next_seat(seat),
                "from": _passer(state, seat),
                "waiting": draft_cards_waiting(state, seat),
            }
    return view


def _clans_removed(owners: list) -> str:
    """ "removing 2 blue clans and 1 green clan" (`owners`: a colour per clan removed)."""
    counts: dict = {}
    for seat in owners:
        counts[seat] = counts.get(seat, 0) + 1
    return _("removing {clans}").format(clans=_(" and ").join(colour_clans(n, s) for s, n in counts.items()))


def describe_args(card: str, args: dict) -> str:
    """A card play in words: "Migration from the Valley: 2 clans to the Cove".

    A card whose effect words its own arguments (`describe(args)`) is worded by it. Every count
    of clans says "clan(s)"; a territory is named once (New Clans in one territory: "placing 2
    clans in the Cove").
    """
    from .play import CARD_EFFECTS

    name = card_name(card)
    if args.get("no_effect"):
        return _("{card} for no effect (nothing of it can be done now)").format(card=name)
    effect = CARD_EFFECTS.get(card)
    own = getattr(effect, "describe", None)
    if own is not None and args:
        return _("{card}: {effect}").format(card=name, effect=own(args))
    parts = []
    if "from" in args and "moves" in args:
        parts.append(
            _("from {the_territory}: {moves}").format(
                the_territory=territory_phrase(args["from"]), moves=clans_to(args["moves"])
            )
        )
    elif "moves" in args:
        if "territory" in args:
            parts.append(
                _("into {the_territory}: {moves}").format(
                    the_territory=territory_phrase(args["territory"]), moves=clans_from(args["moves"])
                )
            )
        else:  # into the clashing territory (The Battle of Moytura)
            parts.append(_("moving in {moves}").format(moves=clans_from(args["moves"])))
    elif "territory" in args:
        if args.get("mode") == "place":  # New Alliance, placing without replacing
            parts.append(clans_placed({args["territory"]: 1}))
        else:
            parts.append(_("in {the_territory}").format(the_territory=territory_phrase(args["territory"])))
    if "from" in args and "to" in args:
        parts.append(
            _("moving 1 clan from {the_territory} to {the_other_territory}").format(
                the_territory=territory_phrase(args["from"]), the_other_territory=territory_phrase(args["to"])
            )
        )
    if "territories" in args:  # New Clans: 2 clans, in one territory or in two
        counts: dict = {}
        for t in args["territories"]:
            counts[t] = counts.get(t, 0) + 1
        parts.append(clans_placed(counts))
    if "placements" in args:
        parts.append(clans_placed(args["placements"]))
    if "opponent" in args:
        parts.append(
            _("against {player}").format(player=colour_name(args["opponent"]))
            if args.get("mode") == "replace"
            else _("looking at {player}'s hand").format(player=colour_name(args["opponent"]))
        )
    if "discard" in args:
        # One card (Master Craftsman) or several (Misty Lands).
        discards = args["discard"] if isinstance(args["discard"], list) else [args["discard"]]
        parts.append(_("discarding {cards}").format(cards=", ".join(card_name(c) for c in discards)))
    if "to" in args and "from" not in args:
        if args["to"] in TERRITORY_INFO:
            if "count" in args:
                parts.append(
                    ngettext(
                        "moving {count} clan to {the_territory}",
                        "moving {count} clans to {the_territory}",
                        args["count"],
                    ).format(count=args["count"], the_territory=territory_phrase(args["to"]))
                )
            else:
                parts.append(
                    _("moving the clan to {the_territory}").format(the_territory=territory_phrase(args["to"]))
                )
        else:
            parts.append(_("giving it to {player}").format(player=colour_name(args["to"])))
    if "remove" in args:
        parts.append(_clans_removed(args["remove"]))
    if "instigator" in args:
        parts.append(_("making {player} the instigator").format(player=colour_name(args["instigator"])))
    if "owner" in args and "from" in args and "to" not in args:
        parts.append(
            _("moving 1 {colour} clan from {the_territory}").format(
                colour=colour_name(args["owner"]), the_territory=territory_phrase(args["from"])
            )
        )
    if "next" in args:  # Warlord as a Triskel card (its clan is placed in the clashing territory)
        parts.append(_("then {player} maneuvers").format(player=colour_name(args["next"])))
    return name + (" " + ", ".join(parts) if parts else "")


def describe_command(state, command: dict) -> str:
    """One line of plain words for a command (used in prompts and on the web), in the active
    language (`language.speaking`)."""
    t = command.get("type")
    if t == "play":
        args = {k: v for k, v in command.items() if k not in ("type", "card")}
        return _("Play {card_play}").format(card_play=describe_args(command["card"], args))
    if t == "react":
        args = {k: v for k, v in command.items() if k not in ("type", "card")}
        return _("Play the Triskel card {card_play}").format(card_play=describe_args(command["card"], args))
    if t == "draft":
        return _("Keep {cards}").format(cards=", ".join(card_name(c) for c in command["keep"]))
    if t == "attack":
        return _("Attack {player}").format(player=colour_name(command["target"]))
    if t == "withdraw":
        return _("Withdraw {moves}").format(moves=clans_to(command["moves"]))
    if t == "attack_response":
        return (
            _("Remove 1 exposed clan")
            if command["choice"] == "remove"
            else _("Discard {card}").format(card=card_name(command["card"]))
        )
    if t == "peace_vote":
        return _("Agree to end the clash") if command["agree"] else _("Refuse to end the clash")
    if t == "choose_capital":
        return _("Make the Capital {the_territory}").format(
            the_territory=territory_phrase(command["territory"])
        )
    if t == "place_clan":
        return _("Place a clan in {the_territory}").format(
            the_territory=territory_phrase(command["territory"])
        )
    if t == "clash_order":
        return _("Resolve next the clash in {the_territory}").format(
            the_territory=territory_phrase(command["territory"])
        )
    if t == "place_clans":
        territories = command["territories"]
        if len(set(territories)) == 1:
            return _("Place {count} clans in {the_territory}").format(
                count=len(territories), the_territory=territory_phrase(territories[0])
            )
        return _("Place 1 clan in {the_territory} and 1 in {the_other_territory}").format(
            the_territory=territory_phrase(territories[0]),
            the_other_territory=_(" and 1 in ").join(territory_phrase(x) for x in territories[1:]),
        )
    if t == "territory_cell":
        return _("Put the new territory at {cell}").format(cell=command["cell"])
    if t == "scouts_move":
        if command.get("skip"):
            return _("Move no clans")
        return ngettext(
            "Move {count} clan from {the_territory} to {the_other_territory}",
            "Move {count} clans from {the_territory} to {the_other_territory}",
            command["count"],
        ).format(
            count=command["count"],
            the_territory=territory_phrase(command["from"]),
            the_other_territory=territory_phrase(command["to"]),
        )
    if t == "choose":
        return _("Take {card}").format(card=card_name(command["card"]))
    if t == "attack_choice":
        return (
            _("Make the attacked player remove a clan")
            if command["choice"] == "remove"
            else _("Make the attacked player discard an Action card")
        )
    if t == "give":
        return _("Give {card}").format(card=card_name(command["card"]))
    if t == "set_aside":
        return _("Set aside {card}").format(card=card_name(command["card"]))
    if t == "keep":
        return _("Keep {cards}").format(cards=", ".join(card_name(c) for c in command["cards"]))
    if t == "mountains_toll":
        return (
            _("Lose 1 of the clans in the Mountains")
            if command["pay"] == "clan"
            else _("Discard {card} for the Mountains").format(card=card_name(command["card"]))
        )
    if t == "remove_clan":
        return _("Remove 1 of your clans from {the_territory}").format(
            the_territory=territory_phrase(command["territory"])
        )
    if t == "place_territory":
        return _("Put {the_territory} at {cell}").format(
            the_territory=territory_phrase(command["territory"]), cell=command["cell"]
        )
    if t == "tailtu_move":
        if command.get("skip"):
            return _("Move no clan onto the new territory")
        return _("Move 1 clan from {the_territory} onto the new territory").format(
            the_territory=territory_phrase(command["from"])
        )
    if t == "moor":
        return _("Play the Moor: look at {player}'s Epic Tales").format(
            player=colour_name(command["opponent"])
        )
    if t == "set_policy":
        what = _("any Triskel card") if command["card"] == "all" else card_name(command["card"])
        return (
            _("Never ask me about {card}").format(card=what)
            if command["policy"] == "never"
            else _("Ask me about {card}").format(card=what)
        )
    words = {
        "pass": gettext_noop("Pass"),
        "pretender": gettext_noop("Take a Pretender token"),
        "citadel": gettext_noop("Shelter 1 clan in a Citadel"),
        "no_citadel": gettext_noop("Do not shelter a clan"),
        "propose_peace": gettext_noop("Propose to end the clash"),
        "end_clash": gettext_noop("End the clash"),
        "decline": gettext_noop("Decline (play no Triskel card)"),
    }
    return _(words[t]) if t in words else t


# The words of the phases and of the Flock of Crows' sides, as the text board shows them.
PHASE_WORDS = {
    "setup": gettext_noop("setup"),
    "assembly": gettext_noop("assembly"),
    "season": gettext_noop("season"),
    "over": gettext_noop("over"),
}
FLOCK_WORDS = {"clockwise": gettext_noop("clockwise"), "counterclockwise": gettext_noop("counterclockwise")}


def render_board(state, seat: str | None = None) -> str:
    """The island and the table as text, as `seat` may see them, in the active language."""
    phase = _(PHASE_WORDS[state.phase]) if state.phase in PHASE_WORDS else state.phase
    flock = _(FLOCK_WORDS[state.flock]) if state.flock in FLOCK_WORDS else state.flock
    if state.phase == "setup":  # before round 1 (rulebook, Setup): no round number
        head = _("Setup, before round 1. Brenn: {brenn}. Flock of Crows: {flock}.")
    else:
        head = _("Round {round}, {phase}. Brenn: {brenn}. Flock of Crows: {flock}.")
    lines = [head.format(round=state.round, phase=phase, brenn=colour_name(state.brenn), flock=flock)]
    if state.winner:
        lines.append(
            _("The game is over: {player} is elected High King.").format(player=colour_name(state.winner))
        )
    for tid, d in sorted(state.territories.items()):
        marks = []
        if state.capital == tid:
            marks.append(_("Capital"))
        if d["citadels"]:
            marks.append(_("{count} Citadel(s)").format(count=d["citadels"]))
        if d["sanctuaries"]:
            marks.append(_("{count} Sanctuary(ies)").format(count=d["sanctuaries"]))
        if state.festival == tid:
            marks.append(_("Festival"))
        clans = ", ".join(f"{colour_name(s)} {n}" for s, n in sorted(d["clans"].items())) or _("no clans")
        chief = state.chieftain(tid)
        lines.append(
            f"- {territory_name(tid)} [{d['cell'][0]},{d['cell'][1]}]: {clans}"
            + (_("; chieftain {player}").format(player=colour_name(chief)) if chief else "")
            + (f" ({', '.join(marks)})" if marks else "")
        )
    for s in state.seats:
        h = hand_summary(state, s)
        lines.append(
            _(
                "{player}: {reserve} clans in reserve, {deeds} Deed(s), hand {action} Action / "
                "{advantage} Advantage / {epic} Epic Tale"
            ).format(
                player=colour_name(s),
                reserve=state.reserve[s],
                deeds=state.deeds.get(s, 0),
                action=h["action"],
                advantage=h["advantage"],
                epic=h["epic"],
            )
            + (_(", Pretender") if s in state.pretenders else "")
        )
    if seat in state.seats:
        hand = ", ".join(card_name(c) for c in state.hands.get(seat, [])) or _("empty")
        lines.append(_("Your hand ({player}): {cards}").format(player=colour_name(seat), cards=hand))
    return "\n".join(lines)
