"""Triskel reaction windows: the general mechanism for cards played in response to an action.

A window opens at the moment a trigger occurs (an Action card declared, a maneuver performed...).
Who is asked depends on the game's `reactions` option (docs/rules-api.md, docs/rulings.md):

- "public" (the default, and every game started before the option existed): every seat that
  *could* hold a suitable card on public facts (for an Action card: anyone holding an Action
  card; for an Advantage card: its holder, since Advantage cards are public). Who was asked is
  public, since it follows from public facts.
- "holders": only the seats that hold a card able to answer now. Who was asked then follows
  from the hands, so it is hidden like a hand: the window starts with nobody named and a
  server-only `ReactionsAsked` event names the asked seats; answers are `ReactionAnsweredPrivately`
  events that name nobody to the others; `pending_for` shows the other seats one anonymous
  "waiting for possible Triskel reactions" entry. A window nobody can answer never opens.

Each asked seat answers privately (a card or "decline"), or its standing policy answers for it.
Plays then resolve active player first, then in Flock of Crows order (the Seasons of Inis
rulebook, Timing clarifications: the active player first). From rules revision 2, a seat whose
card was played is then asked again in the same window while it holds another card that can
answer the same trigger (the rulebook: "One or more Triskel cards can be played in response to
the same action"; docs/rulings.md, "Several Triskel cards for one trigger"): a round of answers,
on the same rule of who is asked, until nobody who played can play again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal

from .card_effects import declare, describe_args
from .catalog import ADVANTAGE, CARDS, EPIC, card_name
from .clash_steps import answered_in_step, later_window, step_of
from .command_types import CommandFields
from .engine import Context, Decision, Procedure, detach, evolver, global_command, procedure
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import (
    PolicySet,
    ReactionAnswered,
    ReactionAnsweredPrivately,
    ReactionLapsed,
    ReactionsAsked,
    ReactionsRevealed,
)
from .frames import ClashFrame, FoldedManeuver, Frame, StepAnswer, WindowFrame, WindowTrigger
from .language import _, gettext_noop, pgettext, player_name
from .revisions import revision
from .state import GameState, current_clash


class _LazyClash:
    """games/rules/clash.py, imported when first used: the clash opens Triskel windows, so it
    imports this module, and a window folded into a maneuver reads the clash back."""

    def __getattr__(self, name: str) -> Any:
        from . import clash

        return getattr(clash, name)


_clash = _LazyClash()

# What happened, as a Triskel prompt says it ("Triskel: {actor} has declared {card}. ...").
TRIGGER_TEXT = {
    "card_declared": gettext_noop("{actor} has declared {card}"),
    "action_resolved": gettext_noop("{actor}'s {card} has been resolved"),
    "after_epic_played": gettext_noop("you have played {card}"),
    "after_season_card": gettext_noop("you have played the Season card {card}"),
    "after_maneuver": gettext_noop("{actor} has performed a maneuver in the clash"),
    "attack_declared": gettext_noop("{actor} attacks in the clash"),
    "turn_ended": gettext_noop("{actor}'s turn has ended"),
    "clash_started": gettext_noop("a clash starts"),
    "citadels_ended": gettext_noop("the Citadels step has ended"),
    "resolution_started": gettext_noop("the Resolution step of the clash begins"),
    "assembly_started": gettext_noop("the Assembly begins"),
    "clan_removed": gettext_noop("{actor}'s clan is about to be removed"),
    "epic_drawn": gettext_noop("you are drawing Epic Tale cards"),
    "gates_effect": gettext_noop("the Gates of Tír na nÓg take their toll on you"),
}
# The same, said to the player whose act opened the window ("Triskel: your clan is about to be
# removed", not "green's clan"): each prompt speaks to its reader.
YOUR_TRIGGER_TEXT = {
    "card_declared": gettext_noop("you have declared {card}"),
    "action_resolved": gettext_noop("your {card} has been resolved"),
    "after_maneuver": gettext_noop("you have performed a maneuver in the clash"),
    "attack_declared": gettext_noop("you attack in the clash"),
    "turn_ended": gettext_noop("your turn has ended"),
    "clan_removed": gettext_noop("your clan is about to be removed"),
}

WindowTest = Callable[[GameState, WindowTrigger, str], bool]
"""`fn(state, window, seat)`: whether a Triskel window asks `seat` (public facts only)."""
WindowOptions = Callable[[GameState, WindowTrigger, str], list[CommandFields]]
"""`fn(state, window, seat)`: the legal arguments of a Triskel answer for `seat`."""

TRISKELS: dict[str, list[TriskelResponse]] = {}


@dataclass(frozen=True)
class TriskelResponse:
    """A card's Triskel half answering `trigger`.

    offer(state, window, seat) -> bool: whether to ask `seat`, on public facts only.
    options(state, window, seat) -> list[dict]: the legal arguments when `seat` holds the card.
    """

    card: str
    trigger: str
    offer: WindowTest
    options: WindowOptions


def triskel(card: str, trigger: str, offer: WindowTest, options: WindowOptions) -> None:
    """Register a Triskel response."""
    TRISKELS.setdefault(trigger, []).append(TriskelResponse(card, trigger, offer, options))


def policy_allows(state: GameState, seat: str, card: str) -> bool:
    """False when `seat` has told us never to ask about `card` (or about any Triskel)."""
    policy = state.policies.get(seat, {})
    return policy.get(card, policy.get("all", "ask")) != "never"


def triskels_forbidden(state: GameState) -> bool:
    """True inside a clash where Lug's Spear was played: no Triskel card may be played."""
    return any(f["kind"] == "clash" and f.get("spear") for f in state.stack)


