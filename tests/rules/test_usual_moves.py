"""Prompts name only the usual moves legal now, and say why the others are not.

The rulebook, "Clash", Resolution: a maneuver is to attack, or to withdraw "into one or more
adjacent territories where they are chieftain"; before each maneuver the players with exposed
clans "may discuss and agree to immediately end the clash". "Season": on their turn a player
plays an Action card, passes or takes a Pretender token "if they meet at least one victory
condition". A prompt that offers "withdraw" to a player who is chieftain of no adjacent
territory, or a second peace proposal before the same maneuver, misleads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

from games import rules
from games.rules.simulate import play_game
from games.rules.state import current_clash, exposed_seats
from games.rules.usual_moves import (
    USUAL,
    move_words,
    own_prompt,
    public_maneuvers,
    usual_moves,
)
from tests.rules.positions import Table

TWO = ("green", "blue")


def maneuver_without_withdraw() -> Table:
    """Green plays Warlord in the Valley (the Capital) where blue has 2 clans; green is chieftain
    of no territory next to the Valley (blue holds the Cove): green maneuvers, blue exposed."""
    table = Table(
        """
        valley  0,0   green 3  blue 2
        cove    1,0   blue 1
    """,
        seats=TWO,
        capital="valley",
        brenn="green",
        hands={"green": ["act_warlord"], "blue": ["act_bard"]},
    )
    table.play("green", "act_warlord", territory="valley")
    table.do("blue", "no_citadel")
    assert table.decision("green").kind == "maneuver"
    return table


def test_a_maneuver_prompt_offers_no_withdraw_to_a_chieftain_of_nothing_adjacent_and_says_why():
    table = maneuver_without_withdraw()
    legal = table.legal("green")
    assert not any(c["type"] == "withdraw" for c in legal)
    decision = table.decision("green")
    for prompt in (decision.prompt, own_prompt(table.state, "green", decision)):
        assert prompt == "Clash in the Valley: perform a maneuver (attack or propose to end the clash)."
    moves = usual_moves(table.state, "green", "maneuver")
    assert moves.offered == ("attack", "propose_peace")
    assert moves.barred == (
        ("withdraw", "You cannot withdraw: you are chieftain of no neighbouring territory."),
    )
    with rules.speaking("fr"):
        assert "quitter le territoire" not in rules.pending(table.state)[0].prompt
        ((_key, reason),) = usual_moves(table.state, "green", "maneuver").barred
        assert reason == (
            "Vous ne pouvez pas quitter le territoire : vous n'êtes chef d'aucun territoire voisin."
        )


def test_after_a_refused_peace_the_same_maneuver_offers_no_second_proposal_and_says_why():
    table = maneuver_without_withdraw()
    table.do("green", "propose_peace")
    table.do("blue", "peace_vote", agree=False)
    decision = table.decision("green")
    assert decision.kind == "maneuver"
    assert {"type": "propose_peace"} not in table.legal("green")
    assert decision.prompt == "Clash in the Valley: perform a maneuver (attack)."
    reasons = dict(usual_moves(table.state, "green", "maneuver").barred)
    assert reasons["propose_peace"] == (
        "You cannot propose to end the clash: it was already proposed before this maneuver."
    )


def test_alone_exposed_a_player_ends_the_clash_and_is_told_why_not_attack():
    table = Table(
        """
        valley  0,0   green 3  blue 1
        cove    1,0   green 1
    """,
        seats=TWO,
        capital="valley",
        brenn="green",
        hands={"green": ["act_warlord"], "blue": []},
    )
    table.play("green", "act_warlord", territory="valley")
    table.do("blue", "citadel")  # blue shelters its only clan: green alone is exposed
    decision = table.decision("green")
    assert decision.prompt == "Clash in the Valley: perform a maneuver (withdraw or end the clash)."
    moves = usual_moves(table.state, "green", "maneuver")
    assert moves.offered == ("withdraw", "end_clash")
    assert moves.barred == (("attack", "You cannot attack: nobody else has exposed clans in the clash."),)


def season(hand: list, **kw) -> Table:
    return Table(
        """
        valley  0,0   green 2  blue 1
        cove    1,0   blue 1
    """,
        seats=TWO,
        capital="valley",
        brenn="blue",
        turn="green",
        opened=True,
        hands={"green": hand, "blue": ["act_bard"]},
        **kw,
    )


def test_a_season_turn_names_only_what_the_seat_may_do_and_says_why_not_the_rest():
    table = season([])
    decision = table.decision("green")
    assert table.legal("green") == [{"type": "pass"}]
    assert own_prompt(table.state, "green", decision) == "Your turn in the Season: pass."
    reasons = dict(usual_moves(table.state, "green", "season_turn").barred)
    assert reasons == {
        "season_card": "You cannot play a Season card: you hold none that may be played now.",
        "pretender": "You cannot take a Pretender token: you meet no victory condition (6 territories, "
        "6 Sanctuaries where you are present, or chieftain over 6 opposing clans; Deeds "
        "count as wild).",
    }
    holding = season(["act_druid", "act_geis"], pretenders=["green"])
    assert (
        own_prompt(holding.state, "green", holding.decision("green"))
        == "Your turn in the Season: play a Season card or pass."
    )
    assert dict(usual_moves(holding.state, "green", "season_turn").barred) == {
        "pretender": "You cannot take a Pretender token: you already have one."
    }
    with rules.speaking("fr"):
        assert own_prompt(table.state, "green", decision) == "Votre tour dans la Saison : passer."


@pytest.mark.parametrize("hand", [[], ["act_druid"], ["act_geis"], ["act_druid", "act_migration"]])
def test_the_prompt_other_seats_read_does_not_depend_on_the_hand(hand):
    """The rules' prompt is public (`pending_for`): holding a Season card or not must not show
    in it; only the seat's own prompt (`own_prompt`) knows."""
    assert season(hand).decision("green").prompt == "Your turn in the Season: play a Season card or pass."


