"""The game pages and the history in French (issue 16, "The whole game in French").

A browser asking for French (Accept-Language), or a signed-in player who chose French, reads the
game page, the history, the island at an event and the list of games in French: the rulebook's
words (conflit, envahisseur, Citadelle, Vol des corbeaux...), the official French territory and
card names, the seat colours in words ("vert"); the same pages asked for in English are as
before. Every event type has a French line of its own, and a line told to a seat speaks to it
("Vous avez attaqué bleu dans la Lande.").
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import store
from games.rules import Event, redact
from games.services import SeatSpec, create_game, submit_command
from games.story.event_text import describe_event
from tests.games.test_every_event_folds import _every_evolver, _real_logs
from web.decision_forms import explain_builder


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def clash_game(db, clash_position):
    """green and blue; green's Migration took 3 clans from the Valley into the Cove: a clash
    there, blue to choose a Citadel."""
    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="french-pages",
        setup=clash_position,
        options={"reaction_mode": "quick"},
        play_bots=False,
    )
    state, seq = store.load(game)
    assert submit_command(
        game=game,
        seat=game.seats.get(colour="green"),
        expected_seq=seq,
        command={"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}},
    ).accepted
    return game


# English sentences of the pages that a French reader must not meet.
ENGLISH_ON_THE_PAGE = (
    "At the table",
    "Turn order",
    "Recently",
    "Victory track",
    "Clash in the Cove",
    "started it (the instigator)",
    "Seed commitment",
    "The whole history",
    "Legend",
    "Flock of Crows",
    "Green moved",
    "Last move",
)


def test_the_game_page_reads_in_french_for_a_browser_asking_for_french(client, clash_game):
    page = text_of(client.get(reverse("games:detail", args=[clash_game.pk]), HTTP_ACCEPT_LANGUAGE="fr"))
    for sentence in (
        "Autour de la table",
        "Ordre du tour, Vol des corbeaux dans le sens horaire",
        "Conflit dans l'Anse",
        "Vert l'a déclenché (l'envahisseur).",
        "Récemment",
        "Conditions de victoire",
        "Prochain à choisir une Citadelle : bleu",
        "Vert a déplacé 3 clans depuis la Vallée vers l'Anse (Migration).",
        "Conflit dans l'Anse ; vert est l'envahisseur.",
        "Dernier coup :",
        "Légende",
        "La graine est révélée à la fin de la partie.",
    ):
        assert sentence in page, sentence
    for sentence in ENGLISH_ON_THE_PAGE:
        assert sentence not in page, sentence


def test_the_same_page_in_english_is_unchanged(client, clash_game):
    page = text_of(client.get(reverse("games:detail", args=[clash_game.pk]), HTTP_ACCEPT_LANGUAGE="en"))
    for sentence in (
        "At the table",
        "Turn order, Flock of Crows clockwise",
        "Clash in the Cove",
        "Green started it (the instigator).",
        "Recently",
        "Victory track",
        "Next to choose a Citadel: blue",
        "Green moved 3 clans from the Valley to the Cove (Migration).",
        "Clash in the Cove; green is the instigator.",
        "Last move:",
    ):
        assert sentence in page, sentence
    assert "Autour de la table" not in page and "Conflit" not in page


def test_a_player_who_chose_french_decides_in_french(client, clash_game):
    from players.models import Player

    Player.objects.update_or_create(email="blue@example.org", defaults={"language": "fr"})
    client.force_login(clash_game.seats.get(colour="blue").user)
    page = text_of(client.get(reverse("games:detail", args=[clash_game.pk])))
    for sentence in (
        "vous jouez bleu",
        "À vous de jouer.",
        "Votre décision",
        "Réfugier 1 clan dans une Citadelle",
        "Votre main",
        "Réactions Triskel",
        "vert 3 engagé(s) · vous 2 engagé(s)",
    ):
        assert sentence in page, sentence
    for sentence in ("Your decision", "Your hand", "Your turn", "you play blue"):
        assert sentence not in page, sentence


def test_the_history_reads_in_french(client, clash_game):
    url = reverse("games:history", args=[clash_game.pk])
    page = text_of(client.get(url, HTTP_ACCEPT_LANGUAGE="fr"))
    for sentence in (
        "Partie 1 : historique".replace("1", str(clash_game.pk)),
        "Coup par coup",
        "Montrer les étapes propres aux règles",
        "Vert a joué Migration",
        "La partie a commencé : vert, bleu (mise en place : position décrite).",
        "Au tour du joueur vert.",
    ):
        assert sentence in page, sentence
    for sentence in (
        "Move by move",
        "Show the rules' own steps",
        "Green played",
        "The game started",
        "Green's turn",
    ):
        assert sentence not in page, sentence
    by_event = text_of(client.get(url + "?by=event&steps=1", HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Étape commencée : " in by_event and "Step started" not in by_event
    english = text_of(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Move by move" in english and "Green's turn began." in english and "Coup par coup" not in english


def test_the_island_at_an_event_and_the_list_of_games_read_in_french(client, clash_game):
    at = text_of(client.get(reverse("games:island_at", args=[clash_game.pk, 5]), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "l'île après l'événement 5 sur" in at and "Coup suivant" in at and "Next move" not in at
    listing = text_of(client.get(reverse("games:list"), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Toutes les parties" in listing and "en cours" in listing and "vert, " in listing
    assert "All games" not in listing and "in progress" not in listing


def test_a_builder_explains_a_refusal_in_french():
    """The decision form's own reasons name the territories with their French articles."""
    legal = [
        {"type": "play", "card": "act_migration", "from": "moor", "moves": moves}
        for moves in ({"forest": 1}, {"forest": 2}, {"valley": 1}, {"forest": 1, "valley": 1})
    ]
    built = {"type": "play", "card": "act_migration", "from": "moor", "moves": {"cove": 1}}
    with translation.override("fr"):
        assert (
            explain_builder(built, legal)
            == "Depuis la Lande, les clans peuvent aller vers la Forêt ou la Vallée, pas vers l'Anse."
        )
    with translation.override("en"):
        assert (
            explain_builder(built, legal)
            == "From the Moor clans can go to the Forest or the Valley, not the Cove."
        )


