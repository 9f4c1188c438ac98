"""Hidden information, as a property over random games: nothing a seat is shown — its view, its
pages, its emails, its pushes and chat messages (a spectator: the table channel's news), its
export, the text of its refused commands and replies — reveals another seat's hand, the
set-aside card, the order of a deck, or the seed, before the end of the game.

What a seat may know is taken from the rules' own door: the card ids in the game's events as
`rules.redact` gives them to that seat (its own draft hands, cards played face up...). Every
other card in another hand, set aside or in a deck is a secret of that game for that seat, and
its id may not appear in any text the seat is shown. Deck orders: no three cards of a shuffled
deck appear in their shuffled order. (Card names are checked where the hand shows them, and in
the table channel's news: a name such as "Citadel" is also a building and shows on every board.)
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings
from django.urls import NoReverseMatch, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules, store
from games.models import Event, TableChannel
from games.services import SeatSpec, create_game, submit_command
from games.store.exports import export_game
from notifications import outbox
from notifications.channels import table_news
from notifications.channels.decision_note import note_for
from notifications.command_language import parse_reply
from notifications.models import Outbox
from players import seat_links as seat_access
from tests.hidden_cards import shown_by_the_card
from tests.notifications.test_chat import ChatSink

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Card names that are also the names of buildings on every board (and Advantage cards, named
# after their territories, are left out of the names checked).
BUILDING_NAMES = frozenset({"Citadel", "Sanctuary"})
CARD_ID = re.compile(r"\b(?:act|ep|adv)_[a-z_]+\b")


def _known_to(colour, rows) -> set[str]:
    """Card ids in the events as the rules redact them for `colour` (None: a spectator)."""
    known = set()
    for row in rows:
        known |= set(CARD_ID.findall(json.dumps(rules.redact(store.to_rules_event(row), colour).to_json())))
    return known


def _deck_orders(rows) -> list[list[str]]:
    return [
        row.payload["cards"]
        for row in rows
        if row.type.endswith("DeckShuffled") and isinstance(row.payload.get("cards"), list)
    ]


def assert_no_deck_order(text: str, decks: list[list[str]], secret: set[str], where: str) -> None:
    """No three cards of a shuffled deck, one of them secret, stand in `text` in their order."""
    for deck in decks:
        for i in range(len(deck) - 2):
            window = deck[i : i + 3]
            if set(window) & secret:
                for sep in (", ", ","):
                    assert sep.join(f'"{c}"' for c in window) not in text, f"{where} shows a deck's order"


def _page(client, name, *args) -> str:
    try:
        url = reverse(name, args=args)
    except NoReverseMatch:  # the page is not there (any more): nothing to check on it
        return ""
    response = client.get(url)
    assert response.status_code in (200, 302), (url, response.status_code)
    return response.content.decode()


def _texts_for(game, seat, state) -> dict[str, str]:
    """Everything `seat` (None: a spectator) is shown, by channel."""
    client = Client()
    colour = seat.colour if seat else None
    texts = {
        "view": json.dumps(rules.view_for(state, colour)),
        "board": rules.render_board(state, colour),
        "export": json.dumps(export_game(game=game, colour=colour)),
        "public page": _page(client, "games:detail", game.pk),
        "public history": _page(client, "games:history", game.pk),
    }
    if seat is None:
        # The table channel's news (notifications.channels.table_news): what a spectator reads.
        texts["table channel"] = "\n".join(
            "\n".join(table_news.words(row))
            for row in Outbox.objects.filter(game=game, kind=Outbox.Kind.TABLE_NEWS).order_by("id")
        )
        return texts
    # The seat link of its emails: then this client sees the game as that seat.
    _page(
        client,
        "games:seat",
        game.pk,
        seat_access.link_token(game_id=game.pk, seat_id=seat.pk, seat_secret=seat.token),
    )
    texts["seat page"] = _page(client, "games:detail", game.pk)
    texts["seat history"] = _page(client, "games:history", game.pk)
    texts["emails"] = "\n".join(
        f"{o.subject}\n{o.body_text}\n{o.body_html}\n{json.dumps(o.headers)}"
        for o in map(outbox.written, Outbox.objects.filter(seat=seat))
    )
    # A push or a chat message of each decision (notifications.channels.decision_note): the same
    # words whatever the channel, written from the seat's prompts.
    texts["push and chat"] = "\n".join(
        json.dumps(note_for(row).as_payload())
        for row in Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT)
    )
    seq = state.seq
    errors = []
    other = next(c for c in state.seats if c != colour)
    # What this seat may send now: its decision's commands and those it may send at any time (a
    # peace proposal by an exposed player who is not the one to maneuver).
    own = rules.legal_commands(state, colour) + rules.anytime_commands(state, colour)
    theirs = [c for c in rules.legal_commands(state, other) if c not in own][:3]
    for command in ({"type": "play", "card": "act_nonexistent"}, *theirs):  # all refused
        result = submit_command(game=game, seat=seat, command=command, expected_seq=seq)
        assert not result.accepted
        errors.append(result.message)
    for reply in ("play", "pass", "help", "play the card blue holds", "2", "option 999", "attack"):
        try:
            parse_reply(reply, state, colour)
        except rules.CommandError as error:
            errors.append(str(error))
    texts["errors"] = "\n".join(errors)
    return texts


@pytest.mark.slow  # games played up to 90 commands, every channel read for every seat
@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.text(alphabet="0123456789abcdef", min_size=6, max_size=6),
    commands=st.integers(min_value=5, max_value=90),
)
def test_no_channel_shows_a_seat_another_seats_secrets(play, seed, commands):
    game = create_game(
        seats=[SeatSpec(email=f"h{i}@example.org") for i in range(4)], seed=f"hidden-{seed}", play_bots=False
    )
    # The table's chat gets its news as a spectator reads them: checked with the spectator's.
    chat = ChatSink()
    TableChannel.objects.create(game=game, url=chat.url)
    try:
        # The chat sink listens on 127.0.0.1: only the tests' setting lets a channel lead there.
        with override_settings(CHAT_TARGETS=True, LOOPBACK_TARGETS_FOR_TESTS=True):
            play(game, commands, seed=seed)  # tests/conftest.py: random legal commands of waiting seats
    finally:
        chat.server.shutdown()
        chat.server.server_close()
    posted = "\n".join(f"{post.get('title')}\n{post.get('message')}" for post in chat.posts)
    assert posted, "the table's chat got the news"
    state, _seq = store.load(game)
    assert not rules.is_over(state)
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    decks = _deck_orders(rows)
    for seat in [None, *game.seats.all()]:
        colour = seat.colour if seat else None
        known = _known_to(colour, rows)
        held_by_others = {c for s, hand in state.hands.items() if s != colour for c in hand}
        secret = (
            (held_by_others | {state.set_aside} | set(state.action_deck) | set(state.epic_deck))
            - known
            - shown_by_the_card(colour, state)
            - {None}
        )
        texts = _texts_for(game, seat, state)
        if seat is None:
            texts["table chat"] = posted
        assert secret, "a game in progress always hides something (the decks)"
        if seat is not None:  # the check can see cards: the seat's own hand is in its view
            assert set(state.hands.get(colour, ())) <= set(CARD_ID.findall(texts["view"]))
        for channel, text in texts.items():
            leaked = secret & set(CARD_ID.findall(text))
            assert not leaked, f"{colour or 'a spectator'}'s {channel} shows {sorted(leaked)}"
            assert game.seed not in text, f"{colour or 'a spectator'}'s {channel} shows the seed"
            assert_no_deck_order(text, decks, secret, f"{colour or 'a spectator'}'s {channel}")
        if seat is None:  # the table's chat names cards: no secret card's name in it
            for channel in ("table channel", "table chat"):
                named = {
                    name
                    for name in map(rules.card_name, secret - {c for c in secret if c.startswith("adv_")})
                    if name not in BUILDING_NAMES
                    and re.search(rf"\b{re.escape(name)}\b", _without_longer_names(name, texts[channel]))
                }
                assert not named, f"the table's {channel} names {sorted(named)}"
        if seat is not None:
            names = {rules.card_name(c) for c in held_by_others & secret}
            hand_lines = [line for line in texts["board"].splitlines() if "hand" in line.lower()]
            for line in hand_lines:
                assert not any(
                    re.search(rf"\b{re.escape(name)}\b", _without_longer_names(name, line)) for name in names
                ), f"{colour}'s board lists {line!r}"


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.text(alphabet="0123456789abcdef", min_size=6, max_size=6),
    commands=st.integers(min_value=0, max_value=40),
)
def test_a_private_press_message_never_reaches_a_third_seat(play, seed, commands):
    """Table talk (docs/press.md): a message from green to blue alone, sent by email and by the
    game page, is in green's and blue's channels and in no channel of orange, white or a
    spectator — pages, history, emails, export, show_game — while a public one is in all."""
    import io

    from django.core.management import call_command

    from notifications import tasks
    from notifications.tokens import reply_address
    from press.services import press_send
    from tests.notifications.mail_clients import plain

    game = create_game(
        seats=[SeatSpec(email=f"p{i}-{seed}@example.org") for i in range(4)],
        seed=f"press-{seed}",
        play_bots=False,
    )
    play(game, commands, seed=seed)
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    by_mail, by_web, public = f"mailed-secret-{seed}", f"posted-secret-{seed}", f"public-{seed}"
    to = reply_address(game_id=game.pk, seat_id=green.pk, seq=store.head(game)[0], seat_secret=green.token)
    raw = plain(sender=green.email, to=to, subject="Re: Inis", words=f"tell blue: {by_mail}\n\nsay: {public}")
    call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())
    web = Client()
    web.force_login(green.user)
    assert (
        web.post(
            reverse("press:send", args=[game.pk]), {"seat": "green", "to": "blue", "text": by_web}
        ).status_code
        == 302
    )
    press_send(game=game, seat=blue, to="green", text=f"answered-{by_web}")
    tasks.deliver_pending.apply(kwargs={"older_than_seconds": -1})
    state, _seq = store.load(game)

    for seat in [None, *game.seats.all()]:
        colour = seat.colour if seat else None
        texts = _texts_for(game, seat, state)
        shown = io.StringIO()
        call_command("show_game", str(game.pk), *(["--as", colour] if colour else []), stdout=shown)
        texts["show_game"] = shown.getvalue()
        everything = "\n".join(texts.values())
        assert public in texts["export"] and public in texts["show_game"], colour
        for secret in (by_mail, by_web):
            if colour in ("green", "blue"):
                assert secret in texts["seat page"] and secret in texts["export"], (colour, secret)
            else:
                for channel, text in texts.items():
                    assert secret not in text, (
                        f"{colour or 'a spectator'}'s {channel} shows green's words to blue"
                    )
        if colour in ("orange", "white"):
            assert public in texts["emails"], f"{colour} was not told the public message"
        if colour == "blue":
            assert by_mail in texts["emails"] and by_web in texts["emails"]
        assert "answered-" not in everything or colour in ("green", "blue")


def _without_longer_names(name: str, text: str) -> str:
    """`text` without the card names that hold `name` ("The Dagda's Club" holds "The Dagda"): a
    public card's name is not the secret card's it begins with."""
    for longer in {rules.card_name(card) for card in rules.CARDS}:
        if name in longer and longer != name:
            text = text.replace(longer, "")
    return text
