"""Who is at the table: display names chosen in the email preferences (never the email address
shown to other players), the turn-order strip with the Flock of Crows direction and who is
next, the last move marked on the island, and the log in its own column."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games import store
from games.services import SeatSpec, create_game, submit_command
from players.models import Player
from players.signed_tokens import email_links_token

pytestmark = pytest.mark.django_db


def section(body: str, element_id: str, end: str = "</section>") -> str:
    start = body.index(f'id="{element_id}"')
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body[start : body.index(end, start)])))


# Green's Migration of the clash position: 3 clans from the Valley to the Cove, starting a clash.
MIGRATION = {"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}}


def send(game, colour: str, command: dict) -> None:
    """`colour`'s seat sends `command` on the game as it is now; it must be accepted."""
    _state, seq = store.load(game)
    assert submit_command(
        game=game, seat=game.seats.get(colour=colour), command=command, expected_seq=seq
    ).accepted


@pytest.fixture
def game(clash_position):
    return create_game(
        seats=[SeatSpec(email="ana@example.org"), SeatSpec(email="bo@example.org")],
        seed="table",
        setup=clash_position,
        play_bots=False,
    )


def test_a_display_name_chosen_in_preferences_is_shown_to_the_others_never_the_email(client, game):
    player, _ = Player.objects.get_or_create(email="ana@example.org")
    url = reverse("email:preferences", kwargs={"token": email_links_token(player.pk)})
    client.force_login(game.seats.get(colour="green").user)  # the name at the table needs a sign-in
    form = {"delivery": "prompt", "time_zone": "UTC", "language": "en"}
    refused = client.post(url, {**form, "display_name": "ana@example.org"})
    assert refused.status_code == 400 and "not an email address" in refused.content.decode()
    assert client.post(url, {**form, "display_name": "  Ana   of Eriu "}).status_code == 302
    player.refresh_from_db()
    assert player.display_name == "Ana of Eriu"
    assert 'value="Ana of Eriu"' in client.get(url).content.decode()

    client.force_login(game.seats.get(colour="blue").user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "green Ana of Eriu" in section(body, "turn-order", "</nav>")
    # The name links to Ana's profile (blue sat at her table).
    assert re.search(
        r'<tr data-seat="green">\s*<td>[^\n]*<span class="name"><a href="[^"]+">Ana of Eriu</a></span>', body
    )
    assert "ana@example.org" not in body
    client.logout()
    assert "ana@example.org" not in client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_the_turn_order_strip_says_who_decides_now_who_is_next_and_the_flock_direction(client, game):
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    strip = section(body, "turn-order", "</nav>")
    # clash_position: green is the Brenn and plays the Season turn; blue plays next.
    assert "Flock of Crows clockwise" in strip
    assert re.search(r"green Brenn deciding now → blue next", strip), strip


def test_the_last_move_is_named_and_outlined_on_the_island(client, game):
    send(game, "green", MIGRATION)
    client.force_login(game.seats.get(colour="blue").user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    last = section(body, "last-move", "</p>")
    assert "Migration" in last and "Valley" in last and "Cove" in last
    assert re.search(r'g\.territory\[data-territory="cove"\] > polygon:first-of-type', body)
    assert 'data-territory="forest"] >' not in body
    # The log is its own column of the page (beside the island on a wide screen).
    assert re.search(r'<div class="log">\s*<section class="panel" id="recent">', body)


def test_the_last_move_is_the_card_played_when_a_triskel_answer_closed_its_window(client, game):
    """Rulebook, Triskel: a card's effect waits for the players' reactions. Green plays
    Migration, blue declines to react, and the clans move: the last move is green's Migration,
    the answer and the clans moved told beneath it, not "A Triskel window was answered." alone."""
    from games import rules

    send(game, "green", MIGRATION)
    assert [(d.seat, d.kind) for d in rules.pending(store.load(game)[0])] == [("blue", "reaction")]
    send(game, "blue", {"type": "decline"})
    told = {}
    for viewer in ("green", "blue"):
        client.force_login(game.seats.get(colour=viewer).user)
        body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        told[viewer] = (section(body, "last-move", "</p>"), section(body, "last-move", "</ul>"))
    headline, whole = told["green"]
    assert "> Last move: You played Migration from the Valley: 3 clans to the Cove." in headline
    assert "A Triskel window was answered." in whole and "You moved 3 clans" in whole
    headline, whole = told["blue"]
    assert "> Last move: Green played Migration" in headline
    assert "You answered a Triskel window: declined." in whole and "Green moved 3 clans" in whole


def test_the_clash_line_over_your_decision_names_you(client, game):
    """Green's Migration starts a clash in the Cove (rulebook, Clash): the line that stays over
    the decision of a player in it counts their own clans as "you", the others' by colour."""
    from games import rules

    send(game, "green", MIGRATION)
    send(game, "blue", {"type": "decline"})
    deciding = {d.seat for d in rules.pending(store.load(game)[0]) if d.seat}
    assert deciding
    colour = deciding.pop()
    client.force_login(game.seats.get(colour=colour).user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    line = section(body, "clash-in-view", "</p>")
    other = "blue" if colour == "green" else "green"
    assert re.search(r"\byou \d+ exposed", line) and re.search(rf"\b{other} \d+ exposed", line), line
    assert not re.search(rf"\b{colour} \d+ exposed", line), line
