"""Events in plain language, for the history page and emails: one line per event, in the
active language (English, the source, or French: docs/translation.md).

`describe_event(type, payload, viewer=None)` words an event *as the viewer may see it*: it is
given the payload after `rules.redact` (or the whole payload once the game is over), so it can
only say what that viewer may know. A redacted payload keeps counts (`count`) and public fields
only, and the sentence says "3 cards", never which. Unknown types (a newer rules release) fall
back to the type and the payload's public keys rather than failing the page.

`viewer` (a seat colour) is the seat the line is told to. In French the line then speaks to it
("Vous avez attaqué bleu dans la Lande.", "bleu vous a attaqué dans la Lande.", "votre main"):
French cannot be turned to the second person afterwards the way English is
(`games.story.second_person`). In English `viewer` changes nothing.

Events are data in no language: the free words some payloads carry (a `cause` such as "attack"
or a card's English name, a clash's end `reason`, the Mountains' toll) are translated here.

`is_bookkeeping(type, payload)` marks the engine's own steps (procedures started and ended) that
a player rarely needs, and the events whose line would repeat another line of the same move
(`ECHOES`: one move says each thing once); the pages and the emails leave them out unless asked.
Counts of clans always say "clan(s)", and a line names a territory once where it means one.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_noop, pgettext

# The rules' gettext is Django's, but its French sentences contract "de le Plateau" into "du
# Plateau" when filled in (the rules' `FrenchSentence`).
from games.rules import (
    CARDS,
    COLOURS,
    TERRITORY_INFO,
    card_name,
    clans_from,
    clans_to,
    colour_clans,
    colour_name,
    current_language,
    ngettext,
    player_name,
    territory_name,
    territory_phrase,
)
from games.rules import (
    gettext as _,
)
from games.story.descriptions import describe_card_play
from games.story.names import joined

BOOKKEEPING = {
    "ProcedureStarted",
    "ProcedureAdvanced",
    "ProcedureEnded",
    "DrawnCardsNoted",
    "ActionDeckShuffled",
    "EpicDeckShuffled",
    "TileStackFormed",
    "ActionCardSetAside",
}


# Events another event of the same command already tells, word for word: the maneuver is told
# by the attack, the withdrawal's moves or the Epic Tale played; a withdrawal by the clans it
# moves ("... (withdraw)"); the answer to an attack by the card discarded or the clan lost; a
# card played by its play.
ECHOES = {"ManeuverPerformed", "Withdrew"}


# Events whose public part is all a player ever reads of them: their hidden part is the server's
# own (a take-back carries the whole state it puts back), so no line of theirs is "partly hidden".
TOLD_WHOLE = frozenset({"MoveTakenBack"})


def is_bookkeeping(event_type: str, payload: dict | None = None) -> bool:
    """True for the engine's own steps, which say nothing a player decided or saw happen: also a
    Triskel answer (private until revealed), a window where nobody reacted, and an event whose
    line would repeat another line of the same move (`ECHOES`; a card discarded because it was
    played; an attack answered by a discard or a lost clan, which their own events tell)."""
    payload = payload or {}
    if event_type == "ReactionAnswered":
        return True
    if event_type == "ReactionsRevealed":
        return not payload.get("plays")
    if event_type == "CardDiscarded":
        return payload.get("cause") == "played"
    if event_type == "AttackAnswered":
        return payload.get("choice") in ("remove", "discard")
    if event_type == "MountainsTollPaid":  # the card discarded or the clan lost tells it
        return payload.get("paid") in ("a clan", "an Action card")
    return event_type in BOOKKEEPING or event_type in ECHOES


# -- names ---------------------------------------------------------------------------------


def _p(seat) -> str:
    """A seat as a line names it: the player's name and colour ("Ann (green)") inside
    `rules.players_named`, else its colour in words ("green"; "vert")."""
    return player_name(seat) if seat else _("a player")


def _t(tid) -> str:
    """ "the Valley" ("la Vallée"), or "a territory" when none is named."""
    return territory_phrase(tid) if tid else _("a territory")


def _c(card) -> str:
    return card_name(card) if card else _("a card")


def _cards(p: dict, key: str = "cards") -> str:
    if key in p:
        return ", ".join(_c(c) for c in p[key]) or _("no cards")
    n = p.get("count", 0)
    return ngettext("{count} card", "{count} cards", n).format(count=n)


def _count(p: dict, key: str) -> int:
    return p.get("count", len(p.get(key, [])))


# -- the viewer ----------------------------------------------------------------------------


def _you(seat, viewer) -> bool:
    """Whether a French line speaks to `seat` as "vous" (never in English: see the module)."""
    return bool(viewer) and seat == viewer and current_language() == "fr"


def _pick(*choices):
    """The first text whose condition holds: `_pick((cond, text), ..., text)`."""
    for choice in choices[:-1]:
        if choice[0]:
            return choice[1]
    return choices[-1]


# -- the free words of payloads ------------------------------------------------------------

_CARD_BY_NAME = {name: cid for cid in CARDS for name in (card_name(cid, "en"), card_name(cid, "fr"))}
_TERRITORY_BY_NAME = {
    name: tid for tid in TERRITORY_INFO for name in (territory_name(tid, "en"), territory_name(tid, "fr"))
}

# Causes the rules write in words rather than as a card's name (rules' `cause=`).
CAUSE_WORDS = {
    "assembly": gettext_noop("assembly"),
    "end of the Season": gettext_noop("end of the Season"),
    "played": gettext_noop("played"),
    "attack": gettext_noop("attack"),
    "not kept": gettext_noop("not kept"),
    "the clash ended": gettext_noop("the clash ended"),
    "setup": gettext_noop("setup"),
    "no clans on the island": gettext_noop("no clans on the island"),
    "withdraw": gettext_noop("withdraw"),
    # The Mountains' tile effect (a card discarded or a clan lost on moving there): in words
    # that do not name the territory again ("lost 1 clan in the Mountains (mountain toll)").
    "Mountains": gettext_noop("mountain toll"),
}
REASON_WORDS = {
    "drawn at random": gettext_noop("drawn at random"),
    "chieftain of the Capital": gettext_noop("chieftain of the Capital"),
    "no exposed clans remain": gettext_noop("no exposed clans remain"),
    "ended by agreement": gettext_noop("ended by agreement"),
    "no longer possible": gettext_noop("no longer possible"),
}
TOLL_WORDS = {
    "an Action card": gettext_noop("an Action card"),
    "a clan": gettext_noop("a clan"),
    "ignored with the Mountains card": gettext_noop("ignored with the Mountains card"),
    "nothing left to pay": gettext_noop("nothing left to pay"),
}
SETUP_WORDS = {
    "position": gettext_noop("position"),
    "random": gettext_noop("random"),
    "discovery": gettext_noop("discovery"),
}
FLOCK_WORDS = {
    "clockwise": gettext_noop("clockwise"),
    "counterclockwise": gettext_noop("counterclockwise"),
    "counter-clockwise": gettext_noop("counter-clockwise"),
}
MANEUVER_WORDS = {
    "attack": gettext_noop("attack"),
    "withdraw": gettext_noop("withdraw"),
    "epic": gettext_noop("epic"),
}
BUILDING_WORDS = {"sanctuary": gettext_noop("Sanctuary"), "citadel": gettext_noop("Citadel")}
POLICY_WORDS = {"never": gettext_noop("never"), "ask": gettext_noop("ask"), "always": gettext_noop("always")}
# The arguments a card declared in secret carries (Misty Lands: the cards discarded).
SECRET_ARG_WORDS = {
    "discard": gettext_noop("discard"),
    "cards": gettext_noop("cards"),
    "card": gettext_noop("card"),
    "territory": gettext_noop("territory"),
}
# The rules' procedures (the engine's steps, shown on the history page when asked for).
PROCEDURE_WORDS = {
    "game": gettext_noop("the game"),
    "season": gettext_noop("the Season"),
    "clashes": gettext_noop("the clashes"),
    "clash": gettext_noop("a clash"),
    "window": gettext_noop("a Triskel window"),
    "gates": gettext_noop("the Gates of Tír na nÓg"),
    "setup_placement": gettext_noop("placing the setup clans"),
    "choose_capital": gettext_noop("the choice of the Capital"),
    "assembly": gettext_noop("the Assembly"),
    "draft": gettext_noop("the draft"),
    "mountains_toll": gettext_noop("the Mountains' toll"),
    "removal": gettext_noop("a removal of clans"),
    "no_clans": gettext_noop("a player with no clans on the island"),
    "epic_draw": gettext_noop("an Epic Tale draw"),
    "card": gettext_noop("a card's effect"),
}
ENDED_BY = re.compile(r"^ended by (?P<seat>\w+), the last player with exposed clans$")


def _word(table: dict, value) -> str:
    """`value` through `table` (English words marked for the catalog), translated; a card's or
    territory's name in the active language; anything else as it is."""
    text = str(value)
    if text in table:
        return _(table[text])
    if text in _CARD_BY_NAME:
        return card_name(_CARD_BY_NAME[text])
    if text in _TERRITORY_BY_NAME:
        return territory_name(_TERRITORY_BY_NAME[text])
    return text


