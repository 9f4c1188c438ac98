"""Table talk on the web (the game page's form and panel), in the JSON export and in show_game."""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Game
from press.models import PressMessage
from press.services import MAX_CHARS, press_send


@pytest.fixture
def game(make_game):
    return make_game(4, seed="talk-web")


def seat(game, colour):
    return game.seats.get(colour=colour)


def as_player(client, game, colour):
    client.force_login(seat(game, colour).user)
    return client


def say(client, game, colour, text, to="all"):
    return client.post(reverse("press:send", args=[game.pk]), {"seat": colour, "to": to, "text": text})


def talk_panel(response) -> str:
    """The visible text of the page's Table talk panel."""
    body = response.content.decode()
    start = body.index('id="talk"')
    return html.unescape(re.sub(r"<[^>]+>", " ", body[start : body.index("</section>", start)]))


def test_a_player_talks_to_the_table_from_the_game_page(client, game):
    as_player(client, game, "green")
    response = say(client, game, "green", "Good luck, all.")
    assert response.status_code == 302 and response.url.endswith("#talk")

    page = client.get(response.url)
    assert "Your message to everyone at the table was sent." in page.content.decode()
    assert "You to everyone" in " ".join(talk_panel(page).split())
    # Every other seat, and a visitor, reads it on the page.
    client.logout()
    assert "green to everyone" in " ".join(
        talk_panel(client.get(reverse("games:detail", args=[game.pk]))).split()
    )


def test_a_private_message_shows_on_the_pages_of_its_sender_and_recipient_only(client, game):
    press_send(game=game, seat=seat(game, "green"), to="blue", text="The Cove is yours.")
    url = reverse("games:detail", args=[game.pk])
    for colour, shown in (("green", True), ("blue", True), ("orange", False), ("white", False)):
        client.logout()
        as_player(client, game, colour)
        assert ("The Cove is yours." in talk_panel(client.get(url))) is shown, colour
    client.logout()
    assert "The Cove is yours." not in client.get(url).content.decode()
    assert "green to you alone" in " ".join(talk_panel(_page_as(client, game, "blue")).split())
    assert "You to blue alone" in " ".join(talk_panel(_page_as(client, game, "green")).split())


def _page_as(client, game, colour):
    client.logout()
    as_player(client, game, colour)
    return client.get(reverse("games:detail", args=[game.pk]))


@pytest.mark.speed_layer
def test_after_a_move_each_reader_still_sees_only_their_own_lines(client, game, play):
    # The lines a page showed are kept per reader (press.selectors.talk_for_page): the first
    # views after a move read no talk, and a private line never reaches another seat's page.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    press_send(game=game, seat=seat(game, "green"), to="blue", text="The Cove is yours.")
    for colour in ("blue", "orange"):
        _page_as(client, game, colour)
    play(game, 2)
    client.logout()
    as_player(client, game, "orange")
    client.get(reverse("games:detail", args=[game.pk]))  # orange's language is now known
    play(game, 1)
    with CaptureQueriesContext(connection) as queries:
        orange = client.get(reverse("games:detail", args=[game.pk]))
    assert "The Cove is yours." not in orange.content.decode()
    assert not [q for q in queries.captured_queries if q["sql"].startswith('SELECT "press_pressmessage"')]
    assert "The Cove is yours." in talk_panel(_page_as(client, game, "blue"))
    press_send(game=game, seat=seat(game, "white"), to=None, text="Peace, all.")
    assert "Peace, all." in talk_panel(client.get(reverse("games:detail", args=[game.pk])))


def test_messages_are_shown_in_order_with_the_log_length_they_were_sent_at(client, game, play):
    press_send(game=game, seat=seat(game, "green"), to=None, text="First words.")
    play(game, 5)
    later = press_send(game=game, seat=seat(game, "blue"), to=None, text="Second words.")
    panel = talk_panel(_page_as(client, game, "orange"))
    assert panel.index("First words.") < panel.index("Second words.")
    assert f"#{later.at_seq}" in panel and later.at_seq > PressMessage.objects.get(number=1).at_seq


