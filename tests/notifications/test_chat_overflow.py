"""A long chat message is delivered in parts, never refused for its length
(`notifications.channels.chat_post`): Discord takes at most 2,000 characters a message, and the
table channel's news of a busy end of Season, with long names, can hold more. The posts are
caught where apprise hands them to the network (`requests.post`), by a stand-in for Discord
that refuses, as Discord does, a message over its limit."""

from __future__ import annotations

import json

import pytest
import requests

from games import store
from games.models import TableChannel
from notifications import outbox
from notifications.channels import chat_post, table_news
from notifications.models import Outbox
from players.models import Player
from tests.conftest import drive

DISCORD_LIMIT = 2000  # characters of a message's content (Discord refuses more with a 400)
LONG_NAMES = {
    "player1@example.org": "Aoife of the Long Western Cove",
    "player2@example.org": "Brendan of the Misty Highlands",
    "player3@example.org": "Ciara Who Walks the Stone Ring",
}


@pytest.fixture
def discord(monkeypatch, settings, dns) -> list[str]:
    """The messages Discord took (their `content`), in order. A message over DISCORD_LIMIT
    characters is refused (400), as Discord does; the others are taken (204)."""
    settings.CHAT_TARGETS = True
    dns["discord.com"] = "162.159.135.232"
    taken: list[str] = []

    def post(url, *args, data=None, **kwargs):
        content = json.loads(data).get("content", "")
        answer = requests.Response()
        answer.status_code = 400 if len(content) > DISCORD_LIMIT else 204
        answer._content = b""
        if answer.status_code == 204:
            taken.append(content)
        return answer

    monkeypatch.setattr(requests, "post", post)
    return taken


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_table_message_longer_than_discord_takes_is_posted_in_parts(make_game, discord, language):
    """The table's news of many moves at once (a row telling the game from its start: the
    longest a table message gets), its players' names 30 characters long: more than 2,000
    characters. It reaches Discord in parts of at most 2,000, every line of it and the game's
    page (the last line) among them, in order."""
    for email, name in LONG_NAMES.items():
        Player.objects.update_or_create(email=email, defaults={"display_name": name})
    game = make_game(n_players=3, seed="chat-overflow")
    drive(game, 40)
    TableChannel.objects.create(game=game, url="discord://webhook-id/webhook-token", language=language)
    row = Outbox.objects.create(**table_news.item(game, after=0, upto=store.head(game)[0]))
    _title, text = table_news.words(row, language=language)
    assert len(text) > DISCORD_LIMIT

    assert outbox.deliver(row.pk) is True

    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT
    assert len(discord) >= 2 and all(len(part) <= DISCORD_LIMIT for part in discord)
    joined = "".join(discord)
    position = 0
    for line in text.splitlines():
        found = joined.find(line.strip(), position)
        assert found >= 0, line  # every line arrives, in its order
        position = found
    assert discord[-1].rstrip().endswith(f"/games/{game.pk}/")


def test_a_long_note_to_a_players_chat_is_posted_in_parts_too(db, discord):
    """Whatever posts to a chat goes through `chat_post.post`: a private chat target on Discord
    gets a long message in parts as well, its link last."""
    body = "\n".join(["Ann (green) played Migration from the Valley: 2 clans to the Cove."] * 40)
    body += "\nhttps://inis.example.org/games/1/"
    assert len(body) > DISCORD_LIMIT

    assert chat_post.post("discord://webhook-id/webhook-token", title="Inis 1", body=body, timeout=5) is True

    assert len(discord) >= 2 and all(len(part) <= DISCORD_LIMIT for part in discord)
    assert discord[-1].rstrip().endswith("https://inis.example.org/games/1/")
