"""Players' names reach the chats as text, never as the chat service's markup
(`notifications.channels.chat_post`): a name may hold "<", "&", "[" and "]" (docs/profiles.md,
"Names"), and Telegram reads what apprise posts as HTML, Discord as Markdown. The posts are
caught where apprise hands them to the network (`requests.post`): Telegram's and Discord's
servers are not the tests' to reach."""

from __future__ import annotations

import html
import json
import re

import pytest
import requests

from games import rules, store
from games.models import TableChannel
from games.services import submit_command
from notifications import outbox
from notifications.models import Outbox
from players.models import Player

NAMES = {
    "player1@example.org": "<b>Tom & Jerry</b>",
    "player2@example.org": "[Bob](https://ev.il/x)",
    "player3@example.org": '<a href="http://ev.il">Cy</a>',
}


@pytest.fixture
def posted(monkeypatch, settings, dns) -> list[dict]:
    """What apprise would post, as {url, payload}; every post answered as taken. The chat
    services' names resolve to public addresses, as on the internet."""
    settings.CHAT_TARGETS = True
    dns.update({"api.telegram.org": "149.154.167.220", "discord.com": "162.159.135.232"})
    posts: list[dict] = []

    def post(url, *args, data=None, **kwargs):
        posts.append({"url": url, "payload": json.loads(data)})
        answer = requests.Response()
        answer.status_code = 200
        answer._content = b'{"ok": true, "result": {"message_id": 1}}'
        return answer

    monkeypatch.setattr(requests, "post", post)
    return posts


def _news_posted(make_game, posted, url: str) -> dict:
    """The table news of the first move of a game whose players are named `NAMES`, posted to a
    table channel at `url`: the payload apprise hands to the network."""
    for email, name in NAMES.items():
        Player.objects.update_or_create(email=email, defaults={"display_name": name})
    game = make_game(n_players=3, seed="chat-markup")
    TableChannel.objects.create(game=game, url=url)
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    assert colour is not None
    command = dict(rules.legal_commands(state, colour)[0])
    assert submit_command(
        game=game, seat=game.seats.get(colour=colour), command=command, expected_seq=seq
    ).accepted
    (row,) = Outbox.objects.filter(game=game, kind=Outbox.Kind.TABLE_NEWS)
    assert outbox.deliver(row.pk) is True
    (sent,) = posted
    return sent["payload"]


def test_a_name_holding_html_reaches_telegram_as_text(make_game, posted):
    """Telegram reads the post as HTML: "<b>Tom & Jerry</b>" posted as it is would be bold (and
    a lone "&" makes Telegram refuse the whole message); '<a href=…>Cy</a>' a link."""
    payload = _news_posted(make_game, posted, "tgram://123456789:bot-token/987654321")
    text = payload["text"]
    assert payload["parse_mode"] == "HTML"
    named = [name for name in NAMES.values() if html.escape(name, quote=False) in text]
    assert named, text  # the mover, and whom the game waits for
    for name in NAMES.values():
        assert name not in text, text
    assert "<a href" not in text and "Tom & Jerry" not in text


def test_a_name_holding_markdown_reaches_discord_as_text(make_game, posted):
    """Discord reads Markdown in a webhook's text: "[Bob](https://ev.il/x)" would be a link
    reading "Bob". Its marks are escaped; the game's page, a line of its own, still opens."""
    payload = _news_posted(make_game, posted, "discord://webhook-id/webhook-token")
    content = payload["content"]
    # No mark left unescaped (a backslash before it shows the mark itself).
    assert not re.search(r"(?<!\\)[\[\]<>]", content), content
    assert any(
        escaped in content
        for escaped in (
            r"\[Bob\](https://ev.il/x)",
            r"\<b\>Tom & Jerry\</b\>",
            r'\<a href="http://ev.il"\>Cy\</a\>',
        )
    ), content
    assert any(
        line.startswith("http") and line.rstrip("/").split("/")[-1].isdigit() for line in content.splitlines()
    )
