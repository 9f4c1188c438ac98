"""Erasing an account (docs/privacy.md, issue "Your data"): a player who played, talked, emailed
and set orders in three games (one in progress) is erased; then no text column of any table
(nor any string inside a JSON column) and no Redis cache holds their address, their name or their words; every game still verifies,
by `verify_game --all` and offline; the other seats read "Player 1 (left)"."""

from __future__ import annotations

import email
import email.message
import email.policy
import html
import io
import json
import re
import time
import zipfile
from io import StringIO

import pytest
import redis
from django.conf import settings
from django.core import mail, signing
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from community.ratings import leaderboard
from community.reports import report_message, report_player
from games import store
from games.models import Game, TableEvent
from games.play.standing_orders import set_order
from games.record.options import table_options
from games.store.exports import export_game
from games.verify import verify_export
from notifications.models import InboundEmail, Outbox
from players import erasure, personal_data
from players.blocks import block, blocked_by
from players.erasure import ErasureRefused, erase_account, is_erased
from players.models import Block, ChatTarget, Erasure, Player, PushSubscription
from players.preferences import player_for, set_display_name
from players.signed_tokens import ERASURE_LINK_HOURS, email_links_token
from press.services import press_send
from tests.community.test_ratings import play_to_the_end, rated_table
from tests.notifications import mail_clients
from tests.notifications.test_inbound import feed, prompt_for, send_all
from watching.models import Follow
from watching.services import follow

pytestmark = pytest.mark.django_db(transaction=True)

ADDRESS = "player1@example.org"  # green at every table (tests.conftest.players)
NAME = "Annwyn Quillfeather"
WORDS = ("Zephyrine", "Marigoldcove", "Quatrefoil")


def text_columns() -> list[tuple[str, str, str]]:
    """(table, column, type) of every text-like column of the database."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', "
            "'jsonb', 'bytea')"
        )
        return list(cursor.fetchall())


def as_read(stored: bytes) -> str:
    """Bytes as a person reads them, case folded: UTF-8, and when they are an email (an inbound
    message's raw RFC 822 bytes) its decoded headers and text parts too (quoted-printable,
    base64), HTML without its tags, each line without the "> " marks of a quote, white space
    folded, so that a quoted copy of words over several lines still reads as the words."""
    texts = [stored.decode("utf-8", errors="replace")]
    message = email.message_from_bytes(stored, policy=email.policy.default)
    texts += [str(value) for value in message.values()]
    texts += [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
    text = html.unescape(re.sub(r"<[^<>]*>", "\n", "\n".join(texts)))
    lines = (re.sub(r"^[\s>]+", "", line) for line in text.splitlines())
    return " ".join(" ".join(lines).split()).casefold()


def json_strings(value) -> list[str]:
    """Every string in the JSON value `value` (keys and leaves, at any depth), as its reader
    reads it: a stored text's line breaks and quotes are not escaped here as JSON's text is."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in [key, *json_strings(item)]]
    if isinstance(value, list):
        return [text for item in value for text in json_strings(item)]
    return []


def found_in_database(needle: str) -> list[str]:
    """Where `needle` is found: "table.column" for every text-like column that holds it (bytes,
    as they read: `as_read`; JSON, in each of its strings: `json_strings`, so that words kept
    inside a JSON value, such as what an email is written from, are found too)."""
    found = []
    folded = " ".join(needle.split()).casefold()
    with connection.cursor() as cursor:
        for table, column, kind in text_columns():
            if kind == "bytea":
                cursor.execute(f'SELECT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL')
                if any(folded in as_read(bytes(value)) for (value,) in cursor.fetchall()):
                    found.append(f"{table}.{column}")
                continue
            if kind in ("json", "jsonb"):
                cursor.execute(f'SELECT "{column}"::text FROM "{table}" WHERE "{column}" IS NOT NULL')
                strings = (t for (value,) in cursor.fetchall() for t in json_strings(json.loads(value)))
                if any(folded in " ".join(t.split()).casefold() for t in strings):
                    found.append(f"{table}.{column}")
                continue
            cursor.execute(
                f'SELECT 1 FROM "{table}" WHERE "{column}"::text ILIKE %s LIMIT 1', [f"%{needle}%"]
            )
            if cursor.fetchone():
                found.append(f"{table}.{column}")
    return found


def found_in_redis(needle: str) -> list[str]:
    """The Redis keys (the caches, the broker) whose name or value holds `needle`; [] without
    Redis (the caches are then in this process's memory, which the erasure empties)."""
    if not settings.REDIS_URL:
        return []
    client = redis.Redis.from_url(settings.REDIS_URL)
    found = []
    for key in client.scan_iter():
        kind = client.type(key)
        value = client.dump(key) or b""
        if (
            needle.encode() in value
            or needle.encode() in key
            or kind == b"hash"
            and needle in str(client.hgetall(key))
        ):
            found.append(key.decode(errors="replace"))
    return found


