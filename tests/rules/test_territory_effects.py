"""The four printed territory effects: Gates of Tír na nÓg, Mountains, Stone Circle, Swamp.

Tile texts: docs/cards.md (Territories); rulings U9 (Mountains), U10 (Gates) and U15 (Swamp):
docs/rulings.md.
"""

import pytest

from games.rules import IllegalCommand, InvalidCommand, decide, legal_commands, rng_for, start_game
from games.rules.engine import fold

from .positions import Table, first, types
from .triskel_positions import by_seed

THREE = ("green", "blue", "orange")


# -- entering with a Sanctuary: Gates of Tír na nÓg, Stone Circle ------------------------------

EXPLORE = """
    moor    0,0  green 2  blue 1
    valley  1,0  orange 2
"""


def explore(tile):
    """Green (the Brenn) plays Exploration with `tile` on top of the stack, at the first place."""
    table = Table(
        EXPLORE,
        seats=THREE,
        capital="valley",
        brenn="green",
        decline=True,
        tile_stack=[tile, "forest" if tile == "plains" else "plains"],  # each tile once
        hands={"green": ["act_exploration"]},
    )
    table.play("green", "act_exploration")
    assert table.awaiting() == {"green": "territory_cell"}
    table.do("green", table.legal("green")[0])
    return table


@pytest.mark.parametrize("tile", ["gates", "stone_circle"])
def test_gates_and_stone_circle_enter_play_with_a_sanctuary(tile):
    """Gates of Tír na nÓg and Stone Circle: "Enters play with 1 Sanctuary." Placed by
    Exploration, the tile brings its Sanctuary (from the supply), its Advantage card goes face
    up, and the player places 1 clan there."""
    supply = Table(EXPLORE, seats=THREE, capital="valley").state.supply["sanctuaries"]
    table = explore(tile)
    assert table.state.territories[tile]["sanctuaries"] == 1
    assert table.state.supply["sanctuaries"] == supply - 1
    assert table.clans(tile) == {"green": 1}
    assert f"adv_{tile}" in table.state.advantage_display
    placed = types(table.events)
    assert placed.index("TerritoryPlaced") < placed.index("BuildingPlaced")


def test_other_tiles_enter_play_without_a_building():
    """The other tiles have no tile text (docs/cards.md, Territories): the Plains arrive empty."""
    table = explore("plains")
    assert table.state.territories["plains"]["sanctuaries"] == 0
    assert "BuildingPlaced" not in types(table.events)


def starting(tile: str) -> tuple[str, list]:
    """A seed whose random set-up of 4 players draws `tile` among the starting tiles, and its
    events."""
    for n in range(200):
        events = start_game(["green", "blue", "orange", "white"], seed=f"start-{tile}-{n}")
        if any(e.type == "TerritoryPlaced" and e.payload["territory"] == tile for e in events):
            return f"start-{tile}-{n}", events
    raise AssertionError(f"no seed of 200 draws {tile} at the start")


@pytest.mark.parametrize("tile", ["gates", "stone_circle"])
def test_a_starting_tile_enters_play_with_its_sanctuary(tile):
    """Setup: the starting tiles are drawn and placed face up, so they enter play; Gates of Tír
    na nÓg and Stone Circle: "Enters play with 1 Sanctuary." Drawn at the start, the tile has its
    Sanctuary before the Brenn chooses the Capital, which then takes another from the supply."""
    _seed, events = starting(tile)
    state = fold(events)
    assert state.territories[tile]["sanctuaries"] == 1
    placed = [(e.type, e.payload.get("territory")) for e in events]
    assert placed.index(("BuildingPlaced", tile)) == placed.index(("TerritoryPlaced", tile)) + 1
    supply = state.supply["sanctuaries"]
    capital = next(t for t in state.territories if t not in (tile, "swamp"))
    state = fold(
        events
        + decide(
            state, state.brenn, {"type": "choose_capital", "territory": capital}, rng=rng_for("x", state.seq)
        )
    )
    assert state.territories[capital]["sanctuaries"] == 1
    assert state.supply["sanctuaries"] == supply - 1


def test_games_begun_before_keep_their_bare_starting_tiles():
    """A game created before the starting tiles brought their Sanctuary plays rules revision 1
    (games.rules.revisions; its options carry the key): dealt again from its seed, its set-up is
    the one it was dealt, and the revision is not recorded (its GameStarted never had one)."""
    seed, events = starting("stone_circle")
    bare = start_game(["green", "blue", "orange", "white"], seed=seed, options={"rules_revision": 1})
    assert [e.type for e in bare] == [e.type for e in events if e.type != "BuildingPlaced"]
    assert fold(bare).territories["stone_circle"]["sanctuaries"] == 0
    assert bare[0].payload["options"] == {"buildings": "first_print"}
    assert events[0].payload["options"] == {"buildings": "first_print", "rules_revision": 4}
    with pytest.raises(InvalidCommand, match="rules_revision must be one of 1, 2, 3, 4"):
        start_game(["green", "blue"], seed=seed, options={"rules_revision": 5})


