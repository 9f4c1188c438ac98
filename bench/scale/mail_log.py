"""An email backend for the scale run: every message the nodes send is appended, as one JSON
line, to the file named by SCALE_MAIL_LOG (one file per node), with the time it was handed over.
The simulated players read their prompts there, as players read their mailbox, and the report
counts each Message-ID once: a message handed over twice is a doubled email."""

from __future__ import annotations

import fcntl
import json
import os
import time

from django.core.mail.backends.base import BaseEmailBackend


class RecordingBackend(BaseEmailBackend):
    """Accepts every message by appending {"at": seconds since the epoch, "message_id", "to",
    "reply_to", "subject", "body"} to SCALE_MAIL_LOG, under an exclusive lock (several worker
    processes of a node share the file). No network call."""

    def send_messages(self, email_messages) -> int:
        lines = []
        for message in email_messages:
            headers = message.extra_headers or {}
            lines.append(
                json.dumps(
                    {
                        "at": time.time(),
                        "message_id": headers.get("Message-ID") or headers.get("Message-Id") or "",
                        "to": list(message.to),
                        "reply_to": list(message.reply_to or []),
                        "subject": message.subject,
                        "body": message.body,
                    }
                )
            )
        with open(os.environ["SCALE_MAIL_LOG"], "a") as log:
            fcntl.flock(log, fcntl.LOCK_EX)
            log.write("".join(line + "\n" for line in lines))
            log.flush()
            fcntl.flock(log, fcntl.LOCK_UN)
        return len(email_messages)


def read(path: str, offset: int = 0) -> tuple[list[dict], int]:
    """The whole lines of the mail log at `path` from byte `offset`: (messages, new offset)."""
    try:
        with open(path, "rb") as log:
            log.seek(offset)
            data = log.read()
    except FileNotFoundError:
        return [], offset
    end = data.rfind(b"\n") + 1
    return [json.loads(line) for line in data[:end].splitlines() if line.strip()], offset + end
