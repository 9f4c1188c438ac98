"""Table talk in the mail, as the press app adds it: the mail channel does not import press (press
sends its messages through the mail, so the arrow goes from press to here); press registers its
three functions in its AppConfig.ready() (`register`), and without it replies carry no talk.

- `waiting_lines(seat, player)`: the seat's table-talk lines still waiting for its digest, which
  the next game-over email tells (list of str);
- `waiting_numbers(seat, player)`: the numbers of those messages (list of int), which a prompt
  keeps to tell them when it is written (`notifications.prompts_at_delivery`), and
  `lines_of(seat, player, numbers)`: their lines then (list of str), leaving out a message
  erased meanwhile (docs/privacy.md);
- `split(text, is_move=None)`: a reply's messages and what is left for commands (`.talk`, a
  tuple of messages; `.commands`, str or None: None when the reply held only talk;
  `.moves_under_talk`, the lines under a message read as moves); is_move(line) -> bool says
  whether a line is a move on its own, which ends a message;
- `send(game=, seat=, talk=)`: send the messages of `talk` from `seat`; what became of them
  (`.sent`, int; `.words`, sentences for the answer; `.summary`, for its subject).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class NoTalk:
    """A reply read without table talk: all of it is for commands."""

    talk: tuple = ()
    commands: str | None = None
    moves_under_talk: tuple = ()


@dataclass(frozen=True)
class NothingSaid:
    """No message sent."""

    sent: int = 0
    words: str = ""
    summary: str = ""


@dataclass(frozen=True)
class _Hooks:
    waiting_lines: Callable[..., list[str]]
    waiting_numbers: Callable[..., list[int]]
    lines_of: Callable[..., list[str]]
    split: Callable[..., object]
    send: Callable[..., object]


_hooks: _Hooks | None = None


def register(
    *,
    waiting_lines: Callable[..., list[str]],
    waiting_numbers: Callable[..., list[int]],
    lines_of: Callable[..., list[str]],
    split: Callable[..., object],
    send: Callable[..., object],
) -> None:
    """Let the mail carry table talk through these functions (see the module docstring); a
    second registration replaces the first."""
    global _hooks
    _hooks = _Hooks(
        waiting_lines=waiting_lines,
        waiting_numbers=waiting_numbers,
        lines_of=lines_of,
        split=split,
        send=send,
    )


def waiting_lines(seat, player) -> list[str]:
    """The seat's talk lines waiting for its next email ([] without table talk)."""
    return _hooks.waiting_lines(seat, player) if _hooks is not None else []


def waiting_numbers(seat, player) -> list[int]:
    """The numbers of the seat's talk messages waiting for its next email ([] without table talk)."""
    return _hooks.waiting_numbers(seat, player) if _hooks is not None else []


def lines_of(seat, player, numbers: list[int]) -> list[str]:
    """The talk lines of messages `numbers` for the seat's player, read now ([] without table talk)."""
    return _hooks.lines_of(seat, player, numbers) if _hooks is not None else []


def split(text: str, *, is_move=None):
    """The reply's messages and the rest for commands (all of it without table talk)."""
    return _hooks.split(text, is_move=is_move) if _hooks is not None else NoTalk(commands=text)


def send(*, game, seat, talk: tuple):
    """Send the messages of `talk` from `seat` (nothing without table talk)."""
    return _hooks.send(game=game, seat=seat, talk=talk) if _hooks is not None else NothingSaid()
