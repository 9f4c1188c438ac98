"""The usual moves of a decision, named only when they are legal now, and why not otherwise.

A Season turn's usual moves are to play a Season card, to pass and to take a Pretender token
(rulebook, "Season": "On their turn, a player must perform one of the following actions"); a
maneuver's are to attack, to withdraw and to end the clash — alone, or by proposing it (rulebook,
"Clash", Resolution); an attacked player discards an Action card or removes an exposed clan
(rulebook, "Attack"). A prompt that names a move the seat cannot make misleads; so
`own_prompt` names only the moves `legal_commands` offers, and `usual_moves` says why each
other usual move is not offered ("You cannot withdraw: you are chieftain of no neighbouring
territory.").

Hidden information: the reasons use public facts (the board, the clash, Pretender tokens,
victory conditions) and the seat's own hand, and are meant for that seat alone; nothing here
reads another seat's hand. The rules' own `Decision.prompt`, which other seats may read
(`pending_for`), names what public facts allow (`public_maneuvers`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine import Decision, legal_commands
from .frames import ClashFrame
from .language import _, pgettext, territory_phrase
from .state import GameState, current_clash, exposed_seats, withdraw_targets
from .victory import conditions_met


def move_words(key: str) -> str:
    """The words of usual move `key` in a prompt's list, in the active language ("withdraw";
    French "quitter le territoire"). A context of their own: "attack" the noun of the history
    is another word in French."""
    return {
        "season_card": pgettext("usual move", "play a Season card"),
        "pass": pgettext("usual move", "pass"),
        "pretender": pgettext("usual move", "take a Pretender token"),
        "attack": pgettext("usual move", "attack"),
        "withdraw": pgettext("usual move", "withdraw"),
        "end_clash": pgettext("usual move", "end the clash"),
        "propose_peace": pgettext("usual move", "propose to end the clash"),
        "discard": pgettext("usual move", "discard an Action card"),
        "remove": pgettext("usual move", "remove 1 exposed clan"),
    }[key]


# The usual moves of each decision kind that has them.
USUAL = {
    "season_turn": ("season_card", "pass", "pretender"),
    "maneuver": ("attack", "withdraw", "end_clash", "propose_peace"),
    "attack_response": ("discard", "remove"),
}


@dataclass(frozen=True)
class UsualMoves:
    """The usual moves of a seat's decision: `offered` their keys (`move_words`) that
    `legal_commands` offers now, in prompt order; `barred` (key, reason) for the others, each
    reason one sentence to the seat in the active language."""

    offered: tuple[Any, ...] = ()
    barred: tuple[Any, ...] = ()


def join_or(items: list[str]) -> str:
    """ "a", "a or b", "a, b, or c" in the active language ("a, b ou c" in French)."""
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        return _("{first} or {second}").format(first=items[0], second=items[1])
    return _("{items}, or {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _offered_keys(legal: list[Any]) -> set[Any]:
    keys = set()
    for command in legal:
        kind = command.get("type")
        if kind == "play":
            keys.add("season_card")
        elif kind in ("pass", "pretender", "attack", "withdraw", "end_clash", "propose_peace"):
            keys.add(kind)
        elif kind == "attack_response":
            keys.add("discard" if command.get("choice") == "discard" else "remove")
    return keys


def usual_moves(state: GameState, seat: str, kind: str) -> UsualMoves:
    """The usual moves of `seat`'s decision of `kind` now (see `UsualMoves`); empty for a kind
    without usual moves, or a seat with nothing to decide. Reads `legal_commands(state, seat)`,
    public facts and `seat`'s own hand."""
    usual = USUAL.get(kind)
    if not usual:
        return UsualMoves()
    keys = _offered_keys(legal_commands(state, seat))
    if not keys:
        return UsualMoves()
    if kind == "maneuver":
        # Ending the clash alone and proposing to end it are one usual move: whichever fits.
        usual = tuple(k for k in usual if k != ("propose_peace" if _alone(state, seat) else "end_clash"))
    offered = tuple(k for k in usual if k in keys)
    barred = []
    for key in usual:
        if key not in keys:
            reason = _reason(state, seat, kind, key)
            if reason:
                barred.append((key, reason))
    return UsualMoves(offered, tuple(barred))


