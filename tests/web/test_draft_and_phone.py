"""Draft and phone: the texts of the cards beside the draft's options; during a clash, the
clash's territory named at the top of the decision (kept in view on a phone by the page's CSS)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games import rules, store
from games.rules import card_name
from games.rules.card_reference import card_reference
from games.services import SeatSpec, create_game, submit_command

pytestmark = pytest.mark.django_db


def test_the_draft_shows_the_text_of_each_card_beside_its_options(client, make_game, play):
    game = make_game(n_players=2, seed="draft-texts")
    play(
        game,
        60,
        until=lambda state: any(d.kind == "draft" or "draft" in d.kind for d in rules.pending(state)),
    )
    state, _seq = store.load(game)
    drafting = next(d.seat for d in rules.pending(state) if "draft" in d.kind)
    choices = rules.view_for(state, drafting)["draft"]["choices"]
    assert choices
    client.force_login(game.seats.get(colour=drafting).user)
    body = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())
    form = body[body.index('data-group="draft"') :]
    form = form[: form.index("</form>")]
    cards = form[form.index('class="option-cards"') :]
    for card in choices:
        assert card_name(card) in cards and card_reference(card)["text"] in cards
    # Nobody else's cards: only those the drafting seat may choose among.
    other = next(s for s in state.seats if s != drafting)
    for card in set(state.hands.get(other, [])) - set(choices) - set(rules.view_for(state, drafting)["hand"]):
        assert f'data-card="{card}"' not in form


def test_during_a_clash_the_decision_names_the_clash_territory_first(client, clash_position):
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="phone",
        setup=clash_position,
        play_bots=False,
    )
    _state, seq = store.load(game)
    migration = {"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}}
    assert submit_command(
        game=game, seat=game.seats.get(colour="green"), command=migration, expected_seq=seq
    ).accepted
    # Any Triskel window after the move is declined; then the clash asks blue about its Citadel.
    for _ in range(5):
        state, seq = store.load(game)
        decision = rules.pending(state)[0]
        if rules.current_clash(state) is not None:
            break
        declined = (
            {"type": "decline"}
            if {"type": "decline"} in rules.legal_commands(state, decision.seat)
            else rules.legal_commands(state, decision.seat)[0]
        )
        assert submit_command(
            game=game, seat=game.seats.get(colour=decision.seat), command=declined, expected_seq=seq
        ).accepted
    colour = decision.seat
    client.force_login(game.seats.get(colour=colour).user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    decision = body[body.index('id="decision"') :]
    line = decision[decision.index('id="clash-in-view"') :]
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line[: line.index("</p>")])))
    # The reader's own clans are "you" (here blue, asked in the clash).
    assert colour == "blue" and "Clash in the Cove" in text and "green 3 exposed" in text and "you" in text
    # It comes before the first form of the decision.
    assert decision.index('id="clash-in-view"') < decision.index("<form")