@pytest.fixture
def three_games():
    """Three rated games where green (player1) plays: two finished, one in progress; green chose
    a name, talked at each, answered by email and set a standing order in the one in progress."""
    games = [rated_table(f"erase-{n}") for n in range(3)]
    green = games[0].seats.get(colour="green")
    set_display_name(green.email, NAME)
    for game, word in zip(games, WORDS, strict=True):
        press_send(game=game, seat=game.seats.get(colour="green"), to=None, text=f"{word} for all.")
        press_send(game=game, seat=game.seats.get(colour="green"), to="blue", text=f"{word}, quietly.")
        press_send(game=game, seat=game.seats.get(colour="blue"), to=None, text="Blue answers.")
    prompt = prompt_for(games[2], "green")
    assert (
        feed(mail_clients.gmail(prompt, f"say: {WORDS[2]} by email.", sender=f"{NAME} <{ADDRESS}>"))
        == f"accepted (game {games[2].pk}, green)"
    )
    set_order(games[2], games[2].seats.get(colour="green"), {"kind": "peace", "agree": False})
    for game in games[:2]:
        play_to_the_end(game)
    return games


def test_an_erased_player_leaves_no_trace_and_every_game_still_verifies(three_games):
    green_id = three_games[0].seats.get(colour="green").user_id
    for needle in (ADDRESS, NAME, *WORDS):
        assert found_in_database(needle), f"the set-up stores {needle!r} somewhere"

    erased = erase_account(green_id)

    assert erased.email == ADDRESS and erased.name == NAME
    for needle in (ADDRESS, NAME, *WORDS):
        assert found_in_database(needle) == [], needle
        assert found_in_redis(needle) == [], needle
    assert not Player.objects.filter(email=ADDRESS).exists()
    assert Erasure.objects.filter(user_id=green_id).exists()

    out = StringIO()
    call_command("verify_game", "--all", stdout=out)
    assert "FAILED" not in out.getvalue()
    for game in three_games:
        game.refresh_from_db()
        for viewer in (None, "blue", "green"):
            check = verify_export(json.loads(json.dumps(export_game(game=game, colour=viewer))))
            assert check.problems == [], check.lines()
            assert check.talk.links >= 3  # the one in progress has the talk by email too


def test_the_other_seats_read_the_pseudonym_and_the_bot_plays_the_seat(three_games):
    in_progress = three_games[2]
    green = in_progress.seats.get(colour="green")
    erase_account(green.user_id)

    green.refresh_from_db()
    assert green.is_bot and green.email == "" and green.user_id is None and green.left_at is not None
    assert TableEvent.objects.filter(game=in_progress, type="PlayerLeft").exists()
    blue = Client()
    blue.force_login(in_progress.seats.get(colour="blue").user)
    for game in three_games:
        page = blue.get(f"/games/{game.pk}/").content.decode()
        assert "Player 1 (left)" in page and NAME not in page
    history = blue.get(f"/games/{in_progress.pk}/history/").content.decode()
    assert "left the site: the bot plays the seat from now on" in history
    assert green.pk not in {Game.objects.get(pk=g.pk).host_id for g in three_games}
    assert green.user_id not in [row.player_id for row in leaderboard()]


