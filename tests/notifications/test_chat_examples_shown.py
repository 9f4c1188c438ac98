"""Every example chat address the site shows a player, on the preferences page and in its
refusals, in English and French, is one the site takes as written: docs/notifications.md, "Your
chat": "give the address of a chat of yours as apprise writes it [...], for example
`ntfys://ntfy.sh/inis-7f3k9q2m8x4b` [...], `tgram://123456789:bot-token/chat-id` [...] or
`matrixs://user:token@matrix.org/!room`". An example the site refuses would send the player
away at the first step (tests/notifications/test_chat_doc_examples.py checks the guide's)."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import pytest
from django.utils import translation

from notifications.prompts import player_urls
from players.accounts import user_for_email
from players.chat_targets import TargetError, check_url
from players.models import Player

PLAYER = "player1@example.org"
# An address in running text: up to a space, the sentence's punctuation left out.
ADDRESS = re.compile(r"\b[a-z]+s?://\S+?(?=[.,)]*(?:\s|$))")


@pytest.fixture
def internet(settings, dns):
    """The chat services' servers as the internet has them, this site elsewhere."""
    settings.CHAT_TARGETS = True
    settings.SITE_URL, settings.ALLOWED_HOSTS = "https://inis.example.org", ["inis.example.org", "testserver"]
    dns.update({"ntfy.sh": "159.203.148.75", "matrix.org": "104.20.20.44"})


def _taken_as_written(examples: list[str]) -> None:
    for url in examples:
        assert check_url(url) == url, url


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_example_address_of_the_preferences_page_is_taken(client, db, internet, language):
    Player.objects.update_or_create(email=PLAYER, defaults={"language": language})
    client.force_login(user_for_email(PLAYER))
    page = client.get(urlsplit(player_urls(Player.objects.get(email=PLAYER).pk)["preferences"]).path)
    form = re.search(r'<form[^>]*id="chat-target".*?</form>', page.content.decode(), re.S)
    assert form is not None
    text = html.unescape(re.sub(r"<[^>]+>", " ", form.group(0)))

    examples = ADDRESS.findall(text)

    assert {url.split("://")[0] for url in examples} == {"ntfys", "tgram", "matrixs"}
    _taken_as_written(examples)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(
    "refused",
    [
        "",  # no address: "Give the address of your chat, as apprise writes it (e.g. ...)"
        "tgram://token/chat",  # "This is no chat address apprise knows (e.g. ..., ...)"
        "ntfy://inis",  # "Anybody who guesses the name of a topic on ntfy.sh [...] for example ..."
    ],
)
def test_each_example_address_of_a_refusal_is_taken(db, internet, language, refused):
    with translation.override(language), pytest.raises(TargetError) as error:
        check_url(refused)

    examples = ADDRESS.findall(str(error.value))

    assert examples, str(error.value)
    _taken_as_written(examples)
