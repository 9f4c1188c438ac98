"""games.views: the list, public page, seat page (form and submission) and histories."""
from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import rules, store
from games.models import Command


@pytest.fixture
def game(make_game):
    return make_game(seed="web")


def seat_to_move(game):
    state, seq = store.load(game)
    return game.seats.get(colour=rules.pending(state)[0].seat), state, seq


def test_the_list_shows_games(client, game):
    response = client.get(reverse("games:list"))
    assert response.status_code == 200
    assert f"Game {game.pk}" in response.content.decode()


def test_the_public_page_shows_the_commitment_not_the_seed(client, game):
    response = client.get(reverse("games:detail", args=[game.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert game.seed_commitment in body and "web" not in re.sub(r"<[^>]+>", "", body).split()
    assert game.seats.first().token not in body


def test_an_unknown_game_or_token_is_404(client, game):
    assert client.get(reverse("games:detail", args=[999999])).status_code == 404
    assert client.get(reverse("games:seat", args=[game.pk, "nope"])).status_code == 404


def test_the_seat_page_lists_the_legal_commands(client, game):
    seat, state, seq = seat_to_move(game)
    response = client.get(reverse("games:seat", args=[game.pk, seat.token]))
    body = response.content.decode()
    assert response.status_code == 200
    assert rules.render_board(state, seat.colour).splitlines()[0] in body
    for command in rules.legal_commands(state, seat.colour):
        assert rules.describe_command(state, command) in body
    assert f'name="expected_seq" value="{seq}"' in body


def post_command(client, game, seat, seq, *, choice=None, command_json="", nonce="n1"):
    data = {"expected_seq": seq, "nonce": nonce, "command_json": command_json}
    if choice is not None:
        data["choice"] = json.dumps(choice)
    return client.post(reverse("games:seat", args=[game.pk, seat.token]), data)


def test_submitting_a_listed_command_applies_it_and_redirects(client, game):
    seat, state, seq = seat_to_move(game)
    command = rules.legal_commands(state, seat.colour)[0]
    response = post_command(client, game, seat, seq, choice=command)
    assert response.status_code == 302
    record = Command.objects.get(game=game)
    assert record.body == command and record.command_id == "web:n1"
    follow = client.get(response.url)
    assert "Accepted" in follow.content.decode()


def test_the_same_form_sent_twice_is_applied_once(client, game):
    seat, state, seq = seat_to_move(game)
    command = rules.legal_commands(state, seat.colour)[0]
    assert post_command(client, game, seat, seq, choice=command).status_code == 302
    assert post_command(client, game, seat, seq, choice=command).status_code == 302
    assert Command.objects.filter(game=game).count() == 1


def test_an_illegal_command_shows_the_rules_message_and_changes_nothing(client, game):
    seat, state, seq = seat_to_move(game)
    bad = {"type": rules.legal_commands(state, seat.colour)[0]["type"], "territory": "atlantis"}
    with pytest.raises(rules.CommandError) as rules_says:
        rules.decide(state, seat.colour, bad, rng=rules.rng_for(game.seed, seq))
    response = post_command(client, game, seat, seq, command_json=json.dumps(bad))
    assert response.status_code == 400
    assert str(rules_says.value) in response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')
    assert store.head(game)[0] == seq


def test_invalid_json_is_explained(client, game):
    seat, _state, seq = seat_to_move(game)
    response = post_command(client, game, seat, seq, command_json="{not json")
    assert response.status_code == 400 and "not valid JSON" in response.content.decode()
    assert store.head(game)[0] == seq


def test_the_seat_history_is_redacted_for_the_seat(client, make_game, play):
    game = make_game(seed="history")
    play(game, 50)
    seat = game.seats.get(colour="green")
    response = client.get(reverse("games:seat_history", args=[game.pk, seat.token]))
    body = response.content.decode()
    assert response.status_code == 200
    last = store.head(game)
    assert last[1] in body
    other_hand = [c for c in store.load(game)[0].hands["blue"] if rules.CARDS[c].type != "advantage"]
    assert other_hand, "blue holds no hidden card yet: play further"
    public = client.get(reverse("games:history", args=[game.pk])).content.decode()
    for card in other_hand:
        assert card not in public


def test_a_finished_game_shows_its_seed_and_complete_history(client, db):
    from games.bots import play_bots
    from games.services import SeatSpec, create_game

    game = create_game(seats=[SeatSpec(is_bot=True)] * 2, seed="finished-seed", play_bots=False)
    play_bots(game, max_commands=20000, max_rounds=60)
    game.refresh_from_db()
    assert game.is_over
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "finished-seed" in page and game.winner in page
    history = client.get(reverse("games:history", args=[game.pk])).content.decode()
    assert "finished-seed" in history and 'class="redacted"' not in history
