"""Clashes: the Citadels step, the Resolution step with its maneuvers, the end of the clash.

Rulebook, Clashes (and the clash summary 004): Festival loss before the Citadels step; Citadels
from the player after the instigator, one clan per Citadel, round after round; maneuvers from the
instigator in turn order (Attack, Withdraw, Epic Tale maneuver); peace by agreement of the
players with exposed clans before any maneuver; several clashes from one effect in the order the
instigator chooses.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeGuard

from .board import move_clans, remove_clans, territory_list
from .cards import discard_from_hand
from .catalog import COLOURS, card_name, territory_name
from .command_types import CommandFields
from .engine import PROCEDURES, Context, Decision, Procedure, evolver, global_command, pending, procedure
from .epic_maneuvers import epic_maneuver_options, play_epic_maneuver
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import (
    AttackAnswered,
    AttackChoiceMade,
    AttackDeclared,
    CauldronEmptied,
    CitadelDeclined,
    CitadelsStepEnded,
    ClanSheltered,
    ClashEnded,
    ClashStarted,
    ManeuverPerformed,
    PeaceProposed,
    PeaceRefused,
    PeaceVoted,
    Withdrew,
)
from .frames import ClashesFrame, ClashFrame, Frame, WindowFrame
from .language import _, listed, player_name, territory_phrase
from .moves import splits
from .reactions import folded_clash, open_window
from .state import GameState, current_clash, exposed, exposed_seats, withdraw_targets
from .usual_moves import join_or, public_maneuvers


def two_sides(state: GameState, instigator: str, tid: str) -> bool:
    """Whether a clash in `tid` has two sides: the instigator and an opponent are present."""
    clans = state.territories[tid]["clans"]
    return clans.get(instigator, 0) > 0 and any(n > 0 and s != instigator for s, n in clans.items())


def start_clashes(ctx: Context, instigator: str, tids: Iterable[str]) -> None:
    """Start the clashes caused by `instigator` moving into `tids` (where opponents are present)."""
    state = ctx.state
    waiting = [t for t in dict.fromkeys(tids) if two_sides(state, instigator, t)]
    if waiting:
        # A Mountains toll or a removal started by the same move resolves first: the clashes
        # go beneath it on the stack.
        stack = state.stack
        at = len(stack)
        while at > 0 and stack[at - 1]["kind"] in ("mountains_toll", "removal"):
            at -= 1
        ctx.emit(
            "ProcedureStarted", frame={"kind": "clashes", "instigator": instigator, "waiting": waiting}, at=at
        )


@evolver(ClashStarted)
def _clash_started(state: GameState, p: ClashStarted) -> None:
    pass


@evolver(ClanSheltered)
def _clan_sheltered(state: GameState, p: ClanSheltered) -> None:
    frame = current_clash(state)
    assert frame is not None  # a clan is sheltered in a clash
    frame["sheltered"][p["seat"]] = frame["sheltered"].get(p["seat"], 0) + 1


@evolver(ClashEnded)
def _clash_ended(state: GameState, p: ClashEnded) -> None:
    pass


@evolver(CauldronEmptied)
def _cauldron_emptied(state: GameState, p: CauldronEmptied) -> None:
    seat, tid = p["seat"], p["territory"]
    clans = state.territories[tid]["clans"]
    if p["back"]:
        clans[seat] = clans.get(seat, 0) + p["back"]
    state.reserve[seat] += p["to_reserve"]
    clash = current_clash(state)
    assert clash is not None  # the Cauldron empties in a clash
    clash["cauldron"].pop(seat)


# Facts of the clash's steps the state does not keep (the log and the story tell them).
for _payload in (
    CitadelDeclined,
    CitadelsStepEnded,
    AttackDeclared,
    AttackAnswered,
    Withdrew,
    PeaceProposed,
    PeaceVoted,
    PeaceRefused,
    ManeuverPerformed,
    AttackChoiceMade,
):
    evolver(_payload)(lambda state, p: None)


@procedure
class ClashSeries(Procedure[ClashesFrame]):
    """One effect, several clashes: the instigator picks which to resolve next."""

    kind = "clashes"

    def advance(self, ctx: Context, frame: ClashesFrame) -> bool:
        # A clash needs two sides: when the Mountains toll took the only clan moved in, no clash.
        waiting = [t for t in frame["waiting"] if two_sides(ctx.state, frame["instigator"], t)]
        if waiting != frame["waiting"]:
            ctx.update(frame, waiting=waiting)
            return True
        if not waiting:
            ctx.pop(frame)
            return True
        if len(waiting) == 1:
            self._start(ctx, frame, waiting[0])
            return True
        return False

    def _start(self, ctx: Context, frame: ClashesFrame, tid: str) -> None:
        ctx.update(frame, waiting=[t for t in frame["waiting"] if t != tid])
        ctx.push(
            {
                "kind": "clash",
                "territory": tid,
                "instigator": frame["instigator"],
                "step": "start",
                "current": None,
                "declined": [],
                "sheltered": {},
                "attack": None,
                "peace": None,
                "proposed": False,
            }
        )

    def decisions(self, state: GameState, frame: ClashesFrame) -> list[Decision]:
        the_territories = listed([territory_phrase(t) for t in frame["waiting"]])
        return [
            Decision(
                frame["instigator"],
                "clash_order",
                _("Your move started clashes in {the_territories}: choose which to resolve first.").format(
                    the_territories=the_territories
                ),
                {"territories": list(frame["waiting"])},
            )
        ]

    def legal(self, state: GameState, frame: ClashesFrame, seat: str) -> list[CommandFields]:
        return [{"type": "clash_order", "territory": t} for t in frame["waiting"]]

    def handle(self, ctx: Context, frame: ClashesFrame, seat: str, command: CommandFields) -> None:
        if command["type"] != "clash_order" or command.get("territory") not in frame["waiting"]:
            names = ", ".join(territory_name(t) for t in frame["waiting"])
            raise IllegalCommand(
                _("Choose the next clash to resolve: one of {territories}.").format(territories=names)
            )
        self._start(ctx, frame, command["territory"])


@procedure
class Clash(Procedure[ClashFrame]):
    """One clash. frame: territory, instigator, step (start/citadels/resolution), current seat,
    declined (seats out of the Citadels step), sheltered {seat: n}, attack, peace, proposed."""

    kind = "clash"

    # -- automatic progress ------------------------------------------------------------------
    def advance(self, ctx: Context, frame: ClashFrame) -> bool:

        state = ctx.state
        tid = frame["territory"]
        step = frame["step"]
        if frame.get("end_reason"):
            ctx.update(frame, finishing=None, attack=None, peace=None)
            self._end(ctx, frame, frame["end_reason"])
            return True
        finish = frame.get("finishing")
        if finish:
            ctx.update(frame, finishing=None)
            finish_maneuver(ctx, frame, finish["seat"], finish["kind"], finish.get("target"))
            return True
        if step == "start":
            ctx.emit("ClashStarted", territory=tid, instigator=frame["instigator"])
            if state.festival == tid:
                remove_clans(ctx, frame["instigator"], tid, 1, cause="Festival")
            ctx.update(frame, step="citadels", current=state.next_seat(frame["instigator"]))
            open_window(
                ctx,
                "clash_started",
                actor=frame["instigator"],
                context={"territory": tid, "clash_index": len(state.stack) - 1},
            )
            return True
        if step == "citadels":
            seat = self._next_citadel_seat(state, frame)
            if seat is None:
                ctx.emit("CitadelsStepEnded", territory=tid, sheltered=dict(frame["sheltered"]))
                # The end of the Citadels step and the start of the Resolution step: a clash step
                # of its own (reactions.STEP_LATER), after the Citadels step's.
                ctx.update(frame, step="resolution_start", current=frame["instigator"], beat=1)
                open_window(
                    ctx,
                    "citadels_ended",
                    actor=frame["instigator"],
                    context={"territory": tid, "clash_index": len(state.stack) - 1},
                )
                return True
            if seat != frame["current"]:
                ctx.update(frame, current=seat)
                return True
            return False
        if step == "resolution_start":
            ctx.update(frame, step="resolution")
            open_window(
                ctx,
                "resolution_started",
                actor=frame["instigator"],
                context={"territory": tid, "clash_index": len(state.stack) - 1},
            )
            return True
        if step == "resolution":
            attack = frame["attack"]
            if attack and attack["stage"] == "resolve":
                self._resolve_attack(ctx, frame)
                return True
            peace = frame["peace"]
            if peace and not attack:
                seats = exposed_seats(state, frame)
                if not seats or seats == [peace["proposer"]]:
                    # A Triskel card answering the maneuver just made resolved between the
                    # proposal and the vote (docs/rulings.md, "Peace"): nobody is left to vote.
                    ctx.update(frame, peace=None)
                    if seats:
                        self._end(ctx, frame, "ended by agreement")
                    return True
            if attack or peace:
                return False
            seats = exposed_seats(state, frame)
            if not seats:
                self._end(ctx, frame, "no exposed clans remain")
                return True
            current = frame["current"]
            if current not in seats:
                assert current is not None  # set when the resolution starts
                order = state.turn_order_from(current)
                ctx.update(frame, current=next(s for s in order if s in seats), proposed=False)
                return True
            return False
        return False

    def _free_citadels(self, state: GameState, frame: ClashFrame) -> int:
        sheltered: int = sum(frame["sheltered"].values())
        return state.citadel_slots(frame["territory"]) - sheltered

    def _next_citadel_seat(self, state: GameState, frame: ClashFrame) -> str | None:
        if self._free_citadels(state, frame) <= 0:
            return None
        if sum(1 for n in state.territories[frame["territory"]]["clans"].values() if n) < 2:
            # One player alone in the territory (the Festival took the instigator's only clan):
            # a Citadel shelters from nobody, so nobody is asked (docs/rulings.md).
            return None
        assert frame["current"] is not None  # set when the Citadels step starts
        for seat in state.turn_order_from(frame["current"]):
            if (
                seat != frame["instigator"]
                and seat not in frame["declined"]
                and exposed(state, frame, seat) > 0
            ):
                return seat
        return None

    def _end(self, ctx: Context, frame: ClashFrame, reason: str) -> None:
        ctx.emit("ClashEnded", territory=frame["territory"], reason=reason, released=dict(frame["sheltered"]))
        for seat, n in sorted(frame.get("cauldron", {}).items()):
            # Dagda's Cauldron: up to 3 of the clans on it go back, the rest to the reserve.
            ctx.emit(
                "CauldronEmptied",
                seat=seat,
                territory=frame["territory"],
                back=min(3, n),
                to_reserve=max(0, n - 3),
            )
            ctx.emit(
                "CardDiscarded",
                seat=seat,
                card="ep_dagdas_cauldron",
                from_hand=False,
                from_front=True,
                cause="the clash ended",
            )
        ctx.pop(frame)

    # -- decisions ---------------------------------------------------------------------------
    def context(self, state: GameState, frame: ClashFrame) -> dict[str, Any]:
        tid = frame["territory"]
        return {
            "territory": tid,
            "instigator": frame["instigator"],
            "exposed": {s: exposed(state, frame, s) for s in state.seats if exposed(state, frame, s)},
            "sheltered": dict(frame["sheltered"]),
            "free_citadels": self._free_citadels(state, frame),
            "turn_order": state.turn_order_from(frame["instigator"]),
        }

    def decisions(self, state: GameState, frame: ClashFrame) -> list[Decision]:
        where = territory_phrase(frame["territory"])
        ctx = self.context(state, frame)
        if frame["step"] == "citadels":
            return [
                Decision(
                    frame["current"],
                    "citadel",
                    _("Clash in {the_territory}: shelter 1 clan in a free Citadel, or not.").format(
                        the_territory=where
                    ),
                    ctx,
                )
            ]
        if frame["attack"]:
            attack = frame["attack"]
            attacker, target = player_name(attack["attacker"]), player_name(attack["target"])
            if attack["stage"] == "attacker_chooses":
                return [
                    Decision(
                        attack["attacker"],
                        "attack_choice",
                        _(
                            "Clash in {the_territory}: with {card}, choose whether "
                            "{player} removes a clan or discards an Action card."
                        ).format(the_territory=where, card=card_name("ep_dagdas_club"), player=target),
                        ctx,
                    )
                ]
            if attack["stage"] == "discard":
                return [
                    Decision(
                        attack["target"],
                        "attack_response",
                        _(
                            "Clash in {the_territory}: {player}'s attack makes you "
                            "discard an Action card: choose it."
                        ).format(the_territory=where, player=attacker),
                        ctx,
                    )
                ]
            if attack["stage"] == "respond":
                return [
                    Decision(
                        attack["target"],
                        "attack_response",
                        _(
                            "Clash in {the_territory}: {player} attacks you. Discard "
                            "an Action card, or remove 1 exposed clan."
                        ).format(the_territory=where, player=attacker),
                        ctx,
                    )
                ]
            return []
        if frame["peace"]:
            votes = frame["peace"]["votes"]
            return [
                Decision(
                    s,
                    "peace_vote",
                    _(
                        "Clash in {the_territory}: {player} proposes to end the clash now. Agree or refuse."
                    ).format(the_territory=where, player=player_name(frame["peace"]["proposer"])),
                    ctx,
                )
                for s in exposed_seats(state, frame)
                if s != frame["peace"]["proposer"] and s not in votes
            ]
        # Only the maneuvers open on public facts: every seat may read this prompt. Between two
        # events of one command (a view of any point of the log) the clash may not have started
        # yet: nobody is current then.
        prompt = _("Clash in {the_territory}: perform a maneuver ({moves}).").format(
            the_territory=where, moves=join_or(public_maneuvers(state, frame, frame["current"]))
        )
        return [Decision(frame["current"], "maneuver", prompt, ctx)]

    def legal(self, state: GameState, frame: ClashFrame, seat: str) -> list[CommandFields]:
        if frame["step"] == "citadels":
            return [{"type": "citadel"}, {"type": "no_citadel"}]
        if frame["attack"]:
            stage = frame["attack"]["stage"]
            if stage == "attacker_chooses":
                return [
                    {"type": "attack_choice", "choice": "remove"},
                    {"type": "attack_choice", "choice": "discard"},
                ]
            out = [] if stage == "discard" else [{"type": "attack_response", "choice": "remove"}]
            out += [
                {"type": "attack_response", "choice": "discard", "card": c}
                for c in sorted(set(state.action_cards(seat)))
            ]
            return out
        if frame["peace"]:
            return [{"type": "peace_vote", "agree": True}, {"type": "peace_vote", "agree": False}]
        return maneuver_options(state, frame, seat)

    def handle(self, ctx: Context, frame: ClashFrame, seat: str, command: CommandFields) -> None:
        kind = command["type"]
        if frame["step"] == "citadels":
            return self._citadel(ctx, frame, seat, kind)
        if frame["attack"]:
            return self._attack_response(ctx, frame, seat, command)
        if frame["peace"]:
            return self._peace_vote(ctx, frame, seat, command)
        return self._maneuver(ctx, frame, seat, command)

    def _citadel(self, ctx: Context, frame: ClashFrame, seat: str, kind: str) -> None:
        state = ctx.state
        if kind == "citadel":
            ctx.emit("ClanSheltered", seat=seat, territory=frame["territory"])
        elif kind == "no_citadel":
            ctx.emit("CitadelDeclined", seat=seat, territory=frame["territory"])
            ctx.update(frame, declined=frame["declined"] + [seat])
        else:
            raise IllegalCommand(_("Citadels step: shelter 1 clan in a Citadel, or not."))
        ctx.update(frame, current=state.next_seat(seat))

    def _resolve_attack(self, ctx: Context, frame: ClashFrame) -> None:
        """After the attack_declared window: apply Hills, Iron Mine and The Dagda's Club."""
        state = ctx.state
        attack = frame["attack"]
        assert attack is not None  # declared, and its window closed
        target = attack["target"]
        if attack.get("ignore"):
            ctx.emit("AttackAnswered", seat=target, choice="ignored (Hills)")
            self._attack_done(ctx, frame)
        elif not state.action_cards(target):
            ctx.emit("AttackAnswered", seat=target, choice="remove")
            self._attack_done(ctx, frame, remove=True)
        elif attack.get("both"):
            ctx.update(frame, attack={**attack, "stage": "discard", "remove_after": True})
        elif attack.get("chooser") == attack["attacker"]:
            ctx.update(frame, attack={**attack, "stage": "attacker_chooses"})
        else:
            ctx.update(frame, attack={**attack, "stage": "respond"})

    def _attack_done(self, ctx: Context, frame: ClashFrame, remove: bool = False) -> None:
        attack = frame["attack"]
        assert attack is not None  # the attack being answered
        ctx.update(
            frame,
            attack=None,
            finishing={"seat": attack["attacker"], "kind": "attack", "target": attack["target"]},
        )
        if remove:
            remove_clans(ctx, attack["target"], frame["territory"], 1, cause="attack")

    def _attack_response(self, ctx: Context, frame: ClashFrame, seat: str, command: CommandFields) -> None:
        attack = frame["attack"]
        assert attack is not None  # the attack being answered
        if attack["stage"] == "attacker_chooses":
            if command["type"] != "attack_choice" or command.get("choice") not in ("remove", "discard"):
                raise IllegalCommand(
                    _("Choose for the attacked player: lose a clan or discard an Action card.")
                )
            ctx.emit("AttackChoiceMade", seat=seat, choice=command["choice"])
            if command["choice"] == "remove":
                ctx.emit("AttackAnswered", seat=attack["target"], choice="remove")
                self._attack_done(ctx, frame, remove=True)
            else:
                ctx.update(frame, attack={**attack, "stage": "discard"})
            return
        if command["type"] != "attack_response":
            raise IllegalCommand(_("You are attacked: discard an Action card or remove a clan."))
        choice = command.get("choice")
        if choice == "discard":
            card = command.get("card")
            if card not in ctx.state.action_cards(seat):
                names = ", ".join(card_name(c) for c in ctx.state.action_cards(seat))
                raise IllegalCommand(_("Discard one of your Action cards ({cards}).").format(cards=names))
            discard_from_hand(ctx, seat, card, cause="attack")
            ctx.emit("AttackAnswered", seat=seat, choice="discard")
            self._attack_done(ctx, frame, remove=bool(attack.get("remove_after")))
        elif choice == "remove" and attack["stage"] == "respond":
            ctx.emit("AttackAnswered", seat=seat, choice="remove")
            self._attack_done(ctx, frame, remove=True)
        elif choice == "remove":
            # Iron Mine or The Dagda's Club: a well-formed answer the rules refuse.
            names = ", ".join(card_name(c) for c in ctx.state.action_cards(seat))
            raise IllegalCommand(
                _(
                    "This attack makes you discard an Action card ({cards}); "
                    "removing a clan instead is not allowed."
                ).format(cards=names)
            )
        else:
            raise InvalidCommand(
                _("Answer the attack: discard an Action card or remove a clan.")
                if attack["stage"] == "respond"
                else _("Answer the attack: discard an Action card.")
            )

    def _peace_vote(self, ctx: Context, frame: ClashFrame, seat: str, command: CommandFields) -> None:
        if command["type"] != "peace_vote" or not isinstance(command.get("agree"), bool):
            raise IllegalCommand(_("Vote on ending the clash: yes or no."))
        ctx.emit("PeaceVoted", seat=seat, agree=command["agree"])
        peace = frame["peace"]
        assert peace is not None  # the peace being voted on
        votes = {**peace["votes"], seat: command["agree"]}
        voters = [s for s in exposed_seats(ctx.state, frame) if s != peace["proposer"]]
        if not command["agree"]:
            ctx.emit("PeaceRefused", territory=frame["territory"], by=seat)
            ctx.update(frame, peace=None)
        elif all(votes.get(s) for s in voters):
            ctx.update(frame, peace=None)
            self._end(ctx, frame, "ended by agreement")
        else:
            ctx.update(frame, peace={**peace, "votes": votes})

    def _maneuver(self, ctx: Context, frame: ClashFrame, seat: str, command: CommandFields) -> None:
        state = ctx.state
        kind = command["type"]
        seats = exposed_seats(state, frame)
        tid = frame["territory"]
        if kind in ("attack", "withdraw", "play"):
            # Each maneuver is a clash step (docs/rulings.md, "One Triskel question per clash
            # step"): what it causes, up to its after-maneuver window, shares its number.
            ctx.update(frame, beat=frame.get("beat", 0) + 1)
        if kind == "attack":
            target = command.get("target")
            if target == seat or target not in seats:
                others = ", ".join(player_name(s) for s in seats if s != seat) or _("nobody")
                refusal = _("Attack a player with exposed clans here: {players}.").format(players=others)
                # A name that is no colour at all is unknown (InvalidCommand); a colour not
                # seated, like a territory not in play, is understood and against the rules.
                if isinstance(target, str) and target not in COLOURS:
                    raise InvalidCommand(
                        _("Unknown colour {name}: the colours are {colours}.").format(
                            name=repr(target), colours=", ".join(COLOURS)
                        )
                        + " "
                        + refusal
                    )
                raise IllegalCommand(refusal)
            ctx.emit("AttackDeclared", seat=seat, target=target, territory=tid)
            ctx.update(frame, attack={"attacker": seat, "target": target, "stage": "resolve"}, removed_now={})
            open_window(
                ctx,
                "attack_declared",
                actor=seat,
                context={"territory": tid, "target": target, "clash_index": len(state.stack) - 1},
            )
        elif kind == "withdraw":
            moves = withdraw_moves(state, frame, seat, command.get("moves"))
            ctx.emit("Withdrew", seat=seat, territory=tid)
            ctx.update(frame, finishing={"seat": seat, "kind": "withdraw"}, removed_now={})
            move_clans(ctx, seat, [[tid, t, n] for t, n in moves.items()], cause="withdraw")
        elif kind == "play":
            ctx.update(frame, finishing={"seat": seat, "kind": "epic"}, removed_now={})
            play_epic_maneuver(ctx, frame, seat, command)
        elif kind == "end_clash":
            if seats != [seat]:
                raise IllegalCommand(
                    _(
                        "You can end the clash alone only when nobody else has exposed "
                        "clans; propose peace instead."
                    )
                )
            self._end(ctx, frame, f"ended by {seat}, the last player with exposed clans")
        else:
            raise IllegalCommand(
                _("Perform a maneuver: attack a player, withdraw clans to a territory, or end the clash.")
                if seats == [seat]
                else _(
                    "Perform a maneuver: attack a player, withdraw clans to a territory, or propose peace."
                )
            )


