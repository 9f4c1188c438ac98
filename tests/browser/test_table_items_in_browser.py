"""In Chromium, desktop (1280×900) and phone (390×844), the game page as a new player met it
(issue: the web like a table): a name asked at first sign-in; the draft's pack apart from the
hand with its steps; a countdown beside the deadline; "Since your last move" in order; table
talk kept after a blank message is refused, no bot to write to, no Follow for a seated player;
the history's fingerprint once."""

from __future__ import annotations

import re

import pytest

from games import rules, store
from tests.browser.conftest import send
from tests.browser.test_table_in_browser import signed_in
from tests.conftest import drive
from tests.games.play.test_take_backs import position

pytestmark = pytest.mark.django_db(transaction=True)
VIEWPORTS = pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])


@VIEWPORTS
def test_a_name_at_first_sign_in(site, new_context, phone):
    from players.accounts import user_for_email

    page = signed_in(site, new_context(phone=phone), user_for_email("ann@example.org"), "/")
    page.get_by_label("Your name at the table").fill("Ann of the Isles")
    page.get_by_role("button", name="Save").click()
    assert "Other players now see you as Ann of the Isles." in page.inner_text("body")
    assert page.locator("#your-name").count() == 0


@VIEWPORTS
def test_the_draft_pack_apart_from_the_hand(site, new_context, phone):
    from games.services import SeatSpec, create_game

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-draft",
        play_bots=False,
    )
    drive(game, 60, until=lambda state: any(d.kind == "draft" for d in rules.pending(state)))
    state, _seq = store.load(game)
    colour = next(d.seat for d in rules.pending(state) if d.kind == "draft")
    page = signed_in(site, new_context(phone=phone), game.seats.get(colour=colour).user, f"/games/{game.pk}/")
    draft = page.locator("#draft")
    assert "The pack you hold" in draft.inner_text()
    assert draft.locator("li[aria-current=step]").count() == 1
    assert "Now:" in draft.locator("li[aria-current=step]").inner_text()
    pack = rules.view_for(state, colour)["draft"]["choices"]
    for card in pack:
        assert page.locator(f'#hand [data-card="{card}"]').count() == 0


@VIEWPORTS
def test_countdown_since_your_last_move_talk_and_history(site, new_context, shoot, phone):
    from games.services import SeatSpec, create_game

    game = create_game(
        seats=[
            SeatSpec(email="green@example.org"),
            SeatSpec(email="blue@example.org"),
            SeatSpec(is_bot=True),
        ],
        seed="browser-items",
        setup={
            **position(),
            "hands": {"green": ["act_new_clans", "act_sanctuary"], "blue": ["act_bard"], "orange": []},
        },
        options={"reaction_mode": "quick", "public": True},
        play_bots=False,
    )
    green = game.seats.get(colour="green")
    page = signed_in(site, new_context(phone=phone), green.user, f"/games/{game.pk}/")
    # The countdown beside the deadline, kept by the script.
    assert re.fullmatch(r"\d+ (d \d+ h|h \d+ min|min) left", page.locator("time.countdown").inner_text())
    # No Follow for a seated player; the bot is no addressee.
    assert page.get_by_role("button", name="Follow").count() == 0
    options = page.locator("#talk select[name=to] option").all_inner_texts()
    assert "blue alone" in options and not any("orange" in o for o in options)
    # A blank message refused: the talk so far stays in view.
    page.locator("#talk textarea").fill("Good luck, blue!")
    page.locator("#talk button[type=submit]").click()
    page.locator("#talk textarea").fill("   ")
    page.locator("#talk button[type=submit]").click()
    assert "Good luck, blue!" in page.inner_text("#talk") and "not sent" in page.inner_text("body")
    # Green plays; blue then reads "Since your last move", in order.
    page.goto(f"{site}/games/{game.pk}/")
    send(page, page.locator("form[data-group='play:act_new_clans'] button[type=submit]").first)
    blue_page = signed_in(
        site, new_context(phone=phone), game.seats.get(colour="blue").user, f"/games/{game.pk}/"
    )
    since = blue_page.locator("#since li")
    numbers = [int(n) for n in re.findall(r"#(\d+)", " ".join(since.all_inner_texts()))]
    assert numbers == sorted(numbers) and "Green played New Clans" in blue_page.inner_text("#since")
    shoot(blue_page, f"since-your-last-move-{'phone' if phone else 'desktop'}")
    # The history: the fingerprint once at the top, no hash on the rows.
    blue_page.goto(f"{site}/games/{game.pk}/history/")
    assert blue_page.locator("#head-hash").count() == 1
    assert not re.search(r"\b[0-9a-f]{64}\b", blue_page.inner_text("#events"))
