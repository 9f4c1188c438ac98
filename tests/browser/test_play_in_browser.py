"""Playing Inis in a browser (Chromium through Playwright, against the live server): sign in from
an emailed link, create a game in the lobby, accept an invitation, draft, play a Season card,
shelter a clan in a Citadel, maneuver, and step through the history — with a second browser
context as another player, who never sees the first player's hand."""

from __future__ import annotations

import pytest

from games import rules, store
from games.models import Command, Game
from games.rules import card_name
from tests.browser.conftest import follow, send

pytestmark = pytest.mark.django_db(transaction=True)


def hidden_hand(game: Game, colour: str) -> list[str]:
    """The cards of `colour`'s hand that other players may not see (not Advantage cards)."""
    state, _ = store.load(game)
    return [c for c in state.hands[colour] if rules.CARDS[c].type != "advantage"]


def assert_never_shows(page, cards: list[str]) -> None:
    """No card of `cards` is shown anywhere on `page`: no `data-card` in the HTML, no card drawn
    with its name. (A name alone can be a public word elsewhere: "the Citadels step", a card's
    text, a card played last round.)"""
    html = page.content()
    drawn = set(page.locator(".card .name").all_inner_texts())
    for card in cards:
        assert f'data-card="{card}"' not in html, f"{card} leaked into another player's page"
        assert card_name(card) not in drawn, f"{card_name(card)} leaked into another player's page"


def decide_something(page, site: str, game: Game) -> str | None:
    """On the game page: take the first simple option of the current decision — a Season card
    play when there is one — and send it. Returns the group's title, or None (nothing to decide)."""
    page.goto(f"{site}/games/{game.pk}/")
    forms = page.locator("#decision form.group")
    if forms.count() == 0:
        return None
    simple = [
        forms.nth(i) for i in range(forms.count()) if forms.nth(i).locator("input[name=group]").count() == 0
    ]
    plays = [f for f in simple if (f.get_attribute("data-group") or "").startswith("play:")]
    form = (plays or simple or [forms.nth(0)])[0]
    title = form.locator("legend").inner_text()
    radios = form.locator("input[type=radio]")
    if radios.count():
        radios.first.check()
    send(page, form.locator("button[type=submit]").first)
    page.wait_for_load_state()
    assert "Accepted" in page.inner_text("body") or "Already received" in page.inner_text("body"), (
        page.inner_text("#decision") if page.locator("#decision").count() else page.inner_text("body")
    )
    return title


def test_a_game_from_the_lobby_to_the_first_season_card(site, new_context, email_link, shoot):
    host = new_context().new_page()
    friend = new_context(phone=True).new_page()

    # The host signs in from the emailed link: no password.
    host.goto(f"{site}/signin/")
    host.fill("input[name=email]", "host@example.org")
    follow(host, host.get_by_role("button", name="Email me a link"))
    assert "on its way" in host.inner_text("body")
    host.goto(email_link("host@example.org", "sign-in link"))
    assert "host@example.org" in host.inner_text("header")

    # ... and proposes a game: the friend by email, two bots, Discovery, quick reactions.
    follow(host, host.locator("text=New game").first)
    host.fill("input[name=player_1]", "friend@example.org")
    host.select_option("select[name=bots]", "2")
    # Easy bots answer in the request in tenths of a second; hard ones take seconds at a Season's
    # start, and more than the browser's 45 s once CI's two lanes shared two cores with them.
    host.check("input[name=bot_level][value=easy]")
    host.check("input[name=setup][value=discovery]")
    host.check("input[name=deadlines][value=brisk]")
    host.check("input[name=reaction_mode][value=quick]")
    follow(host, host.locator("text=Send the invitations"))
    assert "waiting for an answer" in host.inner_text("#seats")
    assert not Game.objects.exists()

    # The friend opens the invitation (its link answers it, signing nobody in) and accepts: every
    # seat is taken, and the "Game started" email brings the friend's seat link.
    friend.goto(email_link("friend@example.org", "invites you"))
    follow(friend, friend.locator("button:has-text('Accept')"))
    assert "The game has begun" in friend.inner_text("body")
    game = Game.objects.get()
    assert game.setup == "discovery" and game.options["reaction_mode"] == "quick"
    assert [seat.bot_level for seat in game.seats.filter(is_bot=True)] == ["easy", "easy"]
    friend.goto(email_link("friend@example.org", "Game started"))
    assert f"/games/{game.pk}/?as=blue" in friend.url

    # Both play until the draft is done and the host has played a Season card.
    green = game.seats.get(colour="green")
    blue = game.seats.get(colour="blue")
    played_season_card = False
    for _ in range(80):
        acted = False
        for page in (host, friend):
            title = decide_something(page, site, game)
            acted = acted or title is not None
            if page is host and title and title.startswith("Play "):
                played_season_card = True
                shoot(host, "game-page-after-season-card")
        if played_season_card:
            break
        if not acted:
            pytest.fail("nobody could decide anything")
        if Command.objects.filter(seat=green, body__contains='"draft"').count() == 1:
            friend.goto(f"{site}/games/{game.pk}/")
            assert_never_shows(friend, hidden_hand(game, "green"))
    assert played_season_card, "the host never had a Season turn"
    drafts = Command.objects.filter(game=game, command_id__startswith="web:", body__contains='"draft"')
    assert drafts.filter(seat=green).count() >= 2 and drafts.filter(seat=blue).count() >= 2
    assert Command.objects.filter(seat=green, command_id__startswith="web:", body__contains='"play"').exists()
    host.goto(f"{site}/games/{game.pk}/history/")
    # The host (green) reads its own moves told to it.
    assert "You played" in host.inner_text("#events") and "Green played" not in host.inner_text("#events")

    # The friend (another browser context) never sees the host's hand, and sees their own.
    friend.goto(f"{site}/games/{game.pk}/")
    assert_never_shows(friend, hidden_hand(game, "green"))
    assert friend.locator("#hand .card").count() == len(store.load(game)[0].hands["blue"])
    shoot(friend, "game-page-phone")
    host.goto(f"{site}/games/{game.pk}/")
    assert host.locator("svg.island g.territory").count() == len(store.load(game)[0].territories)
    shoot(host, "game-page-desktop")