def before_a_maneuver(frame: Frame | None) -> TypeGuard[ClashFrame]:
    """Whether `frame` (the innermost procedure, or None) is a clash waiting for its next
    maneuver: no attack being answered, no peace vote, not ending."""
    return (
        frame is not None
        and frame["kind"] == "clash"
        and frame["step"] == "resolution"
        and not frame["attack"]
        and not frame["peace"]
        and not frame.get("finishing")
    )


def next_maneuver_seat(state: GameState, frame: ClashFrame) -> str | None:
    """The seat whose maneuver comes next in the clash `frame` (rulebook, Resolution: in turn
    order, skipping the players without exposed clans): its current seat when that one has
    exposed clans, else the next in turn order who has. None when the clash is not waiting for
    a maneuver (`before_a_maneuver`) or nobody has exposed clans."""
    if not before_a_maneuver(frame):
        return None
    seats = exposed_seats(state, frame)
    if not seats:
        return None
    current = frame["current"]
    assert current is not None  # a clash in its resolution always has a seat to act
    if current in seats:
        return current
    return next(s for s in state.turn_order_from(current) if s in seats)


# The command types of a maneuver (`maneuver_options`), which a seat may also give as its answer
# to a Triskel window folded into its maneuver (docs/rulings.md, "A Triskel window folded into
# your maneuver"), the peace proposal among them.
MANEUVER_TYPES = ("attack", "withdraw", "end_clash", "propose_peace", "play")


