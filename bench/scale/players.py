"""The simulated email players of the scale run: `python -m bench.scale.players ...` reads the
prompts the nodes send (their mail logs, `bench.scale.mail_log`), waits as a person would (a
lognormal delay, compressed: median `--median-delay` seconds, sigma 1, capped at `--cap`), and
replies to the latest prompt of each of its seats: by the provider's inbound webhook (Postmark's
JSON, to a node chosen at random) or, for a share of replies, through `manage.py receive_email`
as a mail server's pipe runs it. A reply is an option of the prompt copied by its number; when a
prompt lists no numbered option, the player writes one of its legal moves in words (the rules'
`describe_command`, as the prompt would print it).

Each reply is written to `--out` as one JSON line {"at", "game", "via", "status"}; the process
stops by itself at `--until` (seconds since the epoch). Loopback only: every request goes to
127.0.0.1."""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import math
import os
import random
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from email.utils import make_msgid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")

from bench.scale import mail_log  # noqa: E402

OPTION = re.compile(r"^\s*(\d{1,3})\.\s+\S", re.M)
PLAYER = re.compile(r"^p(\d+)-(\d)@scale\.test$")


def delay(rng: random.Random, median: float, cap: float) -> float:
    """Seconds a simulated player takes to answer: lognormal (median `median`, sigma 1), at
    most `cap`."""
    return min(cap, median * math.exp(rng.gauss(0.0, 1.0)))


def words_for_a_legal_move(address: str, rng: random.Random) -> str | None:
    """A legal move of the seat whose player is `address`, in words, or None when it has no
    decision now. Reads the scale database (the simulated player knows its own options)."""
    from games import rules, store
    from games.models import Seat

    seat = Seat.objects.select_related("game").filter(email=address).order_by("-game_id").first()
    if seat is None:
        return None
    state, _seq = store.load(seat.game)
    legal = rules.legal_commands(state, seat.colour)
    if not legal:
        return None
    with rules.speaking("en"):
        return rules.describe_command(state, rng.choice(legal))


def reply_text(prompt: dict, rng: random.Random) -> str | None:
    """What the player answers to `prompt`: a numbered option's number, else a move in words."""
    numbers = OPTION.findall(prompt["body"])
    if numbers:
        return rng.choice(numbers)
    return words_for_a_legal_move(prompt["to"][0], rng)


def postmark_json(sender: str, to: str, subject: str, text: str, message_id: str) -> bytes:
    """Postmark's inbound webhook body for a plain-text reply."""
    return json.dumps(
        {
            "FromFull": {"Email": sender, "Name": ""},
            "ToFull": [{"Email": to, "Name": "", "MailboxHash": ""}],
            "CcFull": [],
            "BccFull": [],
            "OriginalRecipient": to,
            "Subject": subject,
            "MessageID": message_id.strip("<>"),
            "Date": time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime()),
            "TextBody": text,
            "HtmlBody": "",
            "StrippedTextReply": text,
            "Headers": [{"Name": "Message-ID", "Value": message_id}],
            "Attachments": [],
        }
    ).encode()


def post_to_postmark_webhook(port: int, secret: str, host: str, body: bytes, *, timeout: float) -> int:
    """POST `body` (Postmark's inbound JSON) to the inbound webhook on 127.0.0.1:`port`, as the
    reverse proxy hands it on (`host`, https); the HTTP status. Raises OSError and
    http.client.HTTPException when there is no answer within `timeout` seconds."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(
            "POST",
            "/anymail/postmark/inbound/",
            body=body,
            headers={
                "Content-Type": "application/json",
                "Authorization": "Basic " + base64.b64encode(secret.encode()).decode(),
                "Host": host,
                "X-Forwarded-Proto": "https",
            },
        )
        return connection.getresponse().status
    finally:
        connection.close()


def by_webhook(port: int, secret: str, sender: str, to: str, subject: str, text: str) -> int:
    """POST the reply to a node's Postmark inbound webhook; its HTTP status."""
    body = postmark_json(sender, to, subject, text, make_msgid(domain="scale.test"))
    return post_to_postmark_webhook(
        port, secret, os.environ.get("SCALE_HOST", "inis.scale.test"), body, timeout=60
    )


def by_pipe(sender: str, to: str, subject: str, text: str) -> int:
    """Hand the reply to `manage.py receive_email` as a mail server's pipe does; its exit status."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message["Message-ID"] = make_msgid(domain="scale.test")
    message.set_content(text)
    done = subprocess.run(
        [sys.executable, "manage.py", "receive_email"],
        input=bytes(message),
        capture_output=True,
        timeout=120,
    )
    return done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--logs", required=True, help="the nodes' mail logs, comma-separated")
    parser.add_argument("--ports", required=True, help="the nodes' web ports, comma-separated")
    parser.add_argument("--until", type=float, required=True)
    parser.add_argument("--median-delay", type=float, default=20.0)
    parser.add_argument("--cap", type=float, default=120.0)
    parser.add_argument("--pipe-share", type=float, default=0.05)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=8, help="replies in flight at once")
    args = parser.parse_args()
    import django

    django.setup()
    rng = random.Random(args.seed)
    logs = {path: 0 for path in args.logs.split(",")}
    ports = [int(p) for p in args.ports.split(",")]
    secret = os.environ["ANYMAIL_WEBHOOK_SECRET"]
    latest: dict[str, tuple[float, dict]] = {}  # player address -> (reply time, prompt)
    written = threading.Lock()
    pool = ThreadPoolExecutor(max_workers=args.concurrency)

    def send(out, address: str, prompt: dict, text: str, use_pipe: bool, port: int) -> None:
        subject = "Re: " + prompt["subject"]
        game = int(PLAYER.match(address).group(1))
        sent_at = time.time()
        if use_pipe:
            via, status = "receive_email", by_pipe(address, prompt["reply_to"][0], subject, text)
        else:
            via = f"webhook:{port}"
            status = by_webhook(port, secret, address, prompt["reply_to"][0], subject, text)
        with written:
            out.write(json.dumps({"at": sent_at, "game": game, "via": via, "status": status}) + "\n")
            out.flush()

    with open(args.out, "a") as out:
        while time.time() < args.until:
            for path, offset in list(logs.items()):
                messages, logs[path] = mail_log.read(path, offset)
                for message in messages:
                    to = message["to"][0] if message["to"] else ""
                    if message["reply_to"] and PLAYER.match(to):
                        latest[to] = (time.time() + delay(rng, args.median_delay, args.cap), message)
            now = time.time()
            due = [(address, prompt) for address, (at, prompt) in latest.items() if at <= now]
            for address, prompt in due:
                del latest[address]
                text = reply_text(prompt, rng)  # in this thread: the database connection is its own
                if text is not None:
                    pool.submit(
                        send, out, address, prompt, text, rng.random() < args.pipe_share, rng.choice(ports)
                    )
            time.sleep(0.2)
        pool.shutdown(wait=True)


if __name__ == "__main__":
    main()
