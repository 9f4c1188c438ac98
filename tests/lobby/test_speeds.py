"""Table speeds: the new-game form offers each deadline preset with the expected length of a
game at it, from the calendar simulation (`games.play.pace`), in English and French; the
proposal shows the length of its own speed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.play import pace
from games.record.options import DEADLINE_PRESETS
from lobby import services
from players.accounts import user_for_email
from players.models import Player


def test_a_faster_speed_makes_a_shorter_game_and_the_figure_is_the_simulations():
    days = {name: pace.expected_days(deadlines) for name, deadlines in DEADLINE_PRESETS.items()}
    assert days["brisk"] < days["normal"] < days["relaxed"]
    # Deterministic: simulated again, without the cache, the same games give the same figure.
    assert pace._days_a_round.__wrapped__(
        tuple(sorted(DEADLINE_PRESETS["normal"].items())),
        "holders",
        pace.delays_at(DEADLINE_PRESETS["normal"]),
    ) * pace.ROUNDS_A_GAME == pytest.approx(days["normal"])


def weeks(text: str, word: str) -> dict[str, int]:
    """{preset: weeks} from the new-game page's speed choices."""
    found = {}
    for name in DEADLINE_PRESETS:
        label = re.search(rf'value="{name}"[^>]*>\s*([^<]*)</label>', text)
        assert label, name
        weeks = re.search(rf"(\d+) {word}", label.group(1))
        assert weeks, label.group(1)
        found[name] = int(weeks.group(1))
    return found


@pytest.mark.parametrize(
    ("language", "phrase", "word"),
    [("en", "a game takes about", "weeks"), ("fr", "une partie dure environ", "semaines")],
)
def test_the_new_game_form_shows_each_speed_with_the_length_of_a_game(client, db, language, phrase, word):
    user = user_for_email("host@example.org")
    Player.objects.update_or_create(email="host@example.org", defaults={"language": language})
    client.force_login(user)
    client.cookies["django_language"] = language
    page = client.get(reverse("lobby:new")).content.decode()
    assert page.count(phrase) == len(DEADLINE_PRESETS)
    found = weeks(page, word)
    expected = {name: round(pace.expected_days(d) / 7) for name, d in DEADLINE_PRESETS.items()}
    assert found == expected and found["brisk"] < found["normal"] < found["relaxed"]


def test_the_proposal_says_how_long_a_game_takes_at_its_speed(client, db):
    host = user_for_email("host@example.org")
    proposal = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="friend@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines=dict(DEADLINE_PRESETS["brisk"]),
        reaction_mode="holders",
    )
    client.force_login(host)
    page = client.get(reverse("lobby:proposal", args=[proposal.pk])).content.decode()
    brisk = round(pace.expected_days(DEADLINE_PRESETS["brisk"]) / 7)
    assert f"At this speed a game takes about {brisk} weeks." in page


def test_no_deadlines_says_what_it_means_for_length(client, db):
    """ "No deadlines" shows the same length as Normal: the page says why, and that it waits."""
    client.force_login(user_for_email("host@example.org"))
    page = client.get(reverse("lobby:new")).content.decode()
    label = re.search(r'value="none"[^>]*>\s*([^<]*)</label>', page).group(1)
    assert "while everyone answers within a day or two, as at Normal speed" in label
    assert "waits for every answer" in label