def folded_decision(
    state: GameState, frame: ClashFrame, seat: str, window: WindowFrame, trigger: str
) -> Decision:
    """`seat`'s one decision when the Triskel window `window` (what opened it in words:
    `trigger`) asks it while its maneuver is next in the clash `frame`: a "maneuver" decision
    whose context also names the window (`triskel`: its trigger and actor)."""
    prompt = _(
        "Clash in {the_territory}: {trigger}. Perform a maneuver ({moves}), "
        "or first play a Triskel card in response."
    ).format(
        the_territory=territory_phrase(frame["territory"]),
        trigger=trigger,
        moves=join_or(public_maneuvers(state, frame, seat)),
    )
    context = {
        **Clash().context(state, frame),
        "triskel": {"trigger": window["trigger"], "actor": window["actor"]},
    }
    return Decision(seat, "maneuver", prompt, context)


def play_folded_maneuver(ctx: Context, frame: ClashFrame, seat: str, command: CommandFields) -> bool:
    """Perform the maneuver `seat` gave with its answer to a Triskel window, now that the window
    has closed and its plays resolved: True when performed; False when the seat's maneuver is
    no longer next in the clash `frame` or the maneuver is no longer legal (the seat is then
    asked for its maneuver as usual)."""
    state = ctx.state
    if next_maneuver_seat(state, frame) != seat or command not in maneuver_options(state, frame, seat):
        return False
    if frame["current"] != seat:
        ctx.update(frame, current=seat, proposed=False)
    if command["type"] == "propose_peace":
        propose_peace(ctx, seat, command)
    else:
        Clash().handle(ctx, frame, seat, command)
    return True


