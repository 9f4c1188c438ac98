""" "Since your last move": every public event after the viewer's own last move, in order, one
line each (it was the last command only, newest first, in one sentence); "Recently" in order too."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import rules, store
from tests.web.test_table_strip import MIGRATION, game, section, send  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def seqs(body: str, element_id: str) -> list[int]:
    start = body.index(f'id="{element_id}"')
    part = body[start : body.index("</section>", start)]
    return [int(n) for n in re.findall(r">#(\d+)</a>", part)]


def test_since_your_last_move_in_order(client, game):  # noqa: F811
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    send(game, "green", MIGRATION)
    state, _seq = store.load(game)
    asked = rules.pending(state)[0].seat
    send(game, asked, rules.legal_commands(state, asked)[0])

    client.force_login(green.user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()

    since = section(body, "since")
    numbers = seqs(body, "since")
    assert numbers == sorted(numbers) and numbers[0] > 0
    assert "Green played Migration" not in since  # green's own move is before "since"
    assert min(numbers) > store.head(game)[0] - 20
    recent = seqs(body, "recent")
    assert recent == sorted(recent)  # oldest first, as it happened

    # Blue, who has not moved yet, reads the whole game so far, green's Migration among it.
    client.force_login(blue.user)
    blue_page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    if asked == "blue":  # blue just moved: nothing since
        assert 'id="since"' not in blue_page
    else:
        assert "Migration" in section(blue_page, "since")


def test_each_line_once_since_your_last_move_or_recently(client, game):  # noqa: F811
    """Blue has not moved yet: every line so far is "Since your last move", so "Recently" does
    not repeat them; it points to them instead."""
    blue = game.seats.get(colour="blue")
    send(game, "green", MIGRATION)
    client.force_login(blue.user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    since = seqs(body, "since")
    assert since
    assert not set(since) & set(seqs(body, "recent"))
    assert "Everything recent is under “Since your last move”." in section(body, "recent")


@pytest.mark.parametrize("page", ["games:detail", "games:history"])
@pytest.mark.parametrize(
    "language, mine, theirs",
    [
        ("en", "You played Migration", "Green played Migration"),
        ("fr", "Vous avez joué Migration", "Vert a joué Migration"),
    ],
)
def test_the_lines_speak_to_the_player_reading_them(client, game, page, language, mine, theirs):  # noqa: F811
    """The game page and the history tell their reader's own moves to "you", as the emails do:
    green reads "You played Migration", blue reads "Green played Migration", and a spectator
    reads the line as it is. In French too ("Vous avez joué Migration"), where the line is worded
    for its reader."""
    from players.models import Player

    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    send(game, "green", MIGRATION)
    url = reverse(page, args=[game.pk])
    for seat in (green, blue):
        Player.objects.update_or_create(email=seat.email, defaults={"language": language})

    client.force_login(green.user)
    greens = client.get(url).content.decode()
    assert mine in greens and theirs not in greens
    client.force_login(blue.user)
    blues = client.get(url).content.decode()
    assert theirs in blues and mine not in blues
    client.logout()
    assert theirs in client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_since_your_last_move_read_beyond_the_recent_lines_is_told_to_you(client, game, monkeypatch):  # noqa: F811
    """ "Since your last move" reaching back before the page's recent events reads its lines
    again: they are told to their reader as the others are ("The game started: green, you",
    not "green, blue")."""
    from web import pages

    monkeypatch.setattr(pages, "RECENT_EVENTS", 1)  # the page reads only the last few events
    blue = game.seats.get(colour="blue")
    send(game, "green", MIGRATION)
    assert store.head(game)[0] > 4 * pages.RECENT_EVENTS + 1  # beyond the recent events
    client.force_login(blue.user)
    since = section(client.get(reverse("games:detail", args=[game.pk])).content.decode(), "since")
    assert "Green played Migration" in since
    assert "The game started: green, you" in since and "green, blue" not in since
