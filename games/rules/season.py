"""The Season phase: turns, passing, Pretender tokens, the end of the Season.

Rulebook, Phase 2: The Season; Specific Situation (a player with no clans); End of the Season.
"""

from __future__ import annotations

from typing import Any

from .board import place_clans, territory_list
from .card_effects import CARD_EFFECTS, NO_EFFECT
from .cards import discard_from_hand
from .catalog import ACTION, ADVANTAGE, CARDS, SEASON, TERRITORY_OF_ADVANTAGE, card_name
from .command_types import CommandFields
from .engine import Context, Decision, Procedure, evolver, pending, procedure
from .errors import IllegalCommand
from .event_payloads import Passed, SeasonEnded, TurnStarted
from .frames import NoClansFrame, SeasonFrame
from .language import _, listed, ngettext
from .play import play_season_card
from .reactions import open_window
from .state import GameState
from .usual_moves import join_or, move_words
from .victory import conditions_met


@evolver(TurnStarted)
def _turn_started(state: GameState, p: TurnStarted) -> None:
    pass


@evolver(Passed)
def _passed(state: GameState, p: Passed) -> None:
    pass


@evolver(SeasonEnded)
def _season_ended(state: GameState, p: SeasonEnded) -> None:
    state.phase = "assembly"


def season_cards(state: GameState, seat: str) -> list[Any]:
    """Cards in `seat`'s hand that can be played on a Season turn now: each card with a Season
    half, for its effect or, when nothing of it can be carried out, for no effect
    (docs/rulings.md, "Cards that cannot do anything"), unless its own text forbids playing it
    now (the Druid as the only Action card in hand: `CardEffect.restriction`)."""
    return [
        card
        for card in dict.fromkeys(state.hands.get(seat, []))
        if card in CARD_EFFECTS
        and SEASON in CARDS[card].timings
        and not CARD_EFFECTS[card].restriction(state, seat)
    ]


def why_not_playable(state: GameState, seat: str) -> list[str]:
    """Why `seat` cannot play the cards in its hand on its pending Season turn, in the active
    language: "You have no card you can play now." when it can play none of them, then
    one sentence for the Triskel cards ("Geis and The Dagda's Club are Triskel cards: they are played
    only when their trigger happens, not on your turn.") and one for each card its own
    restriction bars ("Druid cannot be played now: it is the only Action card in your hand,
    ..."). [] when `seat` has no pending Season turn or can play every card it holds.

    Hidden information: the sentences name the seat's own cards, for that seat alone (its
    prompt and its page). A seat whose hand leaves it only the pass, which the others cannot see,
    reads here, on its page, why (the service passes for it later, unasked: docs/rulings.md
    "Forced moves").
    Source: rulebook, Phase 2: The Season; the cards' own restrictions (docs/cards.md).
    """
    if not any(d.seat == seat and d.kind == "season_turn" for d in pending(state)):
        return []
    playable = set(season_cards(state, seat))
    lines = []
    held = [card for card in dict.fromkeys(state.hands.get(seat, [])) if card not in playable]
    triskel_only = [card_name(card) for card in held if SEASON not in CARDS[card].timings]
    if triskel_only:
        lines.append(
            ngettext(
                "{cards} is a Triskel card: it is played only when its trigger happens, not on your turn.",
                "{cards} are Triskel cards: they are played only when their trigger happens, not on your turn.",
                len(triskel_only),
            ).format(cards=listed(triskel_only))
        )
    for card in held:
        effect = CARD_EFFECTS.get(card)
        if SEASON in CARDS[card].timings and effect is not None and effect.restriction(state, seat):
            lines.append(
                _("{card} cannot be played now: {why}.").format(
                    card=card_name(card), why=effect.restriction(state, seat)
                )
            )
    if lines and not playable:
        lines.insert(0, _("You have no card you can play now."))
    return lines