def test_html_in_a_message_is_shown_as_text(client, game):
    as_player(client, game, "green")
    say(client, game, "green", '<script>alert("x")</script><b>bold</b>')
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "<script>alert" not in body and "&lt;script&gt;alert" in body and "<b>bold</b>" not in body


@pytest.mark.parametrize(
    "to, text, reason",
    [
        ("all", "   ", "Your message was not sent. It is empty."),
        ("all", "y" * (MAX_CHARS + 1), f"Your message was not sent. It is {MAX_CHARS + 1:,} characters long"),
        ("purple", "hi", "Your message was not sent. There is no “purple” at this table"),
    ],
)
def test_a_refused_message_is_answered_with_its_reason_and_the_words_kept(client, game, to, text, reason):
    as_player(client, game, "green")
    response = say(client, game, "green", text, to=to)
    assert response.status_code == 400
    body = html.unescape(response.content.decode())
    assert reason in body
    if text.strip():
        assert text in body  # the form again, with what was typed
    assert not PressMessage.objects.exists()


def test_a_visitor_without_that_seat_cannot_talk(client, game):
    assert say(client, game, "green", "I am nobody.").status_code == 403
    as_player(client, game, "blue")
    assert say(client, game, "green", "Pretending to be green.").status_code == 403
    assert not PressMessage.objects.exists()


def test_the_export_lists_the_talk_each_viewer_may_read_with_its_hashes(client, game):
    press_send(game=game, seat=seat(game, "green"), to=None, text="For all.")
    press_send(game=game, seat=seat(game, "green"), to="blue", text="For blue alone.")

    def talk(colour):
        if colour is None:
            client.logout()
        else:
            as_player(client, game, colour)
        response = client.get(reverse("games:export", args=[game.pk]))
        client.logout()
        return json.loads(response.content)["press"]

    assert [m["text"] for m in talk("blue")] == ["For all.", "For blue alone."]
    assert [m["text"] for m in talk("white")] == [m["text"] for m in talk(None)] == ["For all."]
    entry = talk("green")[1]
    stored = PressMessage.objects.get(number=2)
    assert entry == {
        "number": 2,
        "at_seq": stored.at_seq,
        "sender": "green",
        "recipients": ["blue"],
        "text": "For blue alone.",
        "sealed": stored.sealed,
        "words_digest": stored.words_digest,
        "words_salt": entry["words_salt"],
        "sent_at": entry["sent_at"],
        "prev_hash": stored.prev_hash,
        "hash": stored.hash,
    }
    assert "For blue alone." not in json.dumps(talk("orange"))


def test_show_game_as_a_seat_prints_only_the_talk_it_may_read(game):
    press_send(game=game, seat=seat(game, "green"), to=None, text="For all.")
    press_send(game=game, seat=seat(game, "green"), to="blue", text="For blue alone.")

    def shown(*args):
        out = io.StringIO()
        call_command("show_game", str(game.pk), *args, stdout=out)
        return out.getvalue()

    assert "green to blue alone: For blue alone." in shown("--as", "blue")
    assert "green to everyone: For all." in shown("--as", "white")
    for args in (("--as", "white"), ("--as", "orange"), ()):
        assert "For blue alone." not in shown(*args)


def test_after_the_end_private_talk_is_public_only_with_the_hosts_option(client, make_game):
    for public in (False, True):
        game = make_game(4, seed=f"talk-end-{public}", options={"press_public_after_end": public})
        press_send(game=game, seat=seat(game, "green"), to="blue", text=f"Secret {public}.")
        Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)
        client.logout()
        page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        export = client.get(reverse("games:export", args=[game.pk])).content.decode()
        assert (f"Secret {public}." in page) is public and (f"Secret {public}." in export) is public
