"""In Chromium: a Migration's destinations narrowed by its origin with a running "2 of 3 clans"
total; on a phone (390×844) the clash stays in view above the decision; and axe-core (through
axe-playwright-python, its bundled axe.min.js: nothing fetched) finds no violation of any impact
on any page, in English and French."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules, store
from tests.browser.conftest import send

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(site, context, user, path: str):
    """A page of `context` at `path`, signed in as `user` by an emailed-link token."""
    from sesame.utils import get_query_string

    page = context.new_page()
    page.goto(f"{site}{path}{get_query_string(user)}")
    return page


@pytest.fixture
def game(clash_position):
    from games.services import SeatSpec, create_game

    return create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-table",
        setup=clash_position,
        options={"reaction_mode": "quick"},
        play_bots=False,
    )


def test_moves_are_narrowed_by_their_origin_and_counted(site, new_context, shoot, game):
    green = game.seats.get(colour="green")
    page = signed_in(site, new_context(), green.user, f"/games/{game.pk}/")
    form = page.locator("form[data-group='play:act_migration']")
    form.locator("select[name='f:from']").select_option(label="Forest")
    # From the Forest: the Plains and the Valley only; 1 clan there.
    assert form.locator("label[data-key=cove]").is_hidden()
    assert (
        form.locator("label[data-key=plains]").is_visible()
        and form.locator("label[data-key=valley]").is_visible()
    )
    assert form.locator(".total").inner_text() == "0 of 1 clan"
    form.locator("select[name='f:from']").select_option(label="Valley")
    assert (
        form.locator("label[data-key=cove]").is_visible()
        and form.locator("label[data-key=valley]").is_hidden()
    )
    form.locator("input[name='f:moves:cove']").fill("2")
    assert form.locator(".total").inner_text() == "2 of 4 clans"
    shoot(page, "moves-builder-counted")
    form.locator("input[name='f:moves:cove']").fill("3")
    send(page, form.locator("button[type=submit]"))
    assert "Accepted: Play Migration from the Valley: 3 clans to the Cove" in page.inner_text("body")
    # The last move is named and outlined on the island.
    assert "Valley" in page.inner_text("#last-move") and "Cove" in page.inner_text("#last-move")


def test_on_a_phone_the_clash_stays_in_view_with_the_decision(site, new_context, shoot, game):
    from games.services import submit_command

    _state, seq = store.load(game)
    migration = {"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 3}}
    assert submit_command(
        game=game, seat=game.seats.get(colour="green"), command=migration, expected_seq=seq
    ).accepted
    state, _seq = store.load(game)
    colour = rules.pending(state)[0].seat
    page = signed_in(site, new_context(phone=True), game.seats.get(colour=colour).user, f"/games/{game.pk}/")
    decision = page.locator("#decision")
    box = decision.bounding_box()
    assert box["height"] <= 844 + 1
    decision.scroll_into_view_if_needed()
    decision.evaluate("el => el.scrollTop = el.scrollHeight")
    line = page.locator("#clash-in-view")
    assert "Clash in the Cove" in line.inner_text()
    top = line.bounding_box()["y"]
    assert 0 <= top < 844, top
    shoot(page, "phone-clash-decision")


def violations(page) -> list:
    """axe-core's violations on `page`, of any impact: (rule, impact, the first targets)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
    ]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_accessibility_violation_on_any_page(site, new_context, game, language):
    """axe-core finds no violation of any impact (minor and moderate included) on any page, as a
    spectator, as a player (on a desktop and a phone), in English and in French."""
    from players.models import Player
    from players.signed_tokens import email_links_token

    game.host = game.seats.get(colour="green").user
    game.save(update_fields=["host"])
    green = game.seats.get(colour="green")
    player, _ = Player.objects.get_or_create(email="green@example.org")
    player.language = language
    player.save(update_fields=["language"])
    context = new_context()
    context.set_extra_http_headers({"Accept-Language": language})
    visitor = context.new_page()
    checked = {}
    preferences = reverse("email:preferences", kwargs={"token": email_links_token(player.pk)})
    for path in (
        "/",
        "/signin/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/history/",
        f"/games/{game.pk}/at/3/",
        preferences,
    ):  # the link alone: vacation and name locked
        visitor.goto(f"{site}{path}")
        checked[f"spectator {path}"] = violations(visitor)
    page = signed_in(site, new_context(), green.user, "/")
    for path in (
        "/",
        reverse("lobby:new"),
        f"/games/{game.pk}/",
        f"/games/{game.pk}/history/",
        f"/games/{game.pk}/history/?by=event",
        f"/games/{game.pk}/at/3/",
        reverse("lobby:host", args=[game.pk]),
        preferences,
    ):
        page.goto(f"{site}{path}")
        assert page.evaluate("document.documentElement.lang") == language
        checked[f"green {path}"] = violations(page)
    phone = signed_in(site, new_context(phone=True), green.user, f"/games/{game.pk}/")
    checked["green on a phone"] = violations(phone)
    assert {where: found for where, found in checked.items() if found} == {}
