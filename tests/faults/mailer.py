"""An email backend for the fault tests, loaded by a Celery worker started by the test.

It stands in for a provider: every message it accepts is appended, as one JSON line, to the file
named by FAULT_MAIL_LOG (O_APPEND, outside any database transaction, so a message "sent" by a
task whose transaction later rolled back still shows: that is how a doubled send would show).

Faults, from the environment (all optional):
- FAULT_MAIL_DELAY: seconds to wait before accepting each message (a slow provider); a "start"
  line is written first, so a test knows a send is under way;
- FAULT_MAIL_TIMEOUTS: how many times each Message-ID is refused with a `TimeoutError` before it is
  accepted (a provider timing out);
- FAULT_MAIL_DIE_AFTER_SEND: the process that sent the first message kills itself (SIGKILL) just
  after the provider accepted it, before the delivery can record it (a worker killed inside the
  send);
- FAULT_MAIL_TRACKING: the provider reports each accepted message as anymail's tracking webhook
  would (`anymail.signals.tracking`, event "sent", with the message's metadata).
"""

from __future__ import annotations

import json
import os
import signal
import time

from django.core.mail.backends.base import BaseEmailBackend


def _message_id(message) -> str:
    return str(message.extra_headers.get("Message-ID") or message.message()["Message-ID"])


def _append(line: dict) -> None:
    with open(os.environ["FAULT_MAIL_LOG"], "a") as log:
        log.write(json.dumps(line) + "\n")


def read_log(path) -> list[dict]:
    """The lines written so far: {"event": "start" | "timeout" | "sent", "message_id", "to"}."""
    try:
        with open(path) as log:
            return [json.loads(line) for line in log if line.strip()]
    except FileNotFoundError:
        return []


class RecordingBackend(BaseEmailBackend):
    """Accepts every message by appending it to FAULT_MAIL_LOG, after the configured faults."""

    def send_messages(self, email_messages) -> int:
        delay = float(os.environ.get("FAULT_MAIL_DELAY") or 0)
        timeouts = int(os.environ.get("FAULT_MAIL_TIMEOUTS") or 0)
        for message in email_messages:
            message_id = _message_id(message)
            line = {"message_id": message_id, "to": list(message.to), "pid": os.getpid()}
            if timeouts:
                refused = sum(
                    1
                    for e in read_log(os.environ["FAULT_MAIL_LOG"])
                    if e["event"] == "timeout" and e["message_id"] == message_id
                )
                if refused < timeouts:
                    _append({**line, "event": "timeout"})
                    raise TimeoutError(f"the provider timed out ({refused + 1}/{timeouts})")
            if delay:
                _append({**line, "event": "start"})
                time.sleep(delay)
            _append({**line, "event": "sent"})
            if os.environ.get("FAULT_MAIL_TRACKING"):
                _report(message)
            if os.environ.get("FAULT_MAIL_DIE_AFTER_SEND") and _first_sent(message_id):
                os.kill(os.getpid(), signal.SIGKILL)
        return len(email_messages)


def _report(message) -> None:
    """What the provider's tracking webhook does for an accepted message (anymail's view sends
    this signal)."""
    from anymail.signals import AnymailTrackingEvent, tracking

    event = AnymailTrackingEvent(event_type="sent", metadata=dict(getattr(message, "metadata", None) or {}))
    tracking.send(sender=RecordingBackend, event=event, esp_name="Recording")


def _first_sent(message_id: str) -> bool:
    sent = [e for e in read_log(os.environ["FAULT_MAIL_LOG"]) if e["event"] == "sent"]
    return len(sent) == 1 and sent[0]["message_id"] == message_id