def _reason(value) -> str:
    found = ENDED_BY.match(str(value or ""))
    if found:
        return _("ended by {player}, the last player with exposed clans").format(player=_p(found["seat"]))
    return _word(REASON_WORDS, value or "")


def _cause(p: dict) -> str:
    return _(" ({cause})").format(cause=_word(CAUSE_WORDS, p["cause"])) if p.get("cause") else ""


def _placements(placements: dict) -> str:
    """ "2 clans in the Cove, 1 clan in the Plains"."""
    return ", ".join(
        ngettext("{count} clan in {the_territory}", "{count} clans in {the_territory}", n).format(
            count=n, the_territory=_t(t)
        )
        for t, n in placements.items()
    )


def _moves(moves: list) -> str:
    """Moves `[[from, to, clans]]` in words, each territory named once where the moves share an
    end: "2 clans from the Cove to the Plains"; "from the Cove: 2 clans to the Plains, 1 clan to
    the Valley"; "to the Forest: 1 clan from the Swamp, 1 clan from the Iron Mine"."""
    origins = {a for a, _b, _n in moves}
    targets = {b for _a, b, _n in moves}
    if len(moves) > 1 and len(origins) == 1:
        return _("from {the_territory}: {moves}").format(
            the_territory=_t(moves[0][0]), moves=clans_to({b: n for _a, b, n in moves})
        )
    if len(moves) > 1 and len(targets) == 1:
        return _("to {the_territory}: {moves}").format(
            the_territory=_t(moves[0][1]), moves=clans_from({a: n for a, _b, n in moves})
        )
    return ", ".join(
        ngettext(
            "{count} clan from {the_territory} to {the_other_territory}",
            "{count} clans from {the_territory} to {the_other_territory}",
            n,
        ).format(count=n, the_territory=_t(a), the_other_territory=_t(b))
        for a, b, n in moves
    )


