"""In Chromium: a newcomer finds an open table in the list, signs in by the emailed link, takes
the last open seat in one click, and the game starts (docs/open-tables.md)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import follow

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_newcomer_finds_an_open_table_joins_and_the_game_starts(site, new_context, email_link, shoot):
    from lobby import services
    from lobby.models import Proposal
    from players.accounts import user_for_email
    from players.preferences import set_display_name

    host = user_for_email("host@example.org")
    set_display_name("host@example.org", "Brigid")
    table = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(is_bot=True), services.PlaceSpec(is_open=True)],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 48, "reaction": 12},
        reaction_mode="holders",
        listed=True,
    )

    page = new_context().new_page()
    page.goto(f"{site}/")
    follow(page, page.get_by_role("link", name="Open tables").first)
    row = page.locator(f"tr[data-table='{table.pk}']")
    assert "Brigid" in row.inner_text() and "2 of 3" in row.inner_text()
    follow(page, row.get_by_role("link", name="Sign in to join"))
    page.get_by_label("Your email address").fill("newcomer@example.org")
    follow(page, page.get_by_role("button", name="Email me a link"))
    page.goto(email_link("newcomer@example.org", "sign-in link"))
    shoot(page, "open-table-join")
    with page.expect_navigation():
        page.get_by_role("button", name="Take a seat").click()

    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED
    assert page.url.endswith(f"/games/{table.game_id}/")
    assert "the game has begun" in page.content()
    assert table.game.seats.filter(email="newcomer@example.org").exists()
