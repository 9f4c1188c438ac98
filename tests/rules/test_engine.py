"""Commands in, events out: the three kinds of refusal, and a refusal never writes anything.

Rules API (docs/rules-api.md): `decide` "never mutates state; raises InvalidCommand (malformed),
IllegalCommand (breaks a rule), AmbiguousCommand"; whose message names what is allowed instead.
"""

import pytest

from games.rules import IllegalCommand, InvalidCommand, decide, evolve, fold, rng_for, start_game

from .positions import Table

ISLAND = """
    plains  0,0  green 3  blue 2  sanctuaries 1
    valley  1,0  blue 1  orange 2
    cove    0,1  orange 1
"""


def season_table(**kw):
    kw.setdefault("hands", {"green": ["act_new_clans", "act_geis"], "blue": ["act_bard"]})
    return Table(ISLAND, capital="plains", brenn="green", opened=False, **kw)


@pytest.mark.parametrize(
    "command",
    [
        "pass",
        ["pass"],
        {},
        {"type": 3},
        {"kind": "pass"},
    ],
)
def test_malformed_commands_are_invalid(command):
    """ "InvalidCommand: the command cannot be understood: missing fields, unknown names, wrong
    types" — and the state is unchanged."""
    table = season_table()
    before = table.state.to_json()
    with pytest.raises(InvalidCommand) as info:
        decide(table.state, "green", command, rng=rng_for(table.seed, table.state.seq))
    assert '"type"' in str(info.value)
    assert table.state.to_json() == before


@pytest.mark.parametrize("agree", ["yes", 1, None])
def test_a_peace_vote_that_is_not_true_or_false_is_malformed(agree):
    """docs/rules-api.md, "Errors": `decide` raises InvalidCommand for "wrongly typed or missing
    fields", not a rule's refusal: a vote on peace is true or false, never "yes" nor 1."""
    table = Table(
        """
        hills  0,0  green 2  blue 2
        valley 1,0  green 2
        """,
        seats=("green", "blue"),
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 1}})
    table.do("green", "propose_peace")
    message = table.refuse("blue", {"type": "peace_vote", "agree": agree}, error=InvalidCommand)
    assert message == '"agree" must be true or false.'


@pytest.mark.parametrize("field, value", [("no_effect", "yes"), ("place", "2")])
def test_a_card_argument_of_the_wrong_type_is_malformed(field, value):
    """docs/rules-api.md, "Errors": "for no effect" is true or false, a count of clans to place a
    whole number; any other value is InvalidCommand naming the field."""
    table = season_table(hands={"green": ["act_new_clans"]})
    message = table.refuse(
        "green", {"type": "play", "card": "act_new_clans", field: value}, error=InvalidCommand
    )
    assert message.startswith(f'"{field}" must be ')


def test_unknown_seat_is_invalid():
    """`decide` raises "InvalidCommand (malformed command or unknown seat)": a command from a
    seat that is not at the table cannot be understood."""
    table = Table(
        ISLAND,
        seats=("green", "blue", "orange"),
        capital="plains",
        opened=False,
        hands={"green": ["act_new_clans"]},
    )
    message = table.refuse("white", "pass", error=InvalidCommand)
    assert "white" in message


@pytest.mark.parametrize(
    "command, error, words",
    [
        ({"type": "play", "card": "act_nonsense"}, InvalidCommand, "Unknown card"),
        ({"type": "play", "card": "act_bard"}, IllegalCommand, "not in your hand"),
        ({"type": "play", "card": "act_geis"}, IllegalCommand, "Triskel card"),
        (
            {"type": "play", "card": "act_new_clans", "territories": ["cove", "cove"]},
            IllegalCommand,
            "Allowed: New Clans placing 2 clans in the Plains",
        ),
        ({"type": "pass"}, IllegalCommand, "open the Season"),
        ({"type": "pretender"}, IllegalCommand, "open the Season"),
        ({"type": "attack", "target": "blue"}, IllegalCommand, "play a card, pass, or take a Pretender"),
    ],
)
def test_rule_breaks_are_illegal_and_write_nothing(command, error, words):
    """ "IllegalCommand: the command is understood but breaks a rule in the current position";
    "Raising one of these never changes the state". The message says what is allowed."""
    table = season_table()
    message = table.refuse("green", command, error=error)
    assert words in message