def _secret_args(args: dict) -> str:
    """The hidden arguments of a declared card, for the only seat that may read them."""

    def words(value):
        if isinstance(value, list):
            return ", ".join(words(v) for v in value)
        if isinstance(value, str) and value.startswith(("act_", "adv_", "ep_")):
            return _c(value)
        return str(value)

    separator = pgettext("between the parts of a list", "; ")
    return separator.join(f"{_word(SECRET_ARG_WORDS, key)} {words(value)}" for key, value in args.items())


# -- the lines -----------------------------------------------------------------------------
# Each takes the payload `p` and the viewer `v` (a colour or None; heeded in French only).


def _played(p: dict, v) -> str:
    """ "blue played Migration from the Valley: 2 to the Cove", worded by the rules'
    `describe_args` from the public arguments the event carries."""
    triskel = p.get("half") == "triskel"
    words = describe_card_play(p["card"], p.get("args") or {})
    if triskel:
        return _pick(
            (_you(p["seat"], v), _("You played {card_play} (Triskel).")),
            _("{player} played {card_play} (Triskel)."),
        ).format(player=_p(p["seat"]), card_play=words)
    return _pick(
        (_you(p["seat"], v), _("You played {card_play}.")), _("{player} played {card_play}.")
    ).format(player=_p(p["seat"]), card_play=words)


def _game_started(p, v):
    return _("The game started: {seats} ({setup} set-up).").format(
        seats=", ".join(_p(s) for s in p["seats"]), setup=_word(SETUP_WORDS, p.get("setup", ""))
    )


def _tiles_drawn(p, v):
    n = _count(p, "tiles")
    names = (
        _(" ({territories})").format(territories=", ".join(territory_name(t) for t in p["tiles"]))
        if "tiles" in p
        else ""
    )
    if _you(p["seat"], v):
        text = ngettext(
            "You drew {count} territory tile{territories}.",
            "You drew {count} territory tiles{territories}.",
            n,
        )
    else:
        text = ngettext(
            "{player} drew {count} territory tile{territories}.",
            "{player} drew {count} territory tiles{territories}.",
            n,
        )
    return text.format(player=_p(p["seat"]), count=n, territories=names)


def _tiles_returned(p, v):
    n = _count(p, "tiles")
    if _you(p["seat"], v):
        text = ngettext("You returned {count} territory tile.", "You returned {count} territory tiles.", n)
    else:
        text = ngettext(
            "{player} returned {count} territory tile.", "{player} returned {count} territory tiles.", n
        )
    return text.format(player=_p(p["seat"]), count=n)


def _clans_moved(p, v):
    you = _you(p["seat"], v)
    if p.get("cause") == "withdraw":  # the maneuver Withdraw (its own event is not told: ECHOES)
        return _pick((you, _("You withdrew {moves}.")), _("{player} withdrew {moves}.")).format(
            player=_p(p["seat"]), moves=_moves(p["moves"])
        )
    return _pick((you, _("You moved {moves}{cause}.")), _("{player} moved {moves}{cause}.")).format(
        player=_p(p["seat"]), moves=_moves(p["moves"]), cause=_cause(p)
    )


def _clans_removed(p, v):
    n = p.get("count", 1)
    if _you(p["seat"], v):
        text = ngettext(
            "You lost {count} clan in {the_territory}{cause}.",
            "You lost {count} clans in {the_territory}{cause}.",
            n,
        )
    else:
        text = ngettext(
            "{player} lost {count} clan in {the_territory}{cause}.",
            "{player} lost {count} clans in {the_territory}{cause}.",
            n,
        )
    return text.format(player=_p(p["seat"]), count=n, the_territory=_t(p["territory"]), cause=_cause(p))


def _deed_gained(p, v):
    n = p.get("count", 1)
    if _you(p["seat"], v):
        text = ngettext("You gained {count} Deed{cause}.", "You gained {count} Deeds{cause}.", n)
    else:
        text = ngettext("{player} gained {count} Deed{cause}.", "{player} gained {count} Deeds{cause}.", n)
    return text.format(player=_p(p["seat"]), count=n, cause=_cause(p))


def _drafted_kept(p, v):
    if "kept" in p:
        kept = _cards(p, "kept")
        return _pick((_you(p["seat"], v), _("You kept {cards}.")), _("{player} kept {cards}.")).format(
            player=_p(p["seat"]), cards=kept
        )
    return _pick((_you(p["seat"], v), _("You kept your pick.")), _("{player} kept their pick.")).format(
        player=_p(p["seat"])
    )