# -- Gates of Tír na nÓg: the turn direction changes -------------------------------------------

GATES = """
    gates   0,0  green 2  blue 1  orange 2  sanctuaries 1
    valley  1,0  orange 2
    plains  0,1  blue 2
"""


def assembly(seed):
    """Round 2 is about to start; orange (chieftain of the Capital) stays the Brenn; the Flock
    of Crows showed clockwise last round. No Epic Tale in any hand, so no window opens."""
    return Table(
        GATES,
        seats=THREE,
        capital="valley",
        brenn="orange",
        phase="assembly",
        flock="clockwise",
        seed=seed,
        decline=False,
        epic_deck=["ep_eriu", "ep_tuans_memory", "ep_balors_eye", "ep_stone_of_fal"],
    )


def epic_tales(table, seat) -> list:
    return [c for c in table.hand(seat) if c.startswith("ep_")]


def tossed(table) -> str:
    return first(table.events, "FlockTossed").payload["side"]


def test_gates_when_the_flock_changes_side_at_the_assembly():
    """Gates of Tír na nÓg: "Whenever the turn direction changes, each player present here loses
    1 of their clans from this territory and draws 1 Epic Tale card." It fires "at Assembly step
    4, when the token is tossed and lands on the other side from the previous round" (U10);
    players resolve "Brenn first, then in Flock-of-Crows order" (the Seasons of Inis rulebook,
    Timing clarifications)."""
    table = by_seed(assembly, lambda t: tossed(t) == "counterclockwise", prefix="gates-toss")
    assert table.state.flock == "counterclockwise"
    # Orange is the Brenn; counterclockwise from orange: orange, blue, green.
    opened = [e.payload["seat"] for e in table.events if e.type == "GatesOpened"]
    assert opened == ["orange", "blue", "green"]
    effects = [
        (e.type, e.payload["seat"]) for e in table.events if e.type in ("ClansRemoved", "EpicTaleDrawn")
    ]
    assert effects == [
        ("ClansRemoved", "orange"),
        ("EpicTaleDrawn", "orange"),
        ("ClansRemoved", "blue"),
        ("EpicTaleDrawn", "blue"),
        ("ClansRemoved", "green"),
        ("EpicTaleDrawn", "green"),
    ]
    assert table.clans("gates") == {"green": 1, "orange": 1}  # blue lost its only clan there
    assert epic_tales(table, "orange") == ["ep_eriu"]
    assert epic_tales(table, "blue") == ["ep_tuans_memory"]
    assert epic_tales(table, "green") == ["ep_balors_eye"]
    toss = types(table.events).index("FlockTossed")
    assert toss < types(table.events).index("GatesOpened")


def test_gates_do_nothing_when_the_toss_keeps_the_side():
    """The Gates look at a *change* of the turn direction: a toss landing on the same side as
    last round takes no clan and draws no card."""
    table = by_seed(assembly, lambda t: tossed(t) == "clockwise", prefix="gates-toss")
    assert "GatesOpened" not in types(table.events)
    assert table.clans("gates") == {"green": 2, "blue": 1, "orange": 2}
    assert all(not epic_tales(table, s) for s in THREE)


# -- Mountains ---------------------------------------------------------------------------------

MOUNTAINS = """
    valley     0,0   green 3
    mountains  1,0   orange 1
    plains     0,1   blue 2  green 1
    cove       1,-1  green 1
"""


def mountains(hands, **position):
    position.setdefault("capital", "plains")
    return Table(MOUNTAINS, seats=THREE, decline=True, hands=hands, **position)


def test_mountains_toll_is_an_action_card_or_a_clan_once_per_move():
    """Mountains: "When 1 or more clans are moved into this territory, their owner must either
    discard 1 Action card or lose 1 of those clans." Paid once per move (ruling U9), here for 2
    clans moved in by one Migration. The toll comes before the clash the move starts."""
    table = mountains({"green": ["act_migration", "act_bard", "act_druid"]})
    table.play("green", "act_migration", **{"from": "valley", "moves": {"mountains": 2}})
    assert table.awaiting() == {"green": "mountains_toll"}
    assert table.legal("green") == [
        {"type": "mountains_toll", "pay": "discard", "card": "act_bard"},
        {"type": "mountains_toll", "pay": "discard", "card": "act_druid"},
        {"type": "mountains_toll", "pay": "clan"},
    ]  # no Mountains card to play: green holds none
    assert "ClashStarted" not in types(table.events)
    events = table.do("green", "mountains_toll", pay="discard", card="act_bard")
    assert first(events, "MountainsTollPaid").payload == {"seat": "green", "paid": "an Action card"}
    assert first(events, "CardDiscarded").visibility == ("green",)  # face down
    assert table.hand("green") == ["act_druid"]
    assert table.clans("mountains") == {"green": 2, "orange": 1}
    assert first(events, "ClashStarted").payload["territory"] == "mountains"
    assert table.awaiting() == {"green": "maneuver"}  # no second toll


