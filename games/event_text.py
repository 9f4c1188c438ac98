"""Events in plain language, for the history page: one line of English per event.

`describe_event(type, payload)` words an event *as the viewer may see it*: it is given the
payload after `rules.redact` (or the whole payload once the game is over), so it can only say
what that viewer may know. A redacted payload keeps counts (`count`) and public fields only,
and the sentence says "3 cards", never which. Unknown types (a newer rules release) fall back
to the type and the payload's public keys rather than failing the page.

`is_bookkeeping(type)` marks the engine's own steps (procedures started and ended) that a
player rarely needs; the page hides them unless asked.
"""
from __future__ import annotations

from games.descriptions import describe_command
from games.rules import card_name, territory_name

BOOKKEEPING = {"ProcedureStarted", "ProcedureAdvanced", "ProcedureEnded", "DrawnCardsNoted",
               "ActionDeckShuffled", "EpicDeckShuffled", "TileStackFormed", "ActionCardSetAside"}


def is_bookkeeping(event_type: str, payload: dict | None = None) -> bool:
    """True for the engine's own steps, which say nothing a player decided or saw happen: also a
    Triskel answer (private until revealed) and a window where nobody reacted."""
    if event_type == "ReactionAnswered":
        return True
    if event_type == "ReactionsRevealed":
        return not (payload or {}).get("plays")
    return event_type in BOOKKEEPING


def _t(tid) -> str:
    return f"the {territory_name(tid)}" if tid else "a territory"


def _T(tid) -> str:
    """`_t` at the start of a sentence: "The Valley"."""
    text = _t(tid)
    return text[0].upper() + text[1:]


def _c(card) -> str:
    return card_name(card) if card else "a card"


def _cards(p: dict, key: str = "cards") -> str:
    if key in p:
        return ", ".join(_c(c) for c in p[key]) or "no cards"
    n = p.get("count", 0)
    return f"{n} card{'s' if n != 1 else ''}"


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _cause(p: dict) -> str:
    return f" ({p['cause']})" if p.get("cause") else ""


def _placements(placements: dict) -> str:
    return ", ".join(f"{n} in {_t(t)}" for t, n in placements.items())


def _moves(moves: list) -> str:
    return ", ".join(f"{n} from {_t(a)} to {_t(b)}" for a, b, n in moves)


def _secret_args(args: dict) -> str:
    """The hidden arguments of a declared card, for the only seat that may read them."""
    def words(value):
        if isinstance(value, list):
            return ", ".join(words(v) for v in value)
        return _c(value) if isinstance(value, str) and value.startswith(("act_", "adv_", "ep_")) else str(value)
    return "; ".join(f"{key} {words(value)}" for key, value in args.items())


def _played(p: dict) -> str:
    """"blue played Migration from the Valley: 2 to the Cove", worded by the rules'
    describe_command from the public arguments the event carries."""
    triskel = p.get("half") == "triskel"
    command = {"type": "react" if triskel else "play", "card": p["card"], **(p.get("args") or {})}
    words = describe_command(None, command).removeprefix("Play the Triskel card ").removeprefix("Play ")
    return f"{p['seat']} played {words}" + (" (Triskel)" if triskel else "") + "."


