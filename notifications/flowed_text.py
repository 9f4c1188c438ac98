"""Plain text sent as `format=flowed` (RFC 3676), joined back into the lines its writer typed.

Thunderbird, Apple Mail and other clients wrap long lines at about 72-78 characters when they
send `text/plain; format=flowed`, and mark each wrap they made by a space at the end of the line
(a "soft" break). Read as it comes, a command wrapped that way arrives cut in two, and its
second half is refused ("going to the plains" alone). Python's email package does not undo the
wrapping; this does, so that the command language reads the lines the player wrote
(docs/email-commands.md, "A long command may continue on the next line").
"""

from __future__ import annotations

SIGNATURE_SEPARATOR = "-- "


def unflowed(text: str, *, delsp: bool = False) -> str:
    """`text` (the decoded body of a `format=flowed` part) with its soft breaks undone: a line
    ending in a space is joined to the next line of the same quote depth (`>` marks); with
    `delsp` (the part's `DelSp=yes`) that space is the client's and is dropped. Space-stuffing
    (one space the client put before a line starting with a space, ">" or "From ") is removed;
    quoted lines keep their `>` marks. The signature separator "-- " is never a soft break."""
    joined: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        content = content[1:] if content.startswith(" ") else content
        soft = content.endswith(" ") and content != SIGNATURE_SEPARATOR
        if soft and delsp:
            content = content[:-1]
        if pending is not None and pending[0] == depth:
            pending = (depth, pending[1] + content)
        else:
            if pending is not None:
                joined.append(pending)
            pending = (depth, content)
        if not soft:
            joined.append(pending)
            pending = None
    if pending is not None:
        joined.append(pending)
    return "\n".join((">" * depth + " " if depth else "") + content for depth, content in joined)
