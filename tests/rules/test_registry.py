"""Every card and territory of CARDS.md maps to exactly one implementation."""
import pathlib
import re

from games.rules.catalog import CARDS, TERRITORY_INFO, TRISKEL
from games.rules.play import CARD_EFFECTS
from games.rules.reactions import TRISKELS

CARDS_MD = pathlib.Path(__file__).resolve().parents[3] / "shared" / "rules" / "CARDS.md"


def _documented_ids():
    text = CARDS_MD.read_text()
    actions_and_epics = set(re.findall(r"^\s+- id: ((?:act|ep)_[a-z_]+)", text, re.M))
    territories = re.findall(r"^\| \*\*([^*]+)\*\* \| [^|]+ \| (?:Triskel|\*\*Season\*\*)", text, re.M)
    return actions_and_epics, territories


def test_the_catalog_has_the_63_cards_and_16_territories_of_cards_md():
    """CARDS.md: '17 Action cards, 16 Advantage cards, 30 Epic Tale cards and 16 territory tiles'."""
    documented, advantage_names = _documented_ids()
    assert len(documented) == 47
    assert documented == {c for c in CARDS if not c.startswith("adv_")}
    assert sorted(advantage_names) == sorted(CARDS[f"adv_{t}"].name for t in TERRITORY_INFO)
    assert len(CARDS) == 63 and len(TERRITORY_INFO) == 16


def test_every_card_has_exactly_one_effect_and_every_triskel_half_a_trigger():
    """Each card id is registered once, with a trigger for each Triskel half (the four
    maneuver Epic Tales are played as a maneuver instead, and Moor as a command at any time;
    the Mountains card answers the Mountains toll itself)."""
    assert sorted(CARD_EFFECTS) == sorted(CARDS)
    triggered = {t.card for responses in TRISKELS.values() for t in responses}
    by_other_means = {"ep_battle_of_moytura", "ep_the_fianna", "ep_ogmas_eloquence",
                      "ep_tale_of_cuchulain", "adv_moor", "adv_mountains"}
    for card, info in CARDS.items():
        if TRISKEL in info.timings:
            assert (card in triggered) != (card in by_other_means), card
        else:
            assert card not in triggered, card


def test_the_bot_plays_every_card_of_the_game():
    """Issue 4: 'no card is ever unplayable by the bot when it is legal' — over random 2-, 3-
    and 4-player games the random-legal-move bot plays each of the 63 cards at least once."""
    from games.rules.simulate import play_game

    played = set()
    for players in (4, 3, 2, 4):
        for i in range(12):
            _, events = play_game(players, f"coverage-{players}-{i}", max_rounds=30)
            played |= {e.payload["card"] for e in events if e.type == "CardPlayed"}
        if played == set(CARDS):
            break
    assert sorted(set(CARDS) - played) == []
