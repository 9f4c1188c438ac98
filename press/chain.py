"""The hash chain over a game's table talk (docs/press.md), by its documented name.

Defined in the record room (`games.record.talk_chain`): a game's export carries its table talk, and
the offline verifier, which imports no app, checks it there.
"""

from games.record.talk_chain import (
    TalkCheck,
    check_export,
    hashed_words,
    hidden_digest,
    hidden_message_hash,
    message_digest,
    message_hash,
    new_salt,
    press_salt,
    stored_hash,
    timestamp,
    verify_chain,
    words_digest,
)

__all__ = [
    "TalkCheck",
    "check_export",
    "hashed_words",
    "hidden_digest",
    "hidden_message_hash",
    "message_digest",
    "message_hash",
    "new_salt",
    "press_salt",
    "stored_hash",
    "timestamp",
    "verify_chain",
    "words_digest",
]
