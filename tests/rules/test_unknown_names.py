"""docs/rules-api.md, Errors: `decide` raises "`InvalidCommand` (malformed: ... unknown names)"
and "`IllegalCommand` (understood, but against the rules now)". A name that is no territory of
the catalogue, an attack's target that is no colour, or a command type that does not exist is
unknown; a real territory that is not on the island stays against the rules."""

from __future__ import annotations

import pytest

from games.rules import IllegalCommand, InvalidCommand, fold, pending, rng_for, start_game
from games.rules import decide as rules_decide

from .positions import Table
from .test_engine import green_maneuvers_in_the_plains


def _setup():
    state = fold(start_game(["green", "blue"], seed="unknown-names", setup="discovery"))
    (decision,) = pending(state)
    assert decision.kind == "choose_capital"
    return state, decision.seat


def _refusal(state, seat, command, error) -> str:
    try:
        rules_decide(state, seat, command, rng=rng_for("unknown-names", state.seq))
    except error as refused:
        assert type(refused) is error, f"{type(refused).__name__}: {refused}"
        return str(refused)
    raise AssertionError(f"{command} was not refused with {error.__name__}")


def test_a_territory_that_does_not_exist_is_an_unknown_name():
    state, brenn = _setup()
    message = _refusal(state, brenn, {"type": "choose_capital", "territory": "atlantis"}, InvalidCommand)
    assert message == "Unknown territory 'atlantis'. In play: Cove, Valley."


def test_a_real_territory_not_on_the_island_is_against_the_rules():
    state, brenn = _setup()
    message = _refusal(state, brenn, {"type": "choose_capital", "territory": "forest"}, IllegalCommand)
    assert message == "The Forest is not on the island. In play: Cove, Valley."


def test_an_unknown_command_type_names_the_types():
    state, brenn = _setup()
    message = _refusal(state, brenn, {"type": "nope"}, InvalidCommand)
    assert message.startswith("Unknown command type 'nope': the types are choose_capital, place_clan,")
    # A known type that does not fit the decision stays against the rules.
    assert _refusal(state, brenn, {"type": "pass"}, IllegalCommand) == "Choose the territory of the Capital."


def test_withdrawing_to_a_territory_that_does_not_exist_and_attacking_no_colour():
    table = green_maneuvers_in_the_plains()
    message = table.refuse("green", "withdraw", moves={"atlantis": 1}, error=InvalidCommand)
    assert message == "Unknown territory 'atlantis'. In play: Cove, Plains, Valley."
    message = table.refuse("green", "attack", target="atlantis", error=InvalidCommand)
    assert message == (
        "Unknown colour 'atlantis': the colours are green, blue, orange, white. "
        "Attack a player with exposed clans here: blue."
    )
    # A colour of the game nobody plays is understood: against the rules (test_engine).
    assert "blue" in table.refuse("green", "attack", target="orange")


def _season(hands):
    return Table(
        """
        valley 0,0  green 2  blue 2  sanctuaries 1
        cove   1,0  orange 2  green 1
        """,
        seats=("green", "blue", "orange"),
        capital="valley",
        brenn="green",
        hands=hands,
    )


