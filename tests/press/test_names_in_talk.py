"""Table talk names its players as the table does (docs/press.md, "Who is named"): the email that
relays a message, its subject, the digest line, the answer to its author and the game page's
panel say "Ann (green)" where they said "green", and "you" to the reader, in English and French;
a message written before its seat changed hands is its colour's alone, and an erased author is
"Player N (left)" as everywhere else."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import Game
from games.play.table import seat_replace
from games.rules import players_named
from notifications.models import NewsItem, Outbox
from players.display_names import seat_names
from players.erasure import erase_account
from players.models import Player
from players.preferences import player_for, set_display_name
from press import waiting_talk
from press.answers import press_from_reply
from press.reply import Talk
from press.services import press_send

NAMES = {"green": "Ann", "blue": "Bob", "orange": "Cerys", "white": "Dai"}


@pytest.fixture
def game(make_game):
    game = make_game(4, seed="names-in-talk")
    for seat in game.seats.all():
        set_display_name(seat.email, NAMES[seat.colour])
    return game


def seat(game, colour):
    return game.seats.get(colour=colour)


def prefer(game, colour, **fields) -> None:
    Player.objects.filter(email=seat(game, colour).email).update(**fields)


def relayed_to(game, colour) -> Outbox:
    return Outbox.objects.filter(kind=Outbox.Kind.PRESS, seat=seat(game, colour)).latest("id")


def lines_of(game, colour) -> list[str]:
    return list(
        NewsItem.objects.filter(seat=seat(game, colour)).order_by("id").values_list("text", flat=True)
    )


def test_the_email_relaying_a_message_names_its_author_and_speaks_to_you(game):
    prefer(game, "orange", language="fr")
    press_send(game=game, seat=seat(game, "green"), to="blue", text="Meet me at the Cove.")
    private = relayed_to(game, "blue")
    assert private.subject == f"Private message from Ann (green) — Inis {game.pk}"
    body = " ".join(private.body_text.split())
    assert body.startswith(f"Ann (green) wrote to you alone, in Inis game {game.pk} (you play blue):")
    # The colour stays where it is a word to type: "tell green:" is how a reply answers.
    assert 'reply with a line starting "tell green:" (to Ann (green) alone)' in body
    assert "<strong>Ann (green)</strong> wrote to you alone" in private.body_html

    press_send(game=game, seat=seat(game, "green"), to=None, text="Hear me.")
    french = relayed_to(game, "orange")
    # French subjects need no "de" before the name ("de Ann" would want "d'Ann").
    assert french.subject == f"Discussion à la table : Ann (vert) — Inis {game.pk}"
    body = " ".join(french.body_text.split())
    assert body.startswith(f"Ann (vert) a écrit à toute la table, dans la partie d'Inis {game.pk}")
    assert "« dire à vert : » (à Ann (vert) seul)" in body
    press_send(game=game, seat=seat(game, "green"), to="orange", text="Psst.")
    assert relayed_to(game, "orange").subject == f"Message privé : Ann (vert) — Inis {game.pk}"


def test_a_digest_line_names_the_author_and_you_in_english_and_french(game):
    prefer(game, "blue", delivery=Player.Delivery.DIGEST)
    prefer(game, "white", delivery=Player.Delivery.DIGEST, language="fr")
    press_send(game=game, seat=seat(game, "green"), to=None, text="Hear me.")
    press_send(game=game, seat=seat(game, "orange"), to="blue", text="Just us two.")
    press_send(game=game, seat=seat(game, "orange"), to="white", text="Rien qu'à vous.")
    assert lines_of(game, "blue") == [
        "Ann (green) to everyone: “Hear me.”",
        "Cerys (orange) to you: “Just us two.”",
    ]
    assert lines_of(game, "white") == [
        "Ann (vert) à tous : « Hear me. »",
        "Cerys (orange) à vous : « Rien qu'à vous. »",
    ]

    # A prompt that goes before the digest tells them again (`press.waiting_talk`), written then:
    # named as the table names its seats then, but a seat handed over since by its colour alone.
    set_display_name(seat(game, "green").email, "Annest")
    seat_replace(game=game, colour="orange", email="newcomer@example.org")
    set_display_name("newcomer@example.org", "Eluned")
    game = Game.objects.get(pk=game.pk)  # its seats as they are now
    told = {}
    for colour in ("blue", "white"):
        reader = seat(game, colour)
        language = player_for(reader.email).language
        with translation.override(language), players_named(seat_names(game.seats.all())):
            told[colour] = waiting_talk.waiting_lines(reader, player_for(reader.email))
    assert told == {
        "blue": ["Annest (green) to everyone: “Hear me.”", "orange to you: “Just us two.”"],
        "white": ["Annest (vert) à tous : « Hear me. »", "orange à vous : « Rien qu'à vous. »"],
    }


def test_the_answer_to_the_author_names_whom_the_message_went_to(game, client):
    said = press_from_reply(
        game=game, seat=seat(game, "green"), talk=(Talk("blue", "Deal?", "tell blue: Deal?"),)
    )
    assert said.words == "Your message to Bob (blue) was sent."
    assert said.summary == "your message to Bob (blue)"

    client.force_login(seat(game, "orange").user)
    sent = client.post(reverse("press:send", args=[game.pk]), {"seat": "orange", "to": "white", "text": "Hi"})
    page = client.get(sent.url).content.decode()
    assert "Your message to Dai (white) was sent." in html.unescape(page)


def panel(game, colour, *, user=None) -> list[str]:
    """The lines of the page's talk panel as `colour`'s player (or `user`) reads them: "who to
    whom: words"; and last, the choices of its form."""
    client = Client()
    client.force_login(user or seat(game, colour).user)
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    section = body[body.index('id="talk"') : body.index("</section>", body.index('id="talk"'))]
    lines = []
    for item in re.findall(r"<li>(.*?)</li>", section, re.S):
        text = " ".join(
            html.unescape(
                re.sub(r"<[^>]+>", " ", re.sub(r"<details.*?</details>", "", item, flags=re.S))
            ).split()
        )
        line = re.fullmatch(r"(?:#\d+ )?(.*?) · .*? UTC (.*)", text)
        assert line is not None, text
        who, words = line.groups()
        lines.append(f"{who}: {words}")
    options = [
        " ".join(html.unescape(o).split()) for o in re.findall(r"<option[^>]*>(.*?)</option>", section, re.S)
    ]
    return lines + [" / ".join(options)]


