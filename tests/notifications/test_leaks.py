"""No email to a seat shows hidden information of another seat.

For random games (hypothesis: a seed, a set-up, a length; profile-bounded: 15 games in CI, 60 by
default, 3,000 with HYPOTHESIS_PROFILE=deep) played by random legal commands in memory, at a dozen
positions of each game and for every seat, every kind of email is rendered exactly as the service
renders it: the prompt with what happened since the previous position, the reminder, answers
(accepted, rejected for garbage, an illegal card, an option out of range, ambiguous words, stale),
news, the digest, the notice, the game-over email and the answer to a stranger.

During the test every card's printed name is replaced by a marker `⟦card id⟧`, so that any
card a text names is found whatever the wording, and is told apart from the same word in fixed
text (the syntax help says "citadel valley"). A seat may see a card only if it is in the seat's
own view of the state (`rules.view_for`: its hand, public cards), in the full payload of an
event visible to it (its draws, its draft hands, a hand Scouts & Spies showed it), among its own
legal commands (the Druid looks through the Action discard pile) unless that card is another
seat's, set aside or in a deck, among the cards a card's text shows it (Cathbad's Word: the
Action deck, while its holder chooses the set-aside card), or if the reply being answered names
it. Another seat's hand, the set-aside Action card and the order of any deck are none of these,
unless the rules showed them to this seat.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from games import rules
from games.rules.catalog import CARDS
from notifications import happenings, prompts
from notifications.command_language import parse_reply
from tests.hidden_cards import shown_by_the_card

SEATS = ["green", "blue", "orange", "white"]
CHECKPOINTS = 12
MARKER = re.compile(r"⟦((?:act|adv|ep)_[a-z0-9_]+)⟧")
CARD_ID = re.compile(r"\b(?:act|adv|ep)_[a-z0-9_]+\b")
DEADLINE = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


@contextmanager
def marked_card_names():
    """Within: every card's English and French name is `⟦<id>⟧` (a name the French catalog does
    not know reads the same in French)."""
    saved = dict(CARDS)
    try:
        for card_id, info in saved.items():
            CARDS[card_id] = dataclasses.replace(info, name=f"⟦{card_id}⟧")
        yield
    finally:
        CARDS.update(saved)


def cards_in(text: str) -> set[str]:
    return set(MARKER.findall(text)) | set(CARD_ID.findall(text))


def secret_from(colour: str, state) -> set[str]:
    """Cards no email to `colour` may name unless the rules showed them to it: the other seats'
    hands, the set-aside Action card, the decks."""
    cards = {c for s in state.seats if s != colour for c in state.hands.get(s, [])}
    cards |= set(state.action_deck) | set(state.epic_deck) | ({state.set_aside} if state.set_aside else set())
    return cards


def entitled(colour: str, state, events: list) -> set[str]:
    """Cards `colour` may know at `state`: its view, events it may read whole, what a card's
    text shows it now, and what its own legal commands offer (other than secrets)."""
    known = cards_in(json.dumps(rules.view_for(state, colour))) | shown_by_the_card(colour, state)
    for event in events:
        if event.visible_to(colour):
            known |= cards_in(json.dumps(event.payload))
    offered = cards_in(json.dumps(rules.legal_commands(state, colour)))
    return known | (offered - (secret_from(colour, state) - known))


def texts_of(email: prompts.RenderedEmail) -> str:
    return "\n".join([email.subject, email.text, email.html, json.dumps(email.headers)])


def emails_for(
    colour: str, state, new_events: list, rng: random.Random, language: str
) -> list[tuple[str, str, set]]:
    """Every kind of email to `colour` at `state`: `[(kind, text, cards the reply itself named)]`."""
    r = prompts.Recipient(
        game_id=7,
        seat_id=SEATS.index(colour) + 1,
        colour=colour,
        email=f"{colour}@example.org",
        seat_token=f"token-{colour}",
        player_id=SEATS.index(colour) + 1,
        language=language,
        time_zone="Europe/Paris",
    )
    lines = [line for _seq, line in happenings.lines_for(new_events, colour, language=language)]
    news = [
        line
        for _seq, line in happenings.lines_for(
            new_events, colour, language=language, only=happenings.NEWS_TYPES
        )
    ]
    out = []
    if rules.is_over(state):
        email = prompts.game_over_email(r, state, seed="s", seed_commitment="c", happened=lines)
        return [("game_over", texts_of(email), set())]
    mine = [d for d in rules.pending(state) if d.seat == colour]
    if mine:
        out.append(
            (
                "prompt",
                prompts.prompt_email(r, state, happened=lines, deadline=DEADLINE, decision_seq=state.seq),
                set(),
            )
        )
        out.append(
            ("reminder", prompts.reminder_email(r, state, deadline=DEADLINE, decision_seq=state.seq), set())
        )
        legal = rules.legal_commands(state, colour)
        done = rules.describe_command(state, rng.choice(legal))
        out.append(
            (
                "accepted",
                prompts.answer_email(
                    r,
                    state,
                    outcome="accepted",
                    decision_seq=state.seq,
                    message=f"I read your reply as: {done}.",
                ),
                set(),
            )
        )
    any_card = rng.choice(sorted(c for c in CARDS if not c.startswith("adv_")))
    replies = {
        "xyzzy plugh": set(),
        "99": set(),
        f"play {any_card}": {any_card},
        "withdraw 2": set(),
        "keep": set(),
        "attack": set(),
        "": set(),
    }
    for words, named in replies.items():
        try:
            parse_reply(words, state, colour, language=language)
        except rules.CommandError as error:
            out.append(
                (
                    "rejected",
                    prompts.answer_email(
                        r, state, outcome="rejected", message=str(error), decision_seq=state.seq
                    ),
                    named,
                )
            )
    out.append(
        (
            "stale",
            prompts.answer_email(
                r,
                state,
                outcome="stale",
                decision_seq=state.seq,
                message="Your reply was about the decision of event 3.",
            ),
            set(),
        )
    )
    if news:
        out.append(("news", prompts.news_email(r, state, lines=news), set()))
        section = prompts.DigestSection(game_id=7, colour=colour, seat_url="http://x/", lines=news)
        out.append(("digest", prompts.digest_email(email=r.email, player_id=1, sections=[section]), set()))
    out.append(
        (
            "notice",
            prompts.notice_email(r, state, message="A bot now plays for you.", decision_seq=state.seq),
            set(),
        )
    )
    out.append(("stranger", prompts.stranger_email(to_subject="Re: hello", reason="no token."), set()))
    return [(kind, texts_of(email), named) for kind, email, named in out]


@pytest.mark.slow  # whole games, each email of each seat read
@given(
    seed=st.integers(0, 2**31),
    setup=st.sampled_from(["random", "discovery"]),
    players=st.sampled_from([2, 3, 4]),
    length=st.integers(1, 2500),
)
@example(seed=338468, setup="discovery", players=4, length=378)  # Cathbad's Word chooses the set-aside card
def test_no_email_to_a_seat_shows_another_seats_hidden_cards(seed, setup, players, length):
    seats = SEATS[:players]
    game_seed = f"leak-{seed}"
    events = list(rules.start_game(seats, seed=game_seed, setup=setup))
    state = rules.fold(events)
    rng = random.Random(seed)
    checkpoints = set(sorted(rng.sample(range(length + 1), min(CHECKPOINTS, length + 1))))
    last = 0
    with marked_card_names():
        for step in range(length + 1):
            if step in checkpoints or rules.is_over(state):
                new = [(i + 1, e) for i, e in enumerate(events[last:], start=last)]
                _check(state, events, new, rng, seats)
                last = len(events)
            if rules.is_over(state):
                break
            colour = rng.choice(sorted({d.seat for d in rules.pending(state)}))
            command = rules.bot_command(state, colour, rng)
            new_events = rules.decide(state, colour, command, rng=rules.rng_for(game_seed, state.seq))
            for event in new_events:
                rules.evolve(state, event)
            events.extend(new_events)


def _check(state, events, new, rng, seats):
    hidden_everywhere = set(CARD_ID.findall(json.dumps([e.payload for e in events if e.visibility == ()])))
    for colour in seats:
        may_know = entitled(colour, state, events)
        language = rng.choice(["en", "fr"])
        for kind, text, named in emails_for(colour, state, new, rng, language):
            shown = cards_in(text) - may_know - named
            others = {c for s in seats if s != colour for c in state.hands.get(s, [])}
            assert not shown, (
                f"{kind} email to {colour} at event {state.seq} shows {sorted(shown)}"
                f" (another seat's hand: {sorted(shown & others)}; set aside: "
                f"{state.set_aside if state.set_aside in shown else None}; deck order: "
                f"{sorted(shown & hidden_everywhere)})"
            )
