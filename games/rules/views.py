"""What leaves the rules toward a player: views of the state, redacted events, text.

`view_for` and `redact` are the only doors out for hidden information: hands, the set-aside
Action card, deck orders, draft cards and face-down discards are shown only to who may see them.
"""
from __future__ import annotations

from .catalog import CARDS, TERRITORY_INFO, card_name, territory_name
from .events import Event

# Public payload fields kept when another seat reads a private event.
PUBLIC_FIELDS = {
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
    return {"size": sum(counts.values()), **counts,
            "advantage_cards": sorted(c for c in hand if CARDS[c].type == "advantage"),
            "waiting": waiting}


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
        "territories": {t: {"cell": list(d["cell"]), "clans": dict(d["clans"]),
                            "sanctuaries": d["sanctuaries"], "citadels": d["citadels"],
                            "chieftain": state.chieftain(t)}
                        for t, d in state.territories.items()},
        "reserve": dict(state.reserve),
        "supply": dict(state.supply),
        "deeds": dict(state.deeds),
        "pretenders": list(state.pretenders),
        "advantage_display": list(state.advantage_display),
        "advantage_played_count": len(state.advantage_played),
        "epic_discard": list(state.epic_discard),
        "counts": {"epic_deck": len(state.epic_deck), "tile_stack": len(state.tile_stack),
                   "action_discard": len(state.action_discard),
                   "set_aside": 1 if state.set_aside else 0},
        "hands": {s: hand_summary(state, s) for s in state.seats},
        # Clans set on Dagda's Cauldron during a clash: off the island, not in the reserve.
        "cauldron": on_cauldron(state),
        "winner": state.winner,
        "pending": [{"seat": d.seat, "kind": d.kind, "prompt": d.prompt, "context": d.context}
                    for d in pending_for(state, seat)],
    }
    if seat is not None and seat in state.seats:
        view["hand"] = list(state.hands.get(seat, []))
        if state.draft and seat in state.draft:
            from .assembly import draft_choices

            d = state.draft[seat]
            view["draft"] = {"kept": list(d["kept"]), "choices": draft_choices(state, seat)}
    return view


def describe_args(card: str, args: dict) -> str:
    """A card play in words: "Migration from the Valley: 2 to the Cove".

    A card whose effect words its own arguments (`describe(args)`) is worded by it.
    """
    from .play import CARD_EFFECTS

    name = card_name(card)
    if args.get("no_effect"):
        return f"{name} for no effect (nothing of it can be done now)"
    effect = CARD_EFFECTS.get(card)
    own = getattr(effect, "describe", None)
    if own is not None and args:
        return f"{name}: {own(args)}"
    parts = []
    if "from" in args and "moves" in args:
        moves = ", ".join(f"{n} to the {territory_name(t)}" for t, n in args["moves"].items())
        parts.append(f"from the {territory_name(args['from'])}: {moves}")
    elif "moves" in args:
        moves = ", ".join(f"{n} from the {territory_name(t)}" for t, n in args["moves"].items())
        if "territory" in args:
            parts.append(f"into the {territory_name(args['territory'])}: {moves}")
        else:  # into the clashing territory (The Battle of Moytura)
            parts.append(f"moving in {moves}")
    elif "territory" in args:
        parts.append(f"in the {territory_name(args['territory'])}")
    if "from" in args and "to" in args:
        parts.append(f"from the {territory_name(args['from'])} to the {territory_name(args['to'])}")
    if "territories" in args:
        parts.append("in " + " and ".join(f"the {territory_name(t)}" for t in args["territories"]))
    if "placements" in args:
        parts.append(", ".join(f"{n} in the {territory_name(t)}" for t, n in args["placements"].items()))
    if "opponent" in args:
        parts.append(f"against {args['opponent']}" if args.get("mode") == "replace"
                     else f"looking at {args['opponent']}'s hand")
    if "discard" in args:
        # One card (Master Craftsman) or several (Misty Lands).
        discards = args["discard"] if isinstance(args["discard"], list) else [args["discard"]]
        parts.append("discarding " + ", ".join(card_name(c) for c in discards))
    if "to" in args and "from" not in args:
        if args["to"] in TERRITORY_INFO:
            count = f"{args['count']} clan(s) " if "count" in args else "the clan "
            parts.append(f"moving {count}to the {territory_name(args['to'])}")
        else:
            parts.append(f"giving it to {args['to']}")
    if "remove" in args:
        parts.append("removing " + " and ".join(f"1 {s} clan" for s in args["remove"]))
    if "instigator" in args:
        parts.append(f"making {args['instigator']} the instigator")
    if "owner" in args and "from" in args and "to" not in args:
        parts.append(f"moving 1 {args['owner']} clan from the {territory_name(args['from'])}")
    if "next" in args:
        parts.append(f"then {args['next']} maneuvers")
    if args.get("mode") == "place":
        parts.insert(0, "placing a clan")
    return name + (" " + ", ".join(parts) if parts else "")