def test_the_page_names_authors_and_addressees_and_a_seat_handed_over_says_its_colour(game):
    press_send(game=game, seat=seat(game, "green"), to="blue", text="The Cove is yours.")
    press_send(game=game, seat=seat(game, "blue"), to=None, text="Thanks, all.")
    assert panel(game, "blue") == [
        "Ann (green) to you alone: The Cove is yours.",
        "You to everyone: Thanks, all.",
        "everyone at the table / Ann (green) alone / Cerys (orange) alone / Dai (white) alone",
    ]
    prefer(game, "green", language="fr")
    assert panel(game, "green")[:2] == [
        "Vous à Bob (bleu) seulement: The Cove is yours.",
        "Bob (bleu) à tous: Thanks, all.",
    ]

    # Green goes to a newcomer: what Ann wrote is green's, never the newcomer's name.
    seat_replace(game=game, colour="green", email="newcomer@example.org")
    set_display_name("newcomer@example.org", "Eluned")
    press_send(game=game, seat=seat(game, "green"), to="blue", text="Hello, I am new.")
    assert panel(game, "blue")[:3] == [
        "green to you alone: The Cove is yours.",
        "You to everyone: Thanks, all.",
        "Eluned (green) to you alone: Hello, I am new.",
    ]
    assert panel(game, "green")[:2] == [
        "Bob (blue) to everyone: Thanks, all.",
        "You to Bob (blue) alone: Hello, I am new.",
    ]


def test_an_erased_author_is_named_as_the_site_names_them(game):
    press_send(game=game, seat=seat(game, "green"), to=None, text="Farewell soon.")
    erase_account(seat(game, "green").user_id)
    lines = panel(game, "blue")
    assert lines[0].startswith("Player 1 (left, green) to everyone: (erased")
    assert "Ann" not in " ".join(lines)