def holds_epic(state: GameState, seat: str) -> bool:
    """Public fact: `seat` holds at least one Epic Tale (so may hold any given one)."""
    return any(CARDS[c].type == EPIC for c in state.hands.get(seat, []))


def holds_action(state: GameState, seat: str) -> bool:
    """Public fact: `seat` holds at least one Action card."""
    return bool(state.action_cards(seat))


def holds(state: GameState, seat: str, card: str) -> bool:
    """For an Advantage card (public): whether `seat` holds it."""
    return card in state.hands.get(seat, [])


def card_in_use(state: GameState, card: str) -> bool:
    """False for the 4-player Action cards in a game of 2 or 3 (rulebook, Setup): nobody can
    hold them, so nobody is asked about them."""
    return not (CARDS[card].four_player_only and len(state.seats) < 4)


REACTION_ASKING = ("public", "holders")


def asks_holders_only(state: GameState) -> bool:
    """True when the game's windows ask only the seats holding a card that can answer now
    (the rules option `reactions: "holders"`); who was asked is then hidden information."""
    return bool(state.options.get("reactions", "public") == "holders")


def can_answer(state: GameState, window: WindowTrigger, seat: str, response: TriskelResponse) -> bool:
    """Whether `seat` holds `response`'s card and has at least one legal way to play it now."""
    return (
        response.card in state.hands.get(seat, [])
        and response.offer(state, window, seat)
        and bool(response.options(state, window, seat))
    )


@dataclass
class WindowProbe:
    """What `watching_windows` noted: whether a Triskel window could have opened, as `viewer`
    sees the table (`could_open`), at any trigger met while it watched."""

    viewer: str
    could_open: bool = False


_PROBE: ContextVar[WindowProbe | None] = ContextVar("triskel_window_probe", default=None)


@contextmanager
def watching_windows(viewer: str) -> Iterator[WindowProbe]:
    """Note, while the block runs (a `decide`), whether any trigger met could have opened a
    Triskel window that asks only holders, on what `viewer` may see (`could_open_seen_by`).

    A take-back is judged with it (docs/rulings.md, "Taking back a move"): whether such a window
    opened depends on the other hands, so the take-back is refused whenever one could have."""
    token = _PROBE.set(WindowProbe(viewer))
    try:
        probe = _PROBE.get()
        assert probe is not None  # set just above
        yield probe
    finally:
        _PROBE.reset(token)


def possibly_held(state: GameState, viewer: str, seat: str, card: str) -> bool:
    """Whether `viewer` cannot rule out that `seat` holds `card` (rulebook, Cards: hands are
    secret, but their size and card types are public; Advantage cards are public).

    The viewer knows its own hand; another seat may hold an Action card or Epic Tale when it
    holds a card of that type and the card is not where the viewer sees it (in the viewer's hand,
    in play, face up in front of a player or on the Epic Tale discard pile)."""
    hand = state.hands.get(seat, [])
    if seat == viewer or CARDS[card].type == ADVANTAGE:
        return card in hand
    if not any(CARDS[c].type == CARDS[card].type for c in hand):
        return False
    seen = set(state.hands.get(viewer, [])) | set(state.in_front) | set(state.epic_discard)
    return card not in seen and not any(card in frame.values() for frame in state.stack)