def clash_awaiting_maneuver(state: GameState) -> ClashFrame | None:
    """The clash waiting for its next maneuver: the innermost procedure when it is one
    (`before_a_maneuver`), or the clash just under a Triskel window still collecting its answers
    (opened right after a maneuver or as the Resolution step begins, perhaps folded into the
    next maneuver): the window's cards come first, then the next maneuver. Else None."""
    frame = state.top()
    if before_a_maneuver(frame):
        return frame
    stack = state.stack
    if frame is None or frame["kind"] != "window" or frame["queue"] is not None or len(stack) < 2:
        return None
    under = stack[-2]
    return under if before_a_maneuver(under) else None


def peace_options(state: GameState, seat: str) -> list[Any]:
    """[{"type": "propose_peace"}] when `seat`, with exposed clans and no maneuver to decide
    (the player about to maneuver finds it among its maneuvers), may propose to end the clash
    now (`propose_peace`), a Triskel question of its own pending or not; else []."""
    frame = clash_awaiting_maneuver(state)
    if frame is None or frame["proposed"]:
        return []
    seats = exposed_seats(state, frame)
    if seat not in seats or len(seats) < 2:
        return []
    if any(d.seat == seat and d.kind == "maneuver" for d in pending(state)):
        return []
    return [{"type": "propose_peace"}]


