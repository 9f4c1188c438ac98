"""In Chromium, desktop (1280×900) and phone (390×844): the game page's first Tab is a skip link
to your decision, so the decision's first control is reached in at most 3 key presses (it took
12 Tabs before)."""

from __future__ import annotations

import pytest

from tests.browser.test_table_in_browser import signed_in
from tests.games.play.test_take_backs import position

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_decision_in_three_key_presses(site, new_context, phone):
    from games.services import SeatSpec, create_game

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-skip",
        setup=position(),
        options={"reaction_mode": "quick"},
    )
    page = signed_in(
        site, new_context(phone=phone), game.seats.get(colour="green").user, f"/games/{game.pk}/"
    )

    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to your decision"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")

    assert page.evaluate("!!document.activeElement.closest('#decision form')")
