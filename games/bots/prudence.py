"""Moves a strong player does not make: what the hard bot leaves out before it searches (and,
for peace, the easy bot too: `games.bots.lookahead.easy_command`).

Read from games the hard bot lost (issue 39) and the rulebook:

- An Epic Tale or an Advantage card played for no effect (rulebook, Cards: a card that cannot do
  anything may still be played) throws away a card kept from Season to Season; an Action card
  so played is only lost a little earlier (End of the Season: unplayed Action cards are
  discarded), and keeps the turn going, so it stays.
- Master Craftsman discards 1 card: an Action card held is lost at the end of the Season
  anyway, an Advantage card or an Epic Tale is not: while an Action card may be discarded, the
  others are kept.
- Peace (rulebook, Clash: "before each maneuver, players with exposed clans may discuss and
  agree to immediately end the clash"): proposed only when it serves the player
  (`peace_serves`): it is the weaker side, a rival having more exposed clans (fighting on, it
  would lose clans), or the fight can win it nothing (with every rival's exposed clans gone, the
  clans sheltered in Citadels would still keep it from being chieftain there). Proposing it
  after one's own Conquest gives the rivals the choice of the outcome. And only just before its
  own maneuver, as the rulebook's example has it ("The white player, just before his maneuver,
  asks the remaining involved players"): not as an aside to a Triskel window, such as the one
  right after its own Attack, which it had just preferred to peace.
- Withdraw (rulebook, Clash, Withdraw: "move 1 or more of your exposed clans to adjacent
  territories where you are chieftain"): the instigator, who started the clash, does not withdraw
  while it has more clans in the territory than any other player (`idle_withdraw`): it is
  winning the clash, and an Attack weakens the rival where a withdrawal only gives ground (before,
  a one-move look-ahead saw an Attack and a withdrawal that keeps the chieftainship as equal, and
  drew one at random).
- A pass on a Season turn (rulebook, Season: it ends when every player has passed in a row)
  may be the last: the Action cards still in hand are then lost. `pass_risk` is what the
  search takes off a pass for them, as likely as the rivals still to pass are to pass too: an
  early pass while the rivals hold Action cards risks little, and keeps the cards (Warlord's
  Triskel half, a Conquest for later) that a card played for no effect throws away.
- A pass only delays (`pass_only_delays`) when it cannot end the Season to the seat's profit:
  the seat does not lead the race, so the Assembly coming sooner gains it nothing. Then an Action
  card it can play for free (it spends no other card) for a gain is never worse than the pass,
  which only risks that card: every rival passing after it ends the Season, and the card is
  discarded unplayed. An Action card played for no effect only delays too, and spends a card
  (`delays`). A player who leads may pass to end the Season sooner, and still does. The search
  leaves these out (`games.bots.hard.turn_scores`): whether a play gains is seen once its turn
  is finished.

Public facts and the seat's own hand only, like the rest of the bot.
"""

from __future__ import annotations

from games import rules

from .card_worth import card_value
from .race import race_score


def prudent_options(state, seat: str, options: list[rules.Command]) -> list[rules.Command]:
    """`options` less the moves above (in their order); `options` itself when that would leave
    nothing."""
    kept = [
        o
        for o in options
        if not _wasteful(o) and not idle_peace(state, seat, o) and not idle_withdraw(state, seat, o)
    ]
    discards = [
        o.get("discard") for o in kept if o.get("card") == "act_master_craftsman" and o["type"] == "play"
    ]
    if any(isinstance(c, str) and _type(c) == "action" for c in discards):
        kept = [o for o in kept if not _keeps_worse(o)]
    return kept or options


# How likely a rival is to pass on its next Season turn, by what its hand holds (public: hand
# sizes by card type): nothing (it must pass), no Action card (Advantage cards and Epic Tales are
# kept from Season to Season, so often held back), Action cards (lost at the Season's end: most
# players play one).
PASS_LIKELIHOOD = {"empty": 1.0, "no_action": 0.5, "action": 0.2}


def pass_risk(state, seat: str) -> float:
    """What a pass on `seat`'s Season turn risks (race-score units): the worth of the Action
    cards in its hand (`card_worth.card_value`), lost if every other player still to pass in a
    row passes after it (rulebook, Season: it ends when every player has passed in a row), times
    how likely that is (`season_end_likelihood`); 0 outside the Season."""
    if state.phase != "season":
        return 0.0
    worth = sum(card_value(c) for c in state.hands.get(seat, ()) if _type(c) == "action")
    return worth * season_end_likelihood(state, seat) if worth else 0.0