def describe_command(state, command: dict) -> str:
    """One line of plain English for a command (used in prompts and on the web)."""
    t = command.get("type")
    if t == "play":
        args = {k: v for k, v in command.items() if k not in ("type", "card")}
        return "Play " + describe_args(command["card"], args)
    if t == "react":
        args = {k: v for k, v in command.items() if k not in ("type", "card")}
        return "Play the Triskel card " + describe_args(command["card"], args)
    if t == "draft":
        return "Keep " + ", ".join(card_name(c) for c in command["keep"])
    if t == "attack":
        return f"Attack {command['target']}"
    if t == "withdraw":
        return "Withdraw " + ", ".join(f"{n} to the {territory_name(x)}" for x, n in command["moves"].items())
    if t == "attack_response":
        return ("Remove 1 exposed clan" if command["choice"] == "remove"
                else f"Discard {card_name(command['card'])}")
    if t == "peace_vote":
        return "Agree to end the clash" if command["agree"] else "Refuse to end the clash"
    if t in ("choose_capital", "place_clan", "clash_order"):
        verb = {"choose_capital": "Make the Capital", "place_clan": "Place a clan in",
                "clash_order": "Resolve next the clash in"}[t]
        return f"{verb} the {territory_name(command['territory'])}"
    if t == "place_clans":
        territories = command["territories"]
        if len(set(territories)) == 1:
            return f"Place {len(territories)} clans in the {territory_name(territories[0])}"
        return "Place 1 clan in " + " and 1 in ".join(f"the {territory_name(x)}" for x in territories)
    if t == "territory_cell":
        return f"Put the new territory at {command['cell']}"
    if t == "scouts_move":
        if command.get("skip"):
            return "Move no clans"
        return (f"Move {command['count']} from the {territory_name(command['from'])} to the "
                f"{territory_name(command['to'])}")
    if t == "choose":
        return f"Take {card_name(command['card'])}"
    if t == "attack_choice":
        return ("Make the attacked player remove a clan" if command["choice"] == "remove"
                else "Make the attacked player discard an Action card")
    if t == "give":
        return f"Give {card_name(command['card'])}"
    if t == "set_aside":
        return f"Set aside {card_name(command['card'])}"
    if t == "keep":
        return "Keep " + ", ".join(card_name(c) for c in command["cards"])
    if t == "mountains_toll":
        return ("Lose 1 of the clans in the Mountains" if command["pay"] == "clan"
                else f"Discard {card_name(command['card'])} for the Mountains")
    if t == "remove_clan":
        return f"Remove 1 of your clans from the {territory_name(command['territory'])}"
    if t == "place_territory":
        return f"Put the {territory_name(command['territory'])} at {command['cell']}"
    if t == "tailtu_move":
        if command.get("skip"):
            return "Move no clan onto the new territory"
        return f"Move 1 clan from the {territory_name(command['from'])} onto the new territory"
    if t == "moor":
        return f"Play the Moor: look at {command['opponent']}'s Epic Tales"
    if t == "set_policy":
        what = "any Triskel card" if command["card"] == "all" else card_name(command["card"])
        return (f"Never ask me about {what}" if command["policy"] == "never"
                else f"Ask me about {what}")
    return {"pass": "Pass", "pretender": "Take a Pretender token", "citadel": "Shelter 1 clan in a Citadel",
            "no_citadel": "Do not shelter a clan", "propose_peace": "Propose to end the clash",
            "end_clash": "End the clash", "decline": "Decline (play no Triskel card)"}.get(t, t)


def render_board(state, seat: str | None = None) -> str:
    """The island and the table as text, as `seat` may see them."""
    lines = [f"Round {state.round}, {state.phase}. Brenn: {state.brenn}. Flock of Crows: {state.flock}."]
    if state.winner:
        lines.append(f"The game is over: {state.winner} is elected High King.")
    for tid, d in sorted(state.territories.items()):
        marks = []
        if state.capital == tid:
            marks.append("Capital")
        if d["citadels"]:
            marks.append(f"{d['citadels']} Citadel(s)")
        if d["sanctuaries"]:
            marks.append(f"{d['sanctuaries']} Sanctuary(ies)")
        if state.festival == tid:
            marks.append("Festival")
        clans = ", ".join(f"{s} {n}" for s, n in sorted(d["clans"].items())) or "no clans"
        chief = state.chieftain(tid)
        lines.append(f"- {territory_name(tid)} [{d['cell'][0]},{d['cell'][1]}]: {clans}"
                     + (f"; chieftain {chief}" if chief else "")
                     + (f" ({', '.join(marks)})" if marks else ""))
    for s in state.seats:
        h = hand_summary(state, s)
        lines.append(f"{s}: {state.reserve[s]} clans in reserve, {state.deeds.get(s, 0)} Deed(s), "
                     f"hand {h['action']} Action / {h['advantage']} Advantage / {h['epic']} Epic Tale"
                     + (", Pretender" if s in state.pretenders else ""))
    if seat in state.seats:
        hand = ", ".join(card_name(c) for c in state.hands.get(seat, [])) or "empty"
        lines.append(f"Your hand ({seat}): {hand}")
    return "\n".join(lines)
