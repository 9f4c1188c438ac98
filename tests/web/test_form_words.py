"""The decision forms in words, in English and in French: every kind of decision has a title, every
builder field a label, and the confirmation says what the move does (docs/web.md, "Decisions as
forms", "Confirm and take back", "Languages"). A refusal gives the rules' message in words, never
the email's command syntax; a form from a page the game has moved on since is decided again."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import rules, store
from games.models import Command
from games.record.hashchain import canonical_json
from games.services import submit_command
from tests.rules.positions import Table, island
from tests.rules.test_actions import CITADEL_ISLAND
from tests.rules.test_card_interactions import warlord as warlord_by_the_mountains
from tests.rules.test_triskel_advantage_cards import new_clans, season
from tests.rules.test_triskel_epic_tales import (
    CLASH,
    dagdas_club_choice,
    fianna_maneuver,
)
from tests.rules.triskel_positions import react, settle, skip_to, warlord_after_an_attack
from web import decision_forms
from web.decision_forms import TITLES, decision_groups


def groups(table, seat: str, language: str) -> dict:
    """{group key: Group} of `seat`'s decision on `table`, worded in `language`."""
    with translation.override(language):
        return {g.key: g for g in decision_groups(table.state, table.legal(seat), seat)}


def confirm_text(table, seat: str, key: str, language: str) -> str:
    """What the dialog of `seat`'s group `key` asks, in `language`."""
    group = groups(table, seat, language)[key]
    with translation.override(language):
        return group.confirm_text


def cove_set_aside():
    """Green's Cove takes the set-aside Bard and sets another card aside."""
    table = season(
        {"green": ["act_new_clans", "act_sanctuary", "adv_cove"], "blue": ["ep_eriu"]}, set_aside="act_bard"
    )
    new_clans(table)
    react(table, "green", "adv_cove")
    settle(table)
    return table


def mountains_toll():
    """Green withdraws 3 clans into the Mountains under Lug's Spear: it pays the toll."""
    table = warlord_by_the_mountains(
        {"green": ["act_bard", "act_druid", "adv_mountains"], "orange": ["ep_lugs_spear"]}
    )
    skip_to(table, "clash_started")
    react(table, "orange", "ep_lugs_spear")
    settle(table)
    table.do("blue", "no_citadel")
    settle(table)
    table.do("green", "withdraw", moves={"mountains": 3})
    return table


def moor_in_a_season_turn():
    """Green, on its Season turn, holds the Moor: it may look at another player's Epic Tales."""
    return Table(
        CITADEL_ISLAND,
        capital="plains",
        hands={"green": ["act_bard", "adv_moor"], "blue": ["ep_eriu"]},
    )


@pytest.mark.parametrize(
    "position, seat, key, english, french",
    [
        (cove_set_aside, "green", "set_aside", "Set a card aside", "Écarter une carte"),
        (
            dagdas_club_choice,
            "green",
            "attack_choice",
            "Choose for the attacked player",
            "Choisir pour le joueur attaqué",
        ),
        (
            mountains_toll,
            "green",
            "mountains_toll",
            "Pay the Mountains' toll",
            "Payer le tribut des Montagnes",
        ),
        (
            moor_in_a_season_turn,
            "green",
            "moor",
            "Look at a player's Epic Tales (Moor)",
            "Regarder les Récits épiques d'un joueur (Lande)",
        ),
    ],
)
def test_each_kind_of_decision_has_a_title_in_words(position, seat, key, english, french):
    table = position()
    assert groups(table, seat, "en")[key].title == english
    assert groups(table, seat, "fr")[key].title == french


def test_warlord_offered_to_its_player_says_you_when_they_maneuver_next():
    """Blue, answering with Warlord, may choose itself to maneuver next: its options read "then you
    maneuver" ("puis vous manœuvrez"), on the page and in the email, and name the others."""
    from notifications.prompts import decision_block

    table = warlord_after_an_attack()
    for language, you, green in (
        (
            "en",
            "Play the Triskel card Warlord then you maneuver",
            "Play the Triskel card Warlord then green maneuvers",
        ),
        ("fr", "Jouer la carte Triskel Chef de Guerre puis vous manœuvrez", "puis le joueur vert manœuvre"),
    ):
        choices = [label for _json, label in groups(table, "blue", language)["react:act_warlord"].choices]
        assert any(you in label for label in choices) and any(green in label for label in choices), choices
        with translation.override(language):
            options = [o["description"] for o in decision_block(table.state, "blue", language).options]
        assert any(you in option for option in options) and not any(
            "blue" in o or "bleu" in o for o in options
        )


def test_every_command_type_a_form_lists_has_its_own_title():
    """A title is never made from the command's id ("Mountains toll"): every type a decision may
    list has one, but a card's play and its Triskel answer, titled by the card."""
    untitled = set(rules.COMMAND_TYPES) - set(TITLES) - {"play", "react", "set_policy", "take_back"}
    assert untitled == set()


def test_the_fianna_builder_says_how_many_clans_come_from_the_citadels(monkeypatch):
    """The Fianna's commands as a builder (as when they are many): its "sheltered" field is
    labelled in words, in French too, not "Sheltered"."""
    monkeypatch.setattr(decision_forms, "MAX_LISTED", 1)
    table = fianna_maneuver()
    for language, label in (("en", "Of those, from the Citadels"), ("fr", "Dont depuis les Citadelles")):
        fianna = groups(table, "blue", language)["play:ep_the_fianna"]
        assert fianna.is_builder
        assert label in [f.label for f in fianna.inputs]


