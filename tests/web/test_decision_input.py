"""Malformed or padded decision posts and seat links: a 400 (or 413) with a message, never a
server error, and the log records the legal command the form names, never what was posted."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import rules, store
from games.models import Command
from games.record.hashchain import canonical_json
from games.store import exports


@pytest.fixture
def game(make_game):
    return make_game(seed="malformed-input")


def mover(client, game):
    state, seq = store.load(game)
    seat = game.seats.get(colour=rules.pending(state)[0].seat)
    client.force_login(seat.user)
    return seat, state, seq


def text_of(response) -> str:
    import html

    return html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


def post(client, game, seat, seq, **fields):
    data = {"seat": seat.colour, "expected_seq": seq, "nonce": "n1", **fields}
    return client.post(reverse("games:detail", args=[game.pk]), data)


def test_deeply_nested_json_in_choice_is_a_400_with_a_message(client, game):
    seat, _state, seq = mover(client, game)
    for nested in ("[" * 20_000 + "]" * 20_000, '{"type": "pass", "x": ' + "[" * 50 + "]" * 50 + "}"):
        response = post(client, game, seat, seq, choice=nested)
        assert response.status_code == 400 and "not a command" in text_of(response)
    assert store.head(game)[0] == seq and not Command.objects.exists()


def test_not_a_number_in_choice_is_a_400(client, game):
    seat, _state, seq = mover(client, game)
    for value in (
        '{"type": "pass", "n": NaN}',
        '{"type": "pass", "n": 1e999}',
        '{"type": "pass", "n": ' + "9" * 5000 + "}",
    ):
        assert post(client, game, seat, seq, choice=value).status_code == 400


def test_a_nul_in_a_seat_token_is_a_400_with_a_message(client, game):
    for name in ("games:seat", "games:seat_history"):
        response = client.get(reverse(name, args=[game.pk, "abc\x00def"]))
        assert response.status_code == 400 and "This link is damaged" in text_of(response)


def test_a_legal_command_padded_with_an_extra_field_is_refused_and_never_stored(client, game):
    """The attack: a legal command plus a large extra field, which the log would keep for ever
    and the export serve back. The post names no legal command: refused, nothing written."""
    seat, state, seq = mover(client, game)
    legal = rules.legal_commands(state, seat.colour)[0]
    padded = {**legal, "note": "x" * 20_000}
    response = post(client, game, seat, seq, choice=canonical_json(padded))
    assert response.status_code == 400 and "not one of the choices" in text_of(response)
    assert store.head(game)[0] == seq and not Command.objects.exists()
    assert "x" * 1000 not in json.dumps(exports.export_game(game=game, colour=seat.colour))


def test_the_log_records_the_legal_command_as_the_rules_list_it(client, game):
    """The same command with its fields in another order is the legal command: that one, in the
    rules' own order, is what the log records."""
    seat, state, seq = mover(client, game)
    legal = next(
        (c for c in rules.legal_commands(state, seat.colour) if len(c) > 1),
        rules.legal_commands(state, seat.colour)[0],
    )
    reordered = json.dumps(dict(reversed(list(legal.items()))))
    assert post(client, game, seat, seq, choice=reordered).status_code == 302
    record = Command.objects.get(game=game)
    assert record.body == legal and list(record.body) == list(legal)


def test_a_decision_post_of_two_megabytes_is_refused_unread(client, game):
    seat, state, seq = mover(client, game)
    legal = rules.legal_commands(state, seat.colour)[0]
    response = post(client, game, seat, seq, choice=canonical_json({**legal, "note": "x" * 2_000_000}))
    assert response.status_code == 413 and "far larger than any decision" in text_of(response)
    assert store.head(game)[0] == seq and not Command.objects.exists()


@pytest.mark.parametrize("command", [{"type": "bogus"}, {"type": "choose_capital", "territory": 3}])
def test_a_form_changed_by_hand_is_refused_in_the_players_words(client, game, command):
    """What players read never shows engine words: a command the page never offers and the
    rules cannot read (an unknown type, a field of the wrong kind) is refused as "not one of the
    choices offered", never as "Unknown command type 'bogus': the types are choose_capital, ..."
    nor '"territory" must be a name (text)'. Nothing is written."""
    seat, _state, seq = mover(client, game)
    response = post(client, game, seat, seq, choice=canonical_json(command))
    text = text_of(response)
    assert response.status_code == 400 and "not one of the choices offered" in text
    assert "Unknown" not in text and "place_clan," not in text and "must be a name" not in text
    assert store.head(game)[0] == seq and not Command.objects.exists()
