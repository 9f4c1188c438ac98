"""Standing orders: what a player leaves the service to answer for their seat (docs/standing-orders.md).

A player who knows how they will answer an attack, a peace proposal or a draft pack need not wait
for the email. An order is private to its seat (`StandingOrder`, like a hand: redacted in every
channel), and it answers only a decision that arises after it was set, or the decision whose
deadline passes (`answer_at_deadline`). It is played like a forced move: inside the transaction
of the command that raised the decision, as that seat's command, with the idempotency key
`order:<colour>:<seq>`, so `verify_game` decides it again like any other command.

Every order decides from what its seat may see (`rules.view_for(state, colour)`) and the public
events (`rules.redact(event, None)`), never from the other hands. An order that does not fit the
decision (a card no longer in hand, a queued play now illegal, a pack holding a card marked
"ask me") leaves the decision to the player: the prompt is sent as without orders.

The kinds (`KINDS`), each with its JSON body:

- `triskel` `{"card": card id or "all", "when": "concerned" | "attacked"}`: ask about answering
  with that Triskel card only when the trigger concerns the seat (`window_concerns`, from public
  facts); with "attacked", in a clash where the seat has clans, only when it is attacked
  (`attacked_in_clash`); otherwise decline. The rulebook, "Triskel": a Triskel card is played
  in response to a trigger.
- `queue_play` `{"command": a Season turn's command, "watch": [territory ids]}`: on the seat's
  next Season turn, play it if it is legal and no public event since has named a watched
  territory; otherwise ask. Used once.
- `pass_until` `{}`: on a Season turn, pass while nothing has concerned the seat since it last
  passed (`season_concerns`); the first time something has, the order turns itself off and the
  seat is asked. The rulebook, "Season": a player who passes may still play later.
- `attack` `{"answer": "remove" | "discard", "cards": [card ids, first discarded first]}`: how
  to answer an attack (the rulebook, "Attack"): remove an exposed clan, or discard the first
  listed card held; otherwise ask.
- `peace` `{"agree": bool}`: the vote on a peace proposal (the rulebook, "Peace").
- `citadel` `{"shelter": bool}`: whether to shelter a clan in a free Citadel (the rulebook,
  "Citadels").
- `withdraw` `{"to": [territory ids]}`: on a maneuver, withdraw every exposed clan to the first
  listed territory where that is legal (the rulebook, "Withdraw"); otherwise ask.
- `draft` `{"ranking": [card ids], "ask": [card ids]}`: keep the highest-ranked cards of a pack
  (the rulebook, "Assembly: draft") unless the pack holds a card marked "ask me" or the ranking
  does not cover the cards to keep. Kept across rounds.
- `stand_in` `{"decision": "maneuver" | "own_triskel" | "setup" | "card_choices"}`: let the
  stand-in bot (`games.bots`, level `STAND_IN_ORDER_LEVEL`, which reads only what the seat may
  see) decide the seat's maneuvers in clashes (the rulebook, "Clash": Attack, Withdraw, Epic
  Tale, peace); its Triskel answers in the windows its own play or move opens (the rulebook,
  "Triskel": the Advantage cards "after you play a Season card", Master Craftsman after your Epic
  Tale...); where its setup clans go (the rulebook, "Setup": each player in turn places 1 clan,
  twice); or the choices a card asks of the seat once played (the card Druid takes, Scouts &
  Spies' move, the card set aside or given, the Epic Tales kept, where an explored territory goes
  when the seat is the Brenn).
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import transaction
from django.dispatch import receiver
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from games import bots, rules, store
from games.play import sql
from games.play.models import SeatClock, StandingOrder
from games.play.queued_plays import QUEUE_SHAPES
from games.play.signals import decisions_changed
from games.store.models import Command, Event, Game, Seat

logger = logging.getLogger(__name__)

KINDS = ("triskel", "queue_play", "pass_until", "attack", "peace", "citadel", "withdraw", "draft", "stand_in")
# What a `stand_in` order hands to the bot, and the decision kinds each covers. The Brenn's
# choice of the Capital is not among them: it opens the game, before anybody could set an order.
STAND_IN_DECISIONS = {
    "maneuver": ("maneuver",),
    "own_triskel": ("reaction",),
    "setup": ("place_clan",),
    "card_choices": ("card_choice", "keep_epic", "territory_cell"),
}
# The bot a `stand_in` order hands decisions to. It plays inside the command's transaction, under
# the game's row lock: "easy" thinks well under 10 ms (bench/bots.py), "hard" about a second.
STAND_IN_ORDER_LEVEL = "easy"
# The decision kind each order kind answers (`stand_in`: by its body, `answers`).
ANSWERS = {
    "triskel": "reaction",
    "queue_play": "season_turn",
    "pass_until": "season_turn",
    "attack": "attack_response",
    "peace": "peace_vote",
    "citadel": "citadel",
    "withdraw": "maneuver",
    "draft": "draft",
    "stand_in": "",
}


def answers(order: StandingOrder) -> tuple[str, ...]:
    """The decision kinds (`rules.pending`'s `kind`) that `order` answers: one, or for a
    `stand_in` order those of its `decision` (`STAND_IN_DECISIONS`)."""
    if order.kind == "stand_in":
        return STAND_IN_DECISIONS[order.body["decision"]]
    return (ANSWERS[order.kind],)


# A seat may hold this many orders (a Triskel order per card, one of each other kind).
MAX_ORDERS = 16
# Public events read back for a Triskel window's trigger (a window opens right after it), and for
# the Season turn that ended (a turn with its clashes).
TRIGGER_LOOKBACK = 60
TURN_LOOKBACK = 400
# The Season turns' commands a queued play may hold.
SEASON_COMMANDS = ("play", "pass", "pretender")
# The public events that may concern a seat (`event_concerns`): what happens on the island, to
# hands and to the victory race; the procedure's own bookkeeping (turn order, windows) never does.
CONCERNING_EVENTS = frozenset(
    {
        "AttackDeclared",
        "BuildingPlaced",
        "CardCancelled",
        "CardGiven",
        "CardPlayed",
        "ClansMoved",
        "ClansPlaced",
        "ClansRemoved",
        "ClanSheltered",
        "ClashInitiated",
        "ClashStarted",
        "FestivalPlaced",
        "HandRevealed",
        "PeaceProposed",
        "PretenderTaken",
        "Withdrew",
    }
)
# When a Triskel order asks: when the window concerns the seat, or (in a clash where the seat has
# clans) only when the seat is attacked.
TRISKEL_WHEN = ("concerned", "attacked")
# Triskel triggers about a clash: they concern a seat with clans in it.
CLASH_TRIGGERS = (
    "after_maneuver",
    "attack_declared",
    "clash_started",
    "citadels_ended",
    "resolution_started",
)


class OrderError(ValueError):
    """An order that cannot be stored; its text says what was wrong and what is allowed, for the
    player (in the active language)."""


class SeatNotYours(OrderError):
    """The seat changed hands (its player erased their account, or the host gave it away) between
    the caller's read of it and the game's row lock (`carry_out`): nothing was changed."""


@dataclass(frozen=True)
class Outcome:
    """What the orders do about a seat's pending decision.

    command: the command to play for the seat (None: ask the seat). order: the order that
    decided (None: no order applied). spent: the order is used up (a queued play) or turned
    itself off (pass until something concerns me): it is deleted. since_seq: a new since_seq for
    the order (pass until: it passed again), or None.
    """

    command: dict | None
    order: StandingOrder | None
    spent: bool = False
    since_seq: int | None = None


# --- reading the public record ---------------------------------------------------------------


# The public record an order reads: `events(after, until)` -> `[(seq, event)]` of the events after
# seq `after` up to `until`, as a spectator reads them (`rules.redact(event, None)`).
PublicEvents = Callable[[int, int], list]


def public_events(game: Game) -> PublicEvents:
    """The game's log as `PublicEvents` (one query a call, made only when an order needs it)."""

    def read(after: int, until: int) -> list[tuple[int, object]]:
        rows = Event.objects.filter(game=game, seq__gt=after, seq__lte=until).order_by("seq")
        return [(row.seq, rules.redact(store.to_rules_event(row), None)) for row in rows]

    return read


def _values(value) -> Iterable:
    """Every scalar inside a payload (dict keys included: Migration's `moves` are keyed by
    territory)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _values(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from _values(inner)
    else:
        yield value


def _my_territories(view: dict, colour: str) -> set[str]:
    return {tid for tid, t in view["territories"].items() if t["clans"].get(colour)}


def _names_me(payload: dict, colour: str, mine: set[str]) -> bool:
    """A public payload names the seat `colour` (other than as the one acting, its "seat") or
    one of the territories `mine`."""
    return any(
        scalar == colour or scalar in mine
        for key, value in payload.items()
        if key != "seat"
        for scalar in _values(value)
    )


def event_concerns(event, colour: str, mine: set[str]) -> bool:
    """Whether one public event concerns the seat `colour` whose clans are in `mine` (territory
    ids): it names the seat (attacked, chosen as opponent, given a card), or a territory where it
    has clans (a card played in or into it, clans moved, placed or removed there, a building, a
    clash), or another player took a Pretender token (the victory race; docs/standing-orders.md).
    Only the kinds of CONCERNING_EVENTS count."""
    if event.type not in CONCERNING_EVENTS:
        return False
    if event.type == "PretenderTaken":
        return event.payload.get("seat") != colour
    return _names_me(event.payload, colour, mine)


def season_concerns(events: PublicEvents, state, colour: str, since_seq: int) -> bool:
    """ "Something concerns me" for a Season turn, from public facts (docs/standing-orders.md):
    a public event since `since_seq` concerns the seat (`event_concerns`, with the territories
    where it has clans now or had clans removed since), it holds no clan on the island, or its
    pass would end the Season (every other player has passed: the rulebook, "Season")."""
    view = rules.view_for(state, colour)
    mine = _my_territories(view, colour)
    if not mine:
        return True
    turn = next((d for d in rules.pending(state) if d.seat == colour and d.kind == "season_turn"), None)
    if turn is not None and turn.context.get("passes", 0) >= len(view["seats"]) - 1:
        return True
    since = events(since_seq, state.seq)
    for _seq, event in since:
        if event.type == "ClansRemoved" and event.payload.get("seat") == colour:
            mine.add(event.payload.get("territory"))
    return any(event_concerns(event, colour, mine) for _seq, event in since)


def window_concerns(events: PublicEvents, state, colour: str, decision) -> bool:
    """Whether a Triskel window concerns the seat (docs/standing-orders.md): the card declared
    or resolved names the seat or a territory where it has clans (a hidden declaration always
    concerns); an attack on the seat; a clash step in a clash where it has clans; a turn's end
    when that turn concerns it (`turn_concerns`); any other trigger (its own play, the Assembly)
    always."""
    trigger, actor = decision.context.get("trigger"), decision.context.get("actor")
    view = rules.view_for(state, colour)
    mine = _my_territories(view, colour)
    if trigger in ("card_declared", "action_resolved"):
        for _seq, event in reversed(events(max(0, state.seq - TRIGGER_LOOKBACK), state.seq)):
            if event.type == "CardSecretDeclared" and event.payload.get("seat") == actor:
                return True
            if event.type == "CardPlayed" and event.payload.get("seat") == actor:
                args = event.payload.get("args") or {}
                return any(v == colour or v in mine for v in _values(args))
        return True
    if trigger == "turn_ended":
        return turn_concerns(events, state, colour)
    if trigger in CLASH_TRIGGERS:
        clash = rules.current_clash(state)
        if clash is None:
            return True
        if trigger == "attack_declared":
            return actor == colour or clash["territory"] in mine
        return clash["territory"] in mine
    return True


def turn_concerns(events: PublicEvents, state, colour: str) -> bool:
    """Whether the end of a Season turn concerns the seat (Oengus's Ploy: "at the end of any
    player's turn: you take the next turn"; docs/standing-orders.md), from public facts: an event
    of the turn that ended concerns it (`event_concerns`, with the territories where it has clans
    now or lost clans in that turn), it holds no clan on the island, the Season would end after
    this turn (every other player has passed), or the turn is longer than the record read back
    (then it is asked)."""
    view = rules.view_for(state, colour)
    mine = _my_territories(view, colour)
    season = next((f for f in reversed(state.stack) if f["kind"] == "season"), None)
    if not mine or (season is not None and season["passes"] >= len(view["seats"]) - 1):
        return True
    turn = []
    for _seq, event in reversed(events(max(0, state.seq - TURN_LOOKBACK), state.seq)):
        if event.type == "TurnStarted":
            break
        turn.append(event)
    else:
        return True
    for event in turn:
        if event.type == "ClansRemoved" and event.payload.get("seat") == colour:
            mine.add(event.payload.get("territory"))
    return any(event_concerns(event, colour, mine) for event in turn)


def attacked_in_clash(events: PublicEvents, state, colour: str, decision) -> bool | None:
    """For a Triskel window in a clash where the seat has clans: whether the seat is attacked by
    the step that opened it (the attack just declared, or the maneuver just made, targets it),
    read from the public events (`AttackDeclared`, `ManeuverPerformed`). None when the window is
    not about such a clash (the order then asks as "concerned" does). The rulebook, "Clash":
    each maneuver is an Attack, a Withdraw or an Epic Tale."""
    trigger = decision.context.get("trigger")
    clash = rules.current_clash(state)
    if trigger not in CLASH_TRIGGERS or clash is None:
        return None
    if clash["territory"] not in _my_territories(rules.view_for(state, colour), colour):
        return None
    if trigger not in ("attack_declared", "after_maneuver"):
        return False
    maneuvers = 0
    for _seq, event in reversed(events(max(0, state.seq - TRIGGER_LOOKBACK), state.seq)):
        if event.type == "ManeuverPerformed":
            maneuvers += 1
            if maneuvers > (trigger == "after_maneuver"):
                return False  # an earlier maneuver: this step declared no attack
        elif event.type == "AttackDeclared":
            return bool(event.payload.get("target") == colour)
    return False


# --- deciding --------------------------------------------------------------------------------


def _canonical(command: dict) -> dict:
    return {
        k: sorted(v) if isinstance(v, list) and all(isinstance(x, str) for x in v) else v
        for k, v in command.items()
    }


def _legal(state, colour: str) -> list[dict]:
    return [c for c in rules.legal_commands(state, colour) if c["type"] not in ("moor", "set_policy")]


def _triskel(events, state, colour, decision, orders) -> Outcome | None:
    answering = {c["card"] for c in _legal(state, colour) if c["type"] == "react"}
    if not answering:
        return None
    by_card = {o.body["card"]: o for o in orders}
    governing = [by_card.get(card, by_card.get("all")) for card in answering]
    if any(order is None for order in governing):
        return None  # a card without an order: the seat is asked as usual
    attacked = None
    if any(o.body.get("when") == "attacked" for o in governing if o is not None):
        attacked = attacked_in_clash(events, state, colour, decision)
    concerns = window_concerns(events, state, colour, decision)
    for order in governing:
        assert order is not None  # checked above
        asks = attacked if order.body.get("when") == "attacked" and attacked is not None else concerns
        if asks:
            return None  # one of the cards may be wanted: the seat is asked
    return Outcome({"type": "decline"}, governing[0])


def _queue_play(events, state, colour, order) -> Outcome:
    command = order.body["command"]
    watched = set(order.body.get("watch", []))
    if watched:
        for _seq, event in events(order.since_seq, state.seq):
            if any(v in watched for v in _values(event.payload)):
                return Outcome(None, order, spent=True)
    try:
        rules.decide(state, colour, command, rng=rules.rng_for("legality", state.seq))
    except rules.CommandError:
        return Outcome(None, order, spent=True)
    return Outcome(command, order, spent=True)


def _pass_until(events, state, colour, order, legal) -> Outcome:
    if {"type": "pass"} not in legal or season_concerns(events, state, colour, order.since_seq):
        return Outcome(None, order, spent=True)
    return Outcome({"type": "pass"}, order, since_seq=state.seq)


def _attack(order, legal) -> Outcome | None:
    if order.body["answer"] == "remove":
        wanted = [{"type": "attack_response", "choice": "remove"}]
    else:
        wanted = [{"type": "attack_response", "choice": "discard", "card": c} for c in order.body["cards"]]
    for command in wanted:
        if command in legal:
            return Outcome(command, order)
    return None


def _withdraw(state, colour, order, legal) -> Outcome | None:
    clash = rules.current_clash(state)
    exposed = rules.exposed(state, clash, colour) if clash else 0
    for territory in order.body["to"]:
        command = {"type": "withdraw", "moves": {territory: exposed}}
        if exposed and command in legal:
            return Outcome(command, order)
    return None


def _draft(state, colour, order, legal) -> Outcome | None:
    ranking, ask = order.body["ranking"], set(order.body.get("ask", []))
    offered = {card for c in legal for card in c["keep"]}
    if offered & ask:
        return None
    keep = len(legal[0]["keep"])
    best = [card for card in ranking if card in offered][:keep]
    if len(best) < keep:
        return None  # the ranking does not cover the pack: the player chooses
    command = {"type": "draft", "keep": sorted(best)}
    return Outcome(command, order) if command in legal else None


def _stand_in(state, colour, decision, order) -> Outcome | None:
    """The bot's answer when `order` hands it this decision: a maneuver, a Triskel window whose
    actor is the seat itself (its own play or move opened it), a setup clan to place, or a
    choice a played card asks of the seat."""
    if order.body["decision"] == "own_triskel" and decision.context.get("actor") != colour:
        return None
    # The bot's generator depends only on the seat and the log's position: the same answer when
    # verify_game decides the log again.
    rng = random.Random(f"stand-in order:{colour}:{state.seq}")
    try:
        command = bots.choose(state, colour, STAND_IN_ORDER_LEVEL, rng)
    except Exception:  # a bot's failure must not fail the command that raised the decision: ask
        logger.exception("the stand-in bot could not decide the standing order of %s", colour)
        return None
    return Outcome(command, order)


def _folded(events, state, colour, decision, orders) -> Outcome | None:
    """A Triskel window folded into the seat's maneuver (docs/rulings.md): the seat's Triskel
    orders decide the window as they would alone, a decline leaving the maneuver to its own
    orders next; when they would ask, or there are none, the seat is asked. Neither a `withdraw`
    order nor the stand-in bot answers it: that would answer a window someone else opened."""
    triskel_orders = [o for o in orders if o.kind == "triskel"]
    if not triskel_orders:
        return None
    window = rules.Decision(colour, "reaction", decision.prompt, decision.context["triskel"])
    return _triskel(events, state, colour, window, triskel_orders)


def decide_order(events: PublicEvents, state, colour: str, orders: list[StandingOrder]) -> Outcome | None:
    """What the seat's `orders` do about its first pending decision in `state`: an Outcome
    (a command to play, or an order spent without one: then the seat is asked), or None when no
    order applies. Reads only what `colour` may see and the public `events`. orders: the seat's
    `StandingOrder`s (unsaved ones do: a simulation's)."""
    decision = next((d for d in rules.pending(state) if d.seat == colour), None)
    if decision is None:
        return None
    if decision.kind == "maneuver" and "triskel" in decision.context:
        return _folded(events, state, colour, decision, orders)
    mine = [o for o in orders if decision.kind in answers(o)]
    if not mine:
        return None
    for order in mine:
        if order.kind == "stand_in":
            outcome = _stand_in(state, colour, decision, order)
            if outcome is not None:
                return outcome
    mine = [o for o in mine if o.kind != "stand_in"]
    if not mine:
        return None
    legal = [_canonical(c) for c in _legal(state, colour)]
    of = {o.kind: o for o in mine}
    if decision.kind == "reaction":
        return _triskel(events, state, colour, decision, mine)
    if decision.kind == "season_turn":
        if "queue_play" in of:
            return _queue_play(events, state, colour, of["queue_play"])
        return _pass_until(events, state, colour, of["pass_until"], legal)
    if decision.kind == "attack_response":
        return _attack(of["attack"], legal)
    if decision.kind == "peace_vote":
        return Outcome({"type": "peace_vote", "agree": bool(of["peace"].body["agree"])}, of["peace"])
    if decision.kind == "citadel":
        command = {"type": "citadel" if of["citadel"].body["shelter"] else "no_citadel"}
        return Outcome(command, of["citadel"]) if command in legal else None
    if decision.kind == "maneuver":
        return _withdraw(state, colour, of["withdraw"], legal)
    if decision.kind == "draft":
        return _draft(state, colour, of["draft"], legal)
    return None


def settle(outcome: Outcome) -> None:
    """Write what an Outcome does to its order: delete it when spent, move its since_seq."""
    if outcome.order is None:
        return
    if outcome.spent:
        StandingOrder.objects.filter(pk=outcome.order.pk).delete()
    elif outcome.since_seq is not None:
        StandingOrder.objects.filter(pk=outcome.order.pk).update(since_seq=outcome.since_seq)


# --- the command path ------------------------------------------------------------------------


def register_orders_column() -> None:
    """Have the clocks' locked read tell whether each seat holds standing orders
    (`clock.has_orders`), so the command path reads orders only for those seats (no query
    otherwise: tests/games/play/test_query_count.py)."""
    sql.register_clock_column(
        "has_orders",
        lambda quote: (
            f"EXISTS (SELECT 1 FROM {quote(StandingOrder._meta.db_table)} o WHERE o.seat_id = c.seat_id)"
        ),
    )


@receiver(decisions_changed, dispatch_uid="games.play.standing_orders.mark")
def mark_seats(sender, *, clocks, **kwargs) -> None:
    """Mark each player seat with whether it holds orders (`seat.has_standing_orders`), read
    with the clocks, and with the log's length when its pending decision opened
    (`seat.decision_seq`, None: none): the command path's loop (`ordered_seat`) reads both."""
    for clock in clocks:
        clock.seat.has_standing_orders = bool(getattr(clock, "has_orders", False))
        clock.seat.decision_seq = clock.seq


# The orders that answer a Season turn: a take-back pauses them for the turn it gives back.
SEASON_TURN_KINDS = tuple(kind for kind, decision in ANSWERS.items() if decision == "season_turn")


def paused_by_take_back(game: Game, seat: Seat) -> bool:
    """Whether the seat's last command, standing Triskel policies aside (`rules.NO_MOVE_COMMANDS`:
    no move, set at any time), is a take-back: its queued play and "pass until" then wait
    (docs/standing-orders.md), since the seat is deciding again by hand on that turn."""
    commands = Command.objects.filter(game=game, seat=seat).order_by("-first_seq")
    last = next(
        (c for c in commands.iterator(chunk_size=8) if c.body.get("type") not in rules.NO_MOVE_COMMANDS), None
    )
    return last is not None and last.body.get("type") == rules.TAKE_BACK


def current_orders(game: Game, seat: Seat) -> list[StandingOrder]:
    """The seat's orders that may answer its pending decision now: all of them, but the Season
    turn's (`SEASON_TURN_KINDS`) on a turn the seat took a move back (`paused_by_take_back`)."""
    orders = list(seat.standing_orders.all())
    if any(o.kind in SEASON_TURN_KINDS for o in orders) and paused_by_take_back(game, seat):
        orders = [o for o in orders if o.kind not in SEASON_TURN_KINDS]
    return orders


def ordered_seat(
    game: Game, seats: list[Seat], state, *, set_since_opening: bool = False
) -> tuple[Seat, dict] | None:
    """Inside the command's transaction (the game row locked): the first of `seats` (in seating
    order) whose standing orders answer its pending decision, as `(seat, command)`; orders spent
    on the way without a command (a queued play no longer legal, "pass until" triggered) are
    deleted, and their seat is asked. None when no order answers.

    Only the orders set before the decision opened answer it (docs/standing-orders.md): one set
    while it was open waits for its deadline (`answer_at_deadline`), however the others move
    meanwhile; nor does any answer a decision a take-back gave back (`paused_by_take_back`)
    before the seat moves again. `set_since_opening`: orders set since then answer too (a reply's new orders, on
    the decision its own move opened a moment before)."""
    if rules.is_over(state):
        return None
    deciding = {d.seat for d in rules.pending(state)}
    for seat in seats:
        if seat.is_bot or seat.colour not in deciding or not getattr(seat, "has_standing_orders", False):
            continue
        orders = current_orders(game, seat)
        if not set_since_opening:
            opened = _decision_seq(seat)
            orders = [o for o in orders if opened is not None and o.since_seq < opened]
        outcome = decide_order(public_events(game), state, seat.colour, orders)
        if outcome is None:
            continue
        if not set_since_opening and paused_by_take_back(game, seat):
            # Asked only when an order would answer (one query, off the usual path): the
            # decision a take-back gave back is decided by hand again (docs/rulings.md, "Taking
            # back a move"); the orders set while it was first open wait for its deadline.
            continue
        settle(outcome)
        if outcome.command is None:
            continue
        try:  # checked here, so that an order the rules refuse never fails the command that raised it
            rules.decide(state, seat.colour, outcome.command, rng=rules.rng_for(game.seed, state.seq))
        except rules.CommandError as error:
            logger.error("%s: the rules refused the standing order of %s: %s", game, seat.colour, error)
            StandingOrder.objects.filter(pk=outcome.order.pk).delete()
            continue
        return seat, outcome.command
    return None


def _decision_seq(seat: Seat) -> int | None:
    """The log's length when the seat's pending decision opened: as `mark_seats` noted it with
    the clocks, else read (one query)."""
    if hasattr(seat, "decision_seq"):
        return seat.decision_seq
    return SeatClock.objects.filter(seat=seat).values_list("seq", flat=True).first()


def answer_at_deadline(game: Game, seat: Seat, state) -> dict | None:
    """The command the seat's orders give for its pending decision when its deadline passed
    (docs/deadlines.md: the orders first, then the default); the order is settled. None: no
    order answers."""
    outcome = decide_order(public_events(game), state, seat.colour, current_orders(game, seat))
    if outcome is None:
        return None
    settle(outcome)
    return outcome.command


# --- setting and cancelling --------------------------------------------------------------------


def _cards_in(values, label: str, *, allowed=None) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise OrderError(_("{what} is a list of card names.").format(what=label))
    for card in values:
        if card not in rules.CARDS or (allowed is not None and card not in allowed):
            raise OrderError(_("{card} is not a card an order of this kind can name.").format(card=card))
    return list(dict.fromkeys(values))


def _territories_in(values) -> list[str]:
    if not isinstance(values, list) or not all(v in rules.TERRITORY_INFO for v in values):
        raise OrderError(_("Name territories of the island, e.g. the Valley or the Cove."))
    return list(dict.fromkeys(values))


def clean(body: dict) -> tuple[str, str, dict]:
    """`(kind, key, body)` of an order written as `{"kind": ..., fields}` (docs/standing-orders.md),
    its lists without repeats. Raises OrderError saying what was wrong and what is allowed."""
    if not isinstance(body, dict) or body.get("kind") not in KINDS:
        raise OrderError(
            _("An order is one of: {kinds}.").format(kinds=", ".join(KINDS)),
        )
    kind = body["kind"]
    if kind == "triskel":
        card = body.get("card")
        triskels = {c for c, info in rules.CARDS.items() if rules.TRISKEL in info.timings}
        if card != "all" and card not in triskels:
            raise OrderError(_("A Triskel order names a card with a Triskel, or all of them."))
        when = body.get("when", "concerned")
        if when not in TRISKEL_WHEN:
            raise OrderError(
                _(
                    'A Triskel order asks "when it concerns me" ("concerned") or, in my clashes, "only when I am attacked" ("attacked").'
                )
            )
        return kind, card, {"card": card, "when": when}
    if kind == "queue_play":
        command = body.get("command")
        if not isinstance(command, dict) or command.get("type") not in SEASON_COMMANDS:
            raise OrderError(_("A queued play is a Season card to play, a pass or a Pretender token."))
        return kind, "", {"command": _canonical(command), "watch": _territories_in(body.get("watch", []))}
    if kind == "pass_until":
        return kind, "", {}
    if kind == "attack":
        answer = body.get("answer")
        if answer not in ("remove", "discard"):
            raise OrderError(_("An attack is answered by removing a clan or discarding a card."))
        cards = _cards_in(body.get("cards", []), _("The cards to discard"))
        if answer == "discard" and not cards:
            raise OrderError(_("Name the Action cards to discard, the first one first."))
        return kind, "", {"answer": answer, "cards": cards if answer == "discard" else []}
    if kind in ("peace", "citadel"):
        field = "agree" if kind == "peace" else "shelter"
        if not isinstance(body.get(field), bool):
            raise OrderError(_("Say yes or no."))
        return kind, "", {field: body[field]}
    if kind == "stand_in":
        decision = _stand_in_decision(body)
        return kind, decision, {"decision": decision}
    if kind == "withdraw":
        to = _territories_in(body.get("to", []))
        if not to:
            raise OrderError(_("Name the territories to withdraw to, the first choice first."))
        return kind, "", {"to": to}
    ranking = _cards_in(body.get("ranking", []), _("The ranking"))
    ask = _cards_in(body.get("ask", []), _("The cards to ask about"))
    if not ranking and not ask:
        raise OrderError(_("A draft order ranks Action cards, best first, or marks some to ask about."))
    return kind, "", {"ranking": [c for c in ranking if c not in ask], "ask": ask}


def _stand_in_decision(body: dict) -> str:
    """The `decision` of a `stand_in` order's body (a key of `STAND_IN_DECISIONS`).
    Raises OrderError naming the four when it is none of them."""
    decision = body.get("decision")
    if decision not in STAND_IN_DECISIONS:
        raise OrderError(
            _(
                "The stand-in bot can decide your maneuvers in clashes, your Triskel answers after your own play, "
                "where your setup clans go, or the choices your cards ask once played."
            )
        )
    return decision


def queueable_cards(state, colour: str) -> list[str]:
    """The cards the seat `colour` may queue for its next Season turn: those of its own hand (and
    those it has kept in the draft under way, which join its hand at the end of the Assembly)
    that an order can queue (`queued_plays.QUEUE_SHAPES`: not Migration, say, whose play an order
    cannot hold). Reads only what that seat may see (`rules.view_for`)."""
    view = rules.view_for(state, colour)
    held = list(view.get("hand", [])) + list(view.get("draft", {}).get("kept", []))
    return [card for card in dict.fromkeys(held) if card in QUEUE_SHAPES]


def _check_in_hand(state, colour: str, command: dict) -> None:
    """Refuse a queued play of a card no order can queue (Migration, say), or of a card the seat
    does not hold (OrderError naming the cards it may queue, from its own hand only; none named
    when it holds no card an order can queue)."""
    if command.get("type") != "play":
        return
    cards = queueable_cards(state, colour)
    if command.get("card") in cards:
        return
    card = (
        rules.card_name(command["card"]) if command.get("card") in rules.CARDS else str(command.get("card"))
    )
    if command.get("card") in rules.CARDS and command["card"] not in QUEUE_SHAPES:
        raise OrderError(
            _(
                "{card} cannot be queued: its play takes choices an order does not hold. Play it on your turn."
            ).format(card=card)
        )
    if not cards:
        raise OrderError(
            _(
                "{card} is not in your hand, and you hold no card to queue: queue a pass or a Pretender token."
            ).format(card=card)
        )
    raise OrderError(
        _("{card} is not in your hand: you may queue {cards}, a pass or a Pretender token.").format(
            card=card, cards=", ".join(rules.card_name(c) for c in cards)
        )
    )


# The kinds an order of each kind replaces beside its own (docs/standing-orders.md).
REPLACE_EACH_OTHER = {"queue_play": ("pass_until",), "pass_until": ("queue_play",)}


def _check_on_island(state, territories: list[str]) -> None:
    """Refuse territories that are not on the game's island (OrderError naming the first one and
    the territories in play): an order watching or withdrawing to one could never apply."""
    for territory in territories:
        if territory not in state.territories:
            raise OrderError(
                _("{The_territory} is not on the island: name territories in play ({territories}).").format(
                    The_territory=rules.territory_phrase(territory, capital=True),
                    territories=", ".join(sorted(rules.territory_name(t) for t in state.territories)),
                )
            )


def set_order(game: Game, seat: Seat, body: dict) -> StandingOrder:
    """Store an order for `seat` (replacing its order of the same kind and card), under the
    game's row lock so a command being decided sees either the old or the new orders. It applies
    from the seat's next decision (and at the current one's deadline). Raises OrderError (bad
    order, a bot seat, a game over, too many orders, a queued card the seat does not hold):
    nothing is stored then."""
    kind, key, cleaned = clean(body)
    if seat.is_bot:
        raise OrderError(_("A bot's seat takes no orders."))
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.status == Game.Status.OVER:
            raise OrderError(_("This game is over."))
        existing = StandingOrder.objects.filter(seat=seat)
        # The order it replaces leaves room for it: of the same kind and card, or the queued play
        # and "pass until", which replace each other.
        replaced = [kind, *REPLACE_EACH_OTHER.get(kind, ())]
        if existing.count() >= MAX_ORDERS and not existing.filter(kind__in=replaced, key=key).exists():
            raise OrderError(_("You have {n} orders already: cancel one first.").format(n=MAX_ORDERS))
        if kind in ("withdraw", "queue_play"):
            state = store.load(locked)[0]
            _check_on_island(state, cleaned.get("to", []) + cleaned.get("watch", []))
        if kind == "queue_play":
            _check_in_hand(state, seat.colour, cleaned["command"])
            existing.filter(kind="pass_until").delete()
        if kind == "pass_until":
            existing.filter(kind="queue_play").delete()
        # Replaced, not updated: a new row (a new id) is what the game page's cache key reads.
        existing.filter(kind=kind, key=key).delete()
        order = StandingOrder.objects.create(
            game=locked, seat=seat, kind=kind, key=key, body=cleaned, since_seq=store.head(locked)[0]
        )
    return order


def cancel_order(seat: Seat, order_id: int | None = None) -> int:
    """Cancel one of the seat's orders (`order_id`), or all of them (None). Returns how many
    were cancelled (0: none of that id: already spent or cancelled)."""
    orders = StandingOrder.objects.filter(seat=seat)
    if order_id is not None:
        orders = orders.filter(pk=order_id)
    deleted, _by_model = orders.delete()
    return deleted


# How an email lists an order: "order 2: Always refuse peace." (numbered apart from the decision's
# options, in the words that cancel it: "cancel order 2").
ORDER_LINE = gettext_noop("order {number}: {order}")


def listed(orders: list[StandingOrder]) -> list[str]:
    """The orders as an email lists them ("order 1: …"), numbered from 1, in the active language."""
    return [_(ORDER_LINE).format(number=n, order=describe(o)) for n, o in enumerate(orders, 1)]


def listed_in_a_sentence(orders: list[StandingOrder]) -> str:
    """The orders as `listed` says them, in a sentence that goes on ("order 1: Always refuse
    peace; order 2: …"): each without its own full stop; "none" when there is none."""
    separator = pgettext("between the parts of a list", "; ")  # French: " ; "
    return separator.join(line.removesuffix(".") for line in listed(orders)) or _("none")


def read_listed(text: str) -> dict[int, str]:
    """The orders an email's text `text` listed (`listed`, in the active language): `{number:
    the order in words}`; {} when it listed none."""
    pattern = re.escape(_(ORDER_LINE)).replace(r"\{number\}", r"(?P<number>[0-9]{1,3})")
    pattern = pattern.replace(r"\{order\}", r"(?P<order>.+?)")
    found: dict[int, str] = {}
    for line in text.splitlines():
        match = re.fullmatch(pattern, line.strip())
        if match:
            found.setdefault(int(match.group("number")), match.group("order"))
    return found


def carry_out(game: Game, seat: Seat, command: dict, *, listed_then: dict[int, str] | None = None) -> str:
    """Do what a channel read (docs/email-commands.md, "Standing orders"):
    `{"type": "standing_order", "order": {...}}` stores it, `{"type": "cancel_order", "which":
    "all" | n | kind | "triskel:<card>"}` cancels. n: the order's number in the list of the
    email answered, `listed_then` (`read_listed`): orders cancelled, used or set since do not
    move it; None when that email is not known: its number in `orders_of` now, from 1.
    Returns what was done, in words, for the seat. Raises OrderError (a bad order, no such
    order to cancel, an order of that list no longer in force) and SeatNotYours (under the
    game's row lock, the seat has another holder than `seat` as the caller read it: an erasure
    or a hand-over committed in between, whose newcomer starts with no orders): nothing is
    changed then."""
    with transaction.atomic():
        store.lock(game)
        try:
            # The seats read with the lock: no query. The player read their seat before it.
            store.check_holder(seat, game.seats.all())
        except store.SeatChangedHands:
            raise SeatNotYours(
                _(
                    "This seat is no longer yours: it changed hands just before your order arrived, "
                    "and nothing was changed."
                )
            ) from None
        return _carried_out(game, seat, command, listed_then)


def _carried_out(game: Game, seat: Seat, command: dict, listed_then: dict[int, str] | None) -> str:
    """`carry_out`'s work, under the game's row lock, for the seat's holder."""
    if command["type"] == "standing_order":
        order = set_order(game, seat, command["order"])
        return _("standing order kept: {order}").format(order=describe(order))
    which = command.get("which")
    orders = orders_of(seat)
    if which == "all":
        chosen = orders
    elif isinstance(which, int) and not isinstance(which, bool) and listed_then is not None:
        chosen = _listed_order(orders, which, listed_then)
    elif isinstance(which, int) and not isinstance(which, bool):
        chosen = orders[which - 1 : which] if which >= 1 else []
    elif isinstance(which, str) and which.startswith("triskel:"):
        chosen = [o for o in orders if o.kind == "triskel" and o.key == which[8:]]
    else:
        chosen = [o for o in orders if o.kind == which]
    if not chosen:
        raise OrderError(
            _("You have no such order; your orders: {orders}.").format(orders=listed_in_a_sentence(orders))
        )
    StandingOrder.objects.filter(pk__in=[o.pk for o in chosen]).delete()
    separator = pgettext("between the parts of a list", "; ")
    return _("standing order cancelled: {orders}").format(orders=separator.join(describe(o) for o in chosen))


def _listed_order(
    orders: list[StandingOrder], number: int, listed_then: dict[int, str]
) -> list[StandingOrder]:
    """The order that the email answered listed as `number` (matched by its words), if it is still
    in force. Raises OrderError when that email listed no such number, or the order is gone."""
    now = listed_in_a_sentence(orders)
    if number not in listed_then:
        raise OrderError(
            _("The email you answered lists no order {number}; your orders now: {orders}.").format(
                number=number, orders=now
            )
        )
    chosen = [o for o in orders if describe(o) == listed_then[number]][:1]
    if not chosen:
        raise OrderError(
            _(
                "Order {number} of the email you answered ({order}) is no longer in force: it was "
                "cancelled, replaced or used since. Your orders now: {orders}."
            ).format(number=number, order=listed_then[number], orders=now)
        )
    return chosen


def orders_of(seat: Seat) -> list[StandingOrder]:
    """The seat's orders, oldest first. For that seat's own pages and emails only."""
    return list(StandingOrder.objects.filter(seat=seat).order_by("id"))


def orders_of_seat(seat_id: int) -> list[StandingOrder]:
    """`orders_of` by the seat's id (what the mail's recipients carry). For that seat only."""
    return list(StandingOrder.objects.filter(seat_id=seat_id).order_by("id"))


def describe(order: StandingOrder) -> str:
    """The order in one sentence, in the active language, addressed to its seat."""
    body = order.body
    if order.kind == "triskel":
        card = _("any Triskel card") if body["card"] == "all" else rules.card_name(body["card"])
        if body.get("when") == "attacked":
            return _(
                "Ask me about {card} in my clashes only when I am attacked; elsewhere only when the card concerns me."
            ).format(card=card)
        return _("Ask me about {card} only when the card or clash concerns me.").format(card=card)
    if order.kind == "queue_play":
        what = _describe_play(body["command"])
        if body["watch"]:
            watched = ", ".join(rules.territory_name(t) for t in body["watch"])
            return _("On my next Season turn: {what}, unless something changes in {where}.").format(
                what=what, where=watched
            )
        return _("On my next Season turn: {what}, if it is still legal.").format(what=what)
    if order.kind == "pass_until":
        return _("Pass on my Season turns until something concerns me.")
    if order.kind == "attack":
        if body["answer"] == "remove":
            return _("When attacked, remove a clan.")
        cards = ", ".join(rules.card_name(c) for c in body["cards"])
        return _("When attacked, discard the first I hold of: {cards}.").format(cards=cards)
    if order.kind == "peace":
        return _("Always accept peace.") if body["agree"] else _("Always refuse peace.")
    if order.kind == "citadel":
        return _("Shelter a clan in a free Citadel.") if body["shelter"] else _("Never shelter in a Citadel.")
    if order.kind == "stand_in":
        if body["decision"] == "maneuver":
            return _("Let the stand-in bot make my maneuvers in clashes.")
        if body["decision"] == "setup":
            return _("Let the stand-in bot place my setup clans.")
        if body["decision"] == "card_choices":
            return _(
                "Let the stand-in bot make the choices cards ask of me once played (the card Druid takes, "
                "a second move, the Epic Tales I keep, where an explored territory goes)."
            )
        return _("Let the stand-in bot answer with my Triskel cards after my own plays.")
    if order.kind == "withdraw":
        where = ", ".join(rules.territory_name(t) for t in body["to"])
        return _("In a clash, withdraw to the first I can of: {where}.").format(where=where)
    ranking = ", ".join(rules.card_name(c) for c in body["ranking"]) or "—"
    ask = ", ".join(rules.card_name(c) for c in body["ask"])
    if ask:
        return _("Draft by my ranking ({ranking}); ask me when a pack holds {ask}.").format(
            ranking=ranking, ask=ask
        )
    return _("Draft by my ranking ({ranking}).").format(ranking=ranking)


def _describe_play(command: dict) -> str:
    if command["type"] == "pass":
        return _("pass")
    if command["type"] == "pretender":
        return _("take a Pretender token")
    args = {k: v for k, v in command.items() if k not in ("type", "card")}
    return rules.describe_args(command["card"], args)