def could_open_seen_by(
    state: GameState, window: WindowTrigger, responses: list[TriskelResponse], viewer: str
) -> bool:
    """Whether a window that asks only holders could open for `window`, as `viewer` sees it:
    the viewer itself would be asked (its own hand and policy), or another seat may hold one of
    the `responses`' cards (`possibly_held`) and the trigger is one it could answer on public
    facts (`offer`). Other seats' policies are hidden: they are taken as "ask"."""
    for seat in state.seats:
        for response in responses:
            if seat == viewer:
                if policy_allows(state, seat, response.card) and can_answer(state, window, seat, response):
                    return True
            elif possibly_held(state, viewer, seat, response.card) and response.offer(state, window, seat):
                return True
    return False


def open_window(ctx: Context, trigger: str, *, actor: str, context: dict[str, Any]) -> bool:
    """Open a reaction window for `trigger` if anyone is to be asked; True if it opened.

    Asked: see the module docstring ("public" or "holders"), in either case only seats whose
    standing policy allows the card. No window opens inside a clash under Lug's Spear, except
    the card_declared window of Lug's Spear itself (The Dagda may still cancel it).
    """
    state = ctx.state
    if triskels_forbidden(state):
        return False
    window: WindowTrigger = {"trigger": trigger, "actor": actor, "context": context}
    responses = [t for t in TRISKELS.get(trigger, []) if card_in_use(state, t.card)]
    # Seats that answered this clash step already (docs/rulings.md, "One Triskel question per
    # clash step"): not asked again; the card one of them said it would play here, if it can.
    answered = answered_in_step(state, trigger)
    ahead = {
        s: play
        for s, play in answered.items()
        if play is not None and {"type": "react", **play} in _responses(state, window, s)
    }
    if asks_holders_only(state):
        probe = _PROBE.get()
        if probe is not None and not probe.could_open:
            probe.could_open = could_open_seen_by(state, window, responses, probe.viewer)
        asked = [
            s
            for s in state.turn_order_from(actor)
            if s in ahead
            or (
                s not in answered
                and any(
                    policy_allows(state, s, t.card) and can_answer(state, window, s, t) for t in responses
                )
            )
        ]
        if not asked:
            return False
        # mypy asks the ** item for the frame's optional "maneuver", which a new window never has.
        ctx.push({"kind": "window", **window, "asked": [], "private": True, "answers": {}, "queue": None})  # type: ignore[typeddict-item]
        ctx.emit("ReactionsAsked", visibility=(), seats=asked)
        for s in asked:
            if s in ahead:
                ctx.emit("ReactionAnsweredPrivately", visibility=(s,), seat=s, play=ahead[s])
        return True
    asked = [
        s
        for s in state.turn_order_from(actor)
        if any(t.offer(state, window, s) and policy_allows(state, s, t.card) for t in responses)
    ]
    if not asked:
        return False
    for s in answered:
        # Who is asked follows from public facts here, and whether a seat answered the step
        # from its public answers: its answer given ahead (or its decline) is played unseen.
        ahead.setdefault(s, None)  # type: ignore[arg-type]
    # The window's keys named (not `**window`): mypy then knows `private` is left out.
    ctx.push(
        {
            "kind": "window",
            "trigger": trigger,
            "actor": actor,
            "context": context,
            "asked": asked,
            "answers": {},
            "queue": None,
        }
    )
    for s in asked:
        if s in ahead:
            ctx.emit("ReactionAnswered", visibility=(s,), seat=s, play=ahead[s])
    return True


def _innermost_window(state: GameState) -> WindowFrame:
    """The innermost Triskel window's frame (rulebook: Triskel; raises KeyError when none is open).
    A plain loop: this runs for every answer the fold replays."""
    frame: Frame  # declared: mypy reads `reversed` over a union of TypedDicts as Any
    for frame in reversed(state.stack):
        if frame["kind"] == "window":
            return frame
    raise KeyError("no Triskel window is open")


@evolver(ReactionsAsked)
def _reactions_asked(state: GameState, p: ReactionsAsked) -> None:
    _innermost_window(state)["asked"] = list(p["seats"])


