"""docs/commands.md, "Card arguments": every argument a `play` or `react` command of
`legal_commands` carries is in the table's row of its card (a reader builds commands from that
table; `legal_commands` lists exactly the legal ones)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import rules
from games.rules.simulate import play_game

DOC = Path(__file__).resolve().parents[2] / "docs" / "commands.md"
# Fields of every play or react, not a card's own arguments (`then` and `then_*`: the answer said
# ahead, explained below the table).
NOT_CARD_ARGUMENTS = {"type", "card", "no_effect"}


def documented_arguments() -> dict[tuple[str, str], set[str]]:
    """{(command type, English card name): the argument names in backquotes of its row}."""
    text = DOC.read_text()
    table = text[text.index("Card arguments (`play`):") :].split("\n\n")[1]
    rows = {}
    for line in table.splitlines()[2:]:
        cards, arguments = line.strip("|").split("|", 1)
        kind = "react" if "(Triskel, `react`)" in cards else "play"
        names = set(re.findall(r"`([a-z_]+)`", arguments))
        for card in re.sub(r"\s*\([^)]*\)", "", cards).split(","):
            rows[(kind, card.strip())] = names
    return rows


def card_arguments_seen() -> dict[tuple[str, str], set[str]]:
    """{(command type, card id): argument names} of the plays and reactions listed in 30 seeded
    random games of 2, 3 and 4 players (8 rounds each), public and holders windows."""
    seen: dict[tuple[str, str], set[str]] = {}

    def look(state, _events):
        for decision in rules.pending(state):
            if decision.seat is None:
                continue
            for command in rules.legal_commands(state, decision.seat):
                if command["type"] in ("play", "react"):
                    keys = {k for k in command if k not in NOT_CARD_ARGUMENTS and not k.startswith("then")}
                    seen.setdefault((command["type"], command["card"]), set()).update(keys)

    for i in range(10):
        for players in (2, 3, 4):
            reactions = "holders" if i % 2 else "public"
            play_game(
                players, f"doc-{i}-{players}", max_rounds=8, check=look, options={"reactions": reactions}
            )
    return seen


@pytest.mark.slow  # plays 30 games
def test_every_card_argument_legal_commands_list_is_in_the_table():
    documented = documented_arguments()
    seen = card_arguments_seen()
    # The games reach the cards whose rows the table once lacked (so the check covers them).
    assert {
        ("play", "ep_battle_of_moytura"),
        ("play", "ep_tale_of_cuchulain"),
        ("react", "adv_highlands"),
        ("react", "adv_lost_vale"),
        ("react", "adv_salt_mine"),
        ("react", "adv_valley"),
        ("react", "ep_dagdas_club"),
        ("react", "ep_diarmuid_grainne"),
    } <= set(seen)
    missing = [
        f"{kind} {rules.card_name(card, 'en')}: {sorted(keys - documented.get((kind, rules.card_name(card, 'en')), set()))}"
        for (kind, card), keys in sorted(seen.items())
        if keys - documented.get((kind, rules.card_name(card, "en")), set())
    ]
    assert not missing, missing
