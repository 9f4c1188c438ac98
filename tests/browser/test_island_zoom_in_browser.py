"""In Chromium, desktop (1280×900) and phone (390×844): the island's zoom and its territories'
tooltips (issue: the web like a table, "Time and place"). The zoom is a checkbox styled as a
button, so it works with the script and without it; each territory's tooltip (its SVG <title>)
names it, its clans, chieftain and buildings, and what it does."""

from __future__ import annotations

import pytest

from tests.browser.test_table_in_browser import signed_in

pytestmark = pytest.mark.django_db(transaction=True)
VIEWPORTS = pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])


@pytest.fixture
def game():
    from games.services import SeatSpec, create_game

    return create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-zoom",
        play_bots=False,
    )


def _island_width(page) -> float:
    return page.locator("svg.island").bounding_box()["width"]


def _zoom_and_back(page) -> None:
    before = _island_width(page)
    page.get_by_text("Zoom in").click()
    assert _island_width(page) > 2 * before  # wider than its box: the box scrolls
    assert page.get_by_text("Zoom out").is_visible() and not page.get_by_text("Zoom in").is_visible()
    page.get_by_text("Zoom out").click()
    assert abs(_island_width(page) - before) < 1


@VIEWPORTS
def test_the_island_zooms_in_and_out(site, new_context, game, phone):
    page = signed_in(
        site, new_context(phone=phone), game.seats.get(colour="green").user, f"/games/{game.pk}/"
    )
    _zoom_and_back(page)
    # From the keyboard too: the checkbox takes the focus, Space toggles it.
    before = _island_width(page)
    page.focus("#island-zoom")
    page.keyboard.press("Space")
    assert _island_width(page) > 2 * before


@VIEWPORTS
def test_the_island_zooms_without_a_script(site, browser, game, phone):
    context = browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 900},
        java_script_enabled=False,
    )
    try:
        page = context.new_page()
        page.goto(f"{site}/games/{game.pk}/")  # a spectator's view: the same island
        _zoom_and_back(page)
    finally:
        context.close()


def test_a_territory_tooltip_tells_its_name_clans_and_effect(site, new_context, game):
    from games import rules, store

    state, _seq = store.load(game)
    view = rules.view_for(state, "green")
    tid, data = next(iter(view["territories"].items()))
    page = signed_in(site, new_context(), game.seats.get(colour="green").user, f"/games/{game.pk}/")
    tooltip = page.locator(f'svg.island g.territory[data-territory="{tid}"] > title').text_content()
    assert tooltip.startswith(rules.territory_name(tid, "en") + ":")
    card = rules.card_reference(rules.TERRITORY_INFO[tid].advantage, "en")
    assert f"Advantage card {card['name']}: {card['text']}" in tooltip
    if data.get("chieftain"):
        assert f"chieftain {rules.colour_name(data['chieftain'])}" in tooltip


def test_tapping_a_territory_on_a_phone_shows_its_details(site, new_context, game):
    """A phone has no hover: tapping a territory shows what its tooltip says, under the island."""
    from games import rules

    page = signed_in(site, new_context(phone=True), game.seats.get(colour="green").user, f"/games/{game.pk}/")
    territory = page.locator("svg.island g.territory").first
    tid = territory.get_attribute("data-territory")
    details = page.locator("#territory-details")
    assert not details.is_visible()
    territory.locator("polygon").first.click()  # a tap, on a context without touch events
    assert details.is_visible()
    assert details.text_content().startswith(rules.territory_name(tid, "en") + ":")