TEXTS = {
    "GameStarted": lambda p: f"The game started: {', '.join(p['seats'])} ({p.get('setup', '')} set-up).",
    "PositionDescribed": lambda p: "The game started from a described position.",
    "TileStackFormed": lambda p: f"The territory tiles were shuffled into a stack ({_n(p.get('count', len(p.get('tiles', []))), 'tile')}).",
    "ActionDeckShuffled": lambda p: f"The Action deck was shuffled ({_n(p.get('count', len(p.get('cards', []))), 'card')}).",
    "EpicDeckShuffled": lambda p: f"The Epic Tale deck was shuffled ({_n(p.get('count', len(p.get('cards', []))), 'card')}).",
    "ActionCardSetAside": lambda p: f"An Action card was set aside face down{': ' + _c(p['card']) if 'card' in p else ''}.",
    "TerritoryPlaced": lambda p: f"{_T(p['territory'])} was placed at {p['cell'][0]},{p['cell'][1]}{_cause(p)}.",
    "CapitalChosen": lambda p: f"{_T(p['territory'])} became the Capital.",
    "BrennAssigned": lambda p: f"{p['seat']} is the Brenn ({p.get('reason', '')}).",
    "FlockTossed": lambda p: f"The Flock of Crows was tossed: {p['side']}.",
    "ClansPlaced": lambda p: f"{p['seat']} placed {_placements(p['placements'])}{_cause(p)}.",
    "ClansMoved": lambda p: f"{p['seat']} moved {_moves(p['moves'])}{_cause(p)}.",
    "ClansRemoved": lambda p: f"{p['seat']} lost {_n(p.get('count', 1), 'clan')} in {_t(p['territory'])}{_cause(p)}.",
    "RoundStarted": lambda p: f"Round {p['round']} began.",
    "DraftStarted": lambda p: "The Assembly's draft began.",
    "ActionCardsDealt": lambda p: f"{p['seat']} was dealt {_cards(p)}.",
    "DraftCardsKept": lambda p: f"{p['seat']} kept {_cards(p, 'kept') if 'kept' in p else 'their pick'}.",
    "DraftCardsPassed": lambda p: f"{p['from']} passed {_cards(p)} to {p['to']}.",
    "DraftPackTaken": lambda p: f"{p['seat']} picked up {_cards(p)} passed by {p['from']}.",
    "DraftBlockCompleted": lambda p: f"{p['seat']} completed a draft hand ({_cards(p)}).",
    "DraftEnded": lambda p: "The draft ended.",
    "AdvantageCardTaken": lambda p: f"{p['seat']} took the Advantage card {_c(p['card'])}{_cause(p)}.",
    "AdvantageCardReturned": lambda p: f"The Advantage card {_c(p['card'])} went back face up{_cause(p)}.",
    "SeasonStarted": lambda p: f"The Season of round {p['round']} began.",
    "SeasonEnded": lambda p: f"The Season of round {p['round']} ended.",
    "TurnStarted": lambda p: f"{p['seat']}'s turn.",
    "Passed": lambda p: f"{p['seat']} passed.",
    "PretenderTaken": lambda p: f"{p['seat']} took a Pretender token.",
    "PretendersReturned": lambda p: "The Pretender tokens were returned.",
    "CardPlayed": _played,
    "CardSecretDeclared": lambda p: f"{p['seat']} declared {_c(p.get('card'))}"
                                    + (f" (secretly: {_secret_args(p['args'])})" if p.get("args") else "") + ".",
    "CardDiscarded": lambda p: f"{p['seat']} discarded {_c(p['card']) if 'card' in p else 'an ' + p.get('type', 'action').capitalize() + ' card'}{_cause(p)}.",
    "CardCancelled": lambda p: f"{p['by']}'s {p.get('cause', 'Triskel card')} cancelled {p['seat']}'s {_c(p['card'])}.",
    "CardGiven": lambda p: f"{p['from']} gave {_c(p['card']) if 'card' in p else 'a card'} to {p['to']}{_cause(p)}.",
    "CardPutInFront": lambda p: f"{p['seat']} put {_c(p['card'])} face up in front of them.",
    "CardReturnedToHand": lambda p: f"{_c(p['card'])} went back to {p['seat']}'s hand{_cause(p)}.",
    "CardTakenFromDiscard": lambda p: f"{p['seat']} took {_c(p['card']) if 'card' in p else 'a card'} from the discard pile.",
    "SetAsideCardTaken": lambda p: f"{p.get('seat', 'A player')} took the set-aside Action card{_cause(p)}.",
    "EpicTaleDrawn": lambda p: f"{p['seat']} drew {'the Epic Tale ' + _c(p['card']) if 'card' in p else 'an Epic Tale'}.",
    "EpicTaleRevealed": lambda p: f"{p['seat']} revealed the Epic Tale {_c(p['card'])}{_cause(p)}.",
    "DrawnCardsNoted": lambda p: f"Cards drawn noted ({_cards(p)}).",
    "HandRevealed": lambda p: f"{p['seat']} showed their hand to {p['to']}" + (f": {_cards(p)}" if "cards" in p else "") + ".",
    "TerritoryTilesDrawn": lambda p: f"{p['seat']} drew {_n(p.get('count', len(p.get('tiles', []))), 'territory tile')}"
                                     + (f" ({', '.join(territory_name(t) for t in p['tiles'])})" if "tiles" in p else "") + ".",
    "TerritoryTilesReturned": lambda p: f"{p['seat']} returned {_n(p.get('count', len(p.get('tiles', []))), 'territory tile')}.",
    "BuildingPlaced": lambda p: f"A {p['building'].capitalize()} was built in {_t(p['territory'])}.",
    "FestivalPlaced": lambda p: f"The Festival is in {_t(p['territory'])}.",
    "FestivalRemoved": lambda p: f"The Festival left {_t(p['territory'])}.",
    "ClashInitiated": lambda p: f"{p['seat']} started a clash in {_t(p['territory'])}{_cause(p)}.",
    "ClashStarted": lambda p: f"Clash in {_t(p['territory'])}; {p['instigator']} is the instigator.",
    "ClashLapsed": lambda p: f"The clash in {_t(p['territory'])} did not happen (no opposing clans left).",
    "ClashEnded": lambda p: f"The clash in {_t(p['territory'])} ended: {p.get('reason', '')}.",
    "ClanSheltered": lambda p: f"{p['seat']} sheltered 1 clan in a Citadel of {_t(p['territory'])}.",
    "CitadelDeclined": lambda p: f"{p['seat']} sheltered no clan in {_t(p['territory'])}.",
    "CitadelsStepEnded": lambda p: f"The Citadels step in {_t(p['territory'])} ended"
                                   + (f": sheltered {', '.join(f'{s} {n}' for s, n in p['sheltered'].items())}" if p.get("sheltered") else "") + ".",
    "ManeuverPerformed": lambda p: f"{p['seat']} performed a maneuver ({p['maneuver']}) in {_t(p['territory'])}.",
    "AttackDeclared": lambda p: f"{p['seat']} attacked {p['target']} in {_t(p['territory'])}.",
    "AttackChoiceMade": lambda p: f"{p['seat']} chose: {p['choice']}.",
    "AttackAnswered": lambda p: f"{p['seat']} answered the attack: {'removed a clan' if p['choice'] == 'remove' else 'discarded an Action card'}.",
    "Withdrew": lambda p: f"{p['seat']} withdrew from {_t(p['territory'])}.",
    "PeaceProposed": lambda p: f"{p['seat']} proposed to end the clash in {_t(p['territory'])}.",
    "PeaceVoted": lambda p: f"{p['seat']} {'agreed' if p['agree'] else 'refused'} to end the clash.",
    "PeaceRefused": lambda p: f"{p['by']} refused peace in {_t(p['territory'])}.",
    "InstigatorChanged": lambda p: f"{p['seat']} is now the instigator in {_t(p['territory'])}{_cause(p)}.",
    "ClanSpared": lambda p: f"{p['seat']}'s clan in {_t(p['territory'])} was spared{_cause(p)}.",
    "MountainsTollPaid": lambda p: f"{p['seat']} paid the Mountains' toll: {p.get('paid', '')}.",
    "GatesOpened": lambda p: f"The Gates of Tír na nÓg opened for {p['seat']}.",
    "CauldronSet": lambda p: f"{p['seat']} set the Dagda's Cauldron.",
    "CauldronEmptied": lambda p: f"The Dagda's Cauldron gave {p['seat']} clans back in {_t(p['territory'])}.",
    "DeedGained": lambda p: f"{p['seat']} gained {_n(p.get('count', 1), 'Deed')}{_cause(p)}.",
    "DeedDiscarded": lambda p: f"{p['seat']} discarded a Deed{_cause(p)}.",
    "PolicySet": lambda p: f"{p['seat']} set a standing Triskel policy"
                           + (f": {p['policy']} for {'all cards' if p.get('card') == 'all' else _c(p.get('card'))}" if "policy" in p else "") + ".",
    "ReactionAnswered": lambda p: f"{p['seat']} answered a Triskel window"
                                  + ((": " + (_c(p['play']['card']) if isinstance(p.get('play'), dict) and p['play'].get('card') else "declined")) if "play" in p else "") + ".",
    # A window that asks only who can answer: who was asked and who answered are hidden.
    "ReactionsAsked": lambda p: "The table waits for possible Triskel reactions.",
    "ReactionAnsweredPrivately": lambda p: (
        f"{p['seat']} answered a Triskel window: " + (_c(p['play']['card']) if isinstance(p.get('play'), dict)
                                                      and p['play'].get('card') else "declined") + "."
        if "seat" in p else "A Triskel window was answered."),
    "ReactionsRevealed": lambda p: "Triskel answers revealed: " + (", ".join(
        f"{play.get('seat', '?')} plays {_c(play.get('card'))}" for play in p.get("plays", []) if isinstance(play, dict)) or "nobody reacted") + ".",
    "ReactionLapsed": lambda p: f"{p['seat']}'s {_c(p.get('card'))} lapsed ({p.get('reason', '')}).",
    "VictoryChecked": lambda p: "Victory checked: " + (f"{p['winner']} wins" if p.get("winner") else "no High King yet") + ".",
    "GameWon": lambda p: f"{p['seat']} is elected High King.",
    "ProcedureStarted": lambda p: f"Step started: {p['frame'].get('kind', '?') if isinstance(p.get('frame'), dict) else '?'}.",
    "ProcedureAdvanced": lambda p: "Step advanced.",
    "ProcedureEnded": lambda p: f"Step ended: {p.get('kind', '?')}.",
}


def describe_event(event_type: str, payload: dict) -> str:
    """One line of English for an event of `event_type` with `payload` as the viewer sees it.

    Never raises: an event this module cannot word shows as its type and public keys.
    """
    text = TEXTS.get(event_type)
    if text is not None:
        try:
            return text(payload)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            pass
    keys = ", ".join(f"{k}: {v}" for k, v in payload.items() if k != "redacted" and not isinstance(v, (dict, list)))
    if payload.get("redacted") and not keys:
        return f"{event_type} (hidden from you)."
    return f"{event_type}" + (f" ({keys})" if keys else "")
