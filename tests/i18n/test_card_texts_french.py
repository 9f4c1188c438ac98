"""Card texts in French (issue 26: "card texts are English for a French player (`Druide (Action,
Saison): Look through the Action discard pile…`): translate every card text (the French rulebook
gives most of them; write the rest in its terms)").

The texts come through the rules' gettext catalog (games/rules/locale/fr), like every other French
sentence of the rules: `card_reference(card, "fr")["text"]`, and from it the hand and draft lines
of the emails and the cards on the game page.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import store
from games.rules import CARDS, TERRITORY_INFO, territory_text
from games.rules.card_reference import card_line, card_reference
from games.services import SeatSpec, create_game
from players.models import Player
from tests.i18n.leftover_english import leftovers, words
from tests.notifications.email_positions import MIGRATION, game_from
from tests.notifications.test_inbound import prompt_for, send_all
from tests.web.island_views import island_view
from web.board_svg import island_svg

ENGLISH_TEXT_WORDS = frozenset(w for card in CARDS for w in words(card_reference(card, "en")["text"]))
# The territory tiles that print an effect of their own (docs/cards.md, Territories).
TILES_WITH_TEXT = sorted(tid for tid in TERRITORY_INFO if territory_text(tid, "en"))


@pytest.mark.parametrize("card", sorted(CARDS))
def test_every_card_has_its_text_in_french(card):
    english, french = card_reference(card, "en")["text"], card_reference(card, "fr")["text"]
    assert french and french != english
    assert not leftovers(french, ENGLISH_TEXT_WORDS), (card, french, leftovers(french, ENGLISH_TEXT_WORDS))
    # Every number above one is kept ("max 3" is "3 au maximum"; "1" may be written "un", as the
    # rulebook does).
    numbers = lambda text: sorted(n for n in re.findall(r"\d+", text) if n != "1")  # noqa: E731
    assert numbers(english) == numbers(french), (english, french)


def test_the_texts_the_french_rulebook_prints_are_its_own():
    """The French rulebook prints about a dozen card texts: those are the cards' texts, word for word
    where the project's card says no more than the printed one."""
    printed = {
        "act_bard": "après qu'un adversaire a perdu au moins un clan suite à une de vos manœuvres : gagnez un Exploit",
        "act_craftsmen_peasants": "Dans chaque territoire où vous êtes installé, vous pouvez ajouter un nouveau clan "
        "pour chaque Citadelle dans ce territoire",
        "act_scouts_spies": "Regardez les cartes Action d'un adversaire. Puis, vous pouvez déplacer un ou plusieurs "
        "de vos clans d'un territoire vers un territoire voisin",
        "act_migration": "Déplacez un ou plusieurs de vos clans installés sur un même territoire vers un ou "
        "plusieurs territoires voisins.",
        "act_geis": "la carte Action est défaussée sans effet",
        "adv_hills": "quand un adversaire vous désigne dans les Collines avec une manœuvre « Attaquer » : "
        "l'attaque est sans effet",
        "adv_meadows": "piochez un Récit épique de plus",
        "ep_balors_eye": "Ce clan est perdu.",
        "ep_battle_frenzy": "à la fin de l'étape Citadelles : sortez tous les clans des Citadelles",
        "ep_the_morrigan": "Vous pouvez inverser le Vol des corbeaux.",
    }
    for card, words_of_the_rulebook in printed.items():
        assert words_of_the_rulebook in card_reference(card, "fr")["text"], card


def test_a_hand_line_reads_all_in_french():
    assert card_line("act_druid", "fr") == (
        "Druide (Action, Saison) : Consultez la défausse des cartes Action et "
        "prenez-en 1 carte en main. Ne peut pas être jouée si c'est votre seule "
        "carte Action."
    )
    assert card_line("act_druid", "en") == (
        "Druid (Action, Season): Look through the Action discard pile and take "
        "1 card into your hand. Cannot be played if it is your only Action card."
    )


def test_a_french_players_prompt_shows_the_french_card_texts(db):
    Player.objects.create(email="player1@example.org", language="fr")
    game = game_from(MIGRATION, seed="fr-card-texts")
    send_all()
    body = prompt_for(game, "green").body
    state, _seq = store.load(game)
    hand = state.hands["green"]
    assert hand
    for card in hand:
        assert card_line(card, "fr") in body
        assert card_reference(card, "en")["text"] not in body


def test_the_game_page_shows_a_french_player_the_french_card_texts(client, db, clash_position):
    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="fr-card-page",
        setup=clash_position,
        play_bots=False,
    )
    green = game.seats.get(colour="green")
    Player.objects.update_or_create(email=green.user.email, defaults={"language": "fr"})
    client.force_login(green.user)
    page = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())
    for card in clash_position["hands"]["green"]:
        assert card_reference(card, "fr")["text"] in page
        assert card_reference(card, "en")["text"] not in page


def test_the_tiles_with_a_printed_effect_are_the_four_of_the_catalog():
    assert TILES_WITH_TEXT == ["gates", "mountains", "stone_circle", "swamp"]


@pytest.mark.parametrize("tid", TILES_WITH_TEXT)
def test_every_tile_effect_has_its_text_in_french(tid):
    english, french = territory_text(tid, "en"), territory_text(tid, "fr")
    assert french and french != english
    also = frozenset(words(english))
    assert not leftovers(french, also), (tid, french, leftovers(french, also))
    assert re.findall(r"\d+", english) == re.findall(r"\d+", french), (english, french)


def test_a_french_player_reads_the_tiles_effects_in_french_on_the_island():
    """The island's hexagons tell, in their tooltips, what each tile does: a French player read
    "When 1 or more clans are moved here..." under "Montagnes"."""
    view = island_view(
        {
            tid: {"cell": [i, 0], "clans": {"green": 1}, "chieftain": "green"}
            for i, tid in enumerate(TILES_WITH_TEXT)
        },
        ["green", "blue"],
    )
    for language in ("fr", "en"):
        with translation.override(language):
            svg = html.unescape(island_svg(view))
        for tid in TILES_WITH_TEXT:
            assert territory_text(tid, language) in svg, (language, tid)
            if language == "fr":
                assert territory_text(tid, "en") not in svg, tid
