"""Posting a note to a chat through apprise, as the plain text it is.

What the chat channels post is plain text, players' names in it: a name is any 30 characters
but "@" and the invisible ones (`players.display_names.clean_name`), so "<a href=…>Bob</a>",
"Tom & Jerry" or "[Bob](https://…)" are names. apprise posts a text whose format it is not told
as the service's own markup: Telegram's HTML (a name holding "<" or "&" made Telegram refuse
every note naming that player, one holding a link made it a link) and Discord's Markdown (a
masked link, a heading, a spoiler). So each post says it is text (apprise then writes
Telegram's HTML escaped), and to Discord, which reads Markdown in any text, the marks are
escaped with a backslash (Discord shows the mark itself), the lines that are a link (the
seat's page, the game's page) left as they are so that they still open.
"""

from __future__ import annotations

import re

import apprise
from apprise.plugins.base import NotifyBase
from apprise.plugins.discord import NotifyDiscord

# Discord's Markdown marks inside a line (emphasis, code, spoiler, masked links, mentions and
# other <…> forms, block quotes), and those that count only at a line's start (headings, lists).
_DISCORD_MARKS = re.compile(r"([\\*_~`|\[\]<>])")
_DISCORD_LINE_START = re.compile(r"^(\s*)([#>+-])", re.MULTILINE)


def discord_text(text: str) -> str:
    """`text` with Discord's Markdown escaped, but for its lines that are a link alone."""
    lines = []
    for line in text.split("\n"):
        if re.fullmatch(r"https?://\S+", line.strip()):
            lines.append(line)
            continue
        line = _DISCORD_MARKS.sub(r"\\\1", line)
        lines.append(_DISCORD_LINE_START.sub(r"\1\\\2", line))
    return "\n".join(lines)


def post(target: str | NotifyBase, *, title: str, body: str, timeout: float) -> bool:
    """Post `title` and `body` (plain text) to `target` (an apprise address or plugin), as
    text; whether the chat service took it. Raises ValueError when apprise takes no such
    target."""
    chat = apprise.Apprise()
    if not chat.add(target):
        raise ValueError("apprise takes no such chat address")
    if any(isinstance(plugin, NotifyDiscord) for plugin in chat):
        title, body = discord_text(title), discord_text(body)
    return bool(chat.notify(title=title, body=body, body_format=apprise.NotifyFormat.TEXT, timeout=timeout))
