"""Hidden information for a spectator who follows (docs/spectators.md), as a property over random
public games: the follower's pages (the list, the game page, the history, signed in) and the
digest emails written for them show no card of a hand, the set-aside card, a deck's order nor
the seed before the end — the same secrets the property of test_hidden_information.py keeps from
a spectator (colour None) — and no private table talk.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules, store
from games.models import Event
from games.services import SeatSpec, create_game
from notifications.models import Outbox
from players.accounts import user_for_email
from tests.faults.test_hidden_information import CARD_ID, _deck_orders, _known_to, assert_no_deck_order
from watching import digest
from watching.services import follow

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

MORNING = datetime(2031, 5, 6, 8, 0, tzinfo=UTC)


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.text(alphabet="0123456789abcdef", min_size=6, max_size=6),
    before=st.integers(min_value=0, max_value=20),
    commands=st.integers(min_value=5, max_value=60),
)
def test_a_follower_is_never_shown_a_secret(play, seed, before, commands):
    from press.services import press_send

    game = create_game(
        seats=[SeatSpec(email=f"w{i}-{seed}@example.org") for i in range(4)],
        seed=f"watched-{seed}",
        play_bots=False,
        options={"public": True},
    )
    fan = user_for_email(f"fan-{seed}@example.org")
    play(game, before, seed=seed)
    follow(user=fan, game=game)
    play(game, commands // 2, seed=seed + "a")
    press_send(game=game, seat=game.seats.get(colour="green"), to="blue", text=f"whisper-{seed}")
    press_send(game=game, seat=game.seats.get(colour="blue"), to=None, text=f"aloud-{seed}")
    digest.send_follower_digest(fan.pk, now=MORNING)
    play(game, commands - commands // 2, seed=seed + "b")
    digest.send_follower_digest(fan.pk, now=MORNING.replace(day=7))
    state, _seq = store.load(game)
    assert not rules.is_over(state)

    rows = list(Event.objects.filter(game=game).order_by("seq"))
    known = _known_to(None, rows)
    hands = {c for hand in state.hands.values() for c in hand}
    secret = (hands | {state.set_aside} | set(state.action_deck) | set(state.epic_deck)) - known - {None}
    assert secret, "a game in progress always hides something (the decks)"
    client = Client()
    client.force_login(fan)
    emails = list(Outbox.objects.filter(kind=Outbox.Kind.FOLLOWER_DIGEST, to_email=fan.email))
    assert emails, "the follower was told something"
    texts = {
        "digest emails": "\n".join(
            f"{o.subject}\n{o.body_text}\n{o.body_html}\n{json.dumps(o.headers)}" for o in emails
        ),
        "games to watch": client.get(reverse("watching:list")).content.decode(),
        "game page": client.get(reverse("games:detail", args=[game.pk])).content.decode(),
        "history": client.get(reverse("games:history", args=[game.pk])).content.decode(),
    }
    assert f"aloud-{seed}" in texts["digest emails"]
    # Card names too, where a name is no building, territory or card the spectator may know of.
    known_names = {rules.card_name(c) for c in known}
    secret_names = {rules.card_name(c) for c in secret} - known_names - {"Citadel", "Sanctuary"}
    decks = _deck_orders(rows)
    for channel, text in texts.items():
        leaked = secret & set(CARD_ID.findall(text))
        assert not leaked, f"the follower's {channel} shows {sorted(leaked)}"
        assert game.seed not in text, f"the follower's {channel} shows the seed"
        assert f"whisper-{seed}" not in text, f"the follower's {channel} shows a private message"
        assert_no_deck_order(text, decks, secret, f"the follower's {channel}")
    names_in_mail = {n for n in secret_names if n in texts["digest emails"]}
    assert not names_in_mail - _names_on_the_public_page(texts["game page"], secret_names), (
        f"the digest names secret cards {sorted(names_in_mail)}"
    )


def _names_on_the_public_page(page: str, names: set[str]) -> set[str]:
    """Names that the public page itself shows (a territory or Advantage card sharing a name
    with an Action card, such as the Stone Circle): their presence in the digest is no leak."""
    return {n for n in names if n in page}
