"""The Action cards' worth to the hard bot: what it keeps at the draft, what a card in hand is
worth (rulebook, Assembly step 6, the draft; Season; End of the Season: unplayed Action cards are
discarded).

A one-move look-ahead on the victory race cannot tell Action cards apart: keeping a card
changes no race value until it is played, and a card given up (discarded to answer an Attack)
costs nothing on the race, so such a bot drafts at random and throws its hand away to save a
clan. The hard bot counts each Action card by `CARD_VALUES`: the race gain of playing it, as
measured by `python -m bench.card_values` (for every Season turn and Triskel window of 80 games
of easy bots, the race score (`games.bots.race`) after playing the card with its best targets,
the turn finished (`games.bots.rollouts.finish_turn`), less the score after a pass or a
decline; each gain clipped to ±3, then averaged). Public facts only: the table is the same for
every seat and every game, like a player's experience of the cards.
"""

from __future__ import annotations

import random

from games import rules

from .race import race_score

# Mean race gain of playing each Action card (unitless, the race score's scale), measured on
# 2026-11-26 by `python -m bench.card_values --games 80` over 14,800 plays.
CARD_VALUES: dict[str, float] = {
    "act_geis": 0.415,
    "act_scouts_spies": 0.389,
    "act_migration": 0.352,
    "act_new_clans": 0.336,
    "act_new_alliance": 0.298,
    "act_conquest": 0.277,
    "act_exploration": 0.243,
    "act_emissaries": 0.229,
    "act_craftsmen_peasants": 0.209,
    "act_warlord": 0.139,
    "act_sanctuary": 0.134,
    "act_bard": 0.085,
    "act_master_craftsman": 0.075,
    "act_festival": 0.070,
    "act_raid": 0.053,
    "act_citadel": 0.037,
    "act_druid": -0.006,
}
# A card in hand counts this share of its worth: it may yet be lost (discarded at the end of
# the Season, or to an Attack), and a bot holding cards back for their full worth passes too
# readily.
IN_HAND = 0.5


def card_value(card: str) -> float:
    """`CARD_VALUES[card]`, or 0 for any other card (race-score units)."""
    return CARD_VALUES.get(card, 0.0)


def hand_worth(state, seat: str) -> float:
    """What the Action cards in `seat`'s hand are worth during the Season (`IN_HAND` of their
    values), 0 in any other phase (race-score units). Reads `seat`'s own hand only."""
    if state.phase != "season":
        return 0.0
    return IN_HAND * sum(card_value(card) for card in state.hands.get(seat, ()))


def worth_score(state, seat: str) -> float:
    """The hard bot's score: the race score (`games.bots.race.race_score`) plus `hand_worth`,
    unless the game is over."""
    score = race_score(state, seat)
    return score if state.phase == "over" else score + hand_worth(state, seat)


def draft_command(options: list[rules.Command], rng: random.Random) -> rules.Command | None:
    """Of the draft's `options` (`{"type": "draft", "keep": [card, ...]}`), the one whose kept
    cards are worth most by `card_value`, ties broken by `rng`; None when no option is a draft
    pick."""
    picks = [option for option in options if option["type"] == "draft"]
    if not picks:
        return None
    return max(picks, key=lambda o: (sum(card_value(c) for c in o.get("keep", ())), rng.random()))


__all__ = ["CARD_VALUES", "card_value", "draft_command", "hand_worth", "worth_score"]