def _draft_passed(p, v):
    return _pick(
        (_you(p["from"], v), _("You passed {cards} to {player}.")),
        (
            _you(p["to"], v),
            _("{player} passed you {cards} face down: you pick them up once you have kept from yours."),
        ),
        _("{player} passed {cards} face down to {other_player}."),
    ).format(
        player=_p(p["to"]) if _you(p["from"], v) else _p(p["from"]), other_player=_p(p["to"]), cards=_cards(p)
    )


def _pack_taken(p, v):
    return _pick(
        (_you(p["seat"], v), _("You picked up {cards} passed by {player}.")),
        (_you(p["from"], v), _("{player} picked up {cards} passed by you.")),
        _("{player} picked up {cards} passed by {other_player}."),
    ).format(
        player=_p(p["from"]) if _you(p["seat"], v) else _p(p["seat"]),
        other_player=_p(p["from"]),
        cards=_cards(p),
    )


def _card_discarded(p, v):
    if "card" in p:
        what = _c(p["card"])
    else:
        kind = p.get("type", "action")
        what = {
            "action": _("an Action card"),
            "advantage": _("an Advantage card"),
            "epic": _("an Epic card"),
        }.get(kind, _("an {kind} card").format(kind=kind.capitalize()))
    return _pick(
        (_you(p["seat"], v), _("You discarded {card}{cause}.")), _("{player} discarded {card}{cause}.")
    ).format(player=_p(p["seat"]), card=what, cause=_cause(p))


def hidden_discards_line(payload: dict, count: int) -> str:
    """One line for `count` (2 or more) face-down discards of one kind, by one seat, for one
    cause, one after another (`payload`: the first `CardDiscarded` as redacted for a reader
    who may not see the cards): "Bob (blue) discarded 3 Action cards (end of the Season)."
    rather than the same line `count` times."""
    kind = payload.get("type", "action")
    if kind == "advantage":
        text = ngettext(
            "{player} discarded {count} Advantage card{cause}.",
            "{player} discarded {count} Advantage cards{cause}.",
            count,
        )
    else:
        text = ngettext(
            "{player} discarded {count} Action card{cause}.",
            "{player} discarded {count} Action cards{cause}.",
            count,
        )
    return sentence(joined(text.format(player=_p(payload.get("seat")), count=count, cause=_cause(payload))))


def _card_cancelled(p, v):
    cause = _word(CAUSE_WORDS, p["cause"]) if "cause" in p else _("Triskel card")
    return _pick(
        (_you(p["by"], v), _("Your {cause} cancelled {player}'s {card}.")),
        (_you(p["seat"], v), _("{player}'s {cause} cancelled your {card}.")),
        _("{player}'s {cause} cancelled {other_player}'s {card}."),
    ).format(
        player=_p(p["seat"]) if _you(p["by"], v) else _p(p["by"]),
        other_player=_p(p["seat"]),
        cause=cause,
        card=_c(p["card"]),
    )


def _card_given(p, v):
    card = _c(p["card"]) if "card" in p else _("a card")
    return _pick(
        (_you(p["from"], v), _("You gave {card} to {player}{cause}.")),
        (_you(p["to"], v), _("{player} gave you {card}{cause}.")),
        _("{player} gave {card} to {other_player}{cause}."),
    ).format(
        player=_p(p["to"]) if _you(p["from"], v) else _p(p["from"]),
        other_player=_p(p["to"]),
        card=card,
        cause=_cause(p),
    )


def _hand_revealed(p, v):
    cards = _(": {cards}").format(cards=_cards(p)) if "cards" in p else ""
    return _pick(
        (_you(p["seat"], v), _("You showed your hand to {player}{cards}.")),
        (_you(p["to"], v), _("{player} showed you their hand{cards}.")),
        _("{player} showed their hand to {other_player}{cards}."),
    ).format(
        player=_p(p["to"]) if _you(p["seat"], v) else _p(p["seat"]), other_player=_p(p["to"]), cards=cards
    )


def _epic_drawn(p, v):
    if "card" in p:
        return _pick(
            (_you(p["seat"], v), _("You drew the Epic Tale {card}.")),
            _("{player} drew the Epic Tale {card}."),
        ).format(player=_p(p["seat"]), card=_c(p["card"]))
    return _pick((_you(p["seat"], v), _("You drew an Epic Tale.")), _("{player} drew an Epic Tale.")).format(
        player=_p(p["seat"])
    )


def _set_aside_taken(p, v):
    if "seat" not in p:
        return _("A player took the set-aside Action card{cause}.").format(cause=_cause(p))
    return _pick(
        (_you(p["seat"], v), _("You took the set-aside Action card{cause}.")),
        _("{player} took the set-aside Action card{cause}."),
    ).format(player=_p(p["seat"]), cause=_cause(p))


def _building_placed(p, v):
    building = p["building"]
    if building == "sanctuary":
        return _("A Sanctuary was built in {the_territory}.").format(the_territory=_t(p["territory"]))
    if building == "citadel":
        return _("A Citadel was built in {the_territory}.").format(the_territory=_t(p["territory"]))
    return _("A {building} was built in {the_territory}.").format(
        building=building.capitalize(), the_territory=_t(p["territory"])
    )


