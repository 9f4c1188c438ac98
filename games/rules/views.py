"""What leaves the rules toward a player: views of the state, redacted events, text.

`view_for` and `redact` are the only doors out for hidden information: hands, the set-aside
Action card, deck orders, draft cards and face-down discards are shown only to who may see them.
"""

from __future__ import annotations

from typing import Any

from .assembly import _passer, draft_cards_in_hand, draft_cards_waiting, draft_choices, draft_plan
from .card_effects import describe_args
from .catalog import CARDS, card_name, territory_name
from .engine import pending_for
from .events import Event
from .language import (
    _,
    clans_to,
    colour_name,
    gettext_noop,
    ngettext,
    player_name,
    territory_phrase,
)
from .places import place_phrase
from .positions import public_position
from .state import GameState

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


def hand_summary(state: GameState, seat: str) -> dict[str, Any]:
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


def on_cauldron(state: GameState) -> dict[str, Any]:
    """`{seat: clans}` set on Dagda's Cauldron in the clashes in progress (public; empty
    outside such a clash): with the reserve and the island they make each player's 12 clans."""
    out: dict[str, Any] = {}
    for frame in state.stack:
        if frame["kind"] == "clash":
            for seat, n in frame.get("cauldron", {}).items():
                if n:
                    out[seat] = out.get(seat, 0) + n
    return out


def view_for(state: GameState, seat: str | None) -> dict[str, Any]:
    """The state as `seat` may see it (JSON). `seat=None` is the public view.

    Keys: seats, round, phase, brenn, flock, capital, festival, territories, reserve, supply,
    deeds, pretenders, advantage_display, epic_discard, counts (decks, discards), hands (sizes
    and types for all; the cards only for `seat`), cauldron ({seat: clans} on Dagda's Cauldron,
    `on_cauldron`), hand (seat's own cards), draft (seat's own: `kept` the cards of its finished
    draft blocks, `choices` the cards it picks from now or None, `held` the cards it held from its
    last pick while it waits for the cards passed to it, else []),
    winner, pending (the decisions `seat` may know of: `engine.pending_for`; an entry's seat
    is None for the anonymous "waiting for possible Triskel reactions").
    """
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
            d = state.draft[seat]
            plan = state.draft["_plan"]
            choices = draft_choices(state, seat)
            view["draft"] = {
                "kept": list(d["kept"]),
                "choices": choices,
                # Step 6: a player "chooses one to hold" and "adds the one card he held to the
                # cards passed to him": while it waits for them, the cards it held from its last
                # pick are in its hand (while it picks they are among `choices`).
                "held": list(d["held"]) if choices is None else [],
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


def describe_command(state: GameState, command: dict[str, Any], reader: str | None = None) -> str:
    """One line of plain words for a command (used in prompts and on the web), in the active
    language (`language.speaking`); to `reader` (the seat choosing it) where it names that seat
    (`describe_args`)."""
    t: Any = command.get("type")  # any JSON: a command is worded before it is checked
    if t in ("react", "decline") and isinstance(command.get("then"), str) and command["then"] in CARDS:
        # A Triskel answer with a card said ahead for later in the clash step (docs/rulings.md).
        now = describe_command(state, {k: v for k, v in command.items() if not k.startswith("then")}, reader)
        later = {k[len("then_") :]: v for k, v in command.items() if k.startswith("then_")}
        return _("{now}; later in this step of the clash, play {card_play} when it can answer").format(
            now=now, card_play=describe_args(command["then"], later, reader)
        )
    if t == "play":
        args = {k: v for k, v in command.items() if k not in ("type", "card")}
        return _("Play {card_play}").format(card_play=describe_args(command["card"], args, reader))
    if t == "react":
        args = {k: v for k, v in command.items() if k not in ("type", "card")}
        return _("Play the Triskel card {card_play}").format(
            card_play=describe_args(command["card"], args, reader)
        )
    if t == "draft":
        return _("Keep {cards}").format(cards=", ".join(card_name(c) for c in command["keep"]))
    if t == "attack":
        return _("Attack {player}").format(player=player_name(command["target"]))
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
        return _("Place 1 clan in {the_territory} and 1 clan in {the_other_territory}").format(
            the_territory=territory_phrase(territories[0]),
            the_other_territory=_(" and 1 clan in ").join(territory_phrase(x) for x in territories[1:]),
        )
    if t == "territory_cell":
        return _("Put the new territory {where}").format(where=place_phrase(state, command["cell"]))
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
        return _("Put {the_territory} {where}").format(
            the_territory=territory_phrase(command["territory"]), where=place_phrase(state, command["cell"])
        )
    if t == "tailtu_move":
        if command.get("skip"):
            return _("Move no clan onto the new territory")
        return _("Move 1 clan from {the_territory} onto the new territory").format(
            the_territory=territory_phrase(command["from"])
        )
    if t == "moor":
        return _("Play the Moor: look at {player}'s Epic Tales").format(
            player=player_name(command["opponent"])
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


# The phases (`GameState.phase`) and the Flock of Crows' sides as players read them, capitalized
# as the rulebook writes its phases ("the Assembly", "the Season").
PHASE_WORDS = {
    "setup": gettext_noop("Setup"),
    "assembly": gettext_noop("Assembly"),
    "season": gettext_noop("Season"),
    "over": gettext_noop("game over"),
}
FLOCK_WORDS = {"clockwise": gettext_noop("clockwise"), "counterclockwise": gettext_noop("counterclockwise")}


def phase_name(phase: str) -> str:
    """The phase `phase` ("season") in words, in the active language ("Season"; "Saison"); an
    unknown phase as it is. Rulebook: Game Overview (the Assembly and the Season)."""
    return _(PHASE_WORDS[phase]) if phase in PHASE_WORDS else phase


def flock_name(side: str) -> str:
    """The Flock of Crows' side `side` ("clockwise") in words, in the active language; an
    unknown side as it is."""
    return _(FLOCK_WORDS[side]) if side in FLOCK_WORDS else side


def render_board(state: GameState, seat: str | None = None) -> str:
    """The island and the table as text, as `seat` may see them, in the active language."""
    phase, flock = phase_name(state.phase), flock_name(state.flock)
    if state.phase == "setup":  # before round 1 (rulebook, Setup): no round number
        head = _("Setup, before round 1. Brenn: {brenn}. Flock of Crows: {flock}.")
    else:
        head = _("Round {round}, {phase}. Brenn: {brenn}. Flock of Crows: {flock}.")
    lines = [head.format(round=state.round, phase=phase, brenn=player_name(state.brenn), flock=flock)]
    if state.winner:
        lines.append(
            _("The game is over: {player} is elected High King.").format(player=player_name(state.winner))
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
            + (_("; chieftain {player}").format(player=player_name(chief)) if chief else "")
            + (f" ({', '.join(marks)})" if marks else "")
        )
    for s in state.seats:
        h = hand_summary(state, s)
        lines.append(
            _(
                "{player}: {reserve} clans in reserve, {deeds} Deed(s), hand {action} Action / "
                "{advantage} Advantage / {epic} Epic Tale"
            ).format(
                player=player_name(s),
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
        lines.append(_("Your hand ({player}): {cards}").format(player=player_name(seat), cards=hand))
        # The draft's cards join the hand only when it ends; until then the seat holds them too.
        drafted = draft_cards_in_hand(state, seat) if state.draft and seat in state.draft else []
        if drafted:
            lines.append(
                _("Action cards you hold in the draft: {cards}").format(
                    cards=", ".join(card_name(c) for c in drafted)
                )
            )
    return "\n".join(lines)
