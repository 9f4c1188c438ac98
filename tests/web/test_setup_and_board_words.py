"""What the setup, the game-over page and the island say (issue 26, "What emails and pages say"):
"'Setup, round 1 of 2' above a board that says 'Round 0'"; "the game-over page asks players to
sign in 'to decide'"; "English clan letters G and W on the French board"."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import rules, store
from notifications.email_board import board_text
from players.models import Player
from tests.web.island_views import island_view
from tests.web.test_game_page_panels import WON, two_players
from web.board_svg import island_svg

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.mark.parametrize(
    "language, setup, round_word",
    [("en", "Setup, before round 1", "Round"), ("fr", "Mise en place, avant la manche 1", "Manche")],
)
def test_the_setup_is_no_round_on_the_board_nor_in_the_prompt(client, make_game, language, setup, round_word):
    """Rulebook, Setup: each player places 2 clans, one at a time, before the first round. The
    prompt counts the seat's clans, not rounds; every board says "Setup", none "Round 0"."""
    game = make_game(n_players=3, seed="setup-words")
    state, _seq = store.load(game)
    while rules.pending(state)[0].kind != "place_clan":  # the Brenn chooses the Capital first
        decision = rules.pending(state)[0]
        for event in rules.decide(
            state,
            decision.seat,
            rules.legal_commands(state, decision.seat)[0],
            rng=rules.rng_for("setup-words", state.seq),
        ):
            rules.evolve(state, event)
    assert state.phase == "setup" and state.round == 0
    with translation.override(language):
        prompts = []
        for _ in range(2 * len(state.seats)):
            (decision,) = rules.pending(state)
            prompts.append(decision.prompt)
            for event in rules.decide(
                state,
                decision.seat,
                rules.legal_commands(state, decision.seat)[0],
                rng=rules.rng_for("setup-words", state.seq),
            ):
                rules.evolve(state, event)
                if state.phase != "setup":
                    break
        assert not any(re.search(r"\b(round|manche)\b", p, re.IGNORECASE) for p in prompts), prompts
        assert "(of 2)" in prompts[0] or "(sur 2)" in prompts[0]
    state, _seq = store.load(game)
    with translation.override(language):
        board, email = rules.render_board(state, None), board_text(state, None)
    for text in (board, email):
        assert text.startswith(setup), text
        assert f"{round_word} 0" not in text
    Player.objects.update_or_create(
        email=game.seats.get(colour="green").email, defaults={"language": language}
    )
    client.force_login(game.seats.get(colour="green").user)
    page = text_of(client.get(reverse("games:detail", args=[game.pk])))
    assert setup in page and f"{round_word} 0" not in page


def test_the_game_over_page_asks_nobody_to_sign_in_to_decide(client):
    game, _green, _blue = two_players(WON, seed="over-sign-in")
    game.refresh_from_db()
    assert game.is_over
    page = text_of(client.get(reverse("games:detail", args=[game.pk])))  # a visitor, signed out
    assert "is elected High King" in page
    assert "decide" not in page and "sign in" not in page


def test_a_game_going_on_still_tells_a_visitor_how_players_sign_in(client, clash_position):
    game, _green, _blue = two_players(clash_position, seed="on-sign-in")
    page = text_of(client.get(reverse("games:detail", args=[game.pk])))
    assert "Players: sign in with the link in your latest email to see your hand and decide." in page


def _chips(svg: str) -> dict:
    """{seat: label} of the clan pills of one territory picture."""
    return dict(
        re.findall(r'<g class="clans" data-seat="(\w+)" data-count="\d+">.*?>([^<>]+)</text></g>', svg)
    )


def test_the_french_island_marks_clans_with_french_letters_that_tell_blue_from_white():
    view = island_view(
        {
            "valley": {
                "cell": [0, 0],
                "clans": {"green": 3, "blue": 2, "orange": 1, "white": 12},
                "chieftain": "white",
            }
        },
        ["green", "blue", "orange", "white"],
    )
    with translation.override("en"):
        assert _chips(island_svg(view)) == {"green": "G3", "blue": "B2", "orange": "O1", "white": "W12"}
    with translation.override("fr"):
        svg = island_svg(view)
    assert _chips(svg) == {"green": "V3", "blue": "Bl2", "orange": "O1", "white": "Bc12"}
    # Each pill holds its label, and the four pills stay inside the hexagon (R*sqrt(3) wide).
    widths = [
        float(w) for w in re.findall(r'<rect x="[-\d.]+" y="[-\d.]+" width="([\d.]+)" height="21"', svg)
    ]
    assert len(widths) == 4 and sum(widths) + 6 <= 64 * 3**0.5 - 4
    assert "3 clans verts" in svg and "2 clans bleus" in svg and "12 clans blancs" in svg


@pytest.mark.parametrize(
    "language, legend",
    [
        ("en", "G3 clans: the player's letter and how many ( G green, B blue, O orange, W white)"),
        (
            "fr",
            "V3 clans : la lettre de la couleur du joueur et leur nombre ( V vert, Bl bleu, O orange, Bc blanc)",
        ),
    ],
)
def test_the_legend_reads_the_letters_the_island_shows(client, clash_position, language, legend):
    game, green, _blue = two_players(clash_position, seed=f"legend-{language}")
    Player.objects.update_or_create(email=green.email, defaults={"language": language})
    client.force_login(green.user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert legend in text_of(response)
    labels = set(_chips(response.content.decode()).values())
    letters = {"en": ("G", "B"), "fr": ("V", "Bl")}[language]
    assert {re.sub(r"\d+", "", label) for label in labels} == set(letters)


def test_a_territorys_summary_is_punctuated_as_its_language_writes():
    """The hexagon's accessible name and tooltip: French puts a space before ":" and ";"
    ("Lande : orange 7, bleu 4 ; 3 Sanctuaires, chef : orange"), English none."""
    view = island_view(
        {
            "moor": {
                "cell": [0, 0],
                "clans": {"orange": 7, "blue": 4},
                "sanctuaries": 3,
                "chieftain": "orange",
            }
        },
        ["orange", "blue"],
    )
    with translation.override("en"):
        assert 'aria-label="Moor: orange 7, blue 4; 3 Sanctuaries, chieftain orange"' in island_svg(view)
    with translation.override("fr"):
        assert 'aria-label="Lande : orange 7, bleu 4 ; 3 Sanctuaires, chef : orange"' in island_svg(view)