@evolver(ReactionAnsweredPrivately)  # the same payload, another visibility
@evolver(ReactionAnswered)
def _reaction_answered(state: GameState, p: ReactionAnswered) -> None:
    stack = state.stack
    # The window is nearly always the innermost procedure: looked at first, without a loop.
    window = stack[-1] if stack and stack[-1]["kind"] == "window" else _innermost_window(state)
    play = p.get("play")
    window["answers"][p["seat"]] = play if play is None else detach(play)
    maneuver = p.get("maneuver")
    if maneuver is not None:
        # Seen only by the seat (the event's visibility): the others' copies never hold it.
        window["maneuver"] = {"seat": p["seat"], "command": detach(maneuver)}
    ahead = p.get("ahead")
    clash = current_clash(state) if ahead is not None else None
    if ahead is not None and clash is not None:
        # Seen only by the seat, like the answer: the others' copies of the clash never hold it.
        answer: StepAnswer = {
            "beat": clash.get("beat", 0),
            "covers": list(ahead["covers"]),
            "play": ahead["play"],
        }
        clash.setdefault("ahead", {})[p["seat"]] = detach(answer)


@evolver(ReactionsRevealed)
def _reactions_revealed(state: GameState, p: ReactionsRevealed) -> None:
    # From rules revision 3, Battle Frenzy played at the end of the Citadels step exposes clans
    # the answers given ahead for the start of the Resolution step could not foresee (the
    # Highlands' choice of instigator): those answers lapse, and their seats are asked then
    # (docs/rulings.md, "One Triskel question per clash step"; games/rules/revisions.py).
    if p["trigger"] != "citadels_ended" or not any(play["card"] == "ep_battle_frenzy" for play in p["plays"]):
        return
    clash = current_clash(state)
    if clash is not None and clash.get("ahead") and revision(state) >= 3:
        clash["ahead"] = {}


@evolver(ReactionLapsed)
def _reaction_lapsed(state: GameState, p: ReactionLapsed) -> None:
    pass


@evolver(PolicySet)
def _policy_set(state: GameState, p: PolicySet) -> None:
    state.policies.setdefault(p["seat"], {})[p["card"]] = p["policy"]


def _ask_again(ctx: Context, frame: WindowFrame) -> bool:
    """Once a window's plays have resolved: ask again, in the same window, each seat whose card
    was played in it, when it may still answer the same trigger (docs/rulings.md, "Several
    Triskel cards for one trigger"); True when a new round of answers began.

    From rules revision 2 (revision 1 keeps one answer per seat: its audit decides every recorded
    command again). Asked again on the window's own rule: in "holders" mode a seat holding a card
    that answers now (`can_answer`), named only in a server-only `ReactionsAsked`; in "public"
    mode a seat the trigger allows on public facts (`offer`), about the cards not yet played in
    the window (a played card is in nobody's hand: after Geis, its player is not asked about
    Geis again). A seat whose card lapsed, or that declined, is not asked again: its other
    answers lapse with its decline. The new round's context lists the cards played in the window
    (`played`), so its prompt says why it asks, and its answers cover no later moment of a clash
    step (the seat's first answer did)."""
    state = ctx.state
    if revision(state) < 2 or triskels_forbidden(state):
        return False
    window: WindowTrigger = {
        "trigger": frame["trigger"],
        "actor": frame["actor"],
        "context": frame["context"],
    }
    # A played card has left its player's hand (a lapsed one is still there).
    plays = [
        (s, answer["card"])
        for s in frame["asked"]
        if (answer := frame["answers"].get(s)) is not None and answer["card"] not in state.hands.get(s, [])
    ]
    played = [*frame["context"].get("played", []), *(card for _s, card in plays)]
    responses = [
        t for t in TRISKELS.get(frame["trigger"], []) if card_in_use(state, t.card) and t.card not in played
    ]
    private = bool(frame.get("private"))
    asked = [
        s
        for s, _card in plays
        if any(
            policy_allows(state, s, t.card)
            and (can_answer(state, window, s, t) if private else t.offer(state, window, s))
            for t in responses
        )
    ]
    if not asked:
        return False
    again = {"answers": {}, "queue": None, "context": {**frame["context"], "played": played}}
    if private:
        ctx.update(frame, **again)
        ctx.emit("ReactionsAsked", visibility=(), seats=asked)
    else:
        ctx.update(frame, asked=asked, **again)
    return True


