"""An option line copied from a prompt, word for word, is read as that option.

A prompt lists the seat's options numbered, each line the rules' `describe_command` in the
player's language ("2. Take a Pretender token", "3. Jouer Druide sans effet (rien ne peut en
être fait maintenant)"). A player who copies one into a reply — the line as printed, the line
without its number, or the number alone — must get exactly that command, whatever the decision.
Positions come from random games (`games.rules.simulate.play_game`, both set-ups, both ways of
asking Triskel windows); hypothesis picks the game, the decision kind and the options. The CI
profile runs a few dozen positions; `HYPOTHESIS_PROFILE=deep` thousands.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rules
from games.rules.simulate import SEATS, play_game
from notifications.command_language import parse_reply
from notifications.command_language.words import known_words

LANGUAGES = ("en", "fr")
# Every decision kind random games meet (tests/rules/test_decide_fuzz.py plays the same games).
KINDS = (
    "choose_capital",
    "place_clan",
    "place_clans",
    "draft",
    "season_turn",
    "citadel",
    "maneuver",
    "attack_response",
    "attack_choice",
    "peace_vote",
    "reaction",
    "territory_cell",
    "clash_order",
    "card_choice",
    "keep_epic",
    "mountains_toll",
)
GAMES_PER_KIND = 3  # games searched for a decision of the kind asked for
OPTIONS_PER_POSITION = 25  # options checked in one position (all of them when fewer)


class _Found(Exception):
    def __init__(self, state, seat):
        self.state, self.seat = state, seat


def position(kind: str, seed: int, skip: int, setup: str, reactions: str):
    """(state, seat) at the `skip`-th decision of `kind` (or the last one met) in the first of
    GAMES_PER_KIND random games from `seed` that has one; None when none has."""
    for game in range(GAMES_PER_KIND):
        met = []

        def look(state, _events):
            seats = sorted({d.seat for d in rules.pending(state) if d.kind == kind})
            if seats:
                met.append((state.clone(), seats[len(met) % len(seats)]))
                if len(met) > skip:
                    raise _Found(*met[-1])

        name, options = f"copied-{seed}-{game}", {"reactions": reactions}
        try:
            look(first_state(name, setup, options), [])  # play_game checks after each command only
            play_game(4, name, setup=setup, max_rounds=6, check=look, options=options)
        except _Found as found:
            return found.state, found.seat
        if met:
            return met[-1]
    return None


def first_state(seed: str, setup: str, options: dict):
    """The state a game of `play_game` starts from (the Brenn chooses the Capital)."""
    return rules.fold(rules.start_game(list(SEATS), seed=seed, setup=setup, options=options))


def printed(state, command: dict, language: str) -> str:
    with rules.speaking(language):
        return rules.describe_command(state, command)


def assert_read_back(state, seat: str, legal: list, command: dict, language: str) -> None:
    number = legal.index(command) + 1
    line = printed(state, command, language)
    for text in (f"{number}. {line}", line, str(number), f"  {number}. {line}  "):
        assert parse_reply(text, state, seat, language=language) == [command], f"{language}: {text!r}"


@settings(deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    seed=st.integers(0, 10_000),
    skip=st.integers(0, 5),
    setup=st.sampled_from(["random", "discovery"]),
    reactions=st.sampled_from(["public", "holders"]),
    pick=st.randoms(use_true_random=False),
)
def test_every_printed_option_line_is_read_as_its_option(kind, seed, skip, setup, reactions, pick):
    found = position(kind, seed, skip, setup, reactions)
    if found is None:
        return  # no game from this seed met the kind; the fixed games below cover every kind
    state, seat = found
    legal = rules.legal_commands(state, seat)
    assert legal, f"{seat} has a {kind} decision and no option"
    checked = legal if len(legal) <= OPTIONS_PER_POSITION else pick.sample(legal, OPTIONS_PER_POSITION)
    for command in checked:
        for language in LANGUAGES:
            assert_read_back(state, seat, legal, command, language)


@functools.lru_cache(maxsize=1)
def positions_of_every_kind() -> dict:
    """{kind: (state, seat)}: the first decision of each kind in a few fixed random games."""
    first: dict = {}

    def look(state, _events):
        for d in rules.pending(state):
            if d.kind not in first:
                first[d.kind] = (state.clone(), d.seat)

    for i in range(12):
        name, setup = f"every-kind-{i}", "discovery" if i % 2 else "random"
        options = {"reactions": "holders" if i % 3 == 0 else "public"}
        look(first_state(name, setup, options), [])
        play_game(4, name, setup=setup, max_rounds=10, check=look, options=options)
    return first


def test_the_fixed_games_meet_every_usual_decision_kind():
    assert {
        "choose_capital",
        "draft",
        "season_turn",
        "citadel",
        "maneuver",
        "attack_response",
        "peace_vote",
        "reaction",
        "territory_cell",
        "card_choice",
        "place_clan",
    } <= set(positions_of_every_kind())


@pytest.mark.parametrize("kind", KINDS)
def test_each_decision_kind_reads_back_all_its_option_lines(kind):
    if kind not in positions_of_every_kind():
        pytest.skip(f"the fixed games meet no {kind} decision (the property test may)")
    state, seat = positions_of_every_kind()[kind]
    legal = rules.legal_commands(state, seat)
    rng = random.Random(kind)
    for command in legal if len(legal) <= 60 else rng.sample(legal, 60):
        for language in LANGUAGES:
            assert_read_back(state, seat, legal, command, language)


def _no_effect_position():
    """Green's Season turn holding the Druid and Geis with an empty Action discard: the Druid
    can only be played for no effect ("Play Druid for no effect (nothing of it can be done
    now)", docs/rulings.md)."""
    from tests.rules.positions import Table

    island = """
        valley  0,0   green 2
        cove    1,0   blue 1
    """
    table = Table(
        island,
        seats=("green", "blue"),
        capital="valley",
        brenn="green",
        turn="green",
        opened=True,
        hands={"green": ["act_druid", "act_geis"], "blue": ["act_bard"]},
    )
    return table.state, "green"