def test_a_clash_citadel_and_maneuver_in_the_browser_then_the_history(
    site, new_context, shoot, clash_position
):
    from games.services import SeatSpec, create_game
    from players.accounts import sign_in_link

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-clash",
        setup=clash_position,
        options={"reaction_mode": "quick"},
    )
    green_page = new_context().new_page()
    blue_page = new_context(phone=True).new_page()
    green_page.goto(sign_in_link(game.seats.get(colour="green").user, f"/games/{game.pk}/"))
    blue_page.goto(sign_in_link(game.seats.get(colour="blue").user, f"/games/{game.pk}/"))

    # Green plays Migration: 3 clans from the Valley into the Cove, built in the form's inputs.
    migration = green_page.locator("form[data-group='play:act_migration']")
    migration.locator("select[name='f:from']").select_option(label="Valley")
    migration.locator("input[name='f:moves:cove']").fill("3")
    send(green_page, migration.locator("button[type=submit]"))
    assert "Accepted: Play Migration from the Valley: 3 clans to the Cove" in green_page.inner_text("body")
    shoot(green_page, "clash-green-after-migration")

    # Blue shelters a clan in the Cove's Citadel.
    blue_page.goto(f"{site}/games/{game.pk}/")
    assert "shelter 1 clan in a free Citadel" in blue_page.inner_text("#decision")
    assert blue_page.locator("svg.island polygon.clash").count() == 1
    assert_never_shows(blue_page, hidden_hand(game, "green"))
    send(blue_page, blue_page.locator("button:has-text('Shelter 1 clan in a Citadel')"))
    assert "Accepted" in blue_page.inner_text("body")

    # Green maneuvers: attack blue; blue answers by removing a clan.
    green_page.goto(f"{site}/games/{game.pk}/")
    assert "perform a maneuver" in green_page.inner_text("#decision")
    send(green_page, green_page.locator("button:has-text('Attack blue')"))
    assert "Accepted: Attack blue" in green_page.inner_text("body")
    blue_page.goto(f"{site}/games/{game.pk}/")
    blue_page.check("input[type=radio][value*='remove']")
    send(blue_page, blue_page.locator("form[data-group='attack_response'] button[type=submit]"))
    assert "Accepted" in blue_page.inner_text("body")
    state, seq = store.load(game)
    assert state.territories["cove"]["clans"] == {"green": 3, "blue": 1}
    assert_never_shows(blue_page, hidden_hand(game, "green"))

    # The history, move by move, then stepped through event by event (the first move's events
    # are shown on demand), told to its reader.
    follow(green_page, green_page.locator("text=History").first)
    assert "You attacked blue in the Cove" in green_page.inner_text("#events")
    assert "Blue sheltered 1 clan in a Citadel of the Cove" in green_page.inner_text("#events")
    green_page.locator("#events li.move details summary").first.click()
    follow(green_page, green_page.locator("#events li.move").first.get_by_role("link", name="#1", exact=True))
    assert "after event 1 of" in green_page.inner_text("h1")
    for expected in range(2, 5):
        follow(green_page, green_page.locator("a[rel=next]").first)
        assert f"after event {expected} of {seq}" in green_page.inner_text("h1")
    follow(green_page, green_page.locator("a[rel=prev]").first)
    assert f"after event 3 of {seq}" in green_page.inner_text("h1")
    follow(green_page, green_page.locator("a[rel=last]").first)
    assert green_page.locator("svg.island g.territory[data-territory=cove] g.clans").count() == 2
    shoot(green_page, "island-at-last-event")