@pytest.mark.parametrize(
    "command, message",
    [
        (
            {"type": "play", "card": "act_sanctuary", "territory": "atlantis"},
            "Unknown territory 'atlantis'. In play: Cove, Valley.",
        ),
        (
            {"type": "play", "card": "act_migration", "from": "valley", "moves": {"atlantis": 1}},
            "Unknown territory 'atlantis'. In play: Cove, Valley.",
        ),
        (
            {"type": "play", "card": "act_new_clans", "territories": ["valley", "atlantis"]},
            "Unknown territory 'atlantis'. In play: Cove, Valley.",
        ),
        (
            {"type": "play", "card": "ep_balors_eye", "territory": "valley", "owner": "purple"},
            "Unknown colour 'purple': the colours are green, blue, orange, white.",
        ),
        (
            {"type": "play", "card": "adv_misty_lands", "discard": ["act_not_a_card"]},
            "Unknown card 'act_not_a_card'.",
        ),
    ],
)
def test_an_unknown_name_in_a_cards_arguments_is_malformed(command, message):
    """docs/rules-api.md, Errors: `decide` raises InvalidCommand for "unknown names: ... a card
    or a territory that is none of the catalogue's", in a card's arguments too (the Sanctuary's
    territory, Migration's destinations, New Clans' territories, Misty Lands' discards), where
    it used to be refused as against the rules. A name that is no colour is unknown too."""
    table = _season(
        {"green": ["act_sanctuary", "act_migration", "act_new_clans", "ep_balors_eye", "adv_misty_lands"]}
    )
    assert table.refuse("green", command, error=InvalidCommand) == message


def test_a_real_territory_not_on_the_island_in_a_cards_arguments_is_against_the_rules():
    """The same card naming a territory of the catalogue that is not on the island is understood
    and refused as against the rules: "Place 1 Sanctuary ... in a territory where you are
    present" (docs/cards.md)."""
    table = _season({"green": ["act_sanctuary"]})
    message = table.refuse("green", "play", card="act_sanctuary", territory="forest", error=IllegalCommand)
    assert message.startswith("Sanctuary cannot be played that way.")


def _the_dagdas_club_attacker_chooses() -> Table:
    from .test_triskel_epic_tales import dagdas_club_choice

    table = dagdas_club_choice()
    assert table.awaiting() == {"green": "attack_choice"}
    return table


def _green_pays_the_mountains_toll() -> Table:
    from .test_territory_effects import mountains

    table = mountains({"green": ["act_migration", "act_bard"]})
    table.play("green", "act_migration", **{"from": "valley", "moves": {"mountains": 2}})
    assert table.awaiting() == {"green": "mountains_toll"}
    return table


def _blue_places_the_explored_territory() -> Table:
    from .test_actions import EXPLORATION_ISLAND

    table = Table(
        EXPLORATION_ISLAND,
        brenn="blue",
        turn="green",
        hands={"green": ["act_exploration"]},
        tile_stack=["cove"],
    )
    table.play("green", "act_exploration")
    assert table.awaiting() == {"blue": "territory_cell"}
    return table


@pytest.mark.parametrize(
    "situation, seat, command, message",
    [
        (
            _the_dagdas_club_attacker_chooses,
            "green",
            {"type": "attack_choice", "choice": "both"},
            '"choice" must be one of remove, discard.',
        ),
        (
            _green_pays_the_mountains_toll,
            "green",
            {"type": "mountains_toll", "pay": "gold"},
            '"pay" must be one of discard, clan.',
        ),
        (
            _blue_places_the_explored_territory,
            "blue",
            {"type": "territory_cell", "cell": "north,east"},
            '"cell" must be a place such as "1,-1".',
        ),
        (
            _green_pays_the_mountains_toll,
            "green",
            {"type": "set_policy", "card": "act_bard", "policy": "sometimes"},
            '"policy" must be one of ask, never.',
        ),
    ],
)
def test_a_word_that_is_none_of_its_fields_choices_is_malformed(situation, seat, command, message):
    """docs/rules-api.md, Errors: a field whose type is a choice of words (docs/commands.md:
    `attack_choice`'s "`choice`: "remove" or "discard"", `mountains_toll`'s "`pay`: "clan", or
    "discard"", `set_policy`'s "ask" or "never") or a `cell` ("q,r") given anything else is
    malformed, an InvalidCommand, at the decision that reads it as anywhere else; it used to
    be refused as against the rules there. The Dagda's Club: "You, not the attacked player,
    choose whether the attacked player removes 1 clan or discards 1 Action card"."""
    table = situation()
    assert table.refuse(seat, command, error=InvalidCommand) == message
