"""The rules' interface as documented (docs/rules-api.md, docs/commands.md): errors for missing
fields, the canonical form of list fields, the wording of commands.
"""

import random
import types
import typing

from hypothesis import given
from hypothesis import strategies as st

from games.rules import (
    COMMAND_TYPES,
    InvalidCommand,
    anytime_commands,
    bot_command,
    decide,
    describe_command,
    evolve,
    fold,
    legal_commands,
    only_pass,
    pending,
    rng_for,
    start_game,
)
from games.rules.engine import canonical_command

from .positions import Table

NO_CLANS = """
    moor    0,0  blue 2
    cove    1,0  blue 1
    plains  0,1  orange 1
"""


def no_clans_table():
    """Green has no clans on the island: its turn starts by placing 2 clans (rulebook: "he
    places a total of two clans in any territories")."""
    return Table(
        NO_CLANS,
        seats=("green", "blue", "orange"),
        capital="moor",
        brenn="green",
        hands={"green": ["act_bard"]},
    )


def test_a_missing_field_is_an_invalid_command():
    """docs/rules-api.md: `decide` raises "InvalidCommand (malformed: missing fields, unknown
    names)". A player with no clans on the island "places a total of two clans in any
    territories": without `territories` the command is malformed, not against the rules."""
    table = no_clans_table()
    assert table.awaiting() == {"green": "place_clans"}
    message = table.refuse("green", "place_clans", error=InvalidCommand)
    assert '"territories"' in message
    season = Table(
        NO_CLANS.replace("plains  0,1  orange 1", "plains  0,1  orange 1  green 1"),
        seats=("green", "blue", "orange"),
        capital="moor",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    message = season.refuse("green", "play", card="act_migration", error=InvalidCommand, **{"from": "plains"})
    assert '"moves"' in message


def test_place_clans_is_listed_once_sorted_and_accepted_in_any_order():
    """ "He places a total of two clans in any territories": the pair is a set, listed once in its
    canonical (sorted) order; `decide` accepts either order and records the canonical one."""
    table = no_clans_table()
    listed = [c["territories"] for c in table.legal("green")]
    assert ["cove", "moor"] in listed and ["moor", "cove"] not in listed
    assert all(pair == sorted(pair) for pair in listed)
    events = table.do("green", "place_clans", territories=["cove", "moor"])
    placed = next(e for e in events if e.type == "ClansPlaced")
    assert placed.payload["placements"] == {"cove": 1, "moor": 1}
    other = no_clans_table()
    reverse = decide(
        other.state,
        "green",
        {"type": "place_clans", "territories": ["moor", "cove"]},
        rng=rng_for(other.seed, other.state.seq),
    )
    assert [e.to_json() for e in reverse] == [e.to_json() for e in events]


def test_place_clans_is_worded_with_its_count():
    """describe_command: two clans in one territory read "Place 2 clans in the Cove"."""
    table = no_clans_table()
    assert (
        describe_command(table.state, {"type": "place_clans", "territories": ["cove", "cove"]})
        == "Place 2 clans in the Cove"
    )
    assert (
        describe_command(table.state, {"type": "place_clans", "territories": ["cove", "moor"]})
        == "Place 1 clan in the Cove and 1 clan in the Moor"
    )


@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_every_listed_command_is_in_canonical_form(players, seed):
    """docs/commands.md: every list of names in a listed command is sorted, so a reader may match
    a command by its canonical form (`canonical_command`)."""
    seed = f"canonical-{seed}"
    state = fold(start_game(["green", "blue", "orange", "white"][:players], seed=seed))
    rng = random.Random(seed)
    for _ in range(300):
        decisions = pending(state)
        if not decisions:
            break
        for seat in {d.seat for d in decisions}:
            for command in legal_commands(state, seat):
                assert canonical_command(command) == command, command
        seat = rng.choice(sorted({d.seat for d in decisions}))
        for event in decide(state, seat, bot_command(state, seat, rng), rng=rng_for(seed, state.seq)):
            evolve(state, event)


def fits(value, annotation) -> bool:
    """Whether a JSON value has the type `annotation` of a command's TypedDict field."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return value in args
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, a) for a in args)
    if origin is list:
        return type(value) is list and all(fits(v, args[0]) for v in value)
    if origin is dict:
        return type(value) is dict and all(fits(k, args[0]) and fits(v, args[1]) for k, v in value.items())
    return type(value) is annotation


def shape_errors(command) -> list[str]:
    """What in `command` differs from the TypedDict of its type (docs/commands.md)."""
    typed = COMMAND_TYPES.get(command["type"])
    if typed is None:
        return [f"no type for {command['type']!r}"]
    hints = typing.get_type_hints(typed)
    errors = [f"lacks {key!r}" for key in typed.__required_keys__ if key not in command]
    errors += [f"{key!r} is not a field of {typed.__name__}" for key in command if key not in hints]
    errors += [
        f"{key!r}: {value!r}"
        for key, value in command.items()
        if key in hints and not fits(value, hints[key])
    ]
    return errors


@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), holders=st.booleans())
def test_every_listed_command_has_the_shape_of_its_type(players, seed, holders):
    """docs/rules-api.md, "Commands": every command `legal_commands` or `anytime_commands` lists
    is one of the `Command` TypedDicts (its type's required fields, no other field, each of the
    documented JSON type)."""
    seed = f"shapes-{seed}"
    options = {"reactions": "holders"} if holders else None
    state = fold(start_game(["green", "blue", "orange", "white"][:players], seed=seed, options=options))
    rng = random.Random(seed)
    for _ in range(300):
        decisions = pending(state)
        if not decisions:
            break
        for seat in state.seats:
            # A seat without a decision has only its "at any time" commands.
            listed = legal_commands(state, seat)
            for command in listed or anytime_commands(state, seat):
                assert not shape_errors(command), (command, shape_errors(command))
            # docs/rules-api.md: `only_pass` tells that the list is the pass alone.
            assert only_pass(state, seat) == (listed == [{"type": "pass"}]), (seat, listed[:3])
        seat = rng.choice(sorted({d.seat for d in decisions}))
        for event in decide(state, seat, bot_command(state, seat, rng), rng=rng_for(seed, state.seq)):
            evolve(state, event)


def test_a_command_off_its_type_is_told_apart():
    """The shape check above can fail: a field of the wrong JSON type, a missing field and an
    unknown one are each reported."""
    assert shape_errors({"type": "attack", "target": 3}) == ["'target': 3"]
    assert shape_errors({"type": "withdraw"}) == ["lacks 'moves'"]
    assert shape_errors({"type": "pass", "card": "act_bard"}) == ["'card' is not a field of Pass"]
    assert shape_errors({"type": "play", "card": "act_migration", "from": "cove", "moves": {"moor": 2}}) == []


def test_the_wording_examples_of_the_rules_api_are_what_the_rules_write():
    """docs/rules-api.md quotes `describe_command`, `describe_args` and `card_reference`: the
    quotes are their outputs."""
    from pathlib import Path

    from games.rules import card_reference, describe_args

    doc = " ".join((Path(__file__).resolve().parents[2] / "docs" / "rules-api.md").read_text().split())
    table = Table(
        """
        valley 0,0 green 3 blue 1
        cove   1,0 blue 1
        plains 0,1 orange 1
        """,
        seats=("green", "blue", "orange"),
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    play = {"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 2, "plains": 1}}
    line = describe_command(table.state, play)
    assert line == "Play Migration from the Valley: 2 clans to the Cove, 1 clan to the Plains"
    assert f'e.g. "{line}"' in doc
    args = describe_args("act_migration", {"from": "valley", "moves": {"cove": 2}})
    assert args == "Migration from the Valley: 2 clans to the Cove" and f'("{args}")' in doc
    assert card_reference("act_bard", "fr")["name"] == "Barde"
    assert '`card_reference("act_bard", "fr")["name"]` is "Barde"' in doc


def test_the_language_names_of_the_rules_api_are_what_the_rules_write():
    """docs/rules-api.md, Languages and "Other names for the service": `territory_phrase`'s
    cases, `COLOUR_WORDS` (the colours and the English words `colour_name` translates) and
    `describe_command`'s `reader`, named "you"."""
    from games.rules import COLOUR_WORDS, COLOURS, colour_name, speaking, territory_phrase

    phrases = [
        territory_phrase("valley"),
        territory_phrase("highlands", "of"),
        territory_phrase("hills", "to"),
    ]
    assert phrases == ["the Valley", "of the Highlands", "to the Hills"]
    with speaking("fr"):
        phrases = [
            territory_phrase("valley"),
            territory_phrase("highlands", "of"),
            territory_phrase("hills", "to"),
        ]
        assert phrases == ["la Vallée", "du Plateau", "aux Collines"]
        assert [colour_name(c) for c in COLOUR_WORDS] == ["vert", "bleu", "orange", "blanc"]
    assert tuple(COLOUR_WORDS) == COLOURS and COLOUR_WORDS["green"] == "green"
    assert territory_phrase("valley", capital=True) == "The Valley"
    table = Table("valley 0,0 green 3 blue 1", seats=("green", "blue"), hands={"green": ["act_bard"]})
    warlord = {"type": "play", "card": "act_warlord", "next": "blue"}
    assert describe_command(table.state, warlord, "blue") == "Play Warlord then you maneuver"
    assert describe_command(table.state, warlord) == "Play Warlord then blue maneuvers"


def test_the_documents_name_every_rules_revision_and_the_current_one():
    """docs/rules-api.md and docs/game-options.md list the `rules_revision` values a game may
    start with and name the default, the current revision; game-options.md says what each
    revision from 2 on changed. A new revision is a change of both documents."""
    from pathlib import Path

    from games.rules.revisions import CURRENT, REVISIONS

    docs = Path(__file__).resolve().parents[2] / "docs"
    api = " ".join((docs / "rules-api.md").read_text().split())
    options = " ".join((docs / "game-options.md").read_text().split())
    assert '"rules_revision": ' + " \\| ".join(map(str, REVISIONS)) + "}" in api
    assert f"default the current one ({CURRENT})" in api
    assert "int: " + " \\| ".join(f"`{number}`" for number in REVISIONS) + " |" in options
    assert f"the current revision, `{CURRENT}`" in options
    assert all(f"Revision {number}:" in options for number in REVISIONS[1:])
