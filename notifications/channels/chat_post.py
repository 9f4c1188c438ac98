"""Posting a note to a chat through apprise, as the plain text it is.

What the chat channels post is plain text, players' names in it: a name is any 30 characters
but "@" and the invisible ones (`players.display_names.clean_name`), so "<a href=…>Bob</a>",
"Tom & Jerry" or "[Bob](https://…)" are names. apprise posts a text whose format it is not told
as the service's own markup: Telegram's HTML (a name holding "<" or "&" made Telegram refuse
every note naming that player, one holding a link made it a link) and Discord's Markdown (a
masked link, a heading, a spoiler). So each post says it is text (apprise then writes
Telegram's HTML escaped), and to Discord, which reads Markdown in any text, the marks are
escaped with a backslash (Discord shows the mark itself), the lines that are a link (the
seat's page, the game's page) left as they are so that they still open. A message longer than
the service takes goes in several parts (`OVERFLOW`).
"""

from __future__ import annotations

import re

import apprise
from apprise.common import OverflowMode
from apprise.plugins.base import NotifyBase
from apprise.plugins.discord import NotifyDiscord

# Discord's Markdown marks inside a line (emphasis, code, spoiler, masked links, mentions and
# other <…> forms, block quotes), and those that count only at a line's start (headings, lists).
# A message longer than its chat service takes (Discord: 2,000 characters; a table's news of a
# busy end of Season with long names holds more) is split into several by apprise (its `overflow`
# mode, as an address's `?overflow=split` asks), each part within the limit, the last line (the
# page's link) in the last part: nothing is cut off, and the service refuses nothing for its
# length. apprise's default (`upstream`) posted it whole, and Discord refused it.
OVERFLOW = OverflowMode.SPLIT

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
    text, in as many messages as the chat service's length limit asks (`OVERFLOW`); whether
    the chat service took them all. Raises ValueError when apprise takes no such target."""
    chat = apprise.Apprise()
    if not chat.add(target):
        raise ValueError("apprise takes no such chat address")
    for plugin in chat:
        plugin.overflow_mode = OVERFLOW  # whatever the address says (its `overflow=`)
    if any(isinstance(plugin, NotifyDiscord) for plugin in chat):
        title, body = discord_text(title), discord_text(body)
    return bool(chat.notify(title=title, body=body, body_format=apprise.NotifyFormat.TEXT, timeout=timeout))