def _first_of_each_type() -> dict:
    """{event type: (type, payload)} of the first event of each type along the real games of
    `tests.games.test_every_event_folds`, as a spectator sees it (redacted) and whole."""
    found = {}
    for log in _real_logs(_every_evolver()):
        for raw in log:
            event = Event.from_json(raw) if isinstance(raw, dict) else raw
            if event.type not in found:
                seen = redact(event, None)
                found[event.type] = [(seen.type, seen.payload), (event.type, event.payload)]
    return found


@pytest.mark.slow  # bot games until every event type appeared
def test_every_event_type_has_a_french_line_of_its_own():
    found = _first_of_each_type()
    assert set(found) == _every_evolver()
    same = []
    for event_type, versions in sorted(found.items()):
        for seen_type, payload in versions:
            with translation.override("en"):
                english = describe_event(seen_type, payload)
            with translation.override("fr"):
                french = describe_event(seen_type, payload)
            if french == english:
                same.append(f"{event_type}: {english}")
    assert not same, "\n".join(same)


ATTACK = {"seat": "green", "target": "blue", "territory": "moor"}


def test_a_line_told_to_a_seat_speaks_to_it_in_french():
    with translation.override("fr"):
        assert describe_event("AttackDeclared", ATTACK) == "Vert a attaqué bleu dans la Lande."
        assert (
            describe_event("AttackDeclared", ATTACK, viewer="green")
            == "Vous avez attaqué bleu dans la Lande."
        )
        assert describe_event("AttackDeclared", ATTACK, viewer="blue") == "Vert vous a attaqué dans la Lande."
        assert (
            describe_event("AttackDeclared", ATTACK, viewer="orange") == "Vert a attaqué bleu dans la Lande."
        )
        shown = {"seat": "white", "to": "green", "cards": ["act_raid"]}
        assert (
            describe_event("HandRevealed", shown, viewer="white")
            == "Vous avez montré votre main à vert : Razzia."
        )
        assert (
            describe_event("HandRevealed", shown, viewer="green") == "Blanc vous a montré sa main : Razzia."
        )
        assert describe_event("Passed", {"seat": "green"}, viewer="green") == "Vous avez passé."
        assert (
            describe_event(
                "ClansRemoved",
                {"seat": "blue", "territory": "highlands", "count": 2, "cause": "attack"},
                viewer="blue",
            )
            == "Vous avez perdu 2 clans dans le Plateau (attaque)."
        )


def test_in_english_the_viewer_changes_nothing():
    with translation.override("en"):
        for viewer in (None, "green", "blue"):
            assert (
                describe_event("AttackDeclared", ATTACK, viewer=viewer) == "Green attacked blue in the Moor."
            )
        assert (
            describe_event(
                "ClansRemoved",
                {"seat": "blue", "territory": "highlands", "count": 2, "cause": "attack"},
                viewer="blue",
            )
            == "Blue lost 2 clans in the Highlands (attack)."
        )