def _clash_step(state: GameState, frame: WindowFrame) -> tuple[ClashFrame, tuple[str, ...]] | None:
    """`step_of` for the window `frame`: None in a round that asks again a seat whose card was
    played (`_ask_again`), whose first answer already covered the rest of the clash step."""
    return None if "played" in frame["context"] else step_of(state, frame["trigger"])


def _responses(state: GameState, frame: WindowTrigger, seat: str) -> list[CommandFields]:
    out: list[CommandFields] = []
    for t in TRISKELS.get(frame["trigger"], []):
        if t.card in state.hands.get(seat, []):
            out.extend({"type": "react", "card": t.card, **args} for args in t.options(state, frame, seat))
    return out


@procedure
class ReactionWindow(Procedure[WindowFrame]):
    """Collects every asked seat's answer, then plays the chosen cards in priority order; from
    rules revision 2, then asks again the seats whose card was played (`_ask_again`)."""

    kind = "window"

    def advance(self, ctx: Context, frame: WindowFrame) -> bool:
        if frame["queue"] is None:
            if len(frame["answers"]) < len(frame["asked"]):
                return False
            plays = [dict(answer, seat=s) for s in frame["asked"] if (answer := frame["answers"][s])]
            ctx.emit("ReactionsRevealed", trigger=frame["trigger"], plays=plays)
            ctx.update(frame, queue=plays)
            return True
        if not frame["queue"]:
            if _ask_again(ctx, frame):
                return True
            folded = frame.get("maneuver")
            ctx.pop(frame)
            if folded is not None:
                _play_folded(ctx, folded)
            return True
        play, rest = frame["queue"][0], frame["queue"][1:]
        ctx.update(frame, queue=rest)
        seat, card = play["seat"], play["card"]
        args = {k: v for k, v in play.items() if k not in ("seat", "card", "type")}
        legal = _responses(ctx.state, frame, seat)
        if {"type": "react", "card": card, **args} not in legal:
            ctx.emit("ReactionLapsed", seat=seat, card=card, reason="no longer possible")
            return True
        declare(
            ctx,
            seat,
            card,
            "triskel",
            {
                **args,
                "window": {"trigger": frame["trigger"], "actor": frame["actor"], "context": frame["context"]},
            },
        )
        return True

    def decisions(self, state: GameState, frame: WindowFrame) -> list[Decision]:
        if frame["queue"] is not None:
            return []
        out = []
        for s in frame["asked"]:
            if s in frame["answers"]:
                continue
            clash = folded_clash(state, frame, s)
            if clash is not None:
                out.append(_clash.folded_decision(state, clash, s, frame, _trigger_text(frame, s)))
                continue
            # notifications/wording.py reads the trigger back from this shape: "Triskel: <trigger>. Play a
            # Triskel card..." (French: "Triskel : <déclencheur>. Jouez une carte Triskel...").
            prompt = _("Triskel: {trigger}. Play a Triskel card in response, or decline.").format(
                trigger=_trigger_text(frame, s)
            )
            # Said whenever the answer covers the step's later moments, whatever the seat holds:
            # in public reaction mode everybody reads this prompt, and a sentence shown only to
            # holders of a fitting card would tell them what is in its hand.
            if "played" in frame["context"]:
                prompt += " " + _(
                    "Your Triskel card has been played: you may play another one in response "
                    "to the same moment."
                )
            elif step_of(state, frame["trigger"]) is not None:
                prompt += " " + _(
                    "You will not be asked again in this step of the clash: say now also which "
                    "card, if any, you will play later in it."
                )
            out.append(
                Decision(s, "reaction", prompt, {"trigger": frame["trigger"], "actor": frame["actor"]})
            )
        return out

    def decisions_known_to(self, state: GameState, frame: WindowFrame, seat: str | None) -> list[Decision]:
        decisions = self.decisions(state, frame)
        if not frame.get("private") or frame["queue"] is not None:
            return decisions
        # Shown while the window collects answers, whoever is still to answer: its presence
        # says only that someone was able to answer, which the wait itself shows.
        waiting = Decision(
            None,
            "reaction",
            _("Waiting for possible Triskel reactions: {trigger}.").format(trigger=_trigger_text(frame)),
            {"trigger": frame["trigger"], "actor": frame["actor"]},
        )
        return [d for d in decisions if d.seat == seat] + [waiting]

    def legal(self, state: GameState, frame: WindowFrame, seat: str) -> list[CommandFields]:
        clash = folded_clash(state, frame, seat)
        maneuvers = [] if clash is None else _clash.maneuver_options(state, clash, seat)
        answers = [{"type": "decline"}] + _responses(state, frame, seat)
        # Each answer again with a card said ahead for later in the clash step (never the card
        # played now: a card is played once).
        later = [
            {**answer, **option}
            for _trigger, option in step_ahead(state, frame, seat)
            for answer in answers
            if answer.get("card") != option["then"]
        ]
        return answers + later + maneuvers

    def handle(self, ctx: Context, frame: WindowFrame, seat: str, command: CommandFields) -> None:
        # In a "holders" window, that a seat answered shows it was asked: the event names nobody.
        answered: Literal["ReactionAnswered", "ReactionAnsweredPrivately"] = (
            "ReactionAnsweredPrivately" if frame.get("private") else "ReactionAnswered"
        )
        then = {k: v for k, v in command.items() if k.startswith("then")}
        command = {k: v for k, v in command.items() if k not in then}
        if then and command["type"] not in ("decline", "react"):
            raise IllegalCommand(_("Only a Triskel answer or a decline can say a card to play later."))
        # An answer in a clash step with later Triskel moments answers them too.
        step = _step_answer(ctx.state, frame, seat, then)
        ahead = {} if step is None else {"ahead": step}
        if command["type"] == "decline":
            ctx.emit(answered, visibility=(seat,), seat=seat, play=None, **ahead)
            return
        clash = folded_clash(ctx.state, frame, seat)
        if clash is not None and command["type"] in _clash.MANEUVER_TYPES:
            if command not in _clash.maneuver_options(ctx.state, clash, seat):
                raise IllegalCommand(
                    _(
                        "That maneuver is not possible now. Perform a maneuver, play a Triskel card, or decline."
                    )
                )
            # Giving one's maneuver declines the window; the maneuver waits for the window to close.
            ctx.emit(answered, visibility=(seat,), seat=seat, play=None, maneuver=command)
            return
        peace = _peace_under(ctx.state, frame)
        if peace is not None and command["type"] in _clash.MANEUVER_TYPES:
            raise IllegalCommand(
                _(
                    "{player} has proposed to end the clash: the vote comes before the next "
                    "maneuver. Now decline, or play a Triskel card that answers this."
                ).format(player=player_name(peace["proposer"]))
            )
        if command["type"] != "react":
            raise IllegalCommand(
                _("A Triskel window is open: decline, or play a Triskel card that answers it.")
            )
        legal = _responses(ctx.state, frame, seat)
        if command not in legal:
            if not legal:
                raise IllegalCommand(_("You hold no Triskel card that answers this; you may only decline."))
            raise IllegalCommand(
                _("That card cannot answer this. You may decline, or: {plays}.").format(
                    plays=pgettext("between the parts of a list", "; ").join(_describe(c) for c in legal)
                )
            )
        if then and then["then"] == command["card"]:
            raise IllegalCommand(_("A card is played once: say another card for later, or none."))
        play = {k: v for k, v in command.items() if k != "type"}
        ctx.emit(answered, visibility=(seat,), seat=seat, play=play, **ahead)