def test_mountains_toll_paid_with_one_of_the_moved_clans():
    """Mountains: "... or lose 1 of those clans from this territory" — once, for a Conquest
    bringing clans from two territories."""
    table = mountains({"green": ["act_conquest", "act_bard"]})
    table.play("green", "act_conquest", territory="mountains", moves={"valley": 2, "cove": 1})
    assert table.awaiting() == {"green": "mountains_toll"}
    events = table.do("green", "mountains_toll", pay="clan")
    removed = first(events, "ClansRemoved").payload
    assert removed == {"seat": "green", "territory": "mountains", "count": 1, "cause": "Mountains"}
    assert table.clans("mountains") == {"green": 2, "orange": 1}
    assert table.hand("green") == ["act_bard"]
    assert types(table.events).count("MountainsTollPaid") == 1


def test_mountains_without_an_action_card_the_clan_is_lost():
    """Mountains: "their owner discards 1 Action card or loses 1 of those clans" (docs/cards.md):
    with no Action card in hand the clan is lost, and nobody is asked."""
    table = mountains({"green": ["act_migration"]})
    events = table.play("green", "act_migration", **{"from": "valley", "moves": {"mountains": 1}})
    assert first(events, "MountainsTollPaid").payload["paid"] == "a clan"
    assert table.clans("mountains") == {"orange": 1}
    assert "ClashStarted" not in types(events)  # nothing of green's left to clash with
    assert table.awaiting() == {"blue": "season_turn"}


def test_placing_clans_in_the_mountains_is_free():
    """The Mountains effect is on clans "moved here" (docs/cards.md): placing a clan there is
    no move and costs nothing (ruling U9)."""
    island = MOUNTAINS.replace("mountains  1,0   orange 1", "mountains  1,0   green 1")
    table = Table(
        island, seats=THREE, capital="plains", decline=True, hands={"green": ["act_new_clans", "act_bard"]}
    )
    table.play("green", "act_new_clans", territories=["mountains", "mountains"])
    assert "MountainsTollPaid" not in types(table.events)
    assert table.clans("mountains") == {"green": 3}
    assert table.awaiting() == {"blue": "season_turn"}


def test_moving_out_of_the_mountains_is_free():
    """The toll is for clans "moved into this territory": leaving costs nothing."""
    island = MOUNTAINS.replace("mountains  1,0   orange 1", "mountains  1,0   green 2")
    table = Table(
        island, seats=THREE, capital="plains", decline=True, hands={"green": ["act_migration", "act_bard"]}
    )
    table.play("green", "act_migration", **{"from": "mountains", "moves": {"valley": 2}})
    assert "MountainsTollPaid" not in types(table.events)
    assert table.awaiting() == {"blue": "season_turn"}


# -- Swamp ---------------------------------------------------------------------------------

SWAMP = """
    valley  0,0  green 2
    swamp   1,0  green 1  blue 1
"""


def test_no_citadel_in_the_swamp():
    """Swamp: "No Citadel can be placed in this territory." The Citadel card offers only the
    other territories where the player is present, and refuses the Swamp."""
    table = Table(SWAMP, seats=THREE, capital="valley", decline=True, hands={"green": ["act_citadel"]})
    assert [c for c in table.legal("green") if c.get("card") == "act_citadel"] == [
        {"type": "play", "card": "act_citadel", "territory": "valley"}
    ]
    table.refuse("green", "play", card="act_citadel", territory="swamp")


def test_the_swamp_cannot_be_the_capital():
    """Swamp: "No Citadel can be placed here (so it cannot be the Capital)" (docs/cards.md): the
    Capital is a Citadel (ruling U15). At setup the Brenn may not choose it."""
    state = None
    for i in range(300):  # the first seed whose starting tiles include the Swamp
        state = fold(start_game(list(THREE), seed=f"swamp-{i}"))
        if "swamp" in state.territories:
            break
    assert "swamp" in state.territories
    capitals = [c["territory"] for c in legal_commands(state, state.brenn)]
    assert capitals and "swamp" not in capitals
    with pytest.raises(IllegalCommand) as info:
        decide(
            state,
            state.brenn,
            {"type": "choose_capital", "territory": "swamp"},
            rng=rng_for("swamp", state.seq),
        )
    assert "Swamp" in str(info.value)


def test_a_described_position_may_not_put_the_capital_or_a_citadel_in_the_swamp():
    """Ruling U15 also holds for a described position (docs/positions.md): it is refused."""
    for swamp in ({"cell": [1, 0]}, {"cell": [1, 0], "citadels": 1}):
        position = {
            "territories": {"valley": {"cell": [0, 0], "clans": {"green": 1}}, "swamp": swamp},
            "capital": "swamp" if "citadels" not in swamp else "valley",
        }
        with pytest.raises(InvalidCommand) as info:
            start_game(list(THREE), seed="x", setup=position)
        assert "Swamp" in str(info.value)