def test_acting_out_of_turn_names_who_is_awaited():
    """ "...with each player in turn order doing one of the three options": only the seat whose
    decision it is may act; the others are told whom the game waits for, in their own words: not
    green's prompt, which speaks to green ("Your turn ..."), and one full stop."""
    from games.rules import players_named, speaking

    table = season_table()
    assert table.refuse("blue", "pass") == "You have nothing to decide now: the game waits for green."
    with speaking("fr"):
        assert (
            table.refuse("blue", "pass") == "Vous n'avez rien à décider maintenant : la partie attend vert."
        )
    with players_named({"green": "Ann"}):
        assert (
            table.refuse("blue", "pass") == "You have nothing to decide now: the game waits for Ann (green)."
        )


def test_out_of_turn_in_a_private_window_names_nobody_and_ends_once():
    """In a window that asks only the holders of an answer (`reactions: "holders"`), who was
    asked stays hidden: the refusal says only that the game waits for possible reactions."""
    from games.rules import speaking

    from .test_reactions_holders import geis_table

    table = geis_table()
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert table.refuse("orange", "decline") == (
        "You have nothing to decide now. Waiting for possible Triskel reactions: green has declared New Clans."
    )
    with speaking("fr"):
        assert table.refuse("orange", "decline") == (
            "Vous n'avez rien à décider maintenant. En attente d'éventuelles réactions Triskel : "
            "le joueur vert a annoncé Nouveaux Clans."
        )


def green_maneuvers_in_the_plains() -> Table:
    """A 2-player table where green has migrated 1 clan from the Valley into the Plains (green 3,
    blue 2) and maneuvers first in the clash there; blue alone holds the Cove."""
    table = Table(
        """
        plains  0,0  green 2  blue 2
        valley  1,0  green 2
        cove    0,1  blue 3
    """,
        seats=("green", "blue"),
        capital="valley",
        opened=False,
        hands={"green": ["act_migration"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"plains": 1}})
    assert table.decision("green").kind == "maneuver"
    return table


def test_illegal_commands_of_a_clash_write_nothing():
    """Attack: "The player chooses an opponent with one or more exposed clans"; Withdraw: "The
    player moves one or more of his exposed clans to adjacent territories where he is the
    chieftain." Attacking oneself or an absent player, withdrawing where one is not chieftain or
    more clans than are exposed are refused and leave the state as it was."""
    table = green_maneuvers_in_the_plains()
    assert "blue" in table.refuse("green", "attack", target="green")
    assert "blue" in table.refuse("green", "attack", target="orange")
    assert "Valley" in table.refuse("green", "withdraw", moves={"cove": 1})
    assert "3 exposed" in table.refuse("green", "withdraw", moves={"valley": 4})
    assert table.refuse("green", "withdraw", moves={"valley": 0}, error=InvalidCommand)
    assert table.refuse("green", "withdraw", moves=["valley"], error=InvalidCommand)
    assert table.refuse("green", "end_clash")
    assert table.refuse("green", "citadel")


def test_game_over_refuses_everything():
    """End of the Game: "The player who meets the most victory conditions wins!" — once the
    High King is elected no command is accepted."""
    table = Table(
        """
        moor    0,0  blue 1
        plains  1,0  green 1
    """,
        seats=("green", "blue"),
        capital="plains",
        brenn="green",
        phase="assembly",
        pretenders=["blue"],
        deeds={"blue": 5},
    )
    assert table.state.winner == "blue"
    assert "over" in table.refuse("green", "pass")


@pytest.mark.parametrize(
    "seats, options, words",
    [
        (["green"], None, "2, 3 or 4"),
        (["green", "green"], None, "distinct"),
        (["green", "purple"], None, "distinct colours"),
        (["green", "blue"], {"buildings": "third_print"}, "first_print"),
        # Wrongly typed arguments: refused in words, not a TypeError (docs/rules-api.md,
        # `start_game`: "Raises `InvalidCommand` on a bad configuration").
        (None, None, "seats must be a list of 2 to 4 colours among green, blue, orange, white"),
        (["green", "blue"], [1], 'options must be an object, such as {"buildings": "later_print"}'),
        (["green", "blue"], {"buildings": ["x"]}, "buildings must be first_print or later_print"),
        (["green", "blue"], {"reactions": {"a": 1}}, "reactions must be public or holders"),
    ],
)
def test_bad_game_configuration_is_invalid(seats, options, words):
    """ "2 to 4 players"; "Each player chooses a color"; the building supply of a known print
    (ruling U16); arguments of the wrong type."""
    with pytest.raises(InvalidCommand) as info:
        start_game(seats, seed="x", options=options)
    assert words in str(info.value)