@procedure
class Season(Procedure[SeasonFrame]):
    """Turns in Flock of Crows order from the Brenn until every player has passed in a row.

    frame: turn (seat), passes (consecutive), opened (the Brenn's opening turn is over: the
    Brenn played the first card, or passed holding no playable Season card),
    status: start -> choose -> acted.
    """

    kind = "season"

    def advance(self, ctx: Context, frame: SeasonFrame) -> bool:
        state = ctx.state
        seat = frame["turn"]
        if frame["status"] == "start":
            ctx.emit("TurnStarted", seat=seat)
            ctx.update(frame, status="choose")
            if state.clans_on_board(seat) == 0:
                # A player with no clans discards a Deed if able, then places 2 clans.
                if state.deeds.get(seat, 0):
                    ctx.emit("DeedDiscarded", seat=seat, cause="no clans on the island")
                ctx.push({"kind": "no_clans", "seat": seat})
            return True
        if frame["status"] == "acted":
            ctx.update(frame, status="ending")
            open_window(ctx, "turn_ended", actor=seat, context={})
            return True
        if frame["status"] == "ending":
            nxt = frame.get("next_turn")
            if nxt is None and frame["passes"] >= len(state.seats):
                end_season(ctx)
                ctx.pop(frame)
            else:
                ctx.update(frame, turn=nxt or state.next_seat(seat), status="start", next_turn=None)
            return True
        return False

    def decisions(self, state: GameState, frame: SeasonFrame) -> list[Decision]:
        seat = frame["turn"]
        if not frame["opened"]:
            text = _("As Brenn, open the Season by playing a Season card.")
        else:
            # Public facts only (every seat may read this prompt): whether the seat holds a
            # Season card is its own secret, so "play a Season card" is always named here;
            # `usual_moves.own_prompt` words it for the seat itself.
            keys = ["season_card", "pass"]
            if self.may_take_pretender(state, frame, seat):
                keys.append("pretender")
            text = _("Your turn in the Season: {moves}.").format(moves=join_or([move_words(k) for k in keys]))
        return [Decision(seat, "season_turn", text, {"passes": frame["passes"]})]

    def legal(self, state: GameState, frame: SeasonFrame, seat: str) -> list[CommandFields]:
        out: list[CommandFields] = []
        for card in season_cards(state, seat):
            options = CARD_EFFECTS[card].season_options(state, seat)
            out.extend({"type": "play", "card": card, **args} for args in options or [NO_EFFECT])
        if self.may_pass(state, frame, seat):
            out.append({"type": "pass"})
        if self.may_take_pretender(state, frame, seat):
            out.append({"type": "pretender"})
        return out

    def only_pass(self, state: GameState, frame: SeasonFrame, seat: str) -> bool:
        # `legal` lists at least one play of each card in `season_cards`, then the pass (always
        # allowed to a seat with none: `may_pass`) and the Pretender token when allowed.
        return not season_cards(state, seat) and not self.may_take_pretender(state, frame, seat)

    def may_pass(self, state: GameState, frame: SeasonFrame, seat: str) -> bool:
        # The Brenn opens with a Season card; ruling: one who holds none it may play may pass.
        return frame["opened"] or not season_cards(state, seat)

    def may_take_pretender(self, state: GameState, frame: SeasonFrame, seat: str) -> bool:
        return frame["opened"] and seat not in state.pretenders and conditions_met(state, seat) >= 1

    def handle(self, ctx: Context, frame: SeasonFrame, seat: str, command: CommandFields) -> None:
        state = ctx.state
        kind = command["type"]
        if kind == "pass":
            if not self.may_pass(state, frame, seat):
                raise IllegalCommand(
                    _(
                        "The Brenn must open the Season by playing a Season card; "
                        "passing and the Pretender token come after."
                    )
                )
            ctx.emit("Passed", seat=seat)
            # A Brenn who could not open has had the opening turn: the next turns are normal.
            ctx.update(frame, passes=frame["passes"] + 1, opened=True, status="acted")
        elif kind == "pretender":
            if not frame["opened"]:
                raise IllegalCommand(_("The Brenn must open the Season by playing a Season card."))
            if seat in state.pretenders:
                raise IllegalCommand(_("You already have a Pretender token; a player holds at most one."))
            if conditions_met(state, seat) < 1:
                raise IllegalCommand(
                    _(
                        "You may take a Pretender token only while you meet a victory "
                        "condition (6 territories, 6 Sanctuaries where you are present, "
                        "or chieftain over 6 opposing clans; Deeds count as wild)."
                    )
                )
            ctx.emit("PretenderTaken", seat=seat)
            ctx.update(frame, passes=0, status="acted")
        elif kind == "play":
            play_season_card(ctx, seat, command)
            ctx.update(frame, passes=0, opened=True, status="acted")
        else:
            raise IllegalCommand(_("On your Season turn: play a card, pass, or take a Pretender token."))


def end_season(ctx: Context) -> None:
    """Discard Action cards in hands, return Advantage cards of lost territories, remove Festival.

    Rulebook, End of the Season (English rule: only a holder no longer chieftain gives the
    Advantage card back, face up).
    """
    state = ctx.state
    ctx.emit("SeasonEnded", round=state.round)
    for seat in state.seats:
        for card in list(state.hands[seat]):
            if CARDS[card].type == ACTION:
                discard_from_hand(ctx, seat, card, cause="end of the Season")
            elif CARDS[card].type == ADVANTAGE and state.chieftain(TERRITORY_OF_ADVANTAGE[card]) != seat:
                ctx.emit("AdvantageCardReturned", card=card, cause="end of the Season")
    if state.festival:
        ctx.emit("FestivalRemoved", territory=state.festival)


@procedure
class NoClans(Procedure[NoClansFrame]):
    """A player with no clans on the island places 2 clans, in one or two territories."""

    kind = "no_clans"

    def decisions(self, state: GameState, frame: NoClansFrame) -> list[Decision]:
        return [
            Decision(
                frame["seat"],
                "place_clans",
                _(
                    "You have no clans on the island: place 2 clans in any territories "
                    "(one or two), then take your turn."
                ),
            )
        ]

    def legal(self, state: GameState, frame: NoClansFrame, seat: str) -> list[CommandFields]:
        tids = sorted(state.territories)
        return [{"type": "place_clans", "territories": [a, b]} for i, a in enumerate(tids) for b in tids[i:]]

    def handle(self, ctx: Context, frame: NoClansFrame, seat: str, command: CommandFields) -> None:
        if command["type"] != "place_clans":
            raise IllegalCommand(_("Place your 2 clans first, in one territory or two."))
        tids = command.get("territories")
        if not isinstance(tids, list) or len(tids) != 2:
            raise IllegalCommand(_("Name exactly 2 territories (the same one twice is allowed)."))
        territory_list(ctx.state, tids)
        placements: dict[str, int] = {}
        for t in tids:
            placements[t] = placements.get(t, 0) + 1
        place_clans(ctx, seat, placements, cause="no clans on the island")
        ctx.pop(frame)