def _citadels_ended(p, v):
    if p.get("sheltered"):
        sheltered = ", ".join(colour_clans(n, s) for s, n in p["sheltered"].items())
        return _("The Citadels step in {the_territory} ended: {sheltered} in the Citadels.").format(
            the_territory=_t(p["territory"]), sheltered=sheltered
        )
    return _("The Citadels step in {the_territory} ended.").format(the_territory=_t(p["territory"]))


def _attack_declared(p, v):
    return _pick(
        (_you(p["seat"], v), _("You attacked {player} in {the_territory}.")),
        (_you(p["target"], v), _("{player} attacked you in {the_territory}.")),
        _("{player} attacked {other_player} in {the_territory}."),
    ).format(
        player=_p(p["target"]) if _you(p["seat"], v) else _p(p["seat"]),
        other_player=_p(p["target"]),
        the_territory=_t(p["territory"]),
    )


def _attack_choice(p, v):
    you = _you(p["seat"], v)
    if p["choice"] == "remove":
        text = _pick(
            (you, _("You chose that the attacked player loses 1 exposed clan.")),
            _("{player} chose that the attacked player loses 1 exposed clan."),
        )
    else:
        text = _pick(
            (you, _("You chose that the attacked player discards an Action card.")),
            _("{player} chose that the attacked player discards an Action card."),
        )
    return text.format(player=_p(p["seat"]))


def _attack_answered(p, v):
    you = _you(p["seat"], v)
    if p["choice"] == "remove":
        text = _pick(
            (you, _("You answered the attack: removed a clan.")),
            _("{player} answered the attack: removed a clan."),
        )
    elif p["choice"] != "discard":  # "ignored (Hills)": the Hills card
        text = _pick(
            (you, _("The attack had no effect on you (Hills).")),
            _("The attack had no effect on {player} (Hills)."),
        )
    else:
        text = _pick(
            (you, _("You answered the attack: discarded an Action card.")),
            _("{player} answered the attack: discarded an Action card."),
        )
    return text.format(player=_p(p["seat"]))


def _peace_voted(p, v):
    you = _you(p["seat"], v)
    if p["agree"]:
        text = _pick((you, _("You agreed to end the clash.")), _("{player} agreed to end the clash."))
    else:
        text = _pick((you, _("You refused to end the clash.")), _("{player} refused to end the clash."))
    return text.format(player=_p(p["seat"]))


def _policy_set(p, v):
    you = _you(p["seat"], v)
    if "policy" not in p:
        return _pick(
            (you, _("You set a standing Triskel policy.")), _("{player} set a standing Triskel policy.")
        ).format(player=_p(p["seat"]))
    what = _("all cards") if p.get("card") == "all" else _c(p.get("card"))
    return _pick(
        (you, _("You set a standing Triskel policy: {policy} for {cards}.")),
        _("{player} set a standing Triskel policy: {policy} for {cards}."),
    ).format(player=_p(p["seat"]), policy=_word(POLICY_WORDS, p["policy"]), cards=what)


def _answer(p) -> str:
    play = p.get("play")
    return _c(play["card"]) if isinstance(play, dict) and play.get("card") else _("declined")


def _reaction_answered(p, v):
    you = _you(p["seat"], v)
    if "play" in p:
        return _pick(
            (you, _("You answered a Triskel window: {answer}.")),
            _("{player} answered a Triskel window: {answer}."),
        ).format(player=_p(p["seat"]), answer=_answer(p))
    return _pick((you, _("You answered a Triskel window.")), _("{player} answered a Triskel window.")).format(
        player=_p(p["seat"])
    )


def _reaction_answered_privately(p, v):
    if "seat" not in p:
        return _("A Triskel window was answered.")
    return _pick(
        (_you(p["seat"], v), _("You answered a Triskel window: {answer}.")),
        _("{player} answered a Triskel window: {answer}."),
    ).format(player=_p(p["seat"]), answer=_answer(p))


def _reactions_revealed(p, v):
    plays = [
        _pick((_you(play.get("seat"), v), _("you play {card}")), _("{player} plays {card}")).format(
            player=_p(play["seat"]) if play.get("seat") else "?", card=_c(play.get("card"))
        )
        for play in p.get("plays", [])
        if isinstance(play, dict)
    ]
    return _("Triskel answers revealed: {plays}.").format(plays=", ".join(plays) or _("nobody reacted"))


def _victory_checked(p, v):
    if p.get("winner"):
        return _pick(
            (_you(p["winner"], v), _("Victory checked: you win.")), _("Victory checked: {player} wins.")
        ).format(player=_p(p["winner"]))
    return _("Victory checked: no High King yet.")


def _step_started(p, v):
    kind = p["frame"].get("kind", "?") if isinstance(p.get("frame"), dict) else "?"
    return _("Step started: {kind}.").format(kind=_word(PROCEDURE_WORDS, kind))