@pytest.mark.parametrize(
    "language, line",
    [
        ("en", "Play Druid for no effect (nothing of it can be done now)"),
        ("fr", "Jouer Druide sans effet (rien ne peut en être fait maintenant)"),
    ],
)
def test_the_no_effect_line_is_read_as_printed(language, line):
    state, seat = _no_effect_position()
    command = {"type": "play", "card": "act_druid", "no_effect": True}
    assert command in rules.legal_commands(state, seat)
    assert printed(state, command, language) == line
    assert parse_reply(line, state, seat, language=language) == [command]
    # Shortened, as a player writes it: the grammar knows "for no effect" / "sans effet".
    short = "play druid for no effect" if language == "en" else "jouer druide sans effet"
    assert parse_reply(short, state, seat, language=language) == [command]


@pytest.mark.parametrize(
    "language, text, foreign",
    [
        # "done" and "peut" are no command words; the closest word of the other language is no hint.
        ("en", "play druid, done", "donne"),
        ("fr", "jouer druide, peut", "put"),
    ],
)
def test_hints_never_come_from_the_other_language(language, text, foreign):
    state, seat = _no_effect_position()
    with pytest.raises(rules.InvalidCommand) as refused:
        parse_reply(text, state, seat, language=language)
    assert f"“{foreign}”" not in str(refused.value) and f"« {foreign} »" not in str(refused.value)


def test_hints_come_from_the_players_language():
    english, french = set(known_words("en")), set(known_words("fr"))
    assert "donne" not in english and "put" not in french
    assert {"withdraw", "pretender", "valley"} <= english and {"retraite", "pretendant", "vallee"} <= french