def asks_triskel(decision: Decision) -> bool:
    """Whether `decision` asks its seat about a Triskel window: a "reaction" decision, or a
    maneuver into which a window was folded (its context names the window: `triskel`)."""
    return decision.kind == "reaction" or "triskel" in decision.context


def folded_clash(state: GameState, frame: WindowFrame, seat: str) -> ClashFrame | None:
    """The clash just under the Triskel window `frame` when `seat`'s maneuver comes next in it
    (`clash.next_maneuver_seat`), else None. The window is then folded into that maneuver
    (docs/rulings.md, "A Triskel window folded into your maneuver"): the seat gets one decision,
    its maneuver or a Triskel card, and giving its maneuver declines the window."""
    stack = state.stack
    if frame["queue"] is not None or len(stack) < 2 or stack[-1] is not frame or stack[-2]["kind"] != "clash":
        return None
    clash = stack[-2]
    return clash if _clash.next_maneuver_seat(state, clash) == seat else None


def _peace_under(state: GameState, frame: WindowFrame) -> dict[str, Any] | None:
    """The peace proposal awaiting its vote in the clash just under the window `frame` (made
    while the window is open: docs/rulings.md, "Peace"), else None."""
    stack = state.stack
    if len(stack) < 2 or stack[-1] is not frame or stack[-2]["kind"] != "clash":
        return None
    peace: dict[str, Any] | None = stack[-2]["peace"]
    return peace


