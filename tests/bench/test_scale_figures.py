"""The scale run's own arithmetic (bench/scale): what it reads from the nodes' mail logs and how
it turns replies and prompts into "reply to next prompt" and "emails doubled". A wrong figure here
would misstate what docs/scaling.md concludes, so it is checked on small made-up logs."""

from __future__ import annotations

import json

from bench.scale import mail_log
from bench.scale.__main__ import percentile, reply_to_next_prompt
from bench.scale.players import OPTION, PLAYER, delay


def prompt(at: float, game: int, seat: int = 0) -> dict:
    return {"at": at, "to": [f"p{game}-{seat}@scale.test"], "reply_to": ["inis+tok@scale.test"]}


def test_a_reply_is_timed_to_the_next_prompt_of_its_own_game_only():
    mails = [prompt(10.0, 1), prompt(12.5, 2, seat=3), prompt(14.0, 1, seat=2), prompt(30.0, 1)]
    replies = [
        {"at": 11.0, "game": 1, "via": "webhook:1", "status": 200},  # next prompt of game 1: 14.0
        {"at": 12.0, "game": 2, "via": "receive_email", "status": 0},  # game 2: 12.5
        {"at": 31.0, "game": 1, "via": "webhook:1", "status": 200},  # nothing after: not counted
        {"at": 11.0, "game": 2, "via": "webhook:1", "status": 400},  # refused: not counted
    ]
    assert reply_to_next_prompt(replies, mails) == [3.0, 0.5]


def test_news_without_a_reply_address_is_not_a_prompt():
    mails = [{"at": 13.0, "to": ["p1-0@scale.test"], "reply_to": []}, prompt(20.0, 1)]
    assert reply_to_next_prompt([{"at": 12.0, "game": 1, "via": "w", "status": 200}], mails) == [8.0]


def test_the_mail_log_is_read_line_by_line_from_where_the_reader_stopped(tmp_path, monkeypatch):
    path = tmp_path / "mail.jsonl"
    path.write_text(
        json.dumps({"a": 1}) + "\n" + json.dumps({"a": 2}) + "\n" + '{"a": 3'
    )  # last: half-written
    messages, offset = mail_log.read(str(path))
    assert [m["a"] for m in messages] == [1, 2]
    with path.open("a") as log:
        log.write("}\n")
    more, _ = mail_log.read(str(path), offset)
    assert [m["a"] for m in more] == [3]


def test_players_answer_by_an_option_number_and_within_the_cap():
    import random

    body = "Your move.\n\n1. Pass\n2. Play Bard\n 10. Take a Pretender token\nReply above this line."
    assert OPTION.findall(body) == ["1", "2", "10"]
    assert PLAYER.match("p1234-3@scale.test").group(1) == "1234"
    rng = random.Random(1)
    waits = [delay(rng, 20.0, 120.0) for _ in range(2000)]
    assert max(waits) <= 120.0 and 14 < percentile(waits, 0.5) < 26
