"""Moves split over territories, on the game page: the builder knows which destinations each
origin allows and how many clans (for the script's filter and "2 of 3 clans"), a refused form
comes back filled as it was sent, and its error names territories by name and says why."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from games import rules, store
from games.models import Command
from games.services import SeatSpec, create_game
from web.decision_forms import FormError, command_from_post, decision_groups

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(clash_position):
    """clash_position: green holds Migration, 4 clans in the Valley (next to the Cove, the Plains
    and the Forest) and 1 in the Forest (next to the Valley and the Plains)."""
    return create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="moves",
        setup=clash_position,
        play_bots=False,
    )


def migration_group(game):
    state, _seq = store.load(game)
    groups = decision_groups(state, rules.legal_commands(state, "green"))
    return next(g for g in groups if g.key == "play:act_migration"), rules.legal_commands(state, "green")


def post(client, game, nonce, **fields):
    client.force_login(game.seats.get(colour="green").user)
    data = {
        "seat": "green",
        "expected_seq": str(store.head(game)[0]),
        "nonce": nonce,
        "group": "play:act_migration",
        "confirmed": "1",
        **fields,
    }
    return client.post(reverse("games:detail", args=[game.pk]), data)


def alert(response) -> str:
    body = response.content.decode()
    match = re.search(r'<p class="notice bad" role="alert">(.*?)</p>', body, re.S)
    assert match, "no error shown"
    return html.unescape(match.group(1))


def test_each_origin_lists_its_own_destinations_and_how_many_clans_can_go(game):
    group, _legal = migration_group(game)
    link = json.loads(group.link.as_json)
    assert link["choice"] == "from" and link["counts"] == "moves"
    valley, forest = link["by_value"]['"valley"'], link["by_value"]['"forest"']
    assert sorted(valley["keys"]) == ["cove", "forest", "plains"] and valley["max"] == 4
    assert sorted(forest["keys"]) == ["plains", "valley"] and forest["max"] == 1
    assert group.max_total == 4


def test_a_destination_the_origin_does_not_reach_is_refused_by_name(client, game):
    response = post(client, game, "m1", **{"f:from": '"forest"', "f:moves:cove": "1"})
    assert response.status_code == 400
    assert alert(response) == "From the Forest clans can go to the Plains or the Valley, not the Cove."
    assert not Command.objects.exists()


def test_too_many_clans_is_refused_saying_how_many_are_there(client, game):
    response = post(client, game, "m2", **{"f:from": '"valley"', "f:moves:cove": "3", "f:moves:plains": "2"})
    assert response.status_code == 400
    assert alert(response) == "You have only 4 clans in the Valley that can go: you chose 5."
    assert not Command.objects.exists()


def test_a_refused_form_comes_back_as_it_was_filled(client, game):
    response = post(client, game, "m3", **{"f:from": '"valley"', "f:moves:cove": "3", "f:moves:plains": "2"})
    body = response.content.decode()
    form = body[body.index('data-group="play:act_migration"') :]
    form = form[: form.index("</form>")]
    assert re.search(r'<option value="&quot;valley&quot;" selected>', form), form
    assert re.search(r'name="f:moves:cove"[^>]*value="3"', form)
    assert re.search(r'name="f:moves:plains"[^>]*value="2"', form)
    assert re.search(r'name="f:moves:forest"[^>]*value="0"', form)
    # The page as first shown (no error) starts from nothing.
    fresh = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert re.search(r'name="f:moves:cove"[^>]*value="0"', fresh)


def test_no_clan_chosen_asks_for_how_many(game):
    _group, legal = migration_group(game)
    members = [c for c in legal if c.get("card") == "act_migration"]
    with pytest.raises(FormError, match=r"^Choose how many clans: up to 4\.$"):
        command_from_post({"group": "play:act_migration", "f:from": '"valley"'}, members)


def test_a_legal_split_is_still_accepted(client, game):
    response = post(client, game, "m4", **{"f:from": '"valley"', "f:moves:cove": "2", "f:moves:plains": "1"})
    assert response.status_code == 302
    assert Command.objects.get(command_id="web:m4").body == {
        "type": "play",
        "card": "act_migration",
        "from": "valley",
        "moves": {"cove": 2, "plains": 1},
    }


def test_the_running_total_starts_at_the_most_clans_that_can_go(client, game):
    client.force_login(game.seats.get(colour="green").user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-total-for="moves"' in body and "up to 4 clans" in body


def test_a_place_of_the_island_is_offered_in_words_in_a_long_form():
    """Tailtu's Land: three tiles drawn, each may go on any empty place touching 2 territories;
    too many ways to list, so the form asks for the tile and the place. Each place reads where it
    is on the map ("north-east of the Valley, also touching the Cove (place 1,-1)"), never "1,-1"
    alone."""
    from tests.rules.positions import Table

    table = Table(
        """
        valley  0,0   green 1
        cove    1,0   blue 1
        plains  0,1   orange 1
        moor    -1,1  green 1
        forest  -1,0  blue 1
        """,
        capital="valley",
    )
    cells = ["1,-1", "0,-1", "-1,-1", "-2,1", "-2,2", "-1,2", "0,2", "1,1"]
    commands = [
        {"type": "place_territory", "territory": tile, "cell": cell}
        for tile in ("hills", "highlands", "swamp")
        for cell in cells
    ]
    (group,) = decision_groups(table.state, commands)
    assert not group.choices  # 24 ways: the form builds the command
    (place,) = [field for field in group.inputs if field.name == "cell"]
    labels = dict(place.options)
    assert labels['"1,-1"'] == "north-east of the Valley, also touching the Cove (place 1,-1)"
    assert all("touching" in label or " of the " in label for label in labels.values())
