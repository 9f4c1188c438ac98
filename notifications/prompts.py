"""The emails a seat receives, rendered from the rules' view of the game for that seat only.

Each email is a template triplet under templates/emails/ (`<name>.subject.txt`, `<name>.txt`,
`<name>.html`) rendered by `render_email`. Hidden information: the board comes from
`rules.render_board(state, colour)` for the recipient's own colour, the decisions and commands
listed are the recipient's own; nothing about another seat's hand is ever put in the context.
"""
from __future__ import annotations

from dataclasses import dataclass
from email.utils import make_msgid
from urllib.parse import urlsplit

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

from games import rules
from games.descriptions import describe_command
from games.models import Game, Seat

# How many legal commands an email lists; the seat's page lists them all.
MAX_LISTED_COMMANDS = 30


@dataclass(frozen=True)
class RenderedEmail:
    """subject: one line; text and html: the two bodies; headers: extra headers (str -> str)."""

    subject: str
    text: str
    html: str
    headers: dict


def render_email(name: str, context: dict, *, headers: dict) -> RenderedEmail:
    """Render templates/emails/<name>.subject.txt, .txt and .html with `context`."""
    subject = " ".join(render_to_string(f"emails/{name}.subject.txt", context).split())
    return RenderedEmail(
        subject=subject,
        text=render_to_string(f"emails/{name}.txt", context),
        html=render_to_string(f"emails/{name}.html", context),
        headers=headers,
    )


def seat_url(seat: Seat) -> str:
    """The absolute address of the seat's page (it carries the seat's secret token)."""
    return settings.SITE_URL + reverse("games:seat", args=[seat.game_id, seat.token])


def thread_headers(game: Game, seat: Seat) -> dict:
    """A fresh Message-ID, and References/In-Reply-To naming one thread per game and seat."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    root = f"<inis-game-{game.pk}-{seat.colour}@{domain}>"
    return {
        "Message-ID": make_msgid(f"inis-{game.pk}-{seat.colour}", domain=domain),
        "References": root,
        "In-Reply-To": root,
    }


def prompt_email(game: Game, seat: Seat, state) -> RenderedEmail:
    """The prompt for `seat`'s pending decisions in `state` (a GameState at `state.seq`)."""
    decisions = [d for d in rules.pending(state) if d.seat == seat.colour]
    commands = rules.legal_commands(state, seat.colour)
    listed = [
        {"number": n, "description": describe_command(state, command)}
        for n, command in enumerate(commands[:MAX_LISTED_COMMANDS], start=1)
    ]
    context = {
        "game": game,
        "seat": seat,
        "seq": state.seq,
        "board": rules.render_board(state, seat.colour),
        "decisions": decisions,
        "commands": listed,
        "more_commands": max(0, len(commands) - len(listed)),
        "seat_url": seat_url(seat),
    }
    return render_email("prompt", context, headers=thread_headers(game, seat))


def game_over_email(game: Game, seat: Seat, state) -> RenderedEmail:
    """The end of the game: the winner, the final board, the revealed seed and its commitment."""
    context = {
        "game": game,
        "seat": seat,
        "seq": state.seq,
        "winner": state.winner,
        "board": rules.render_board(state, seat.colour),
        "seed": game.seed,  # the game is over: the seed is revealed to everybody
        "seat_url": seat_url(seat),
        "history_url": settings.SITE_URL + reverse("games:history", args=[game.pk]),
    }
    return render_email("game_over", context, headers=thread_headers(game, seat))
