"""The victory race: how near each seat is to winning the next Assembly, as one number.

Rulebook, Victory Conditions (present in 6 territories; 6 opposing clans in the territories
where you are chieftain; 6 Sanctuaries in the territories where you are present), Deeds (each
counts towards one condition), End of the Game (only the Pretenders can win; the most
conditions wins; on a tie the Brenn wins if tied). A seat's race value counts its conditions
met (Deeds spent where they help most), how near it is to each, whether it is a Pretender and
the Brenn, and a little for clans on the island and cards in hand (what it still can do).
"""

from __future__ import annotations

from games import rules

# A game won or lost outweighs any race value.
WON = 100.0


def race_value(state, seat: str) -> float:
    """How near `seat` is to winning, on the public facts of `state` (unitless, about 0 to 15)."""
    values = rules.condition_values(state, seat)
    met = rules.conditions_met(state, seat)
    target = rules.VICTORY_TARGET
    deeds = state.deeds.get(seat, 0)
    # Nearness to the conditions, the nearest weighing most: one condition met wins more
    # Assemblies than three half-met (40 games against random bots: 33 won against 30).
    near = sorted((min(v, target) / target for v in values.values()), reverse=True)
    nearness = 1.5 * near[0] + 0.75 * near[1] + 0.25 * near[2]
    value = 2.0 * met + nearness + 0.4 * deeds
    if seat in state.pretenders:
        value += 0.25 + 1.0 * met
    if state.brenn == seat:
        value += 0.3
    on_island = sum(d["clans"].get(seat, 0) for d in state.territories.values())
    # Action cards are discarded at the end of the Season: only Epic Tales and Advantage cards
    # kept in hand are worth something later.
    kept = sum(1 for card in state.hands.get(seat, ()) if rules.CARDS[card].type != "action")
    value += 0.02 * on_island + 0.05 * kept
    return value


def race_score(state, seat: str) -> float:
    """`seat`'s race value less the best of the other seats'; ±`WON` once the game is over."""
    if state.phase == "over":
        return WON if state.winner == seat else -WON
    mine = race_value(state, seat)
    best_other = max(race_value(state, s) for s in state.seats if s != seat)
    return mine - best_other
