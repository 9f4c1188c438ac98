"""The game page's standing-orders panel (docs/standing-orders.md): a seat sets an order in words,
sees it listed (and nobody else does), cancels it with one click; a bad order is refused with
what is allowed, and nothing is stored."""

import html

import pytest
from django.urls import reverse

from games.models import StandingOrder
from tests.notifications.email_positions import ASSEMBLY, game_from


def _page(client, game):
    return client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_a_seat_sets_lists_and_cancels_its_orders_on_the_page(client, db):
    game = game_from(ASSEMBLY, seed="web-orders")
    orange, green = game.seats.get(colour="orange"), game.seats.get(colour="green")
    client.force_login(orange.user)
    url = reverse("games:orders", args=[game.pk])

    answer = client.post(url, {"seat": "orange", "order": "peace refuse"})
    assert answer.status_code == 302
    client.post(url, {"seat": "orange", "order": "citadel yes"})
    page = _page(client, game)
    assert "Always refuse peace." in page and "Shelter a clan in a free Citadel." in page

    # Nobody else reads them, nor that they exist.
    client.force_login(green.user)
    other = _page(client, game)
    assert "Always refuse peace." not in other and "Shelter a clan" not in other
    client.logout()
    assert "Always refuse peace." not in _page(client, game)

    client.force_login(orange.user)
    assert client.post(url, {"seat": "orange", "cancel": "1"}).status_code == 302
    assert list(StandingOrder.objects.filter(seat=orange).values_list("kind", flat=True)) == ["citadel"]
    assert "standing order cancelled: Always refuse peace." in _page(client, game)
    page = _page(client, game)
    assert "Always refuse peace." not in page and "Shelter a clan in a free Citadel." in page
    client.post(url, {"seat": "orange", "cancel": "all"})
    assert not StandingOrder.objects.filter(seat=orange).exists()


def test_a_bad_order_on_the_page_is_refused_with_what_is_allowed(client, db):
    game = game_from(ASSEMBLY, seed="web-orders-bad")
    orange = game.seats.get(colour="orange")
    client.force_login(orange.user)

    answer = client.post(reverse("games:orders", args=[game.pk]), {"seat": "orange", "order": "dance a jig"})

    assert answer.status_code == 400
    assert "I did not understand the order" in answer.content.decode()
    assert not StandingOrder.objects.exists()


def test_a_visitor_cannot_set_orders_for_a_seat(client, db):
    game = game_from(ASSEMBLY, seed="web-orders-403")
    answer = client.post(reverse("games:orders", args=[game.pk]), {"seat": "orange", "order": "peace refuse"})
    assert answer.status_code == 403
    assert not StandingOrder.objects.exists()


def test_a_seat_hands_its_maneuvers_to_the_stand_in_bot_on_the_page(client, db):
    """The page's hint names the stand-in orders; "bot maneuvers" is kept and listed for the seat
    only; "bot" alone is refused with what the bot may decide, and nothing is stored."""
    game = game_from(ASSEMBLY, seed="web-orders-bot")
    orange, green = game.seats.get(colour="orange"), game.seats.get(colour="green")
    client.force_login(orange.user)
    url = reverse("games:orders", args=[game.pk])
    assert "“bot maneuvers”" in _page(client, game)

    refused = client.post(url, {"seat": "orange", "order": "bot"})
    assert refused.status_code == 400 and "order: bot maneuvers" in refused.content.decode()
    assert not StandingOrder.objects.exists()

    assert client.post(url, {"seat": "orange", "order": "bot maneuvers"}).status_code == 302
    assert "Let the stand-in bot make my maneuvers in clashes." in _page(client, game)
    client.force_login(green.user)
    assert "Let the stand-in bot" not in _page(client, game)


def test_an_order_not_understood_is_quoted_as_the_player_typed_it(client, db):
    """The panel takes an order without "order:" (docs/web.md); the refusal quotes the player's own
    words, in French « blah blah » and never an English « order: blah blah » they did not write.
    With "ordre :" typed, that is quoted too."""
    game = game_from(ASSEMBLY, seed="web-orders-quote")
    orange = game.seats.get(colour="orange")
    client.force_login(orange.user)
    client.cookies["django_language"] = "fr"
    url = reverse("games:orders", args=[game.pk])

    answer = client.post(url, {"seat": "orange", "order": "blah blah"})

    assert answer.status_code == 400
    page = answer.content.decode()
    assert "Je n&#x27;ai pas compris l&#x27;ordre « blah blah »" in page and "order: blah" not in page
    typed = client.post(url, {"seat": "orange", "order": "ordre : blah blah"}).content.decode()
    assert "l&#x27;ordre « ordre : blah blah »" in typed
    assert client.post(url, {"seat": "orange", "order": "ordre : paix refuser"}).status_code == 302
    assert list(StandingOrder.objects.values_list("kind", flat=True)) == ["peace"]


def _panel(page: str, section_id: str) -> str:
    """The markup of the page's section `section_id`, up to the end of that section."""
    start = page.index(f'id="{section_id}"')
    return page[start : page.index("</section>", start)]


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "names no card I know"), ("fr", "ne nomme aucune carte que je connaisse")],
)
def test_a_refused_order_is_said_in_the_orders_panel_above_the_order_as_typed(client, db, language, words):
    """The player types the order in the orders' panel, at the side or foot of the page: the
    refusal is said there, not in the decision's panel screens away, and the order comes back
    as typed, in focus, to be corrected rather than typed again."""
    game = game_from(ASSEMBLY, seed=f"web-orders-kept-{language}")
    orange = game.seats.get(colour="orange")
    client.force_login(orange.user)
    client.cookies["django_language"] = language

    answer = client.post(
        reverse("games:orders", args=[game.pk]), {"seat": "orange", "order": "attack discard bardd"}
    )

    assert answer.status_code == 400
    page = answer.content.decode()
    orders = _panel(page, "orders")
    assert words in html.unescape(orders)
    assert 'value="attack discard bardd"' in orders and "autofocus" in orders
    assert words not in html.unescape(_panel(page, "decision"))
    assert not StandingOrder.objects.exists()