def step_ahead(state: GameState, frame: WindowFrame, seat: str) -> list[tuple[str, CommandFields]]:
    """What `seat`, answering the window `frame`, may say it will play later in the clash step:
    `(trigger, {"then": card, "then_<argument>": value...})` for each Triskel card in its hand
    (its policy allowing) that could answer a later trigger of the step (`STEP_LATER`), with the
    arguments it could choose as things stand now. [] outside a clash step."""
    step = _clash_step(state, frame)
    if step is None or frame["queue"] is not None:
        return []
    clash, later = step
    hand = state.hands.get(seat, [])
    out: list[tuple[str, CommandFields]] = []
    for trigger in later:
        window = later_window(state, clash, trigger, seat)
        for t in TRISKELS.get(trigger, []) if window is not None else []:
            assert window is not None  # the loop is empty otherwise
            if t.card not in hand or not card_in_use(state, t.card) or not policy_allows(state, seat, t.card):
                continue
            if not t.offer(state, window, seat):
                continue
            for args in t.options(state, window, seat):
                option = {"then": t.card, **{f"then_{k}": v for k, v in args.items()}}
                if all(option != o for _t, o in out):
                    out.append((trigger, option))
    return out


def _step_answer(
    state: GameState, frame: WindowFrame, seat: str, then: CommandFields
) -> dict[str, Any] | None:
    """What an answer to `frame` says for the rest of the clash step (`ReactionAnswered`'s
    `ahead`: the later triggers it covers, the card said ahead for one of them or None); None
    when the window has no later trigger in a clash step. Raises IllegalCommand when `then`
    names a card `seat` cannot say ahead now."""
    step = _clash_step(state, frame)
    if not then:
        return None if step is None else {"covers": list(step[1]), "play": None}
    found = next((t for t, option in step_ahead(state, frame, seat) if option == then), None)
    if step is None or found is None:
        raise IllegalCommand(
            _("No later moment of this clash step lets you play that card: answer this one only.")
        )
    args = {k[len("then_") :]: v for k, v in then.items() if k != "then"}
    return {"covers": list(step[1]), "play": {"trigger": found, "card": then["then"], **args}}


def _play_folded(ctx: Context, folded: FoldedManeuver) -> None:
    """After a window closed: perform the maneuver its seat gave with its answer, if the clash
    now on top still waits for that seat's maneuver and it is still legal; else nothing (the
    seat is asked for its maneuver as usual)."""
    top = ctx.state.top()
    if top is not None and top["kind"] == "clash":
        _clash.play_folded_maneuver(ctx, top, folded["seat"], folded["command"])


def _trigger_text(frame: WindowFrame, reader: str | None = None) -> str:
    """What opened the window, in words ("green has declared Geis"), in the active language;
    to `reader` when it is the player who opened it ("you have declared Geis")."""
    trigger = frame["trigger"]
    if reader is not None and reader == frame["actor"] and trigger in YOUR_TRIGGER_TEXT:
        text = _(YOUR_TRIGGER_TEXT[trigger])
    else:
        text = _(TRIGGER_TEXT[trigger]) if trigger in TRIGGER_TEXT else trigger
    return text.format(
        actor=player_name(frame["actor"]),
        card=card_name(frame["context"]["card"]) if "card" in frame["context"] else _("a card"),
    )


def _describe(command: CommandFields) -> str:
    return describe_args(command["card"], {k: v for k, v in command.items() if k not in ("type", "card")})


@global_command("set_policy")
def set_policy(ctx: Context, seat: str, command: CommandFields) -> None:
    """`{"type": "set_policy", "card": card id or "all", "policy": "ask" | "never"}`."""
    card, policy = command.get("card"), command.get("policy")
    if card != "all" and card not in CARDS:
        raise InvalidCommand(_("Unknown card {name}: name a Triskel card or all.").format(name=repr(card)))
    if policy not in ("ask", "never"):
        raise InvalidCommand(_('A policy is "ask" or "never".'))
    ctx.emit("PolicySet", visibility=(seat,), seat=seat, card=card, policy=policy)