def database_fingerprint() -> dict[str, str]:
    """{table: a digest of all its rows} for every table of the database."""
    prints = {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        for (table,) in cursor.fetchall():
            cursor.execute(
                f"SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"{table}\" t"
            )
            prints[table] = cursor.fetchone()[0]
    return prints


def test_erasing_twice_is_answered_and_changes_nothing(three_games):
    green_id = three_games[0].seats.get(colour="green").user_id
    erase_account(green_id)
    erased = database_fingerprint()
    with pytest.raises(ErasureRefused, match="erased already"):
        erase_account(green_id)
    assert database_fingerprint() == erased


def test_an_erasure_failing_midway_changes_nothing_and_can_be_done_again(three_games, monkeypatch):
    """The erasure is one transaction: failing at its last room's step (after the seats were
    left, the talk keys destroyed, the emails emptied...), it leaves every row as it was, and
    the next erasure goes through."""
    green_id = three_games[0].seats.get(colour="green").user_id
    registered = personal_data.holders()

    def fails(person: personal_data.Person) -> None:
        raise RuntimeError("a room could not forget its part")

    monkeypatch.setattr(erasure, "holders", lambda: [*registered, personal_data.Holder("fails", erase=fails)])
    before = database_fingerprint()

    with pytest.raises(RuntimeError):
        erase_account(green_id)

    assert database_fingerprint() == before
    monkeypatch.setattr(erasure, "holders", lambda: registered)
    erase_account(green_id)
    assert is_erased(green_id)
    assert found_in_database(ADDRESS) == []


# -- the page that erases, reached by a link that expires ------------------------------------


def erase_link_of(client: Client, user) -> str:
    """The erasure link the preferences page gives its owner, signed in."""
    player = player_for(user.email)
    client.force_login(user)
    page = client.get(reverse("email:preferences", args=[email_links_token(player.pk)])).content.decode()
    found = re.search(r'href="(/[^"]*/erase/[^"]+/)" id="erase-link"', page)
    assert found, "the preferences page links its signed-in owner to the erasure"
    return found[1]


def test_the_page_says_what_goes_and_what_stays_and_erases_once(make_game):
    game = make_game(2)
    green = game.seats.get(colour="green")
    client = Client()
    link = erase_link_of(client, green.user)

    page = client.get(link).content.decode()
    assert "What will be removed" in page and "What stays" in page and "Player N (left)" in page
    assert not is_erased(green.user_id), "a look at the page erases nothing"

    done = client.post(link)
    assert done.status_code == 200 and "Your account is erased" in done.content.decode()
    assert is_erased(green.user_id)
    again = client.post(link)
    assert again.status_code == 410 and "erased already" in again.content.decode()


def test_a_stranger_gets_no_link_and_a_forged_or_expired_one_erases_nothing(make_game, monkeypatch):
    game = make_game(2)
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    anonymous = Client()
    player = player_for(green.email)
    page = anonymous.get(reverse("email:preferences", args=[email_links_token(player.pk)])).content.decode()
    assert "erase-link" not in page, "the email's link alone (a forwarded email) gives no erasure"

    link = erase_link_of(Client(), green.user)
    token = link.rstrip("/").rsplit("/", 1)[1]
    forged = link.replace(f"/{token}/", f"/{blue.user_id}.{token.split('.', 1)[1]}/")
    refused = anonymous.post(forged)
    assert refused.status_code == 400 and "not made by this site for this account" in refused.content.decode()
    assert anonymous.post(link.replace(token, "garbled")).status_code == 400

    later = time.time() + (ERASURE_LINK_HOURS + 1) * 3600
    monkeypatch.setattr(signing.time, "time", lambda: later)
    expired = anonymous.post(link)
    assert expired.status_code == 400 and "This link ran out" in expired.content.decode()
    assert not is_erased(green.user_id) and not is_erased(blue.user_id)


# -- the download ------------------------------------------------------------------------------


def test_the_archive_holds_each_kind_of_data_and_only_its_owners(three_games):
    green = three_games[0].seats.get(colour="green")
    client = Client()
    client.force_login(green.user)
    response = client.get(reverse("email:my_data"))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    finished = {f"games/{game.pk}.json" for game in three_games[:2]}
    assert {"README.txt", "account.json", "preferences.json", "seats.json", "standing_orders.json"} <= names
    assert {"talk.json", "emails_to_you.json", "your_replies.json", *finished} <= names
    readme = archive.read("README.txt").decode()
    assert "English" in readme and "Français" in readme and "talk.json" in readme

    def read(name):
        return json.loads(archive.read(name))

    assert read("account.json")["email"] == ADDRESS
    assert read("preferences.json")["display_name"] == NAME
    assert {seat["game"] for seat in read("seats.json")} == {game.pk for game in three_games}
    assert any(seat["moves"] for seat in read("seats.json")), "the moves of the seats"
    assert read("standing_orders.json")[0]["kind"] == "peace"
    talk = [m for game in read("talk.json") for m in game["messages"]]
    assert any(m["sent_by_you"] and WORDS[0] in m["text"] for m in talk)
    assert any(not m["sent_by_you"] and m["text"] == "Blue answers." for m in talk), "talk received"
    assert read("emails_to_you.json") and all(e["subject"] for e in read("emails_to_you.json"))
    assert any(f"{WORDS[2]} by email" in reply["message"] for reply in read("your_replies.json"))
    for name in finished:
        assert verify_export(read(name)).problems == []
    # Nobody else's address, and no other seat's hand.
    assert "player2@example.org" not in json.dumps([read(n) for n in names - {"README.txt"}])

    assert Client().get(reverse("email:my_data")).status_code == 302, "signed in only"


def test_a_reply_of_theirs_after_the_erasure_plays_nothing(three_games):
    """The erasure and the reply take the same locks (the game's row, then the seat's), so a
    reply is played or refused whole before, or finds the seat left after: its reply address,
    signed with the seat's old secret, no longer acts."""
    in_progress = three_games[2]
    prompt = prompt_for(in_progress, "green")
    green = in_progress.seats.get(colour="green")
    erase_account(green.user_id)
    head = store.head(in_progress)[0]

    outcome = feed(mail_clients.gmail(prompt, "pass", sender=f"{NAME} <{ADDRESS}>"))

    assert outcome.startswith("bad_token"), outcome
    assert store.head(in_progress)[0] == head


# -- copies the first scan could not see: quoted mail, reports, follows, blocks ------------------

ACCENTED_NAME = "Zoé Quillfeather"
ACCENTED_WORDS = "Zéphyrine à toi : marché conclu, d'accord ?\nLe reste demain, Gorblattcove."


def test_words_quoted_in_a_gmail_reply_go_with_their_author(make_game):
    """Gmail quotes the email it answers with "> " on every line and sends accented text as
    quoted-printable: the erasure reads the reply as its reader does."""
    game = make_game(2)
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    set_display_name(green.email, ACCENTED_NAME)
    send_all()
    mail.outbox.clear()
    press_send(game=game, seat=green, to="blue", text=ACCENTED_WORDS)
    send_all()
    relayed = [m for m in mail.outbox if blue.email in m.to][-1]
    reply = mail_clients.gmail(relayed, "say: Fine by me.", sender="Blue <player2@example.org>")
    assert "Zéphyrine".encode() not in reply and b"Z=C3=A9phyrine" in reply, "quoted-printable"
    assert feed(reply) == f"accepted (game {game.pk}, blue)"
    assert "notifications_inboundemail.raw" in found_in_database("marché conclu, d'accord ? Le reste")

    erase_account(green.user_id)

    for needle in ("Zéphyrine", "Gorblattcove", "marché conclu", ACCENTED_NAME):
        assert found_in_database(needle) == [], needle
    kept = InboundEmail.objects.get(from_email="")
    assert kept.status == InboundEmail.Status.ACCEPTED and kept.message_key, "a second delivery is known"


def test_reports_follows_and_blocks_keep_nothing_of_an_erased_player(make_game):
    game = make_game(3, options={**table_options(), "public": True})
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    set_display_name(green.email, ACCENTED_NAME)
    press_send(game=game, seat=green, to=None, text="Zéphyrine à tous : marché conclu.")
    about_green = report_message(
        reporter=blue.user, game_id=game.pk, number=1, reason=f"{ACCENTED_NAME} is rude"
    )
    by_green = report_player(
        reporter=green.user, player_id=blue.user_id, reason="Gorblatt cheats, green says"
    )
    follow(user=green.user, game=game)
    block(blocker_id=green.user_id, blocked_id=blue.user_id)
    block(blocker_id=blue.user_id, blocked_id=green.user_id)
    assert blocked_by(blue.user_id) == {green.user_id}
    for needle in ("Zéphyrine", ACCENTED_NAME, "Gorblatt"):
        assert "community_report.message_text" in found_in_database(needle) or (
            "community_report.reason" in found_in_database(needle)
        ), needle

    erase_account(green.user_id)

    for needle in ("Zéphyrine", ACCENTED_NAME, "Gorblatt"):
        assert found_in_database(needle) == [], needle
    # The operator still has both reports: which message of which game, which player, and its status.
    about_green.refresh_from_db(), by_green.refresh_from_db()
    assert (about_green.game_id, about_green.message_number, about_green.message_text) == (game.pk, 1, "")
    assert (by_green.reported_id, by_green.reason) == (blue.user_id, "")
    assert not Follow.objects.filter(user_id=green.user_id).exists()
    assert not Block.objects.exists()
    assert blocked_by(blue.user_id) == set(), "blue's list of blocks no longer holds the erased account"


def test_the_archive_holds_devices_chat_follows_blocks_and_reports_of_its_owner_only(make_game):
    game = make_game(3, options={**table_options(), "public": True})
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    player = player_for(green.email)
    ChatTarget.objects.create(player=player, url="tgram://bot-token/123456789")
    PushSubscription.objects.create(
        player=player, endpoint="https://push.example.org/green-phone", p256dh="k", auth="a", device="phone"
    )
    PushSubscription.objects.create(
        player=player_for(blue.email), endpoint="https://push.example.org/blue", p256dh="k", auth="a"
    )
    press_send(game=game, seat=blue, to=None, text="Blue's own words.")
    report_message(reporter=green.user, game_id=game.pk, number=1, reason="Green's own reason")
    report_player(reporter=blue.user, player_id=green.user_id, reason="Blue's reason about green")
    follow(user=green.user, game=game)
    block(blocker_id=green.user_id, blocked_id=blue.user_id)
    block(blocker_id=game.seats.get(colour="orange").user_id, blocked_id=green.user_id)
    client = Client()
    client.force_login(green.user)

    archive = zipfile.ZipFile(io.BytesIO(client.get(reverse("email:my_data")).content))

    def read(name):
        return json.loads(archive.read(name))

    assert read("chat_target.json")["url"] == "tgram://bot-token/123456789"
    assert [(d["device"], d["endpoint"]) for d in read("push_devices.json")] == [
        ("phone", "https://push.example.org/green-phone")
    ]
    assert [f["game"] for f in read("follows.json")] == [game.pk]
    assert [b["player_page"] for b in read("blocks.json")] == [
        settings.SITE_URL + reverse("community:profile", args=[blue.user_id])
    ], "the one green blocked, never who blocked green"
    reports = read("reports.json")
    assert [(r["game"], r["message"], r["reason"], r["status"]) for r in reports] == [
        (game.pk, 1, "Green's own reason", "new")
    ]
    new_files = ("chat_target.json", "push_devices.json", "follows.json", "blocks.json", "reports.json")
    readme = archive.read("README.txt").decode()
    for name in new_files:
        assert readme.count(name) == 2, f"{name} told in English and French"
    theirs = json.dumps([read(name) for name in new_files], ensure_ascii=False)
    # The reported words are blue's (green reads them in talk.json, as any player of the game).
    for others in ("Blue's own words", "Blue's reason", "push.example.org/blue", "player2@example.org"):
        assert others not in theirs, others


# -- talk waiting for a digest, told by another player's prompt written after the erasure ------


def _blue_on_the_digest_with_green_s_talk_waiting(monkeypatch, *, push_only: bool):
    """A game where green (named NAME) said WORDS[0] to everyone, blue takes the daily digest
    (the words wait for it) and, once green moved, has a decision: its prompt is written at its
    delivery, not yet done. push_only: blue has a push device and takes no email for a decision
    ("never"), so the prompt is a web push row keeping what its email is written from."""
    from games.services import submit_command
    from tests.notifications.email_positions import END, game_from

    game = game_from(END, seed="erase-digest")
    send_all()
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    set_display_name(green.email, NAME)
    Player.objects.filter(email=blue.email).update(delivery=Player.Delivery.DIGEST)
    if push_only:
        player = player_for(blue.email)
        PushSubscription.objects.create(
            player=player, endpoint="https://push.example.org/blue", p256dh="k", auth="a"
        )
        Player.objects.filter(pk=player.pk).update(email_after_push=None)
    press_send(game=game, seat=green, to=None, text=f"{WORDS[0]} for all.")
    # The worker has not delivered blue's prompt yet: the test delivers it (`outbox.deliver`).
    monkeypatch.setattr("notifications.outbox.schedule", lambda row_ids: None)
    submit_command(game=game, seat=green, command={"type": "pretender"}, expected_seq=store.head(game)[0])
    return game, green, blue


@pytest.mark.parametrize("push_only", [False, True], ids=["email", "push only"])
def test_talk_waiting_in_another_player_s_prompt_is_not_kept_and_goes_with_its_author(
    settings, monkeypatch, push_only
):
    """A digest player's prompt tells the talk that waited for the digest. The prompt is written
    at its delivery, maybe after its author's erasure: its row keeps the messages' numbers, not
    a copy of the words (the web push row of a "never" player too), and the words, opened when
    the email is written, are gone with their author's key."""
    from notifications import outbox
    from notifications.models import NewsItem, Outbox

    settings.WEB_PUSH = push_only
    game, green, blue = _blue_on_the_digest_with_green_s_talk_waiting(monkeypatch, push_only=push_only)
    waiting = Outbox.objects.filter(seat=blue, kind=Outbox.Kind.PROMPT, status=Outbox.Status.PENDING)
    assert waiting.exists()
    # The prompt's email tells the waiting talk, marked told; a "never" player's prompt goes by
    # push alone and leaves it for the digest (docs/notifications.md, "Push first, email after").
    assert NewsItem.objects.filter(seat=blue, mailed_at__isnull=True).exists() == push_only
    assert "notifications_outbox.render_spec" not in found_in_database(WORDS[0])
    assert "notifications_outbox.headers" not in found_in_database(WORDS[0])

    erase_account(green.user_id)

    for needle in (ADDRESS, NAME, WORDS[0]):
        assert found_in_database(needle) == [], needle
    if push_only:  # the device goes: the decision's email is written from the push row
        PushSubscription.objects.filter(player__email=blue.email).delete()
    mail.outbox.clear()
    for row in Outbox.objects.filter(seat=blue, channel=Outbox.Channel.EMAIL, status=Outbox.Status.PENDING):
        outbox.deliver(row.pk)
    prompts = [m for m in mail.outbox if m.to == [blue.email] and m.subject.startswith("Your move")]
    assert prompts, "blue's decision still reaches blue"
    for sent in prompts:
        assert WORDS[0] not in sent.body and NAME not in sent.body


def test_talk_waiting_in_a_prompt_is_told_when_the_prompt_is_written(settings, monkeypatch):
    """Without an erasure, the prompt written from the numbers tells the waiting talk as the
    digest would have, its author named as the table names them."""
    from notifications import outbox
    from notifications.models import Outbox

    settings.WEB_PUSH = False
    game, _green, blue = _blue_on_the_digest_with_green_s_talk_waiting(monkeypatch, push_only=False)
    (row,) = Outbox.objects.filter(seat=blue, kind=Outbox.Kind.PROMPT, status=Outbox.Status.PENDING)
    assert row.render_spec["talk_numbers"] == [1]
    mail.outbox.clear()
    outbox.deliver(row.pk)
    (prompt,) = [m for m in mail.outbox if m.to == [blue.email] and m.subject.startswith("Your move")]
    assert f"to everyone: “{WORDS[0]} for all.”" in " ".join(prompt.body.split())


# -- what others have not received yet is theirs: kept, without the erased person -------------


def test_another_player_s_pending_prompt_naming_the_erased_player_still_reaches_them(monkeypatch):
    """Blue's prompt for an open decision, written already (a reader needed its text) and not
    yet sent, names green; green's message to blue waits for its email too. The erasure keeps
    both for blue, green named as the seat now reads and green's words as the site shows erased
    words: blue's decision is not left without its email until the reminder."""
    from games.services import submit_command
    from notifications import outbox
    from notifications.models import Outbox
    from tests.notifications.email_positions import END, game_from

    game = game_from(END, seed="erase-pending")
    send_all()
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    set_display_name(green.email, NAME)
    monkeypatch.setattr("notifications.outbox.schedule", lambda row_ids: None)  # not delivered yet
    submit_command(game=game, seat=green, command={"type": "pretender"}, expected_seq=store.head(game)[0])
    press_send(game=game, seat=green, to="blue", text=f"{WORDS[1]}, between us.")
    unsent = Outbox.objects.filter(seat=blue, status=Outbox.Status.PENDING, channel=Outbox.Channel.EMAIL)
    with transaction.atomic():  # as a reader does
        prompt = outbox.written(unsent.get(kind=Outbox.Kind.PROMPT))
    assert NAME in prompt.body_text, "the prompt names the players"
    assert WORDS[1] in unsent.get(kind=Outbox.Kind.PRESS).body_text

    erase_account(green.user_id)

    for needle in (ADDRESS, NAME, WORDS[1]):
        assert found_in_database(needle) == [], needle
    mail.outbox.clear()
    for row in unsent.order_by("id"):
        outbox.deliver(row.pk)
    (sent_prompt,) = [m for m in mail.outbox if m.to == [blue.email] and m.subject.startswith("Your move")]
    assert NAME not in sent_prompt.body and "Player 1 (left, green)" in sent_prompt.body
    (sent_talk,) = [m for m in mail.outbox if m.to == [blue.email] and "message" in m.subject.lower()]
    body = " ".join(sent_talk.body.split())
    assert WORDS[1] not in body and "(erased: its author left and took their words with them)" in body


def news_to(seat, subject: str, text: str, html_text: str = "", *, status: str = "") -> Outbox:
    """A news email to `seat` at its game's head, PENDING (still to send) unless `status` says
    otherwise: what an erasure finds in others' mail."""
    return Outbox.objects.create(
        game=seat.game,
        seat=seat,
        kind=Outbox.Kind.NEWS,
        seq=store.head(seat.game)[0],
        to_email=seat.email,
        subject=subject,
        body_text=text,
        body_html=html_text,
        status=status or Outbox.Status.PENDING,
    )


def test_a_short_name_is_taken_out_of_others_mail_as_a_word_never_inside_one(make_game):
    """Green, named "Don", is erased while an email to blue waits to be sent: "Don" goes where it
    names green, and blue's "Done." and "Donald" keep their letters (before, blue read "a player
    who lefte." and "Player 1 (left)ald")."""

    game = make_game(2, seed="short-name")
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    set_display_name(green.email, "Don")
    waiting = news_to(
        blue,
        "Don played Bard",
        "Done. Don (green) played Bard; Donald and don't stay.",
        "<p>Done. Don (green) played Bard; Donald and don&#x27;t stay.</p>",
    )

    erase_account(green.user_id)

    waiting.refresh_from_db()
    assert waiting.subject == "Player 1 (left) played Bard"
    # The seat's new name joined with its colour as every sentence says it (docs/web.md).
    assert waiting.body_text == "Done. Player 1 (left, green) played Bard; Donald and don't stay."
    assert waiting.body_html == "<p>Done. Player 1 (left, green) played Bard; Donald and don&#x27;t stay.</p>"


def test_a_name_with_its_colour_in_mail_still_to_send_reads_naturally_once_erased(make_game):
    """Green, named "Don", is erased while an email to blue, who reads French, waits to be sent:
    "Don (vert)" becomes "Joueur 1 (parti, vert)", as the site names that seat now, never
    "Joueur 1 (parti) (vert)"."""

    game = make_game(2, seed="short-name-fr")
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    set_display_name(green.email, "Don")
    reader = player_for(blue.email)
    reader.language = "fr"
    reader.save()
    waiting = news_to(blue, "Don (vert) a joué Barde", "Don (vert) a joué Barde.")

    erase_account(green.user_id)

    waiting.refresh_from_db()
    assert waiting.subject == "Joueur 1 (parti, vert) a joué Barde"
    assert waiting.body_text == "Joueur 1 (parti, vert) a joué Barde."


def test_short_words_are_taken_out_of_others_mail_as_words_never_inside_one(make_game):
    """Green wrote "ok" at the table and is erased while blue's email and digest line wait: "ok"
    goes where it is green's message, and blue's "book" keeps its letters (before, blue read
    "bo(erased: its author left and took their words with them)")."""
    from notifications.models import NewsItem

    game = make_game(2, seed="short-words")
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    press_send(game=game, seat=green, to=None, text="ok")
    waiting = news_to(
        blue, "Your book", "Green said: ok\nBring the book.", "<p>Green said: ok</p><p>Bring the book.</p>"
    )
    line = NewsItem.objects.create(game=game, seat=blue, seq=store.head(game)[0], text="A book; green: ok")

    erase_account(green.user_id)

    erased = "(erased: its author left and took their words with them)"
    waiting.refresh_from_db(), line.refresh_from_db()
    assert waiting.subject == "Your book"
    assert waiting.body_text == f"Green said: {erased}\nBring the book."
    assert waiting.body_html == f"<p>Green said: {erased}</p><p>Bring the book.</p>"
    assert line.text == f"A book; green: {erased}"


def test_sent_copies_and_reports_go_when_they_hold_the_name_or_words_as_words_only(make_game):
    """Green, named "Don", wrote "ok" at the table and is erased. Blue's emails already sent and
    digest lines already mailed that name him or say his words go; those where "Don" and "ok"
    are only inside other words ("Done.", "book") stay, and so do the reasons of reports that
    hold them only so (before, all of them were deleted or emptied)."""
    from community.models import Report
    from notifications.models import NewsItem, Outbox

    game = make_game(3, seed="short-sent", options={**table_options(), "public": True})
    green, blue, third = (game.seats.get(colour=colour) for colour in ("green", "blue", "orange"))
    set_display_name(green.email, "Don")
    press_send(game=game, seat=green, to=None, text="ok")
    press_send(game=game, seat=blue, to=None, text="Done. The book is on the table.")

    def sent(subject: str, text: str, html_text: str = "") -> Outbox:
        return news_to(
            blue, subject, text, html_text or f"<p>{html.escape(text)}</p>", status=Outbox.Status.SENT
        )

    def mailed(text: str) -> NewsItem:
        return NewsItem.objects.create(
            game=game, seat=blue, seq=store.head(game)[0], text=text, mailed_at=timezone.now()
        )

    kept = [sent("Done.", "Done. The book is on the table."), mailed("Done: a book, London")]
    gone = [
        sent("Your move", "DON played Bard."),
        sent("News", "Green said:\n> ok"),
        sent("News", "Nothing here.", "<p>Green&#x27;s words: ok</p>"),
        mailed("Green (Don): ok"),
    ]
    about_blue = report_message(
        reporter=third.user, game_id=game.pk, number=2, reason="Done. A bookish slur."
    )
    naming = report_player(reporter=third.user, player_id=blue.user_id, reason="Blue insults don and me")

    erase_account(green.user_id)

    for row in kept:
        assert type(row).objects.filter(pk=row.pk).exists(), row
    for row in gone:
        assert not type(row).objects.filter(pk=row.pk).exists(), row
    about_blue.refresh_from_db(), naming.refresh_from_db()
    assert about_blue.reason == "Done. A bookish slur."
    assert about_blue.message_text == "Done. The book is on the table."
    assert naming.reason == ""
    assert Report.objects.count() == 2


def received_from(sender: str, words: str, *, detail: str = "") -> InboundEmail:
    """An email of `sender` (an address) to the service, saying `words`, stored as received."""
    message = email.message.EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "play@example.org", "Re: Your move"
    message["Message-ID"] = key = f"<received-{InboundEmail.objects.count() + 1}@example.org>"
    message.set_content(words)
    return InboundEmail.objects.create(
        message_key=key,
        source="test",
        raw=message.as_bytes(),
        from_email=sender,
        status=InboundEmail.Status.ACCEPTED,
        detail=detail,
    )


def test_a_short_name_empties_the_emails_received_that_name_it_as_a_word_never_inside_one(make_game):
    """Green, named "Don", is erased. Blue's emails that name him ("DON, your move", in any
    case) or hold his address go; blue's "Done." and an address that only ends with his stay
    as blue wrote them (before, any email holding "Don" or "don" inside a word was emptied)."""
    game = make_game(2, seed="short-name-inbound")
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    set_display_name(green.email, "Don")
    done = received_from(blue.email, "Done. I pass; Donald and London can wait.", detail="accepted: Done.")
    kept_address = received_from(blue.email, f"Ask x{green.email}, not me.")
    named = received_from(blue.email, "DON, your move.")
    quoted = received_from(blue.email, f"> Write to {green.email.upper()}\n\nI did.")

    erase_account(green.user_id)

    for stored in (done, kept_address):
        before = bytes(stored.raw)
        stored.refresh_from_db()
        assert (bytes(stored.raw), stored.from_email) == (before, blue.email)
    done.refresh_from_db()
    assert done.detail == "accepted: Done."
    for stored in (named, quoted):
        stored.refresh_from_db()
        assert (bytes(stored.raw), stored.from_email) == (b"", "")
        assert stored.status == InboundEmail.Status.ACCEPTED


# -- the table channel a host set: theirs to download, gone with them ----------------------------


def test_a_host_s_table_channel_is_in_their_archive_and_goes_with_their_erasure(make_game):
    """A host's table channel (a chat address of theirs, maybe with its service's secret) got
    every move of the game; after their erasure it gets nothing more, and nothing keeps it."""
    from games.models import TableChannel

    host = make_game(3).seats.get(colour="green").user
    game = make_game(3, seed="channel", host=host)
    other = make_game(3, seed="not-theirs")
    TableChannel.objects.create(game=game, url="tgram://host-secret-token/555", language="fr")
    TableChannel.objects.create(game=other, url="tgram://another-host-token/777")
    client = Client()
    client.force_login(host)
    archive = zipfile.ZipFile(io.BytesIO(client.get(reverse("email:my_data")).content))
    (channel,) = json.loads(archive.read("table_channels.json"))
    assert (channel["game"], channel["address"], channel["language"]) == (
        game.pk,
        "tgram://host-secret-token/555",
        "fr",
    )
    assert channel["set_at"] and archive.read("README.txt").decode().count("table_channels.json") == 2

    erase_account(host.pk)

    assert found_in_database("host-secret-token") == []
    assert list(TableChannel.objects.values_list("game_id", flat=True)) == [other.pk], "another host's stays"


def test_the_archive_holds_the_player_s_choices_tables_and_places_never_others_addresses(make_game):
    """What the player gave besides their games: how long a decision's email waits after its
    push, their profile's "hidden" choice, the tables they proposed, their places at tables."""
    from community.models import ProfileChoice
    from lobby.models import Invitation, Proposal

    game = make_game(3)
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    Player.objects.filter(pk=player_for(green.email).pk).update(email_after_push=None)
    ProfileChoice.objects.create(player_id=green.user_id, hidden=True)
    theirs = Proposal.objects.create(host=green.user, setup="discovery", language="fr", rated=True)
    Invitation.objects.create(
        proposal=theirs, position=0, email=green.email, user=green.user, status="accepted"
    )
    Invitation.objects.create(proposal=theirs, position=1, email="friend-of-green@example.net")
    asked = Proposal.objects.create(host=blue.user, listed=True)
    Invitation.objects.create(proposal=asked, position=0, email=blue.email, user=blue.user, status="accepted")
    Invitation.objects.create(proposal=asked, position=2, email=green.email, joined=True, status="declined")
    client = Client()
    client.force_login(green.user)

    archive = zipfile.ZipFile(io.BytesIO(client.get(reverse("email:my_data")).content))

    def read(name):
        return json.loads(archive.read(name))

    assert (
        "email_after_push" in read("preferences.json")
        and read("preferences.json")["email_after_push"] is None
    )
    assert read("profile.json") == {"hidden": True}
    (table,) = read("tables.json")
    assert (table["table"], table["setup"], table["language"], table["rated"], table["status"]) == (
        theirs.pk,
        "discovery",
        "fr",
        True,
        "open",
    )
    places = [
        (p["table"], p["place"], p["your_table"], p["how"], p["answer"]) for p in read("invitations.json")
    ]
    assert places == [(theirs.pk, 1, True, "asked", "accepted"), (asked.pk, 3, False, "joined", "declined")]
    readme = archive.read("README.txt").decode()
    for name in ("profile.json", "tables.json", "invitations.json", "email_after_push"):
        assert readme.count(name) == 2, f"{name} told in English and French"
    everything = json.dumps([read(n) for n in archive.namelist() if n.endswith(".json")])
    for others in ("friend-of-green@example.net", blue.email):
        assert others not in everything, others