def season_end_likelihood(state, seat: str) -> float:
    """How likely (0 to 1) the Season ends before `seat`'s next turn if it passes now: 1 when
    every other player has just passed in a row; else the product of each rival's
    `PASS_LIKELIHOOD` over the rivals who would have to pass too, in turn order. Public facts
    only (the Season's passes in a row, hand sizes by type). 1 when no Season turn is under way."""
    frame = next((f for f in reversed(state.stack) if f["kind"] == "season"), None)
    if frame is None:
        return 1.0
    others = len(state.seats) - 1
    still = max(0, others - frame["passes"])
    likelihood = 1.0
    rival = seat
    for _step in range(still):
        rival = state.next_seat(rival)
        hand = state.hands.get(rival, ())
        if not hand:
            likelihood *= PASS_LIKELIHOOD["empty"]
        elif any(_type(c) == "action" for c in hand):
            likelihood *= PASS_LIKELIHOOD["action"]
        else:
            likelihood *= PASS_LIKELIHOOD["no_action"]
    return likelihood


def pass_only_delays(state, seat: str) -> bool:
    """Whether a pass on `seat`'s Season turn can only delay its cards: the Season is under way
    and the seat does not lead the race (`race.race_score` at most 0), so ending the Season
    sooner would be no profit to it (rulebook, Season: a player who passes may play on a later
    turn, unless every player has passed in a row: the Season then ends and the Action cards in
    hand are discarded). A seat that leads may pass to bring the Assembly sooner. Public facts
    only."""
    return state.phase == "season" and race_score(state, seat) <= 0.0


def delays(option: rules.Command) -> bool:
    """Whether `option` changes nothing on a Season turn but who plays next: a pass, or an
    Action card played for no effect."""
    return option["type"] == "pass" or (
        option["type"] == "play" and bool(option.get("no_effect")) and _type(option["card"]) == "action"
    )


def free_play(option: rules.Command) -> bool:
    """Whether `option` plays an Action card for an effect at no other cost: not for no effect,
    and naming no other card of the hand to discard (Master Craftsman with nothing else in
    hand). An Action card is discarded at the end of the Season anyway: played, it spends
    nothing kept."""
    return (
        option["type"] == "play"
        and _type(option["card"]) == "action"
        and not option.get("no_effect")
        and option.get("discard") is None
    )


def _type(card: str) -> str:
    return rules.CARDS[card].type


def _wasteful(option: rules.Command) -> bool:
    """An Epic Tale or Advantage card played for no effect."""
    return bool(option.get("no_effect")) and option["type"] == "play" and _type(option["card"]) != "action"


def _keeps_worse(option: rules.Command) -> bool:
    """Master Craftsman discarding a card that outlasts the Season (Advantage, Epic Tale)."""
    discard = option.get("discard")
    return (
        option.get("card") == "act_master_craftsman"
        and isinstance(discard, str)
        and _type(discard) != "action"
    )


def idle_peace(state, seat: str, option: rules.Command) -> bool:
    """Whether `option` is a peace proposal a strong player does not make: one that does not
    serve `seat` (`peace_serves`), or made other than just before its own maneuver (a Triskel
    window's decision). Public facts only."""
    if option["type"] != "propose_peace":
        return False
    maneuvering = any(d.seat == seat and d.kind == "maneuver" for d in rules.pending(state))
    return not maneuvering or not peace_serves(state, seat)


def idle_withdraw(state, seat: str, option: rules.Command) -> bool:
    """Whether `option` is a withdrawal a strong player does not make: `seat` is the instigator of
    the current clash and has more clans in its territory (in Citadels or not) than every other
    player (rulebook, Clash: the instigator started it; Territory chieftain: the player with the
    most clans there). False for any other command, and outside a clash. Public facts only."""
    if option["type"] != "withdraw":
        return False
    clash = rules.current_clash(state)
    if clash is None or clash["instigator"] != seat:
        return False
    clans = state.territories[clash["territory"]]["clans"]
    mine = clans.get(seat, 0)
    return all(n < mine for other, n in clans.items() if other != seat)


def peace_serves(state, seat: str) -> bool:
    """Whether ending the current clash now serves `seat`, one of its players with exposed clans
    (rulebook, Clash, Resolution: Attack makes the attacked player lose a clan or an Action card;
    "A clash ends either when all involved players agree to end the clash or when there are no
    exposed clans remaining"): a rival has more exposed clans than it (fighting on, it would
    lose clans), or the fight can win it nothing: even with every rival's exposed clans gone, it
    would not be the territory's chieftain (rulebook, Territory chieftain: the player with the
    most clans there; a clan in a Citadel is not involved in the clash). False outside a clash,
    and for a seat with no exposed clans or no rival left with any. Public facts only."""
    clash = rules.current_clash(state)
    if clash is None:
        return False
    exposed = {s: rules.exposed(state, clash, s) for s in state.seats}
    mine = exposed.pop(seat, 0)
    rivals = [n for n in exposed.values() if n > 0]
    if not mine or not rivals:
        return False
    if max(rivals) > mine:
        return True
    # The best the fight can do for the seat: every rival left with only its clans sheltered in
    # a Citadel. A chieftain has strictly the most clans in the territory.
    sheltered = [n for s, n in clash["sheltered"].items() if s != seat]
    return state.clans(clash["territory"], seat) <= max(sheltered, default=0)
