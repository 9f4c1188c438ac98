"""The draft on the game page (rulebook, Assembly step 6): the pack you hold apart from your hand
(its cards shown once, in the decision), the draft's steps with the one you are at, and a pack
passed to you told as waiting face down, not as cards you hold."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games import rules, store

pytestmark = pytest.mark.django_db


def section(body: str, element_id: str) -> str:
    start = body.index(f'id="{element_id}"')
    return body[start : body.index("</section>", start)]


def test_the_pack_you_hold_is_apart_from_your_hand_and_the_steps_are_told(client, make_game, play):
    game = make_game(n_players=2, seed="draft-panel")
    play(game, 60, until=lambda state: any(d.kind == "draft" for d in rules.pending(state)))
    state, _seq = store.load(game)
    drafting = next(d.seat for d in rules.pending(state) if d.kind == "draft")
    pack = rules.view_for(state, drafting)["draft"]["choices"]
    client.force_login(game.seats.get(colour=drafting).user)

    body = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())

    draft, hand = section(body, "draft"), section(body, "hand")
    assert "The pack you hold" in draft and f"{len(pack)} cards: choose what to keep" in draft
    for card in pack:
        assert f'data-card="{card}"' not in hand  # shown once: beside the decision's options
        assert body.count(f'data-card="{card}"') == 1
    steps = re.findall(r"<li[^>]*>(.*?)</li>", draft[draft.index("draft-steps") :], re.S)
    # Two players: the draft is done twice, each time 2 keeps and the last card picked up.
    assert len(steps) == 6
    assert "First draft: You are dealt 3 Action cards: keep 1 of the 3 cards" in steps[0]
    assert sum("Now:" in step for step in steps) == 1
    # The hand is empty, but not while the draft fills it: the cards held are in the draft, above.
    assert "No cards." not in hand and "Only the cards you hold in the draft, above." in hand


def test_a_pack_passed_to_you_is_told_face_down():
    from django.utils import translation

    from games.story.event_text import describe_event

    with translation.override("en"):
        line = describe_event(
            "DraftCardsPassed", {"from": "blue", "to": "green", "stage": 0, "count": 2, "redacted": True}
        )
    assert line == "Blue passed 2 cards face down to green."


def test_before_your_first_pick_packs_you_have_not_seen_are_no_news(client, make_game, play):
    """A player drafting after another (the bots draft ahead): "Since your last move" does not
    list the cards passed face down, a pack they have not seen; the cards kept tell the draft's
    progress."""
    game = make_game(n_players=2, seed="draft-since")
    play(game, 60, until=lambda state: any(d.kind == "draft" for d in rules.pending(state)))
    state, seq = store.load(game)
    first = next(d.seat for d in rules.pending(state) if d.kind == "draft")
    from games.services import submit_command

    assert submit_command(
        game=game,
        seat=game.seats.get(colour=first),
        expected_seq=seq,
        command=rules.legal_commands(state, first)[0],
    ).accepted
    state, _seq = store.load(game)
    other = next(s for s in state.seats if s != first)
    client.force_login(game.seats.get(colour=other).user)
    body = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())
    since = re.sub(r"<[^>]+>", " ", section(body, "since"))
    assert "passed" not in since and "face down" not in since, since
    # The last move is the pick a player made, in words, not what the engine did after it.
    last = re.search(r'<p class="last-move" id="last-move">(.*?)</p>', body, re.S).group(1)
    assert f"{first.capitalize()} kept their pick" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", last)), last


def test_the_card_you_held_shows_to_you_while_you_wait_and_to_nobody_else(client, make_game, play):
    """Step 6: each player "chooses one to hold" and "adds the one card he held to the three
    cards passed to him". While the three have not come, the held card is in your hand: your
    page shows it under "The pack you hold" (not "None now"); the passer's page and a
    spectator's do not name it."""
    from games.services import submit_command

    game = make_game(n_players=4, seed="draft-held")
    play(game, 60, until=lambda state: any(d.kind == "draft" for d in rules.pending(state)))
    state, seq = store.load(game)
    # Nobody has kept yet: whoever keeps first waits for its passer. A seat with no card in hand
    # (no Advantage card) reads its hand section as a draft's only.
    waiter = next(s for s in state.seats if not state.hands[s])
    passer = next(s for s in state.seats if state.next_seat(s) == waiter)
    seat = game.seats.get(colour=waiter)
    command = rules.legal_commands(state, waiter)[0]
    assert submit_command(game=game, seat=seat, expected_seq=seq, command=command).accepted
    state, _seq = store.load(game)
    assert rules.view_for(state, waiter)["draft"]["choices"] is None  # the passer has not kept
    (held,) = command["keep"]
    name = rules.card_name(held)
    client.force_login(seat.user)

    body = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())

    draft, hand = section(body, "draft"), section(body, "hand")
    assert "The card you held from your last pick: the cards passed to you join it." in draft
    assert f'data-card="{held}"' in draft and name in draft
    assert "None now" not in draft
    assert "Only the cards you hold in the draft, above." in hand and "No cards." not in hand
    assert body.count(f'data-card="{held}"') == 1
    for other in (game.seats.get(colour=passer).user, None):
        client.logout()
        if other is not None:
            client.force_login(other)
        response = client.get(reverse("games:detail", args=[game.pk]))
        assert response.status_code == 200
        body = html.unescape(response.content.decode())
        assert ('id="draft"' in body) == (other is not None)  # the passer drafts too; a spectator not
        assert f'data-card="{held}"' not in body
        assert "you held from your last pick" not in body


def test_the_draft_steps_name_the_players_as_the_page_does(client, make_game, play):
    """docs/web.md, "Players by name": the draft's steps name the player you pass to and the one
    who passes to you as the rest of the page does, "Bob (blue)", a bot by its level, in the
    reader's language; the French reads well with a name ("face cachée à Bob (bleu)", "les cartes
    passées par …": no "que" to elide before a name)."""
    from django.conf import settings

    from players.preferences import set_display_name

    game = make_game(seed="w2", n_players=3, bots=1)
    for email, name in {"player1@example.org": "Ann", "player2@example.org": "Bob"}.items():
        set_display_name(email, name)
    play(game, 60, until=lambda state: any(d.kind == "draft" for d in rules.pending(state)))
    state, _seq = store.load(game)
    green = rules.view_for(state, "green")["draft"]
    assert (green["to"], green["from"]) == ("white", "blue")  # the bot after green, blue before
    seat = game.seats.get(colour="green")
    client.force_login(seat.user)
    url = reverse("games:detail", args=[game.pk])

    def steps() -> str:
        body = html.unescape(client.get(url).content.decode())
        draft = section(body, "draft")
        return " ".join(re.sub(r"<[^>]+>", "", draft[draft.index("draft-steps") :]).split())

    english = steps()
    assert "pass the other 3 face down to Random bot (white)" in english, english
    assert "Pick up the cards Bob (blue) passed you, then" in english, english
    assert "Pick up the last card Bob (blue) passed you:" in english, english
    assert "to white" not in english and "cards blue passed" not in english
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"  # the language switch
    french = steps()  # the same version of the game: a page kept in English is not served
    assert "passez les 3 autres face cachée à Robot au hasard (blanc)" in french, french
    assert "Prenez les cartes passées par Bob (bleu), puis" in french, french
    assert "Prenez la dernière carte passée par Bob (bleu) :" in french, french
    assert "Random bot" not in french and "(blue)" not in french and "à blanc" not in french
