"""docs/notifications.md, "Your chat": every example address a player copies from the guide is
taken as written (an example the site refuses would send them away at the first step)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from players.chat_targets import check_url

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "notifications.md"


def examples() -> list[str]:
    text = GUIDE.read_text()
    start = text.index("## Your chat")
    section = text[start : text.index("\n## ", start + 1)]
    paragraph = section.split("\n\n")[1]  # the one that gives the examples
    return re.findall(r"`([a-z]+s?://[^`]+)`", paragraph)


def test_the_guide_gives_an_example_of_each_service_it_names():
    assert {url.split("://")[0] for url in examples()} == {"ntfys", "tgram", "matrixs"}


@pytest.mark.parametrize("url", examples())
def test_each_example_of_the_guide_is_taken_as_written(settings, dns, url):
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org"]
    dns.update({"ntfy.sh": "159.203.148.75", "matrix.org": "104.20.20.44"})
    assert check_url(url) == url


def test_the_address_of_ntfys_own_server_the_guide_says_stays_as_written_is_taken_as_written(settings, dns):
    """docs/notifications.md, "Your chat": "`ntfy://…` (a topic of ntfy's own server, without
    its name) is HTTPS already and stays as written"."""
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org"]
    text = " ".join(GUIDE.read_text().split())
    (url,) = re.findall(r"`(ntfy://[^`/]+)` \([^)]*\) is HTTPS already and stays as written", text)
    assert check_url(url) == url
