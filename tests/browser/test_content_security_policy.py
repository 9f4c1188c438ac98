"""In Chromium: the site's Content-Security-Policy (docs/security.md, "Input") lets the pages'
own scripts run and refuses any other. A player's name is escaped wherever it is shown; should
a page ever print one as markup, `<img src=x onerror=…>` would run nothing."""

from __future__ import annotations

import pytest

from tests.browser.test_table_in_browser import signed_in
from tests.games.play.test_take_backs import position

pytestmark = pytest.mark.django_db(transaction=True)

# Every refusal of the policy, as the page reports it.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


@pytest.fixture
def page(site, new_context):
    from games.services import SeatSpec, create_game

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-csp",
        setup=position(),
        options={"reaction_mode": "quick"},
    )
    context = new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = signed_in(site, context, game.seats.get(colour="green").user, f"/games/{game.pk}/")
    page.game = game
    return page


def test_the_pages_own_scripts_run_under_the_policy(page, site):
    """The game page's live script asks its head (it runs), and no page of a player's round
    (the game, its history, "My games", the preferences) trips the policy."""
    with page.expect_request(lambda request: "/head.json" in request.url, timeout=15_000):
        pass
    for path in (f"/games/{page.game.pk}/history/", "/", "/preferences/", f"/games/{page.game.pk}/"):
        page.goto(f"{site}{path}")
        assert page.evaluate("window.__violations") == [], path


def test_markup_printed_into_a_page_runs_nothing(page):
    page.evaluate(
        """document.body.insertAdjacentHTML("beforeend",
             '<img src="x" onerror="window.__ran = 1"><a id="evil" href="javascript:window.__ran = 2">x</a>');"""
    )
    page.click("#evil")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__ran") is None
    assert any(v.startswith("script-src") for v in page.evaluate("window.__violations"))