def test_an_attacked_player_made_to_discard_is_told_why_it_cannot_remove_a_clan_instead():
    """Iron Mine: "The attacked player must do both: remove 1 of their exposed clans and discard
    1 Action card": the usual answer, removing a clan instead, is not offered."""
    from tests.rules.test_triskel_advantage_cards import MINE, clash_in, react, settle

    table = clash_in(
        "moor", MINE, {"green": ["adv_iron_mine"], "blue": ["act_bard", "act_druid"]}, capital="valley"
    )
    settle(table)
    table.do("green", "attack", target="blue")
    react(table, "green", "adv_iron_mine")
    settle(table)
    assert table.decision("blue").kind == "attack_response"
    moves = usual_moves(table.state, "blue", "attack_response")
    assert moves.offered == ("discard",)
    assert moves.barred == (
        (
            "remove",
            "You cannot choose to remove a clan instead: this attack makes "
            "you discard an Action card, then remove 1 exposed clan.",
        ),
    )


USUAL_KEYS = sorted({key for keys in USUAL.values() for key in keys})


def _named(key: str, prompt: str) -> bool:
    """Whether `prompt` names usual move `key` in words of their own: not inside the words of
    another move ("end the clash" in "propose to end the clash"), nor inside a word ("pass" in
    "passer")."""
    words = move_words(key)
    for other in USUAL_KEYS:
        if other != key and words in move_words(other):
            prompt = prompt.replace(move_words(other), "")
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", prompt) is not None


def _usual_key(command: Mapping[str, object]) -> str:
    """The usual move a legal command is ("play" a Season card, an attack's answer by its choice)."""
    if command["type"] == "play":
        return "season_card"
    if command["type"] == "attack_response":
        return "discard" if command.get("choice") == "discard" else "remove"
    return str(command["type"])


def _check_usual_moves(state, seat: str, decision) -> list[str]:
    """What a seat's usual moves get wrong at `decision` in the active language: a move named
    that `legal_commands` does not offer, one offered that the prompt leaves out, one left out
    without a reason, and for a maneuver a public prompt naming other moves than the seat's."""
    moves = usual_moves(state, seat, decision.kind)
    offered = {_usual_key(c) for c in rules.legal_commands(state, seat)} & set(USUAL[decision.kind])
    wrong = []
    if set(moves.offered) != offered:
        wrong.append(f"offered {moves.offered}, legal {sorted(offered)}")
    usual = set(USUAL[decision.kind])
    clash = current_clash(state)
    if decision.kind == "maneuver":  # ending alone and proposing to end are one usual move
        assert clash is not None
        alone = exposed_seats(state, clash) == [seat]
        usual -= {"propose_peace" if alone else "end_clash"}
    unexplained = usual - set(moves.offered) - {key for key, reason in moves.barred if reason}
    if unexplained:
        wrong.append(f"not offered and no reason said: {sorted(unexplained)}")
    if decision.kind in ("season_turn", "maneuver"):
        prompt = own_prompt(state, seat, decision)
        # A Brenn asked to open the Season reads the rules' own prompt (see own_prompt).
        opening = decision.kind == "season_turn" and not state.top().get("opened")
        for key in moves.offered:
            if not opening and not _named(key, prompt):
                wrong.append(f"{key} offered, not named: {prompt}")
        for key, _reason in moves.barred:
            if _named(key, prompt):
                wrong.append(f"{key} named, not offered: {prompt}")
    if decision.kind == "maneuver":
        assert clash is not None
        public = public_maneuvers(state, clash, seat)
        if sorted(public) != sorted(move_words(key) for key in moves.offered):
            wrong.append(f"the prompt the others read names {public}, the seat may {moves.offered}")
    return wrong


@pytest.mark.parametrize(
    "players, setup, reactions",
    [
        (2, "random", "public"),
        (3, "discovery", "holders"),
        (4, "random", "holders"),
        (4, "discovery", "public"),
    ],
)
def test_in_random_games_every_prompt_names_only_the_legal_usual_moves_and_says_why_not_the_rest(
    players, setup, reactions
):
    """Every Season turn, maneuver and attack's answer of random games, in English and French:
    the seat's prompt names exactly the usual moves `legal_commands` offers (the Brenn opening
    the Season names no move it cannot make), each other usual move comes with its reason, and
    the maneuver prompt every seat reads names the same maneuvers (they depend on public facts
    only)."""
    wrong, met = [], set()

    def look(state, _events):
        for decision in rules.pending(state):
            if decision.kind in USUAL and decision.seat is not None:
                met.add(decision.kind)
                for language in ("en", "fr"):
                    with rules.speaking(language):
                        # The decision again, its prompt in this language.
                        (said,) = [d for d in rules.pending(state) if d.seat == decision.seat]
                        for problem in _check_usual_moves(state, decision.seat, said):
                            wrong.append(f"{language}, {decision.kind} of {decision.seat}: {problem}")

    for game in range(3):
        play_game(
            players,
            f"usual-moves-{players}-{setup}-{game}",
            setup=setup,
            max_rounds=6,
            check=look,
            options={"reactions": reactions},
        )
    assert met == set(USUAL), f"the games met only {sorted(met)}"
    assert not wrong, f"{len(wrong)} prompts, e.g.:\n" + "\n".join(wrong[:10])