@global_command("propose_peace", options=peace_options)
def propose_peace(ctx: Context, seat: str, command: CommandFields) -> None:
    """`{"type": "propose_peace"}`: before a maneuver, any player with exposed clans in the
    clash proposes to end it; the others with exposed clans vote (rulebook, Resolution: "Before
    each maneuver, players with exposed clans may discuss and agree to immediately end the
    clash"). Once before each maneuver (docs/rulings.md). Also while a Triskel window that
    answers the maneuver just made is open: the vote comes once it has closed and its cards
    have resolved, before the next maneuver (docs/rulings.md, "Peace"). Raises IllegalCommand
    otherwise."""
    state = ctx.state
    top = state.top()
    if top is not None and top["kind"] == "window" and folded_clash(state, top, seat) is not None:
        # The seat's maneuver comes next, under a Triskel window folded into it: the window
        # takes the proposal as its answer, made once the window has closed.
        PROCEDURES["window"].handle(ctx, top, seat, command)
        return
    frame = clash_awaiting_maneuver(state)
    if frame is None:
        raise IllegalCommand(_("You may propose to end a clash only before a maneuver in it."))
    seats = exposed_seats(state, frame)
    if seat not in seats:
        raise IllegalCommand(_("Only a player with exposed clans in the clash may propose to end it."))
    if len(seats) < 2 or frame["proposed"]:
        raise IllegalCommand(
            _(
                "Ending the clash may be proposed once before each maneuver, when "
                "another player has exposed clans."
            )
        )
    ctx.emit("PeaceProposed", seat=seat, territory=frame["territory"])
    ctx.update(frame, peace={"proposer": seat, "votes": {}}, proposed=True)


