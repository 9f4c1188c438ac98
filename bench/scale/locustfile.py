"""The page viewers of the scale run (Locust): each simulated player opens the seat link of one
of their games (which signs them in to that seat and shows the game page), then looks at the
page now and then and polls its live head as the page's script does, and moves on to another
game after a while. A share of requests goes to /healthz: the minimal view, the baseline measured
in the same run. The seat links are read from the JSON file named by SCALE_LINKS
([{"game": id, "link": "/games/<id>/seat/<token>/"}]); the nodes are the hosts of SCALE_NODES
(comma-separated base addresses, all on 127.0.0.1)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from locust import HttpUser, between, task

LINKS = json.loads(Path(os.environ["SCALE_LINKS"]).read_text()) if os.environ.get("SCALE_LINKS") else []
NODES = os.environ.get("SCALE_NODES", "http://127.0.0.1:8101").split(",")


class Player(HttpUser):
    """One viewer: a seat link, then the page and its live head; a new game every ~10 requests."""

    wait_time = between(1, 4)
    host = NODES[0]

    def on_start(self) -> None:
        # Each viewer is a client of its own for the head's rate limit (CLIENT_IP_HEADER).
        # What the reverse proxy in front of the nodes would pass on (docs/operations.md).
        self.client.headers["Host"] = os.environ.get("SCALE_HOST", "inis.scale.test")
        self.client.headers["X-Forwarded-Proto"] = "https"
        self.client.headers["X-Real-IP"] = (
            f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
        )
        self.open_a_game()

    def open_a_game(self) -> None:
        self.client.base_url = random.choice(NODES)
        self.client.cookies.clear()
        chosen = random.choice(LINKS)
        self.game = chosen["game"]
        self.requests_left = random.randint(5, 15)
        self.client.get(chosen["link"], name="seat link, then the game page")

    @task(2)
    def game_page(self) -> None:
        self.client.get(f"/games/{self.game}/", name="game page")
        self.next()

    @task(6)
    def live_head(self) -> None:
        self.client.get(f"/games/{self.game}/head.json", name="live head")
        self.next()

    @task(1)
    def minimal_view(self) -> None:
        self.client.get("/healthz", name="minimal view (/healthz)")

    def next(self) -> None:
        self.requests_left -= 1
        if self.requests_left <= 0:
            self.open_a_game()
