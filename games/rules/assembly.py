"""The round loop and the Assembly phase, all six steps, with the Action card draft.

Rulebook, Phase 1: The Assembly (steps 1–6) and 2-Player Rules (two 3-card drafts).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .catalog import action_cards_for, card_name
from .command_types import CommandFields
from .engine import Context, Decision, Procedure, evolver, procedure
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import (
    ActionCardsDealt,
    DraftBlockCompleted,
    DraftCardsKept,
    DraftCardsPassed,
    DraftEnded,
    DraftPackTaken,
    DraftStarted,
    GameWon,
    RoundStarted,
    SeasonStarted,
    VictoryChecked,
)
from .frames import AssemblyFrame, DraftFrame, GameFrame
from .language import _, ngettext
from .reactions import open_window
from .state import GameState
from .territory_effects import flock_changed
from .victory import victory_check


@evolver(RoundStarted)
def _round_started(state: GameState, p: RoundStarted) -> None:
    state.round = p["round"]
    state.phase = "assembly"


@evolver(SeasonStarted)
def _season_started(state: GameState, p: SeasonStarted) -> None:
    state.phase = "season"


@evolver(GameWon)
def _game_won(state: GameState, p: GameWon) -> None:
    state.winner = p["seat"]
    state.phase = "over"


@evolver(VictoryChecked)
def _victory_checked(state: GameState, p: VictoryChecked) -> None:
    pass  # the scores are for the history


@procedure
class GameLoop(Procedure[GameFrame]):
    """Rounds forever: an Assembly, then a Season, until the Assembly finds a winner."""

    kind = "game"

    def advance(self, ctx: Context, frame: GameFrame) -> bool:
        if frame["next"] == "assembly":
            ctx.update(frame, next="season")
            ctx.emit("RoundStarted", round=ctx.state.round + 1)
            ctx.push({"kind": "assembly", "step": 1, "cathbad": None})
            assert ctx.state.brenn is not None  # the Brenn is chosen at setup
            open_window(ctx, "assembly_started", actor=ctx.state.brenn, context={})
        else:
            ctx.update(frame, next="assembly")
            ctx.emit("SeasonStarted", round=ctx.state.round)
            assert ctx.state.brenn is not None  # the Brenn is chosen at setup
            ctx.push(
                {"kind": "season", "turn": ctx.state.brenn, "passes": 0, "opened": False, "status": "start"}
            )
        return True


@procedure
class Assembly(Procedure[AssemblyFrame]):
    """Steps 1–5 happen by themselves; step 6 is the draft."""

    kind = "assembly"

    def advance(self, ctx: Context, frame: AssemblyFrame) -> bool:
        state = ctx.state
        step = frame["step"]
        if frame.get("choice"):
            return False
        ctx.update(frame, step=step + 1)
        if step == 1:
            # 1. Assign Brenn: the Capital's chieftain; unchanged when it has none.
            chief = state.chieftain(state.capital) if state.capital else None
            if chief and chief != state.brenn:
                ctx.emit("BrennAssigned", seat=chief, reason="chieftain of the Capital")
        elif step == 2:
            # 2. Check for victory among the Pretenders; then all Pretender tokens go back.
            if state.pretenders:
                winner, scores = victory_check(state)
                ctx.emit("VictoryChecked", scores=scores, winner=winner)
                if winner:
                    ctx.emit("GameWon", seat=winner, conditions=scores[winner])
                    return True
                ctx.emit("PretendersReturned")
        elif step == 3:
            # 3. Each chieftain takes the matching Advantage card; others lie face up.
            for tid in state.territories:
                card = state.advantage_of(tid)
                chief = state.chieftain(tid)
                where = state.advantage_location(card)
                if chief and where != chief:
                    ctx.emit("AdvantageCardTaken", seat=chief, card=card, cause="assembly")
                elif not chief and where != "display":
                    ctx.emit("AdvantageCardReturned", card=card, cause="assembly")
        elif step == 4:
            # 4. The Brenn tosses the Flock of Crows; a change of side opens the Gates.
            before = state.flock
            ctx.emit("FlockTossed", side=ctx.rng.choice(["clockwise", "counterclockwise"]))
            if state.flock != before:
                flock_changed(ctx)
        elif step == 5:
            # 5. Shuffle every Action card in use, set one aside face down, deal.
            cards = action_cards_for(len(state.seats))
            ctx.rng.shuffle(cards)
            ctx.emit("ActionDeckShuffled", visibility=(), cards=cards)
            if frame.get("cathbad"):
                # Cathbad's Word: that player, not chance, chooses the set-aside card.
                ctx.update(frame, step=5, choice="cathbad_set_aside")
                return True
            ctx.emit("ActionCardSetAside", visibility=(), card=state.action_deck[0])
            self._deal(ctx)
        elif step == 6:
            ctx.push({"kind": "draft"})
        elif step == 7 and (seat := frame["cathbad"]):
            # Cathbad's Word, after the draft: take the chosen card, set aside one of yours.
            ctx.emit("SetAsideCardTaken", visibility=(seat,), seat=seat, cause="Cathbad's Word")
            ctx.update(frame, step=7, choice="cathbad_return")
        else:
            ctx.pop(frame)
        return True

    def _deal(self, ctx: Context) -> None:
        state = ctx.state
        plan = draft_plan(len(state.seats))
        ctx.emit("DraftStarted", blocks=plan["blocks"], keeps=plan["keeps"])
        assert state.brenn is not None  # the Brenn is chosen at setup
        for seat in state.turn_order_from(state.brenn):
            deal(ctx, seat, 0)

    def decisions(self, state: GameState, frame: AssemblyFrame) -> list[Decision]:
        seat = frame.get("cathbad")
        if frame.get("choice") == "cathbad_set_aside":
            return [
                Decision(
                    seat,
                    "card_choice",
                    _("{card}: choose the Action card that is set aside this round.").format(
                        card=card_name("ep_cathbads_word")
                    ),
                )
            ]
        if frame.get("choice") == "cathbad_return":
            return [
                Decision(
                    seat,
                    "card_choice",
                    _("{card}: set aside 1 Action card from your hand, face down.").format(
                        card=card_name("ep_cathbads_word")
                    ),
                )
            ]
        return []

    def legal(self, state: GameState, frame: AssemblyFrame, seat: str) -> list[CommandFields]:
        if frame.get("choice") == "cathbad_set_aside":
            return [{"type": "set_aside", "card": c} for c in sorted(state.action_deck)]
        return [{"type": "set_aside", "card": c} for c in sorted(set(state.action_cards(seat)))]

    def handle(self, ctx: Context, frame: AssemblyFrame, seat: str, command: CommandFields) -> None:
        state = ctx.state
        legal = self.legal(state, frame, seat)
        if command not in legal:
            raise IllegalCommand(
                _("Choose the card to set aside: {cards}.").format(
                    cards=", ".join(card_name(c["card"]) for c in legal)
                )
            )
        if frame["choice"] == "cathbad_set_aside":
            ctx.emit("ActionCardSetAside", visibility=(seat,), card=command["card"])
            ctx.update(frame, step=6, choice=None)
            self._deal(ctx)
        else:
            ctx.emit("ActionCardSetAside", visibility=(seat,), seat=seat, card=command["card"])
            ctx.update(frame, step=8, choice=None)


def draft_plan(players: int) -> dict[str, Any]:
    """3–4 players: one draft of 4 cards keeping 1, 2, 3; 2 players: two of 3 keeping 1, 2."""
    if players == 2:
        return {"blocks": 2, "keeps": [1, 2], "hand": 3}
    return {"blocks": 1, "keeps": [1, 2, 3], "hand": 4}


def deal(ctx: Context, seat: str, block: int) -> None:
    """Deal the hand of draft `block` to `seat` from the top of the Action deck."""
    hand = draft_plan(len(ctx.state.seats))["hand"]
    cards = ctx.state.action_deck[:hand]
    ctx.emit("ActionCardsDealt", visibility=(seat,), seat=seat, block=block, cards=cards)


# state.draft[seat] = {"stage": next stage index, "held": [...], "received": {stage: [...]},
#                      "dealt": {block: [...]}, "kept": [...], "blocks_done": n}
# A stage is (block, step) flattened: stage = block * steps + step.


@evolver(DraftStarted)
def _draft_started(state: GameState, p: DraftStarted) -> None:
    state.draft = {
        s: {"stage": 0, "held": [], "received": {}, "dealt": {}, "kept": [], "blocks_done": 0}
        for s in state.seats
    }
    state.draft["_plan"] = {"blocks": p["blocks"], "keeps": list(p["keeps"])}


@evolver(ActionCardsDealt)
def _cards_dealt(state: GameState, p: ActionCardsDealt) -> None:
    for card in p["cards"]:
        state.action_deck.remove(card)
    state.draft[p["seat"]]["dealt"][str(p["block"])] = list(p["cards"])


@evolver(DraftCardsKept)
def _cards_kept(state: GameState, p: DraftCardsKept) -> None:
    seat = state.draft[p["seat"]]
    choices = draft_choices(state, p["seat"])
    assert choices is not None  # a seat keeps cards only from a pack in front of it
    seat["passing"] = [c for c in choices if c not in p["kept"]]
    seat["held"] = list(p["kept"])
    seat["stage"] += 1


@evolver(DraftCardsPassed)
def _cards_passed(state: GameState, p: DraftCardsPassed) -> None:
    state.draft[p["from"]]["passing"] = []
    state.draft[p["to"]]["received"][str(p["stage"])] = list(p["cards"])


@evolver(DraftPackTaken)
def _pack_taken(state: GameState, p: DraftPackTaken) -> None:
    state.draft[p["seat"]].setdefault("taken", []).append(p["stage"])


@evolver(DraftBlockCompleted)
def _block_completed(state: GameState, p: DraftBlockCompleted) -> None:
    seat = state.draft[p["seat"]]
    seat["kept"].extend(p["cards"])
    seat["held"] = []
    seat["blocks_done"] += 1


@evolver(DraftEnded)
def _draft_ended(state: GameState, p: DraftEnded) -> None:
    for seat in state.seats:
        state.hands[seat].extend(state.draft[seat]["kept"])
    state.draft = {}


def draft_choices(state: GameState, seat: str) -> list[str] | None:
    """The cards `seat` chooses from now, or None when it is not ready (or done)."""
    plan = state.draft["_plan"]
    d = state.draft[seat]
    steps = len(plan["keeps"])
    stage = d["stage"]
    if stage >= plan["blocks"] * steps:
        return None
    block, step = divmod(stage, steps)
    if step == 0:
        dealt = d["dealt"].get(str(block))
        return list(dealt) if dealt is not None and d["blocks_done"] == block else None
    received = d["received"].get(str(stage - 1))
    return d["held"] + received if received is not None else None


@procedure
class Draft(Procedure[DraftFrame]):
    """Step 6: the draft, simultaneous: each player picks as soon as their cards are known.

    Cards pass in the Flock of Crows direction (to the opponent with 2 players). A player
    depends only on the player passing to them, never on the whole table.
    """

    kind = "draft"

    def advance(self, ctx: Context, frame: DraftFrame) -> bool:
        state = ctx.state
        plan = state.draft["_plan"]
        steps = len(plan["keeps"])
        for seat in state.seats:
            d = state.draft[seat]
            block = d["blocks_done"]
            last_stage = block * steps + steps - 1
            if block < plan["blocks"] and d["stage"] > last_stage and str(last_stage) in d["received"]:
                ctx.emit(
                    "DraftBlockCompleted",
                    visibility=(seat,),
                    seat=seat,
                    block=block,
                    cards=d["held"] + d["received"][str(last_stage)],
                )
                if block + 1 < plan["blocks"]:
                    deal(ctx, seat, block + 1)
                return True
        for seat in state.seats:
            # A passed pack is picked up once the seat has kept from its current one: only then
            # may it see the cards ("DraftCardsPassed" names them to the passer alone).
            d = state.draft[seat]
            choices = draft_choices(state, seat)
            picked = d["stage"] - 1
            if choices is not None and d["stage"] % steps and picked not in d.get("taken", []):
                ctx.emit(
                    "DraftPackTaken",
                    visibility=(seat,),
                    seat=seat,
                    stage=picked,
                    **{"from": _passer(state, seat)},
                    cards=list(d["received"][str(picked)]),
                )
                return True
        if all(state.draft[s]["blocks_done"] == plan["blocks"] for s in state.seats):
            ctx.emit("DraftEnded")
            ctx.pop(frame)
            return True
        return False

    def decisions(self, state: GameState, frame: DraftFrame) -> list[Decision]:
        if not state.draft:
            return []  # between DraftEnded and the end of the procedure, within one command
        out = []
        keeps = state.draft["_plan"]["keeps"]
        for seat in state.seats:
            choices = draft_choices(state, seat)
            if choices is not None:
                keep = keeps[state.draft[seat]["stage"] % len(keeps)]
                # "Passes the other one" (2-Player Rules), "the other 2": ngettext, in French too
                # ("l'autre", "les 2 autres").
                prompt = ngettext(
                    "Draft: keep {keep} of the {of} Action cards in front of you and pass the other one.",
                    "Draft: keep {keep} of the {of} Action cards in front of you and pass the other {other}.",
                    len(choices) - keep,
                )
                out.append(
                    Decision(
                        seat,
                        "draft",
                        prompt.format(keep=keep, of=len(choices), other=len(choices) - keep),
                        {"keep": keep, "of": len(choices)},
                    )
                )
        return out

    def legal(self, state: GameState, frame: DraftFrame, seat: str) -> list[CommandFields]:

        choices = draft_choices(state, seat) or []
        keeps = state.draft["_plan"]["keeps"]
        keep = keeps[state.draft[seat]["stage"] % len(keeps)]
        return [{"type": "draft", "keep": list(c)} for c in combinations(sorted(choices), keep)]

    def handle(self, ctx: Context, frame: DraftFrame, seat: str, command: CommandFields) -> None:
        state = ctx.state
        if command["type"] != "draft":
            raise IllegalCommand(_("It is the draft: choose the cards to keep."))
        choices = draft_choices(state, seat)
        keeps = state.draft["_plan"]["keeps"]
        d = state.draft[seat]
        keep = keeps[d["stage"] % len(keeps)]
        kept = command.get("keep")
        if not isinstance(kept, list) or not all(isinstance(c, str) for c in kept):
            raise InvalidCommand(_('"keep" must list card ids, such as ["act_bard"].'))
        assert choices is not None  # the seat is asked: its pack is in front of it
        names = ", ".join(card_name(c) for c in sorted(choices))
        if len(kept) != keep or len(set(kept)) != keep or any(c not in choices for c in kept):
            raise IllegalCommand(
                _("Keep exactly {count} of the cards in front of you: {cards}.").format(
                    count=keep, cards=names
                )
            )
        passed = [c for c in choices if c not in kept]
        to = state.next_seat(seat)
        stage = d["stage"]
        ctx.emit("DraftCardsKept", visibility=(seat,), seat=seat, stage=stage, kept=kept)
        # The receiving seat sees these cards only when it picks the pack up (DraftPackTaken):
        # at the table it takes the passed cards after keeping from the pack in front of it.
        ctx.emit("DraftCardsPassed", visibility=(seat,), **{"from": seat}, to=to, stage=stage, cards=passed)


def _passer(state: GameState, seat: str) -> str:
    """The seat that passes draft cards to `seat` (the one before it in the Flock of Crows
    direction)."""
    return next(s for s in state.seats if state.next_seat(s) == seat)


def draft_cards_in_hand(state: GameState, seat: str) -> list[str]:
    """The Action cards `seat` holds during the draft: its kept sets and the cards it picks from
    now (or has kept from its last pack). Packs passed to it and not yet picked up are not in
    its hand: it does not know them yet (rulebook, step 6: the passed cards are taken after
    keeping)."""
    d = state.draft[seat]
    choices = draft_choices(state, seat)
    kept: list[str] = d["kept"]
    return kept + (choices if choices is not None else d["held"])


def draft_cards_waiting(state: GameState, seat: str) -> int:
    """How many cards wait face down for `seat`: passed to it, not yet picked up (public)."""
    return len(draft_cards_in_front(state, seat)) - len(draft_cards_in_hand(state, seat))


def draft_cards_in_front(state: GameState, seat: str) -> list[str]:
    """Every Action card physically with `seat` during the draft: kept sets, the held cards,
    and dealt or passed cards not yet picked from."""
    plan = state.draft["_plan"]
    steps = len(plan["keeps"])
    d = state.draft[seat]
    cards: list[str] = d["kept"] + d["held"] + d.get("passing", [])
    for key, received in d["received"].items():
        k = int(key)
        used = (d["blocks_done"] > k // steps) if k % steps == steps - 1 else (d["stage"] > k + 1)
        if not used:
            cards = cards + received
    for key, dealt in d["dealt"].items():
        if d["stage"] <= int(key) * steps:
            cards = cards + dealt
    return cards