def withdraw_moves(state: GameState, frame: ClashFrame, seat: str, moves: object) -> dict[str, int]:
    """Check a Withdraw: `moves` {territory: count} into adjacent territories where `seat` is
    chieftain, 1 to all of the exposed clans. Raises IllegalCommand / InvalidCommand."""
    targets = withdraw_targets(state, frame, seat)
    if not targets:
        raise IllegalCommand(_("You are chieftain of no adjacent territory, so you cannot Withdraw."))
    if not isinstance(moves, dict) or not moves:
        raise InvalidCommand(_("Withdraw needs moves such as {example}.").format(example='{"plains": 2}'))
    territory_list(state, moves)
    names = ", ".join(territory_name(t) for t in targets)
    for t, n in moves.items():
        if t not in targets:
            raise IllegalCommand(
                _(
                    "You can withdraw only to adjacent territories where you are chieftain: {territories}."
                ).format(territories=names)
            )
        if not isinstance(n, int) or n < 1:
            raise InvalidCommand(_("Withdraw counts are whole numbers of 1 or more."))
    if sum(moves.values()) > exposed(state, frame, seat):
        raise IllegalCommand(
            _("You have {count} exposed clan(s) to withdraw.").format(count=exposed(state, frame, seat))
        )
    return dict(moves)


