"""The attacks of the security review, over real HTTP against a real server with DEBUG off.

One `gunicorn inis_pbem.wsgi` (tests/live_server.py) is started for the whole module, as
production starts it: DEBUG off, the production checks run when the WSGI application is built,
PostgreSQL (the pytest-django test database: each test commits what it writes, so the server
sees it and the test sees what the server wrote) and Redis (its cache counts sign-in requests;
its queue takes the tasks, which no worker runs here, so the emails the server writes to the
outbox stay there for the test to read). Its email backend makes no network call: it records
each message sent at once in a file (tests/live_server.RecordingEmailBackend).

Every request goes to 127.0.0.1 as the production proxy would pass it on (the allowed Host,
`X-Forwarded-Proto: https`); sign-ins use a link made here with the server's SECRET_KEY, as
the one in an email; POSTs carry the CSRF cookie and the form's token, as a browser sends them.
Each request is bounded in time (live_server.REQUEST_SECONDS), and so is the server's start;
the server is stopped when the module ends.

The same attacks run through Django's test client in tests/web/test_views.py,
tests/web/test_decision_input.py, tests/lobby/test_lobby.py, tests/faults/test_web_fuzz.py
and tests/notifications/test_webhooks.py; here they meet every middleware and setting of
production, and the WSGI server in front of them.
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
import uuid
from urllib.parse import quote, urlencode, urlsplit

import pytest
from django.db import connection
from django.test import override_settings

from games import rules, store
from games.models import Command, Event, Seat, TableEvent
from games.services import SeatSpec, create_game
from notifications import outbox
from notifications.models import InboundEmail, Outbox
from tests.live_server import HOST, SAFE_ENV, SITE_URL, Browser, Gunicorn, read_mail

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

# One run's own names: the sign-in limits count per address and per client in Redis for an
# hour, and an earlier run's counts must not refuse this run's requests.
RUN = uuid.uuid4().hex[:8]


def random_client_ip() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


CLIENT_IP = random_client_ip()
HEAD_POLLS = 20
YEAR = 365 * 24 * 3600


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory):
    """gunicorn on the test database, started once for the module and stopped after it."""
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="") + (
        f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    )
    database_url = f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    directory = tmp_path_factory.mktemp("live-server")
    queue = f"live-security-{RUN}"
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": os.environ["REDIS_URL"],
        "CELERY_QUEUE": queue,
        "EMAIL_BACKEND": "tests.live_server.RecordingEmailBackend",
        "LIVE_MAIL_LOG": str(directory / "mail.jsonl"),
        "DEFAULT_FROM_EMAIL": f"Inis by email <inis@{HOST}>",
        "CLIENT_IP_HEADER": "X-Real-IP",
        # Low enough that a test reaches it in a few seconds of polling (the default is 240).
        "HEAD_POLLS_PER_CLIENT_PER_MINUTE": str(HEAD_POLLS),
    }
    with Gunicorn(directory, **env) as running:
        running.wait_until_serving(timeout=60)
        running.mail_log = directory / "mail.jsonl"
        yield running
    import redis

    broker = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5)
    for key in broker.scan_iter(match=f"*{queue}*"):
        broker.delete(key)


def browser(server, **kwargs) -> Browser:
    return Browser(server, **{"client_ip": CLIENT_IP, **kwargs})


def signed_in(server, user) -> Browser:
    """A browser that followed an emailed sign-in link of `user` (a token the server accepts:
    made with its SECRET_KEY)."""
    from sesame.utils import get_query_string

    with override_settings(SECRET_KEY=SAFE_ENV["SECRET_KEY"]):
        query = get_query_string(user)
    visitor = browser(server)
    response = visitor.get("/" + query)
    assert response.status == 302 and "sessionid" in visitor.cookies, (
        response.status,
        server.output()[-3000:],
    )
    return visitor


def new_game(name: str, players: int = 4):
    return create_game(
        seats=[SeatSpec(email=f"{name}{i}-{RUN}@example.org") for i in range(1, players + 1)],
        seed=f"live-{name}-{RUN}",
        play_bots=False,
    )


def seat_of(game, colour: str) -> Seat:
    return Seat.objects.select_related("user").get(game=game, colour=colour)


def written(game) -> tuple[int, int]:
    """(events, commands) stored for `game`."""
    return Event.objects.filter(game=game).count(), Command.objects.filter(game=game).count()


def mail_to(server, address: str) -> list[dict]:
    """The emails written for `address`: {"subject", "body", "html"} of each, whether the server sent it at
    once (recorded by its backend) or wrote it to the outbox for a worker (none runs here)."""
    sent = [
        {"subject": m["subject"], "body": m["body"], "html": m["html"]}
        for m in read_mail(server.mail_log)
        if m["to"] == [address]
    ]
    queued = [
        {"subject": row.subject, "body": row.body_text, "html": row.body_html}
        for row in map(outbox.written, Outbox.objects.filter(to_email=address).order_by("pk"))
    ]
    return sent + queued


def sign_in_mail_to(server, address: str) -> list[dict]:
    return [m for m in mail_to(server, address) if "sign-in link" in m["subject"]]


def decide(visitor: Browser, game, data: dict, **kwargs):
    """POST a decision form of the game page, its CSRF token taken from that page."""
    page = f"/games/{game.pk}/"
    return visitor.post(page, data, csrf_from=page, **kwargs)


def the_move(game):
    """(the seat to decide, its first legal command, the log's length)."""
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    return seat_of(game, colour), rules.legal_commands(state, colour)[0], seq


# --- Other seats ------------------------------------------------------------------------------


def test_another_seats_page_history_export_and_island_are_refused(server, play):
    """A signed-in player asks for another seat's page, history, export and island (`?as=`):
    refused; their own seat's are served, and name none of the cards dealt to the other seat. A player of
    another game is refused every seat of this one."""
    game = new_game("seats")
    # Up to the deal of the first draft, before anybody passes a card: the Action cards dealt
    # to blue are then known to blue alone.
    play(game, 60, until=lambda state: bool(state.draft.get("blue", {}).get("dealt")))
    state, seq = store.load(game)
    green, blue = seat_of(game, "green"), seat_of(game, "blue")
    secret = [card for cards in state.draft["blue"]["dealt"].values() for card in cards]
    mine = [card for cards in state.draft["green"]["dealt"].values() for card in cards]
    assert secret and mine, "the test needs cards dealt to blue and green"
    outsider = seat_of(new_game("outsider", players=2), "green")
    pages = [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/history/",
        f"/games/{game.pk}/export.json",
        f"/games/{game.pk}/at/{seq}/",
    ]

    player = signed_in(server, green.user)
    for page in pages:
        assert player.get(f"{page}?as=blue").status == 403, page
        own = player.get(f"{page}?as=green")
        assert own.status == 200, page
        for card in secret:
            assert card not in own.text, (page, card)
        if page.endswith("export.json"):  # the export names the cards its reader may see
            assert any(card in own.text for card in mine), own.text[:2000]

    stranger = signed_in(server, outsider.user)
    for page in pages:
        for colour in ("green", "blue"):
            assert stranger.get(f"{page}?as={colour}").status == 403, (page, colour)
    assert blue.user_id != green.user_id


def test_a_decision_by_the_wrong_person_is_refused_and_nothing_is_written(server):
    """The legal command of the seat to decide, posted by another seat's player (for that seat,
        or for their own), by a player of another game, and by a visitor signed in to nothing: each
        refused, nothing written. The same post by the seat's own player is accepted, and only the
    command is recorded."""
    game = new_game("wrong")
    seat, command, seq = the_move(game)
    other = Seat.objects.filter(game=game).exclude(pk=seat.pk).order_by("position").first()
    outsider = seat_of(new_game("elsewhere", players=2), "green")
    before = written(game)

    def form(colour):
        return {"seat": colour, "expected_seq": seq, "nonce": uuid.uuid4().hex, "choice": json.dumps(command)}

    player = signed_in(server, other.user)
    assert decide(player, game, form(seat.colour)).status == 403
    assert decide(player, game, form(other.colour)).status == 400
    assert decide(signed_in(server, outsider.user), game, form(seat.colour)).status == 403
    anonymous = browser(server)
    assert anonymous.post(f"/games/{game.pk}/", form(seat.colour), csrf_from="/signin/").status == 403
    assert written(game) == before

    # The seat's own player, with 10 KB beside the command: taken, and what the log keeps is
    # the legal command itself, not the post.
    answer = decide(signed_in(server, seat.user), game, {**form(seat.colour), "padding": "x" * 10_000})
    assert answer.status == 302, answer.text[:2000]
    assert written(game)[0] > before[0] and written(game)[1] == before[1] + 1
    assert Command.objects.get(game=game).body == command


def test_a_forwarded_seat_link_acts_for_its_seat_only(server):
    """Whoever holds the seat link of a game email (a forwarded prompt) may see and decide for
    that seat of that game, and nothing else of its player's: not another seat, not the same
    player's other game, not "My games", the lobby or host tools, which ask for a sign-in."""
    from players import seat_links as seat_access

    game = new_game("forwarded")
    seat, command, seq = the_move(game)
    other_seat = Seat.objects.filter(game=game).exclude(pk=seat.pk).order_by("position").first()
    elsewhere = create_game(
        seats=[SeatSpec(email=seat.email), SeatSpec(email=f"elsewhere-{RUN}@example.org")],
        seed=f"live-forwarded-elsewhere-{RUN}",
        play_bots=False,
    )
    with override_settings(SECRET_KEY=SAFE_ENV["SECRET_KEY"]):
        token = seat_access.link_token(game_id=game.pk, seat_id=seat.pk, seat_secret=seat.token)

    reader = browser(server)
    followed = reader.get(f"/games/{game.pk}/seat/{token}/")
    assert followed.status == 302, (followed.status, followed.text[:2000])
    assert followed.header("Location").endswith(f"/games/{game.pk}/?as={seat.colour}")
    assert reader.get(f"/games/{game.pk}/?as={seat.colour}").status == 200
    assert reader.get(f"/games/{game.pk}/?as={other_seat.colour}").status == 403
    mine_elsewhere = Seat.objects.get(game=elsewhere, user=seat.user).colour
    assert reader.get(f"/games/{elsewhere.pk}/?as={mine_elsewhere}").status == 403
    for page in (f"/games/{game.pk}/host/", "/new/"):
        asked = reader.get(page)
        assert asked.status == 302 and urlsplit(asked.header("Location")).path == "/signin/", page
    assert "My games" not in reader.get("/").text

    before = written(game)
    answer = decide(
        reader,
        game,
        {"seat": seat.colour, "expected_seq": seq, "nonce": uuid.uuid4().hex, "choice": json.dumps(command)},
    )
    assert answer.status == 302, answer.text[:2000]
    assert written(game)[1] == before[1] + 1


def test_host_tools_by_anyone_but_the_host_are_refused_and_nothing_is_written(server):
    """A player of the game who is not its host, and a player of another game, open the host
    tools and post "pause": refused, no table event written. The host's own post is taken."""
    from django.contrib.auth import get_user_model

    host = get_user_model().objects.create(
        username=f"host-{RUN}@example.org", email=f"host-{RUN}@example.org"
    )
    game = create_game(
        seats=[SeatSpec(email=f"hosted{i}-{RUN}@example.org") for i in (1, 2)],
        seed=f"live-hosted-{RUN}",
        play_bots=False,
        host=host,
    )
    tools = f"/games/{game.pk}/host/"
    player = signed_in(server, seat_of(game, "green").user)
    outsider = signed_in(server, seat_of(new_game("hostless", players=2), "green").user)
    for visitor in (player, outsider):
        assert visitor.get(tools).status == 403
        pause = visitor.post(tools, {"action": "pause"}, csrf_from="/signin/")
        assert pause.status == 403, pause.status
    assert not TableEvent.objects.filter(game=game).exists()

    own = signed_in(server, host)
    assert own.post(tools, {"action": "pause"}, csrf_from=tools).status == 302
    assert TableEvent.objects.filter(game=game).count() == 1


# --- Sign-in links ----------------------------------------------------------------------------


OFF_SITE_NEXTS = ["@evil.example/steal", "//evil.example", "/\\evil.example"]


@pytest.mark.parametrize("next_path", OFF_SITE_NEXTS)
def test_an_off_site_next_never_reaches_the_sign_in_form_the_redirect_or_the_email(server, next_path):
    """`/signin/?next=<another host>`: the form does not carry it, no answer redirects there,
    and the sign-in email the player gets links to this site's home page only; its token,
    used by someone else, signs them in here and sends them nowhere else."""
    address = f"victim-{RUN}-{OFF_SITE_NEXTS.index(next_path)}@example.org"
    page = "/signin/?" + urlencode({"next": next_path})
    attacker = browser(server)
    form = attacker.get(page)
    assert form.status == 200
    assert "evil" not in form.text

    sent = attacker.post(page, {"email": address, "next": next_path}, csrf_from=page)
    assert sent.status == 200, sent.text[:2000]
    assert "evil" not in (sent.header("Location") or "") and "evil" not in sent.text
    mails = sign_in_mail_to(server, address)
    assert len(mails) == 1
    assert "evil" not in mails[0]["body"] and "evil" not in mails[0]["html"]
    link = urlsplit(re.search(r"https?://\S*sesame=[^\s\"'<>]+", mails[0]["body"]).group(0))
    assert (link.scheme, link.netloc, link.path) == ("https", HOST, "/")

    someone_else = browser(server)
    landing = someone_else.get(f"{link.path}?{link.query}")
    assert landing.status == 302
    target = urlsplit(landing.header("Location"))
    assert target.netloc in ("", HOST) and target.path.startswith("/")
    assert not target.path.startswith(("//", "/\\"))
    assert "sessionid" in someone_else.cookies


def test_sign_in_links_are_limited_per_address_with_the_same_answer_for_anybody(server):
    """Sign-in links asked for one address again and again, for a player's address and for an
    address nobody uses: five are written, then each further request is a 429 that reads the
    same for both, and writes nothing."""
    player = seat_of(new_game("limited", players=2), "green").email
    nobody = f"nobody-{RUN}@example.org"
    refusals = []
    for address in (player, nobody):
        visitor = browser(server, client_ip=random_client_ip())  # the per-client limit is another test's
        answers = [
            visitor.post("/signin/", {"email": address}, csrf_from="/signin/").status for _ in range(6)
        ]
        assert answers == [200] * 5 + [429], answers
        assert len(sign_in_mail_to(server, address)) == 5
        refusals.append(visitor.post("/signin/", {"email": address}, csrf_from="/signin/"))
    assert [r.status for r in refusals] == [429, 429]
    # Every page's forms (the language switch) carry a CSRF token masked afresh for each answer.
    unmasked = [re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", r.text) for r in refusals]
    assert unmasked[0] == unmasked[1]


def test_a_client_polling_a_head_as_fast_as_it_can_is_told_to_wait(server):
    """One client asks a game's head again and again (counted in Redis by the running server):
    past HEAD_POLLS_PER_CLIENT_PER_MINUTE in a minute it gets 429 with Retry-After and the reason,
    while another client is still answered."""
    game = new_game("polled", players=2)
    head = f"/games/{game.pk}/head.json"
    flood = browser(server, client_ip=random_client_ip())
    answers = [flood.get(head) for _ in range(2 * HEAD_POLLS + 1)]  # two minutes' worth at most

    statuses = [a.status for a in answers]
    assert 429 in statuses and set(statuses) == {200, 429}, statuses
    first = statuses.index(429)
    assert HEAD_POLLS <= first <= 2 * HEAD_POLLS  # a new minute may have begun meanwhile
    refused = answers[first]
    assert 1 <= int(refused.header("Retry-After")) <= 60
    assert json.loads(refused.text)["error"].startswith("This page was asked for too often")
    assert browser(server, client_ip=random_client_ip()).get(head).status == 200


def test_a_pages_viewer_token_answers_its_head_and_nothing_else(server):
    """The token a player's game page carries names them to the page's head with no cookie (the
    production server's secret signs it), and to no page: sent alone to the game page, it is a
    visitor's page; altered, the head answers as to a visitor."""
    game = new_game("viewer-token", players=2)
    mover = seat_of(game, rules.pending(store.load(game)[0])[0].seat)
    page = signed_in(server, mover.user).get(f"/games/{game.pk}/")
    token = re.search(r'data-live-viewer="([^"]+)"', page.text).group(1)
    head = f"/games/{game.pk}/head.json"
    stranger = browser(server, client_ip=random_client_ip())
    assert json.loads(stranger.get(head, **{"X-Inis-Viewer": token}).text)["your_turn"] is True
    assert (
        json.loads(
            stranger.get(head, **{"X-Inis-Viewer": token[:-1] + ("x" if token[-1] != "x" else "y")}).text
        )["your_turn"]
        is False
    )
    shown = stranger.get(f"/games/{game.pk}/", **{"X-Inis-Viewer": token}).text
    assert "Your decision" not in shown and "data-live-viewer" not in shown


# --- Production-only pages --------------------------------------------------------------------


def test_the_development_mailbox_is_not_served(server):
    for page in ("/dev/mailbox/", "/dev/mailbox/1/"):
        assert browser(server).get(page).status == 404, page


def test_the_inbound_webhook_refuses_posts_without_its_credentials_and_stores_nothing(server):
    """A forged inbound email posted to the provider's webhook with no credentials, or wrong
    ones: refused (anymail answers 400, as to any request that fails its checks), nothing
    stored. The same post with the webhook's credentials is stored: the refusal is the
    credentials'."""
    payload = {
        "FromFull": {"Email": f"mallory-{RUN}@example.net", "Name": ""},
        "ToFull": [{"Email": f"inis@{HOST}", "Name": "", "MailboxHash": ""}],
        "CcFull": [],
        "BccFull": [],
        "Subject": "Re: Your move",
        "MessageID": f"live-{RUN}",
        "Date": "Mon, 23 Nov 2026 16:19:00 +0000",
        "TextBody": "pass",
        "HtmlBody": "",
        "Headers": [{"Name": "Message-ID", "Value": f"<live-{RUN}@example.net>"}],
        "Attachments": [],
    }
    body = json.dumps(payload).encode()
    visitor = browser(server)

    def post(authorization=None):
        headers = {"Authorization": authorization} if authorization else {}
        return visitor.post(
            "/anymail/postmark/inbound/", body=body, content_type="application/json", **headers
        )

    wrong = "Basic " + base64.b64encode(b"inbound:not-the-secret-at-all").decode()
    for authorization in (None, wrong):
        assert post(authorization).status in (400, 401, 403), authorization
    assert InboundEmail.objects.count() == 0

    right = "Basic " + base64.b64encode(SAFE_ENV["ANYMAIL_WEBHOOK_SECRET"].encode()).decode()
    assert post(right).status == 200
    assert InboundEmail.objects.count() == 1


# --- Malformed input --------------------------------------------------------------------------


def test_a_nul_in_a_seat_token_is_a_400_with_a_message(server):
    game = new_game("nul")
    visitor = browser(server)
    for token in ("%00", "abc%00def", quote(seat_of(game, "green").token) + "%00"):
        for page in (f"/games/{game.pk}/seat/{token}/", f"/games/{game.pk}/seat/{token}/history/"):
            answer = visitor.get(page)
            assert answer.status == 400, (page, answer.status)
            assert "This link is damaged" in answer.text, page


def test_deeply_nested_json_and_an_oversized_decision_are_refused_with_a_message(server):
    """The seat to decide posts, through the page's form with its CSRF token: deeply nested
    JSON as its choice (400), then its legal command with 70 KB more beside it (413). Each
    answer is the game page with a message; nothing is written."""
    game = new_game("input")
    seat, command, seq = the_move(game)
    player = signed_in(server, seat.user)
    before = written(game)
    base = {"seat": seat.colour, "expected_seq": seq}

    depth = 5_000  # five times Python's recursion limit; URL-encoded, 30 KB: under the size cap
    nested = "[" * depth + "]" * depth
    for choice in (nested, json.dumps(command)[:-1] + ', "x": ' + nested + "}"):
        answer = decide(player, game, {**base, "nonce": uuid.uuid4().hex, "choice": choice})
        assert answer.status == 400, answer.status
        assert 'role="alert">That choice is not a command.<' in answer.text

    oversized = decide(
        player,
        game,
        {**base, "nonce": uuid.uuid4().hex, "choice": json.dumps(command), "padding": "x" * 70_000},
    )
    assert oversized.status == 413, oversized.status
    assert "far larger than any decision" in oversized.text
    assert written(game) == before


# --- Transport and cookies --------------------------------------------------------------------


def test_security_headers_and_cookies(server):
    """Every answer carries HSTS for a year, nosniff, no framing, a same-origin referrer and a
    Content-Security-Policy that runs only the site's own script files; the CSRF and session
    cookies are Secure (the session's HttpOnly too); plain http is redirected to https; a
    request for another host name is refused."""
    visitor = browser(server)
    for answer in (visitor.get("/"), visitor.get("/signin/"), visitor.get("/no/such/page/")):
        hsts = answer.header("Strict-Transport-Security") or ""
        assert int(re.search(r"max-age=(\d+)", hsts).group(1)) >= YEAR, hsts
        assert answer.header("X-Content-Type-Options") == "nosniff"
        framing = (answer.header("X-Frame-Options") or "").upper()
        assert framing == "DENY" or "frame-ancestors 'none'" in (
            answer.header("Content-Security-Policy") or ""
        )
        assert answer.header("Referrer-Policy") == "same-origin"
        # Scripts only from the site's own files: no inline script, no other site's.
        policy = dict(
            (part.split(" ", 1) + [""])[:2]
            for part in (answer.header("Content-Security-Policy") or "").split("; ")
        )
        assert policy.get("script-src") == "'self'" and policy.get("object-src") == "'none'", policy

    csrf = [c for c in visitor.set_cookies if c.startswith("csrftoken=")]
    assert csrf and all("secure" in c.lower() for c in csrf)

    game = new_game("cookies")
    player = signed_in(server, seat_of(game, "green").user)
    session = [c for c in player.set_cookies if c.startswith("sessionid=")]
    assert session and all("secure" in c.lower() and "httponly" in c.lower() for c in session)

    plain = browser(server, https=False).get("/signin/")
    assert plain.status == 301 and plain.header("Location") == f"{SITE_URL}/signin/"
    assert browser(server).get("/signin/", Host="evil.example").status == 400


# --- Markup -----------------------------------------------------------------------------------


MARKUP = "<script>alert(1)</script>"


def test_markup_from_a_player_is_escaped_in_pages(server):
    """An email address that holds markup (valid: a quoted local part), typed in the sign-in
    form and as an invited player's address: the pages show it as text, never as markup."""
    address = f'"{MARKUP}{RUN}"@example.org'
    visitor = browser(server)
    sent = visitor.post("/signin/", {"email": address}, csrf_from="/signin/")
    assert sent.status == 200, sent.text[:2000]
    assert MARKUP not in sent.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in sent.text

    host = signed_in(server, seat_of(new_game("markup", players=2), "green").user)
    proposed = host.post(
        "/new/",
        {
            "host_plays": "on",
            "player_1": address,
            "bots": "0",
            "setup": "random",
            "deadlines": "normal",
            "reaction_mode": "holders",
        },
        csrf_from="/new/",
    )
    assert proposed.status == 302, proposed.text[:3000]
    page = host.get(proposed.header("Location"))
    assert page.status == 200
    assert MARKUP not in page.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