def own_prompt(state: GameState, seat: str, decision: Decision) -> str:
    """`decision`'s prompt as its own seat reads it: for a Season turn and a maneuver, naming
    only the usual moves legal for it now (its hand included, so for that seat alone); any other
    decision's prompt as the rules give it."""
    if decision.seat != seat or decision.kind not in ("season_turn", "maneuver"):
        return decision.prompt
    if "triskel" in decision.context:
        return decision.prompt  # a Triskel window folded into the maneuver: its prompt says both
    moves = usual_moves(state, seat, decision.kind)
    if not moves.offered:
        return decision.prompt
    words = [move_words(k) for k in moves.offered]
    if decision.kind == "maneuver":
        return _("Clash in {the_territory}: perform a maneuver ({moves}).").format(
            the_territory=territory_phrase(decision.context["territory"]), moves=join_or(words)
        )
    frame = state.top()
    if frame is not None and frame.get("kind") == "season" and not frame.get("opened"):
        if "season_card" in moves.offered:
            return decision.prompt
        return _(
            "As Brenn, you would open the Season with a Season card, but you hold none "
            "that may be played: pass."
        )
    return _("Your turn in the Season: {moves}.").format(moves=join_or(words))


def public_maneuvers(state: GameState, frame: ClashFrame, seat: str | None) -> list[str]:
    """The usual maneuvers open to `seat` in the clash `frame` on public facts alone, as words
    (the rules' maneuver prompt, which every seat may read): attack when another player has
    exposed clans, withdraw when `seat` is chieftain of an adjacent territory, end the clash
    when alone exposed, else propose it when nobody did before this maneuver."""
    seats = exposed_seats(state, frame)
    keys = []
    if any(s != seat for s in seats):
        keys.append("attack")
    if withdraw_targets(state, frame, seat):
        keys.append("withdraw")
    if seats == [seat]:
        keys.append("end_clash")
    elif not frame["proposed"]:
        keys.append("propose_peace")
    return [move_words(k) for k in keys]


def _alone(state: GameState, seat: str) -> bool:

    frame = current_clash(state)
    return frame is not None and exposed_seats(state, frame) == [seat]


def _reason(state: GameState, seat: str, kind: str, key: str) -> str:
    """Why usual move `key` is not offered to `seat` now, in one sentence ("" when no reason is
    worth saying)."""
    if kind == "season_turn":
        return _season_reason(state, seat, key)
    if kind == "maneuver":
        return _maneuver_reason(state, seat, key)
    if key == "discard":
        return _("You cannot discard: you hold no Action card.")
    if key == "remove":
        clash = current_clash(state)
        attack = (clash["attack"] if clash else None) or {}
        if attack.get("remove_after"):
            return _(
                "You cannot choose to remove a clan instead: this attack makes you discard an "
                "Action card, then remove 1 exposed clan."
            )
        return _("You cannot choose to remove a clan instead: this attack makes you discard an Action card.")
    return ""


def _season_reason(state: GameState, seat: str, key: str) -> str:

    frame = state.top()
    opened = frame is None or frame.get("kind") != "season" or frame.get("opened")
    if key == "season_card":
        return _("You cannot play a Season card: you hold none that may be played now.")
    if key == "pass":
        return _("You cannot pass yet: as Brenn, you open the Season by playing a Season card.")
    if key == "pretender":
        if not opened:
            return _("You cannot take a Pretender token yet: the Brenn opens the Season first.")
        if seat in state.pretenders:
            return _("You cannot take a Pretender token: you already have one.")
        if conditions_met(state, seat) < 1:
            return _(
                "You cannot take a Pretender token: you meet no victory condition (6 "
                "territories, 6 Sanctuaries where you are present, or chieftain over 6 "
                "opposing clans; Deeds count as wild)."
            )
    return ""


def _maneuver_reason(state: GameState, seat: str, key: str) -> str:

    frame = current_clash(state)
    if frame is None:
        return ""
    if key == "attack" and exposed_seats(state, frame) == [seat]:
        return _("You cannot attack: nobody else has exposed clans in the clash.")
    if key == "withdraw" and not withdraw_targets(state, frame, seat):
        return _("You cannot withdraw: you are chieftain of no neighbouring territory.")
    if key == "propose_peace" and frame.get("proposed"):
        return _("You cannot propose to end the clash: it was already proposed before this maneuver.")
    return ""
