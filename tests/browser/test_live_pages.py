"""Live pages in Chromium (Playwright, against the live server): two players in two browser
contexts; when one moves, the other's game page and "My games" change within a few seconds
without a reload, the tab title says "Your turn", and an opted-in notification is shown."""

from __future__ import annotations

import pytest

from games import store
from tests.browser.conftest import send

pytestmark = pytest.mark.django_db(transaction=True)

# Every live page asks its head every 4 seconds: a change shows within one ask and one fetch.
WITHIN_MS = 15_000

# The browser's Notification, recorded instead of shown (headless Chromium shows nothing).
RECORD_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push(title + ": " + ((options && options.body) || "")); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
"""


def test_the_other_players_pages_move_by_themselves(site, new_context, shoot, clash_position):
    from games.services import SeatSpec, create_game
    from players.accounts import sign_in_link

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-live",
        setup=clash_position,
        options={"reaction_mode": "quick"},
    )
    green_page = new_context().new_page()
    blue_context = new_context(phone=True)
    blue_context.add_init_script(RECORD_NOTIFICATIONS)
    blue_page = blue_context.new_page()
    green_page.goto(sign_in_link(game.seats.get(colour="green").user, f"/games/{game.pk}/"))
    blue_page.goto(sign_in_link(game.seats.get(colour="blue").user, f"/games/{game.pk}/"))
    blue_home = blue_context.new_page()
    blue_home.goto(f"{site}/")
    assert "Your turn" in green_page.title()
    assert "Your turn" not in blue_page.title()
    assert "Waiting for you" not in blue_home.inner_text("#my-games")

    # What blue's page fetches from now on: its head, then its live part alone, not the page.
    fetched: list[str] = []
    blue_page.on("request", lambda request: fetched.append(request.url.split(site, 1)[-1]))
    # Each head names blue by the page's token (web/head_viewer.py), not by blue's session alone.
    viewers: list[str | None] = []
    blue_page.on(
        "request",
        lambda request: (
            viewers.append(request.headers.get("x-inis-viewer")) if "head.json" in request.url else None
        ),
    )

    # Blue asks to be notified; a mark on each page shows later that it was never reloaded.
    blue_page.click("#notify-toggle")
    assert blue_page.inner_text("#notify-toggle") == "Stop notifications"
    for page in (blue_page, blue_home):
        page.evaluate("window.__notReloaded = true")

    # Green plays Migration into the Cove: blue must now choose whether to shelter a clan.
    migration = green_page.locator("form[data-group='play:act_migration']")
    migration.locator("select[name='f:from']").select_option(label="Valley")
    migration.locator("input[name='f:moves:cove']").fill("3")
    send(green_page, migration.locator("button[type=submit]"))
    assert "Accepted" in green_page.inner_text("body")
    green_page.evaluate("window.__notReloaded = true")

    blue_page.wait_for_function("() => document.title.startsWith('Your turn')", timeout=WITHIN_MS)
    assert "shelter 1 clan in a free Citadel" in blue_page.inner_text("#decision")
    assert "Clash in the Cove" in blue_page.inner_text("#clash")
    assert blue_page.locator("svg.island polygon.clash").count() == 1
    assert blue_page.evaluate("window.__notReloaded") is True
    assert f"/games/{game.pk}/?part=live" in fetched and f"/games/{game.pk}/" not in fetched
    assert viewers and all(viewers)
    assert blue_page.evaluate("window.__notes") == [f"Inis: your turn: {blue_page.title()}"]
    blue_home.wait_for_function(
        "() => document.querySelector('#my-games') && document.querySelector('#my-games').innerText.includes('Waiting for you')",
        timeout=WITHIN_MS,
    )
    assert blue_home.title().startswith("Your turn") and blue_home.evaluate("window.__notReloaded") is True
    shoot(blue_page, "live-blue-after-green-moved")

    # Blue shelters a clan: green's page (not reloaded) shows the clash panel and its maneuver.
    assert "Your turn" not in green_page.title()
    send(blue_page, blue_page.locator("button:has-text('Shelter 1 clan in a Citadel')"))
    assert "Accepted" in blue_page.inner_text("body")
    green_page.wait_for_function("() => document.title.startsWith('Your turn')", timeout=WITHIN_MS)
    assert "perform a maneuver" in green_page.inner_text("#decision")
    assert "Next maneuver: green" in " ".join(green_page.inner_text("#clash").split())
    assert green_page.evaluate("window.__notReloaded") is True
    assert f"{store.head(game)[0]} events" in green_page.inner_text("#live")
    shoot(green_page, "live-green-maneuver")


def test_a_spectators_page_moves_by_itself_from_the_part_every_spectator_shares(
    site, new_context, clash_position
):
    """A visitor who plays no seat: when a player moves, their page (not reloaded) shows the
    move, fetched from the address every spectator shares (web/spectator_part.py), without the
    visitor's cookies, never their own live part."""
    from games import rules
    from games.services import SeatSpec, create_game, submit_command

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-live-spectator",
        setup=clash_position,
        options={"reaction_mode": "quick"},
    )
    page = new_context().new_page()
    page.goto(f"{site}/games/{game.pk}/")
    page.evaluate("window.__notReloaded = true")
    asked: list[tuple[str, str | None]] = []
    page.on(
        "request",
        lambda request: asked.append((request.url.split(site, 1)[-1], request.headers.get("cookie"))),
    )
    state, seq = store.load(game)
    green = game.seats.get(colour="green")
    moved = submit_command(
        game=game, seat=green, command=rules.legal_commands(state, "green")[0], expected_seq=seq
    )
    assert moved.accepted, moved.message
    now = store.head(game)[0]
    page.wait_for_function(
        f"() => document.querySelector('#live').innerText.includes('{now} events')", timeout=WITHIN_MS
    )
    assert page.evaluate("window.__notReloaded") is True
    fetched = [(url, cookie) for url, cookie in asked if "/public/" in url]
    assert fetched and fetched[-1][0] == f"/games/{game.pk}/public/en/visitor/?v={now}.0"
    assert all(cookie is None for _url, cookie in fetched)  # no session, no CSRF cookie sent
    assert not [url for url, _cookie in asked if "part=live" in url]


