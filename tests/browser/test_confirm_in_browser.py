"""In Chromium, desktop (1280×900) and phone (390×844): a card play asks to confirm in a dialog
("Go back" sends nothing), is sent once confirmed, and can be taken back while the other player
has not acted; after the other player acts, the page no longer offers it (docs/rulings.md,
"Taking back a move")."""

from __future__ import annotations

import pytest

from games import store
from games.models import Command
from tests.browser.conftest import send
from tests.browser.test_table_in_browser import signed_in
from tests.games.play.test_take_backs import position

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_confirm_then_take_back_then_no_more(site, new_context, shoot, phone):
    from games.services import SeatSpec, create_game, submit_command

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-confirm",
        setup=position(),
        options={"reaction_mode": "quick"},
    )
    green = game.seats.get(colour="green")
    page = signed_in(site, new_context(phone=phone), green.user, f"/games/{game.pk}/")
    seq = store.head(game)[0]
    form = page.locator("form[data-group='play:act_new_clans']")
    choice = form.locator("input[type=radio]")
    if choice.count():
        choice.first.check()
    button = form.locator("button[type=submit]").first

    # A mis-tap: the dialog names the move; "Go back" sends nothing.
    button.click()
    dialog = page.locator("dialog.confirm-move")
    dialog.wait_for(state="visible")
    assert "New Clans" in dialog.inner_text()
    shoot(page, f"confirm-dialog-{'phone' if phone else 'desktop'}")
    dialog.get_by_role("button", name="Go back").click()
    assert dialog.count() == 0 and store.head(game)[0] == seq

    # Confirmed: sent, then taken back from the page.
    send(page, button)
    assert "Accepted" in page.inner_text("body")
    page.get_by_role("button", name="Take back your last move").click()
    assert "Your move was taken back" in page.inner_text("body")
    state, _ = store.load(game)
    assert state.territories["valley"]["clans"] == {"green": 3}
    assert Command.objects.filter(game=game).last().body == {"type": "take_back"}

    # Played again; once blue has answered, green is no longer offered to take it back.
    send(page, page.locator("form[data-group='play:act_new_clans'] button[type=submit]").first)
    assert page.get_by_role("button", name="Take back your last move").count() == 1
    blue = game.seats.get(colour="blue")
    assert submit_command(
        game=game, seat=blue, expected_seq=store.head(game)[0], command={"type": "pass"}
    ).accepted
    page.reload()
    assert page.get_by_role("button", name="Take back your last move").count() == 0
