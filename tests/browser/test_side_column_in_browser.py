"""In Chromium: on a laptop's screen (1366×768) the game page keeps what a player reaches for
during play — who is at the table, their standing orders, the table talk — in a side column
beside the island and the decision, within the first screen and a half, and the page is no
longer three screens tall; on a phone (390×844) the links at the top lead to those panels."""

from __future__ import annotations

import pytest

from games import rules, store
from tests.browser.conftest import follow

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 768}


def signed_in(site, context, user, path: str, viewport: dict | None = None):
    """A page of `context` at `path` (in a `viewport` of that size, else the context's), signed in
    as `user` by an emailed-link token."""
    from sesame.utils import get_query_string

    page = context.new_page()
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"{site}{path}{get_query_string(user)}")
    return page


@pytest.fixture
def game_in_season(make_game, play):
    """A four-player game in its first Season (the draft and the Capital's placement played),
    with three messages of table talk: the page as a player sees it mid-game."""
    from press.services import press_send

    game = make_game(n_players=4, seed="side-column")
    play(game, 200, until=lambda state: state.phase == "season")
    state, _seq = store.load(game)
    assert state.phase == "season"
    seats = {seat.colour: seat for seat in game.seats.all()}
    for colour, text in (
        ("green", "Good luck, everybody!"),
        ("blue", "Whoever takes the Capital first, beware."),
        ("orange", "A quiet first Season, I hope."),
    ):
        if colour in seats:
            press_send(game=game, seat=seats[colour], to=None, text=text)
    return game


def deciding_seat(game):
    """The seat asked to decide now."""
    state, _seq = store.load(game)
    colour = rules.pending(state)[0].seat
    return game.seats.get(colour=colour)


def top(page, selector: str) -> float:
    """The top of `selector`'s element on the page, in CSS pixels from the page's top."""
    return page.locator(selector).evaluate("el => el.getBoundingClientRect().top + window.scrollY")


def test_on_a_laptop_orders_and_talk_are_in_a_side_column(site, new_context, shoot, game_in_season):
    page = signed_in(
        site, new_context(), deciding_seat(game_in_season).user, f"/games/{game_in_season.pk}/", LAPTOP
    )
    assert page.locator("#decision").count() == 1
    height = page.evaluate("document.documentElement.scrollHeight")
    shoot(page, "side-column-laptop")
    screen = LAPTOP["height"]
    orders, talk, seats = top(page, "#orders"), top(page, "#talk"), top(page, "#turn-order")
    # Reached within a screen and a half, without a long scroll past the island and the hand.
    assert orders <= 1.5 * screen and talk <= 1.5 * screen, (orders, talk, height)
    assert seats <= screen, seats
    # Beside the island, not under it: the panels start right of the island's column.
    island = page.locator("svg.island").bounding_box()
    for selector in ("#orders", "#talk"):
        assert page.locator(selector).bounding_box()["x"] >= island["x"] + island["width"], selector
    # The page is well under the 3,200–3,700 px it was.
    assert height <= 2600, height
    # The message box is reached and used there as anywhere.
    page.locator("#talk textarea").fill("Ready.")
    follow(page, page.locator("#talk").get_by_role("button", name="Send", exact=True))
    assert "Ready." in page.inner_text("#talk")


def test_on_a_phone_the_links_at_the_top_lead_to_orders_and_talk(site, new_context, game_in_season):
    page = signed_in(
        site, new_context(phone=True), deciding_seat(game_in_season).user, f"/games/{game_in_season.pk}/"
    )
    anchors = page.locator("nav.page-anchors")
    assert anchors.bounding_box()["y"] < 844
    for name, target in (("Your standing orders", "#orders"), ("Table talk", "#talk")):
        anchors.get_by_role("link", name=name).click()
        page.wait_for_function("(id) => location.hash === id", arg=target)
        box = page.locator(target).bounding_box()
        # The panel's top is in view after the jump (the viewport's box is relative to the screen).
        assert -1 <= box["y"] < 844, (target, box)