TEXTS = {
    "GameStarted": _game_started,
    "PositionDescribed": lambda p, v: _("The game started from a described position."),
    "TileStackFormed": lambda p, v: ngettext(
        "The territory tiles were shuffled into a stack ({count} tile).",
        "The territory tiles were shuffled into a stack ({count} tiles).",
        _count(p, "tiles"),
    ).format(count=_count(p, "tiles")),
    "ActionDeckShuffled": lambda p, v: ngettext(
        "The Action deck was shuffled ({count} card).",
        "The Action deck was shuffled ({count} cards).",
        _count(p, "cards"),
    ).format(count=_count(p, "cards")),
    "EpicDeckShuffled": lambda p, v: ngettext(
        "The Epic Tale deck was shuffled ({count} card).",
        "The Epic Tale deck was shuffled ({count} cards).",
        _count(p, "cards"),
    ).format(count=_count(p, "cards")),
    "ActionCardSetAside": lambda p, v: (
        _("An Action card was set aside face down: {card}.").format(card=_c(p["card"]))
        if "card" in p
        else _("An Action card was set aside face down.")
    ),
    # Where the tile lies is the island's to show: its cell is no words for a player.
    "TerritoryPlaced": lambda p, v: _("A territory joined the island: {the_territory}{cause}.").format(
        the_territory=_t(p["territory"]), cause=_cause(p)
    ),
    "CapitalChosen": lambda p, v: _("The Brenn chose {the_territory} as the Capital.").format(
        the_territory=_t(p["territory"])
    ),
    "BrennAssigned": lambda p, v: _pick(
        (_you(p["seat"], v), _("You are the Brenn ({reason}).")), _("{player} is the Brenn ({reason}).")
    ).format(player=_p(p["seat"]), reason=_reason(p.get("reason", ""))),
    "FlockTossed": lambda p, v: _("The Flock of Crows was tossed: {side}.").format(
        side=_word(FLOCK_WORDS, p["side"])
    ),
    "ClansPlaced": lambda p, v: _pick(
        (_you(p["seat"], v), _("You placed {placements}{cause}.")), _("{player} placed {placements}{cause}.")
    ).format(player=_p(p["seat"]), placements=_placements(p["placements"]), cause=_cause(p)),
    "ClansMoved": _clans_moved,
    "ClansRemoved": _clans_removed,
    "RoundStarted": lambda p, v: _("Round {round} began.").format(round=p["round"]),
    "DraftStarted": lambda p, v: _("The Assembly's draft began."),
    "ActionCardsDealt": lambda p, v: _pick(
        (_you(p["seat"], v), _("You were dealt {cards}.")), _("{player} was dealt {cards}.")
    ).format(player=_p(p["seat"]), cards=_cards(p)),
    "DraftCardsKept": _drafted_kept,
    "DraftCardsPassed": _draft_passed,
    "DraftPackTaken": _pack_taken,
    "DraftBlockCompleted": lambda p, v: _pick(
        (_you(p["seat"], v), _("You completed a draft hand ({cards}).")),
        _("{player} completed a draft hand ({cards})."),
    ).format(player=_p(p["seat"]), cards=_cards(p)),
    "DraftEnded": lambda p, v: _("The draft ended."),
    "AdvantageCardTaken": lambda p, v: _pick(
        (_you(p["seat"], v), _("You took the Advantage card {card}{cause}.")),
        _("{player} took the Advantage card {card}{cause}."),
    ).format(player=_p(p["seat"]), card=_c(p["card"]), cause=_cause(p)),
    "AdvantageCardReturned": lambda p, v: _("The Advantage card {card} went back face up{cause}.").format(
        card=_c(p["card"]), cause=_cause(p)
    ),
    "SeasonStarted": lambda p, v: _("The Season of round {round} began.").format(round=p["round"]),
    "SeasonEnded": lambda p, v: _("The Season of round {round} ended.").format(round=p["round"]),
    # "began": a line of the story, not "Your turn." the page says of the turn now.
    "TurnStarted": lambda p, v: _pick(
        (_you(p["seat"], v), _("Your turn began.")), _("{player}'s turn began.")
    ).format(player=_p(p["seat"])),
    # A take-back (docs/rulings.md, "Taking back a move"): the events it undoes stay in the log.
    "MoveTakenBack": lambda p, v: _pick(
        (_you(p["seat"], v), _("You took back your last move (events {first}–{last}).")),
        _("{player} took back their last move (events {first}–{last})."),
    ).format(player=_p(p["seat"]), first=p["first"], last=p["last"]),
    "Passed": lambda p, v: _pick((_you(p["seat"], v), _("You passed.")), _("{player} passed.")).format(
        player=_p(p["seat"])
    ),
    "PretenderTaken": lambda p, v: _pick(
        (_you(p["seat"], v), _("You took a Pretender token.")), _("{player} took a Pretender token.")
    ).format(player=_p(p["seat"])),
    "PretendersReturned": lambda p, v: _("The Pretender tokens were returned."),
    "CardPlayed": _played,
    "CardSecretDeclared": lambda p, v: _pick(
        (_you(p["seat"], v), _("You declared {card}{secret}.")), _("{player} declared {card}{secret}.")
    ).format(
        player=_p(p["seat"]),
        card=_c(p.get("card")),
        secret=_(" (secretly: {args})").format(args=_secret_args(p["args"])) if p.get("args") else "",
    ),
    "CardDiscarded": _card_discarded,
    "CardCancelled": _card_cancelled,
    "CardGiven": _card_given,
    "CardPutInFront": lambda p, v: _pick(
        (_you(p["seat"], v), _("You put {card} face up in front of you.")),
        _("{player} put {card} face up in front of them."),
    ).format(player=_p(p["seat"]), card=_c(p["card"])),
    "CardReturnedToHand": lambda p, v: _pick(
        (_you(p["seat"], v), _("{card} went back to your hand{cause}.")),
        _("{card} went back to {player}'s hand{cause}."),
    ).format(player=_p(p["seat"]), card=_c(p["card"]), cause=_cause(p)),
    "CardTakenFromDiscard": lambda p, v: _pick(
        (_you(p["seat"], v), _("You took {card} from the discard pile.")),
        _("{player} took {card} from the discard pile."),
    ).format(player=_p(p["seat"]), card=_c(p["card"]) if "card" in p else _("a card")),
    "SetAsideCardTaken": _set_aside_taken,
    "EpicTaleDrawn": _epic_drawn,
    "EpicTaleRevealed": lambda p, v: _pick(
        (_you(p["seat"], v), _("You revealed the Epic Tale {card}{cause}.")),
        _("{player} revealed the Epic Tale {card}{cause}."),
    ).format(player=_p(p["seat"]), card=_c(p["card"]), cause=_cause(p)),
    "DrawnCardsNoted": lambda p, v: _("Cards drawn noted ({cards}).").format(cards=_cards(p)),
    "HandRevealed": _hand_revealed,
    "TerritoryTilesDrawn": _tiles_drawn,
    "TerritoryTilesReturned": _tiles_returned,
    "BuildingPlaced": _building_placed,
    "FestivalPlaced": lambda p, v: _("The Festival is in {the_territory}.").format(
        the_territory=_t(p["territory"])
    ),
    "FestivalRemoved": lambda p, v: _("The Festival left {the_territory}.").format(
        the_territory=_t(p["territory"])
    ),
    "ClashInitiated": lambda p, v: _pick(
        (_you(p["seat"], v), _("You started a clash in {the_territory}{cause}.")),
        _("{player} started a clash in {the_territory}{cause}."),
    ).format(player=_p(p["seat"]), the_territory=_t(p["territory"]), cause=_cause(p)),
    "ClashStarted": lambda p, v: _pick(
        (_you(p["instigator"], v), _("Clash in {the_territory}; you are the instigator.")),
        _("Clash in {the_territory}; {player} is the instigator."),
    ).format(player=_p(p["instigator"]), the_territory=_t(p["territory"])),
    "ClashLapsed": lambda p, v: _(
        "The clash in {the_territory} did not happen (no opposing clans left)."
    ).format(the_territory=_t(p["territory"])),
    "ClashEnded": lambda p, v: _("The clash in {the_territory} ended: {reason}.").format(
        the_territory=_t(p["territory"]), reason=_reason(p.get("reason", ""))
    ),
    "ClanSheltered": lambda p, v: _pick(
        (_you(p["seat"], v), _("You sheltered 1 clan in a Citadel of {the_territory}.")),
        _("{player} sheltered 1 clan in a Citadel of {the_territory}."),
    ).format(player=_p(p["seat"]), the_territory=_t(p["territory"])),
    "CitadelDeclined": lambda p, v: _pick(
        (_you(p["seat"], v), _("You sheltered no clan in {the_territory}.")),
        _("{player} sheltered no clan in {the_territory}."),
    ).format(player=_p(p["seat"]), the_territory=_t(p["territory"])),
    "CitadelsStepEnded": _citadels_ended,
    "ManeuverPerformed": lambda p, v: _pick(
        (_you(p["seat"], v), _("You performed a maneuver ({maneuver}) in {the_territory}.")),
        _("{player} performed a maneuver ({maneuver}) in {the_territory}."),
    ).format(
        player=_p(p["seat"]), maneuver=_word(MANEUVER_WORDS, p["maneuver"]), the_territory=_t(p["territory"])
    ),
    "AttackDeclared": _attack_declared,
    "AttackChoiceMade": _attack_choice,
    "AttackAnswered": _attack_answered,
    "Withdrew": lambda p, v: _pick(
        (_you(p["seat"], v), _("You withdrew from {the_territory}.")),
        _("{player} withdrew from {the_territory}."),
    ).format(player=_p(p["seat"]), the_territory=_t(p["territory"])),
    "PeaceProposed": lambda p, v: _pick(
        (_you(p["seat"], v), _("You proposed to end the clash in {the_territory}.")),
        _("{player} proposed to end the clash in {the_territory}."),
    ).format(player=_p(p["seat"]), the_territory=_t(p["territory"])),
    "PeaceVoted": _peace_voted,
    # Who refused is told by their vote (PeaceVoted) just before: this line tells what follows.
    "PeaceRefused": lambda p, v: _("No agreement: the clash in {the_territory} goes on.").format(
        the_territory=_t(p["territory"])
    ),
    "InstigatorChanged": lambda p, v: _pick(
        (_you(p["seat"], v), _("You are now the instigator in {the_territory}{cause}.")),
        _("{player} is now the instigator in {the_territory}{cause}."),
    ).format(player=_p(p["seat"]), the_territory=_t(p["territory"]), cause=_cause(p)),
    "ClanSpared": lambda p, v: _pick(
        (_you(p["seat"], v), _("Your clan in {the_territory} was spared{cause}.")),
        _("{player}'s clan in {the_territory} was spared{cause}."),
    ).format(player=_p(p["seat"]), the_territory=_t(p["territory"]), cause=_cause(p)),
    "MountainsTollPaid": lambda p, v: _pick(
        (_you(p["seat"], v), _("You paid the Mountains' toll: {paid}.")),
        _("{player} paid the Mountains' toll: {paid}."),
    ).format(player=_p(p["seat"]), paid=_word(TOLL_WORDS, p.get("paid", ""))),
    "GatesOpened": lambda p, v: _pick(
        (_you(p["seat"], v), _("The Gates of Tír na nÓg opened for you.")),
        _("The Gates of Tír na nÓg opened for {player}."),
    ).format(player=_p(p["seat"])),
    "CauldronSet": lambda p, v: _pick(
        (_you(p["seat"], v), _("You set the Dagda's Cauldron.")), _("{player} set the Dagda's Cauldron.")
    ).format(player=_p(p["seat"])),
    "CauldronEmptied": lambda p, v: _pick(
        (_you(p["seat"], v), _("The Dagda's Cauldron gave you clans back in {the_territory}.")),
        _("The Dagda's Cauldron gave {player} clans back in {the_territory}."),
    ).format(player=_p(p["seat"]), the_territory=_t(p["territory"])),
    "DeedGained": _deed_gained,
    "DeedDiscarded": lambda p, v: _pick(
        (_you(p["seat"], v), _("You discarded a Deed{cause}.")), _("{player} discarded a Deed{cause}.")
    ).format(player=_p(p["seat"]), cause=_cause(p)),
    "PolicySet": _policy_set,
    "ReactionAnswered": _reaction_answered,
    # A window that asks only who can answer: who was asked and who answered are hidden.
    "ReactionsAsked": lambda p, v: _("The table waits for possible Triskel reactions."),
    "ReactionAnsweredPrivately": _reaction_answered_privately,
    "ReactionsRevealed": _reactions_revealed,
    "ReactionLapsed": lambda p, v: _pick(
        (_you(p["seat"], v), _("Your {card} lapsed ({reason}).")), _("{player}'s {card} lapsed ({reason}).")
    ).format(player=_p(p["seat"]), card=_c(p.get("card")), reason=_reason(p.get("reason", ""))),
    "VictoryChecked": _victory_checked,
    "GameWon": lambda p, v: _pick(
        (_you(p["seat"], v), _("You are elected High King.")), _("{player} is elected High King.")
    ).format(player=_p(p["seat"])),
    "ProcedureStarted": _step_started,
    "ProcedureAdvanced": lambda p, v: _("Step advanced."),
    "ProcedureEnded": lambda p, v: _("Step ended: {kind}.").format(
        kind=_word(PROCEDURE_WORDS, p.get("kind", "?"))
    ),
}


