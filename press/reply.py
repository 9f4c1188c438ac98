"""Table talk in an email reply: the lines that are messages, set apart from the commands.

    say: I will not attack you this Season.        -> to the whole table
    tell blue: Leave the Cove to me.               -> to blue alone
    dire : Je passe.            dire à bleu : ...  -> the same in French

A message starts at a line beginning `say:` / `dire :` (the whole table) or `tell <colour>:` /
`dire à <colour> :` (one player; `tell everyone:` / `dire à tous :` is the whole table) and runs
to the end of its paragraph: the next blank line, the next message, a quoted line (">"), a
signature ("-- ") — or a line that is a move on its own (the caller says which, `is_move`:
"say: Good luck\npretender" is a message and a move, never a message that says "pretender").
Only what the player typed is read (`notifications.command_language.reply_parts.split_reply` sets the quoted mail
apart). What is left is the text for the command language, unchanged when the reply holds no
message. Pure Python (no Django); documented in docs/email-commands.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from notifications.command_language.reply_parts import split_reply

_SAY = re.compile(r"^\s*(?:say|dire)\s*:\s?(?P<text>.*)$", re.I)
_TELL = re.compile(r"^\s*(?:tell|dire\s+(?:à|a|au|aux))\s+(?P<to>[^\s:]{1,40})\s*:\s?(?P<text>.*)$", re.I)
_SIGNATURE = re.compile(r"^--\s*$")


@dataclass(frozen=True)
class Talk:
    """One message found in a reply: `to` the word naming its recipient as written (None: the
    whole table; the service reads it as a colour), `text` its lines, `opening` its first line
    as written (to name it in an answer)."""

    to: str | None
    text: str
    opening: str


@dataclass(frozen=True)
class ReplyTalk:
    """A reply cut in two: `talk` the messages in it (in order), `commands` the text left for
    the command language — the whole reply when it holds no message, None when nothing but
    messages was typed; `moves_under_talk` the lines that ended a message because they are a
    move (the answer says so)."""

    talk: tuple
    commands: str | None
    moves_under_talk: tuple = ()  # lines under a message's first line read as moves, not as its words


def _header(line: str) -> tuple[bool, str | None, str]:
    tell = _TELL.match(line)
    if tell:
        return True, tell.group("to"), tell.group("text")
    say = _SAY.match(line)
    if say:
        return True, None, say.group("text")
    return False, None, ""


def _cut(text: str, is_move: Callable[[str], bool] | None = None) -> tuple[list[Talk], list[str], list[str]]:
    """(the messages of `text`, its other lines, the lines that ended a message as moves)."""
    talk: list[Talk] = []
    rest: list[str] = []
    moves: list[str] = []
    current: dict | None = None
    signed = False
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if signed or _SIGNATURE.match(line.strip()):
            signed = True
            rest.append(line)
            continue
        is_talk, to, first = _header(line)
        if is_talk:
            if current:
                talk.append(Talk(current["to"], "\n".join(current["lines"]).strip(), current["opening"]))
            current = {"to": to, "lines": [first], "opening": line.strip()}
            continue
        if current is not None and line.strip() and not line.lstrip().startswith(">"):
            if is_move is None or not is_move(line.strip()):
                current["lines"].append(line.rstrip())
                continue
            moves.append(line.strip())
        if current is not None:
            talk.append(Talk(current["to"], "\n".join(current["lines"]).strip(), current["opening"]))
            current = None
        rest.append(line)
    if current:
        talk.append(Talk(current["to"], "\n".join(current["lines"]).strip(), current["opening"]))
    return talk, rest, moves


def split_talk(text: str, is_move: Callable[[str], bool] | None = None) -> ReplyTalk:
    """The messages of reply `text` and what is left for commands (see `ReplyTalk`). Reads the
    part above the quoted mail and the part typed under it; never raises.

    is_move(line) -> bool: whether a line (stripped) is a move the player may make now; such a
    line under a message's first line ends the message and is left for the commands. None:
    a message runs to the end of its paragraph whatever it says."""
    parts = split_reply(text or "")
    above_talk, above_rest, above_moves = _cut(parts.above, is_move)
    below_talk, below_rest, below_moves = _cut(parts.below, is_move) if parts.below else ([], [], [])
    if not above_talk and not below_talk:
        return ReplyTalk((), text)
    if any(line.strip() for line in above_rest):
        left: str | None = "\n".join(above_rest)
    elif any(line.strip() for line in below_rest):
        left = "\n".join(below_rest)
    else:
        left = None
    return ReplyTalk(tuple(above_talk + below_talk), left, tuple(above_moves + below_moves))
