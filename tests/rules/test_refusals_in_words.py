"""A command of the wrong kind for the decision awaited is refused with what is awaited, in
words: "Perform a maneuver: attack a player, withdraw clans to a territory, or propose peace.",
never in the email's command syntax ("attack <player>"), which the game page cannot use and
each email adds itself (docs/web.md, "Decisions as forms"; notifications' syntax help)."""

from games.rules import CommandError, decide, fold, legal_commands, pending, rng_for, speaking, start_game
from games.rules.simulate import SEATS, play_game

# Well-formed commands of assorted kinds: at each decision, those of a kind it does not take.
WRONG_KIND = [
    {"type": "pass"},
    {"type": "end_clash"},
    {"type": "decline"},
    {"type": "citadel"},
    {"type": "draft", "keep": ["act_bard"]},
    {"type": "place_clan", "territory": "valley"},
]
# What an email command looks like: quoted words, placeholders.
SYNTAX_MARKS = ('"', "<", "«", "“")


def refusals_by_kind() -> dict[str, set[str]]:
    """{decision kind: the messages refusing a command of another kind}, in English and French,
    along two bot games from a Discovery set-up."""
    found: dict[str, set[str]] = {}

    def refuse_other_kinds(state, _events):
        for decision in pending(state):
            legal_types = {c["type"] for c in legal_commands(state, decision.seat)}
            for command in WRONG_KIND:
                if command["type"] in legal_types:
                    continue
                for language in ("en", "fr"):
                    with speaking(language):
                        try:
                            decide(state, decision.seat, command, rng=rng_for("words", state.seq))
                        except CommandError as error:
                            found.setdefault(decision.kind, set()).add(str(error))

    refuse_other_kinds(fold(start_game(SEATS[:3], seed="words-3", setup="discovery")), [])
    for players in (3, 4):
        play_game(players, f"words-{players}", setup="discovery", max_rounds=3, check=refuse_other_kinds)
    return found


def test_a_command_of_the_wrong_kind_is_refused_in_words_not_in_email_syntax():
    found = refusals_by_kind()
    kinds = {"choose_capital", "place_clan", "draft", "season_turn", "maneuver", "citadel", "reaction"}
    assert kinds <= set(found)
    worded = [m for messages in found.values() for m in messages if any(k in m for k in SYNTAX_MARKS)]
    assert worded == []
    maneuver = "Perform a maneuver: attack a player, withdraw clans to a territory, or propose peace."
    assert maneuver in found["maneuver"]