def sentence(line: str) -> str:
    """`line` as a sentence begins: its first letter a capital ("Blue passed.", "Bleu a passé.",
    not "blue passed."), a colour inside it kept in lower case ("Ann (blue) attacked green"). A
    line that begins with a player's own name (`rules.players_named`) is left as the player wrote
    the name. Every line of the story goes through it (`describe_event`), and so does a line the
    channels write about a seat themselves (`notifications.happenings`)."""
    if not line or not line[0].islower():
        return line
    if any(line.startswith(named) for c in COLOURS if (named := joined(player_name(c))) != colour_name(c)):
        return line
    return line[0].upper() + line[1:]


# The lines that name other events by their numbers ("events 173–174": the history page shows
# each event's number), said in words for a reader who sees no numbers (`numbered=False`: an
# email, a table's chat).
UNNUMBERED = {
    "MoveTakenBack": lambda p, v: _pick(
        (_you(p["seat"], v), _("You took back your last move.")), _("{player} took back their last move.")
    ).format(player=_p(p["seat"])),
}


def describe_event(
    event_type: str, payload: dict, viewer: str | None = None, *, numbered: bool = True
) -> str:
    """One line for an event of `event_type` with `payload` as the viewer sees it, in the active
    language; in French, told to `viewer` (a seat colour: "Vous avez passé."; None: nobody).
    `numbered`: whether the reader sees the events' numbers (the history page's "#174"); when
    not, a line says in words what it would say by number (`UNNUMBERED`: "Blue took back their
    last move.", not "(events 173–174)").

    Never raises: an event this module cannot word shows as its type and public keys.
    """
    text = (None if numbered else UNNUMBERED.get(event_type)) or TEXTS.get(event_type)
    if text is not None:
        try:
            return sentence(joined(text(payload, viewer)))
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            pass
    keys = ", ".join(
        f"{k}: {v}" for k, v in payload.items() if k != "redacted" and not isinstance(v, (dict, list))
    )
    if payload.get("redacted") and not keys:
        return _("{event} (hidden from you).").format(event=event_type)
    return f"{event_type}" + (f" ({keys})" if keys else "")
