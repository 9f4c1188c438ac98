"""In Chromium on a phone (390×844): the pages a newcomer reaches first keep to the screen's
width. A wide list scrolls sideways inside its own box (reachable with the keyboard), and a long
address breaks, instead of widening the whole page, its header and its text included."""

from __future__ import annotations

import pytest

from tests.browser.test_table_in_browser import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

# The page's width beyond the screen's, in CSS pixels (0: nothing to scroll sideways).
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_open_tables_list_keeps_to_a_phones_width(site, new_context, shoot, language):
    from django.conf import settings

    from lobby import services
    from players.accounts import user_for_email
    from players.preferences import set_display_name

    host = user_for_email("host@example.org")
    set_display_name("host@example.org", "Brigid")
    services.proposal_create(
        host=host,
        places=[services.PlaceSpec(is_open=True), services.PlaceSpec(is_open=True)],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
        listed=True,
        rated=True,
    )
    context = new_context(phone=True)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": site}])
    page = signed_in(site, context, user_for_email("newcomer@example.org"), "/tables/")
    shoot(page, f"open-tables-phone-{language}")

    assert page.evaluate(OVERFLOW) == 0
    # The list itself still shows every column: its box scrolls to the join button.
    box = page.locator("#open-tables").locator("xpath=..")
    assert box.evaluate("(box) => box.scrollWidth > box.clientWidth")
    box.evaluate("(box) => { box.scrollLeft = box.scrollWidth; }")
    assert page.locator("#open-tables button").first.is_visible()


def test_a_long_table_channel_address_keeps_the_host_tools_to_a_phones_width(site, new_context, settings):
    """A Discord webhook's address is about 120 characters with no space: written whole on the
    host tools ("News goes to ..."), it made the page 870 px wide on a 390 px phone."""
    from games.play import table
    from games.services import SeatSpec, create_game
    from players.accounts import user_for_email

    settings.CHAT_TARGETS = True
    host = user_for_email("host@example.org")
    game = create_game(
        seats=[SeatSpec(email="host@example.org"), SeatSpec(is_bot=True)],
        seed="browser-phone-host",
        host=host,
        play_bots=False,
    )
    address = "discord://1234567890123456789/" + "abcdefghijklmnopqrstuvwxyz0123456789" * 2
    table.table_channel_set(game=game, url=address, host=host)
    page = signed_in(site, new_context(phone=True), host, f"/games/{game.pk}/host/")

    assert address in page.locator("#table-channel").inner_text().replace("\n", "")
    assert page.evaluate(OVERFLOW) == 0