@pytest.mark.parametrize(
    "change, words",
    [
        ({"territories": {"atlantis": {"cell": [0, 0]}}}, "Unknown territory"),
        ({"territories": {"moor": {"cell": [0, 0]}, "cove": {"cell": [0, 0]}}}, "own cell"),
        ({"territories": {"moor": {"cell": [0, 0]}, "cove": {"cell": [5, 5]}}}, "touches no other"),
        ({"territories": {"moor": {"cell": [0, 0], "clans": {"green": 13}}}}, "more than 12"),
        ({"capital": "swamp"}, "capital"),
        ({"hands": {"green": ["act_bard"], "blue": ["act_bard"]}}, "both in"),
        ({"hands": {"green": ["act_raid"]}}, "only with 4 players"),
        ({"phase": "winter"}, "phase"),
    ],
)
def test_bad_positions_are_invalid(change, words):
    """A described position is checked before the game starts (docs/positions.md): "Each
    player has 12 figures of one color", the territories are the 16 tiles, one per place and
    interlocked, and each card is in one place."""
    position = {
        "territories": {"moor": {"cell": [0, 0], "clans": {"green": 1}}, "cove": {"cell": [1, 0]}},
        "capital": "moor",
        **change,
    }
    if "capital" not in change and "moor" not in position["territories"]:
        position["capital"] = next(iter(position["territories"]))
    with pytest.raises(InvalidCommand) as info:
        start_game(["green", "blue", "orange"], seed="x", setup=position)
    assert words in str(info.value)


def test_folding_the_same_events_twice_gives_the_same_state():
    """`fold(events)` "applies evolve from an empty state": two folds of one log, and the state
    that decided, must agree. (A clash's sheltered clans were once shared between the state and
    the event that started the clash, so a second fold counted every sheltered clan twice.)"""
    position = {
        "territories": {
            "hills": {"cell": [0, 0], "clans": {"blue": 3}, "citadels": 3},
            "valley": {"cell": [1, 0], "clans": {"green": 3}},
        },
        "capital": "valley",
        "brenn": "green",
        "opened": False,
        "hands": {"green": ["act_migration"]},
    }
    events = start_game(["green", "blue"], seed="s", setup=position)
    state = fold(events)
    for seat, command in [
        ("green", {"type": "play", "card": "act_migration", "from": "valley", "moves": {"hills": 1}}),
        ("blue", {"type": "citadel"}),
    ]:
        new = decide(state, seat, command, rng=rng_for("s", state.seq))
        for event in new:
            evolve(state, event)
        events += new
    first, second = fold(events), fold(events)
    assert first.to_json() == second.to_json() == state.to_json()
    assert state.top()["sheltered"] == {"blue": 1}


def test_a_states_decisions_are_remembered_only_while_it_is_unchanged():
    """`pending` and `pending_for` are worked out once per state and seq and language
    (`engine._Remembered`): each answer equals what a fresh fold of the same events gives, after
    every event, in each language; a copy is answered for itself; the list given back is the
    caller's own; another thread remembers its own state."""
    import random
    import threading

    from games.rules import bot_command, pending, pending_for, speaking

    state = fold(start_game(["green", "blue", "orange"], seed="remembered"))
    events = list(start_game(["green", "blue", "orange"], seed="remembered"))
    rng = random.Random(3)
    french: list[str] = []
    for _step in range(40):
        asked = pending(state)
        if not asked:
            break
        fresh = fold(events)
        assert asked == pending(fresh) and pending_for(state, None) == pending_for(fresh, None)
        asked.append("not the rules'")  # the caller's list: the next answer is unchanged
        assert pending(state) == pending(fresh)
        with speaking("fr"):
            assert pending(state) == pending(fresh)
            french += [d.prompt for d in pending(state)]
        assert pending(state) == pending(fresh)
        copy = state.clone()
        assert pending(copy) == pending(state)
        seat = asked[0].seat
        new = decide(state, seat, bot_command(state, seat, rng), rng=rng_for("remembered", state.seq))
        for event in new:
            evolve(state, event)  # the same object, one more seq: asked anew
        events.extend(new)
        assert pending(state) == pending(fold(events))
        seen = []
        thread = threading.Thread(target=lambda: seen.append(pending(copy)))
        thread.start()
        thread.join()
        assert seen == [pending(fold(events[: len(events) - len(new)]))]
        assert pending(state) == pending(fold(events))
    with speaking("fr"):
        assert [d.prompt for d in pending(fold(events))] == [d.prompt for d in pending(state)]
    assert french  # some decision was worded in French along the way