def test_a_decision_being_filled_is_kept_when_the_page_moves_on(site, new_context, clash_position):
    """A page swapped while its player fills a form keeps the form as filled, and says the game
    moved on (here the host pauses the game: a table event, which the page also follows)."""
    from games.play import table
    from games.services import SeatSpec, create_game
    from players.accounts import sign_in_link

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-live-form",
        setup=clash_position,
        options={"reaction_mode": "quick"},
    )
    page = new_context().new_page()
    page.goto(sign_in_link(game.seats.get(colour="green").user, f"/games/{game.pk}/"))
    migration = page.locator("form[data-group='play:act_migration']")
    migration.locator("input[name='f:moves:cove']").fill("2")
    table.game_pause(game=game)
    page.wait_for_selector("#decision .moved-on", timeout=WITHIN_MS)
    assert "Paused by the host" in page.inner_text("#live")
    assert (
        page.locator("form[data-group='play:act_migration'] input[name='f:moves:cove']").input_value() == "2"
    )


def test_a_page_asking_too_often_waits_as_the_head_says_then_longer_at_each_refusal(
    site, new_context, clash_position
):
    """A head that answers 429 (web.live: too many polls from one connection) is asked again
    only after its Retry-After, then after twice as long at each refusal in a row; once it
    answers, the page asks every 4 seconds again. The page's clock is Playwright's, run forward."""
    from games.services import SeatSpec, create_game
    from players.accounts import sign_in_link

    game = create_game(
        seats=[SeatSpec(email="green@example.org"), SeatSpec(email="blue@example.org")],
        seed="browser-live-429",
        setup=clash_position,
    )
    page = new_context().new_page()
    page.clock.install()
    asked, refusing = [], [True]

    def head(route):
        asked.append(route.request.url)
        if refusing[0]:
            route.fulfill(
                status=429,
                headers={"Retry-After": "30"},
                content_type="application/json",
                body='{"retry_after": 30}',
            )
        else:
            route.continue_()

    page.route("**/head.json*", head)
    page.goto(sign_in_link(game.seats.get(colour="green").user, f"/games/{game.pk}/"))

    def run(ms: int, *, answered: bool = False) -> int:
        """Run the page's clock `ms` forward, let the network answer, and count the heads asked;
        answered: a head asked meanwhile goes to the server, whose answer is awaited (on a busy
        machine it can take longer than the wait below, and the page sets its next ask only once
        it has it)."""
        if answered:
            with page.expect_response(lambda response: "head.json" in response.url):
                page.clock.run_for(ms)
        else:
            page.clock.run_for(ms)
        page.wait_for_timeout(400)  # real time: the route answers, the script's promises settle
        return len(asked)

    assert run(4_100) == 1  # the first ask, 4 seconds after the page opened: refused
    assert run(25_000) == 1  # told to wait 30 seconds
    assert run(6_000) == 2  # asked again after 30: refused again
    assert run(50_000) == 2  # now twice as long: 60 seconds
    assert run(11_000) == 3
    refusing[0] = False
    assert run(121_000, answered=True) == 4  # refused a third time: 120 seconds; the fourth ask is answered
    assert run(4_100, answered=True) == 5  # answered: every 4 seconds again
    assert run(4_100, answered=True) == 6


# A browser whose answer to the permission's question is no (or whose settings block the site).
REFUSE_NOTIFICATIONS = """
window.Notification = class {
  static get permission() { return "default"; }
  static requestPermission() { return Promise.resolve("denied"); }
};
"""


@pytest.mark.parametrize(
    ("language", "start", "refused"),
    [
        ("en", "Notify me when it is my turn", "Notifications blocked in this browser"),
        ("fr", "Me prévenir quand c'est mon tour", "Notifications bloquées dans ce navigateur"),
    ],
)
def test_notifications_refused_by_the_browser_are_said_on_the_button(
    site, new_context, language, start, refused
):
    """The header's "Notify me when it is my turn", answered no by the browser, said nothing and
    stayed as it was, a button that seemed to do nothing: it now says the browser blocks them."""
    from players.accounts import sign_in_link, user_for_email
    from players.preferences import player_for

    user = user_for_email("green@example.org")
    player = player_for("green@example.org")
    player.language = language
    player.save()
    context = new_context()
    context.add_init_script(REFUSE_NOTIFICATIONS)
    page = context.new_page()
    page.goto(sign_in_link(user, "/"))
    page.wait_for_load_state("load")
    button = page.locator("#notify-toggle")
    assert button.inner_text() == start

    button.click()

    page.wait_for_function("() => document.getElementById('notify-toggle').disabled")
    assert button.inner_text() == refused