def test_the_mountains_toll_builder_labels_how_to_pay(monkeypatch):
    monkeypatch.setattr(decision_forms, "MAX_LISTED", 1)
    table = mountains_toll()
    for language, label in (("en", "How to pay"), ("fr", "Comment payer")):
        assert label in [f.label for f in groups(table, "green", language)["mountains_toll"].inputs]


def test_an_epic_tale_played_as_the_maneuver_ends_the_maneuver_not_the_turn():
    table = fianna_maneuver()
    assert confirm_text(table, "blue", "play:ep_the_fianna", "en") == (
        "This ends your maneuver: the card is played instead of an attack or a withdrawal. Send it?"
    )
    assert confirm_text(table, "blue", "play:ep_the_fianna", "fr") == (
        "Cela termine votre manœuvre : la carte est jouée au lieu d'attaquer ou de quitter le territoire. "
        "L'envoyer ?"
    )


def test_the_moor_says_the_game_goes_on_where_it_was():
    """The Moor ends no turn and starts no fight: the decision awaited is awaited again after it
    (docs/commands.md)."""
    table = moor_in_a_season_turn()
    assert confirm_text(table, "green", "moor", "en") == (
        "You look at that player's Epic Tales; then the game goes on where it was. Send it?"
    )
    assert confirm_text(table, "green", "moor", "fr") == (
        "Vous regardez les Récits épiques de ce joueur ; puis la partie reprend là où elle en était. "
        "L'envoyer ?"
    )
    assert confirm_text(table, "green", "play:act_bard", "en") == "This ends your turn. Send it?"


# -- on the game page ------------------------------------------------------------------------

# Up to blue's maneuver in the Moor (`fianna_maneuver`), as commands sent to a web game.
TO_BLUES_MANEUVER = [
    ("green", {"type": "play", "card": "act_warlord", "territory": "moor"}),
    ("blue", {"type": "citadel"}),
    ("green", {"type": "attack", "target": "blue"}),
    ("blue", {"type": "attack_response", "choice": "discard", "card": "act_bard"}),
]


@pytest.fixture
def fianna_game(make_game):
    """A web game where blue maneuvers in the Moor, holding The Fianna; signed in as blue."""
    game = make_game(
        n_players=3,
        seed="rules-tests",
        setup={
            "territories": island(CLASH),
            "hands": {"blue": ["ep_the_fianna", "act_bard"], "green": ["act_warlord"]},
            "capital": "cove",
            "brenn": "green",
        },
        options={"reaction_mode": "quick"},
    )
    seats = {seat.colour: seat for seat in game.seats.all()}
    for colour, command in TO_BLUES_MANEUVER:
        state, seq = store.load(game)
        while colour not in {d.seat for d in rules.pending(state)}:  # Triskel windows: declined
            other = rules.pending(state)[0].seat
            submit_command(game=game, seat=seats[other], command={"type": "decline"}, expected_seq=seq)
            state, seq = store.load(game)
        assert submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq).accepted
    state, _seq = store.load(game)
    assert [d.kind for d in rules.pending_for(state, "blue")] == ["maneuver"]
    return game


def post(client, game, seq: int, nonce: str, command: dict, **extra):
    client.force_login(game.seats.get(colour="blue").user)
    data = {"seat": "blue", "expected_seq": seq, "nonce": nonce, "choice": canonical_json(command), **extra}
    return client.post(reverse("games:detail", args=[game.pk]), data)


def alert(response) -> str:
    match = re.search(r'<p class="notice bad" role="alert">(.*?)</p>', response.content.decode(), re.S)
    assert match, "no error shown"
    return html.unescape(match.group(1))


def fianna(state) -> dict:
    """Blue's first legal play of The Fianna."""
    return dict(next(c for c in rules.legal_commands(state, "blue") if c.get("card") == "ep_the_fianna"))


def test_the_confirm_step_of_the_fianna_says_it_ends_the_maneuver(client, fianna_game):
    state, seq = store.load(fianna_game)
    asked = post(client, fianna_game, seq, "f1", fianna(state)).content.decode()
    assert "Confirm your move" in asked
    assert "This ends your maneuver: the card is played instead of an attack or a withdrawal." in asked
    assert "This ends your turn." not in asked


def test_a_refusal_on_the_page_says_what_is_awaited_in_words(client, fianna_game):
    """A Season command sent while blue must maneuver: the rules' own message, without the
    email's "attack <player>, withdraw <n> to <territory>"; nothing written."""
    _state, seq = store.load(fianna_game)
    refused = post(client, fianna_game, seq, "r1", {"type": "pass"}, confirmed="1")
    assert refused.status_code == 400
    awaited = "Perform a maneuver: attack a player, withdraw clans to a territory, or propose peace."
    assert alert(refused) == awaited
    assert store.head(fianna_game)[0] == seq


def test_a_form_from_an_older_page_is_played_if_still_legal_else_refused(client, fianna_game):
    """docs/web.md, "Decisions as forms": a stale form is decided again against the game now."""
    state, seq = store.load(fianna_game)
    proposal = next(c for c in rules.legal_commands(state, "blue") if c["type"] == "propose_peace")
    played = post(client, fianna_game, seq - 3, "s1", proposal, confirmed="1")
    assert played.status_code == 302
    assert Command.objects.filter(game=fianna_game).last().body == proposal

    _state, now = store.load(fianna_game)
    refused = post(client, fianna_game, seq, "s2", fianna(state), confirmed="1")
    assert refused.status_code == 400
    assert f"(The game has moved on since your page: {seq} → {now} events.)" in alert(refused)
    assert store.head(fianna_game)[0] == now
