"""The email command language, in pure Python (no Django): a player's reply in, engine commands out
(docs/email-commands.md, a stable interface).

`notifications.command_language.parse_reply(text, state, seat, language="en")` is the documented
entry; `describe_syntax` gives a command's syntax as a prompt shows it; `move_test` and
`found_no_command` tell a move from talk in a reply. The modules:

- `parser`: `parse_reply`, the reply read line by line into legal commands (`ANY_TIME`: the
  command types a reply may hold beside its decision: policies and standing orders);
  `read_tables_command`, the open tables' `list`, `join N` and `leave N` of a mail to no seat;
  `reply_lines`, the command lines a mail holds (what `rematch` and `my data` read first);
- `orders`: the lines that set and cancel standing orders;
- `reply_parts`: the part of a reply the player typed (quotes, signatures, HTML left out);
- `reading`: a line's words read into readings; `matching`: which legal commands a reading fits;
- `words`: the vocabulary (cards, territories, colours, verbs) in English and French;
- `help`: the syntax of each command, as prompts and answers show it.

It reads the rules' public API only (`games.rules`), and is tested on its own
(tests/notifications/command_language/).
"""

from notifications.command_language.help import describe_syntax
from notifications.command_language.orders import read_order_line
from notifications.command_language.parser import (
    ANY_TIME,
    found_no_command,
    move_test,
    parse_reply,
    read_tables_command,
    reply_lines,
)

__all__ = [
    "ANY_TIME",
    "describe_syntax",
    "found_no_command",
    "move_test",
    "parse_reply",
    "read_order_line",
    "read_tables_command",
    "reply_lines",
]