def maneuver_options(state: GameState, frame: ClashFrame, seat: str) -> list[CommandFields]:
    """Every legal maneuver command (and peace proposal / ending) for `seat` now."""
    seats = exposed_seats(state, frame)
    out: list[CommandFields] = [{"type": "attack", "target": s} for s in seats if s != seat]
    targets = withdraw_targets(state, frame, seat)
    for n in range(1, exposed(state, frame, seat) + 1):
        out.extend({"type": "withdraw", "moves": m} for m in splits(n, targets))
    if seats == [seat]:
        out.append({"type": "end_clash"})
    elif not frame["proposed"]:
        out.append({"type": "propose_peace"})
    out.extend(epic_maneuver_options(state, frame, seat))
    return out


def finish_maneuver(ctx: Context, frame: ClashFrame, seat: str, kind: str, target: str | None) -> None:
    """After a maneuver (and what it caused) resolved: turn passes on; the after-maneuver
    Triskel window opens (Bard, Raid, Warlord, Streng's Resolve)."""
    state = ctx.state
    removed = frame.get("removed_now") or {}
    ctx.update(frame, current=state.next_seat(seat), proposed=False, removed_now={})
    ctx.emit("ManeuverPerformed", seat=seat, maneuver=kind, territory=frame["territory"])
    open_window(
        ctx,
        "after_maneuver",
        actor=seat,
        context={
            "territory": frame["territory"],
            "maneuver": kind,
            "target": target,
            "removed_opponents": sum(n for s, n in removed.items() if s != seat),
        },
    )
