"""Live pages (web/live.py): the heads a page's script asks, what they may say, what they cost;
and what the game page shows besides: the victory track, the game-over page, the clash panel,
the legend, step controls in words."""

from __future__ import annotations

import re
import time

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from games import rules, store
from games.services import submit_command
from lobby import live as lobby_live
from lobby.models import Invitation, Proposal
from players import at_the_table
from tests.geis_window import game_at_geis_position, play_new_clans
from web import head_viewer, live, page_cache

pytestmark = pytest.mark.django_db


def head(client, game, **params):
    response = client.get(reverse("games:head", args=[game.pk]), params)
    assert response.status_code == 200, response.content
    assert response["Cache-Control"].startswith("max-age=0") or "no-cache" in response["Cache-Control"]
    return response.json()


def seat_to_move(game):
    state, seq = store.load(game)
    return game.seats.get(colour=rules.pending(state)[0].seat), seq


def test_the_game_head_follows_the_log_and_says_your_turn_only_to_the_seat_asked(client, make_game):
    game = make_game(n_players=2, seed="live")
    mover, seq = seat_to_move(game)
    other = game.seats.exclude(pk=mover.pk).get()
    assert head(client, game) == {"version": f"{seq}.0", "seq": seq, "your_turn": False}  # a visitor
    client.force_login(mover.user)
    assert head(client, game)["your_turn"] is True
    client.force_login(other.user)
    assert head(client, game)["your_turn"] is False

    # The page carries the same version: its script sees no change until the game moves.
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'data-live-version="{seq}.0"' in page
    state, _ = store.load(game)
    result = submit_command(
        game=game, seat=mover, command=rules.legal_commands(state, mover.colour)[0], expected_seq=seq
    )
    assert result.accepted, result.message
    moved = head(client, game)
    assert moved["seq"] == store.head(game)[0] > seq and moved["version"] != f"{seq}.0"


def test_a_page_waiting_for_the_viewer_is_titled_your_turn(client, make_game):
    game = make_game(n_players=2, seed="live-title")
    mover, _seq = seat_to_move(game)
    other = game.seats.exclude(pk=mover.pk).get()
    client.force_login(mover.user)
    assert "<title>Your turn — Game" in client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "<title>Your turn — My games" in client.get(reverse("lobby:home")).content.decode()
    client.force_login(other.user)
    assert "Your turn" not in client.get(reverse("games:detail", args=[game.pk])).content.decode()


def _tokens_blanked(html: str) -> str:
    """`html` with each request's own CSRF token, form nonce and viewer's token blanked (fresh
    on every answer)."""
    html = re.sub(r'data-live-viewer="[^"]*"', 'data-live-viewer=""', html)
    return re.sub(r'name="(csrfmiddlewaretoken|nonce)" value="[^"]*"', r'name="\1" value=""', html)


def test_the_live_part_alone_is_what_the_page_shows_there_with_its_title(client, make_game):
    """What live.js fetches when the game moves on (`?part=live`): the same live part as the
    viewer's whole page, titled as the page is, and nothing around it."""
    game = make_game(n_players=2, seed="live-part")
    mover, seq = seat_to_move(game)
    other = game.seats.exclude(pk=mover.pk).get()
    address = reverse("games:detail", args=[game.pk]) + "?part=live"
    client.force_login(mover.user)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'data-live-part="{address}"' in page
    part = client.get(address).content.decode()
    assert "<title>Your turn — Game" in part and 'id="decision"' in part
    body = part.split("<body>", 1)[1].rsplit("</body>", 1)[0]
    assert body.lstrip().startswith('<div id="live"') and _tokens_blanked(body) in _tokens_blanked(page)
    assert 'id="talk"' in page and 'id="talk"' not in part  # the table talk stays as typed

    client.force_login(other.user)
    theirs = client.get(address).content.decode()
    assert "Your turn" not in theirs and 'id="decision"' not in theirs
    assert theirs.split("<body>", 1)[1].lstrip().startswith('<div id="live"')
    state, _ = store.load(game)
    moved = submit_command(
        game=game, seat=mover, command=rules.legal_commands(state, mover.colour)[0], expected_seq=seq
    )
    assert moved.accepted, moved.message
    assert f'data-live-version="{seq}.0"' not in client.get(address).content.decode()


def test_a_head_costs_one_query(make_game, django_assert_num_queries):
    game = make_game(n_players=2, seed="live-cost")
    mover, seq = seat_to_move(game)
    user = mover.user
    with django_assert_num_queries(1):
        values = live.game_head_values(game_id=game.pk, user=user)
    assert values == {"seq": seq, "table_seq": 0, "your_turn": True}
    with django_assert_num_queries(1):
        version, waiting = lobby_live.home_version(user.pk)
    assert waiting == 1 and version


def test_a_host_act_changes_the_version(client, make_game):
    from games.play import table

    game = make_game(n_players=2, seed="live-pause")
    before = head(client, game)["version"]
    table.game_pause(game=game)
    assert head(client, game)["version"] != before


def test_no_such_game_has_no_head(client):
    assert client.get(reverse("games:head", args=[999999])).status_code == 404


# -- who a Triskel window asked stays hidden ---------------------------------------------------


# The cards the other opponents hold: none answers New Clans.
GEIS_FILLERS = ("act_bard", "act_druid", "act_warlord")


def test_the_head_never_tells_who_a_triskel_window_asked(make_game):
    """Two games differing only in who holds Geis: every other seat's and a spectator's head
    reads the same; only the asked seat hears "your turn"."""
    heads = {}
    for holder in ("blue", "orange"):
        game = game_at_geis_position(
            holder, seed="live-geis", email=f"{{colour}}-{holder}@example.org", fillers=GEIS_FILLERS
        )
        play_new_clans(game)
        assert [d.seat for d in rules.pending(store.load(game)[0])] == [holder]
        seen = {}
        for colour in ("green", "blue", "orange", "white", None):
            client = Client()
            if colour:
                client.force_login(game.seats.get(colour=colour).user)
            seen[colour] = head(client, game)
        heads[holder] = seen
    assert heads["blue"]["blue"]["your_turn"] and heads["orange"]["orange"]["your_turn"]
    for viewer in ("green", "white", None):
        # Each signed-in head names its own viewer anew (web.head_viewer): the rest reads the same.
        said = [
            {k: v for k, v in heads[holder][viewer].items() if k != "viewer"} for holder in ("blue", "orange")
        ]
        assert said[0] == said[1], viewer
        assert heads["blue"][viewer]["your_turn"] is False


# -- the viewer's token: a head that reads no session -------------------------------------------


def _viewer_token(page: str) -> str:
    found = re.search(r'data-live-viewer="([^"]*)"', page)
    assert found and found.group(1), "the page names no viewer to its head"
    return found.group(1)


def _head_with(game, token: str, client=None) -> dict:
    """What the page's script hears from the head when it sends `token` (static/live.js)."""
    client = client or Client()
    response = client.get(reverse("games:head", args=[game.pk]), headers={head_viewer.HEADER: token})
    assert response.status_code == 200, response.content
    return response.json()


def test_a_players_page_names_them_to_its_head_which_then_reads_no_session(
    make_game, django_assert_num_queries
):
    """The player's page carries a token naming them; sent with the head (no cookie at all), the
    head knows it is their turn and marks them at the table, in its one query: no session, no
    user read."""
    game = make_game(n_players=2, seed="live-viewer")
    mover, seq = seat_to_move(game)
    player = Client()
    player.force_login(mover.user)
    token = _viewer_token(player.get(reverse("games:detail", args=[game.pk])).content.decode())
    assert not at_the_table.at_the_table(game.pk, mover.user_id)
    with django_assert_num_queries(1):
        answer = _head_with(game, token)
    assert answer == {"version": f"{seq}.0", "seq": seq, "your_turn": True}
    assert at_the_table.at_the_table(game.pk, mover.user_id)
    # The live part the script fetches after a move names them again, with a token of its own.
    assert _viewer_token(player.get(reverse("games:detail", args=[game.pk]) + "?part=live").content.decode())


def test_a_forged_altered_or_foreign_token_names_nobody(make_game):
    """A head whose token is not one the site issued for this use reads the viewer as any
    request does: without a session, a visitor (not their turn, not at the table, no token)."""
    game = make_game(n_players=2, seed="live-viewer-forged")
    mover, _seq = seat_to_move(game)
    good = head_viewer.issue(mover.user_id)
    value, stamp, mac = good.split(":")
    forged = [
        f"{mover.user_id}:{stamp}:{'A' * len(mac)}",  # made up
        f"{mover.user_id + 1}:{stamp}:{mac}",  # another account's number on a good signature
        good[:-1] + ("B" if good[-1] != "B" else "C"),  # altered
        signing.TimestampSigner(salt="players.seat_links").sign(str(mover.user_id)),  # another use's
        signing.TimestampSigner().sign(str(mover.user_id)),
        "",
    ]
    for token in forged:
        answer = _head_with(game, token)
        assert answer["your_turn"] is False and "viewer" not in answer, token
    assert not at_the_table.at_the_table(game.pk, mover.user_id)
    assert _head_with(game, good)["your_turn"] is True


def test_an_old_token_names_nobody_and_a_signed_in_head_gives_a_fresh_one(make_game, settings, monkeypatch):
    """A token older than HEAD_VIEWER_SECONDS names nobody: a page whose player signed out (its
    token still sent) answers as a visitor's within that time. Signed in, the head reads the
    session instead and gives the page a fresh token, which then names the player."""
    settings.HEAD_VIEWER_SECONDS = 300
    game = make_game(n_players=2, seed="live-viewer-old")
    mover, _seq = seat_to_move(game)
    issued_at = time.time() - 301
    with monkeypatch.context() as then:
        then.setattr(signing.time, "time", lambda: issued_at)
        old = head_viewer.issue(mover.user_id)
    answer = _head_with(game, old)
    assert answer["your_turn"] is False and "viewer" not in answer
    assert not at_the_table.at_the_table(game.pk, mover.user_id)

    player = Client()
    player.force_login(mover.user)
    renewed = _head_with(game, old, client=player)
    assert renewed["your_turn"] is True and renewed["viewer"] != old
    assert _head_with(game, renewed["viewer"])["your_turn"] is True
    assert "viewer" not in _head_with(game, renewed["viewer"], client=player)  # still good: not renewed


def test_a_visitors_and_a_spectators_shared_part_name_no_viewer(make_game):
    """Only a signed-in reader's page carries a token, filled for each request, never kept: a
    visitor's page and the part every spectator shares name nobody."""
    game = make_game(n_players=2, seed="live-viewer-visitor")
    visitor_page = Client().get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "data-live-viewer" not in visitor_page
    shared = re.search(r'data-live-public="([^"]+)"', visitor_page).group(1)
    version = re.search(r'data-live-version="([^"]+)"', visitor_page).group(1)
    assert "data-live-viewer" not in Client().get(f"{shared}?v={version}").content.decode()
    assert page_cache.VIEWER_PLACEHOLDER not in visitor_page
    for seat in game.seats.all():  # each player's page, kept in the page cache, names its own reader
        client = Client()
        client.force_login(seat.user)
        for _again in range(2):
            page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
            assert head_viewer.viewer_id(_request_with(_viewer_token(page))) == seat.user_id


def test_my_games_and_a_gathering_table_name_their_viewer_to_their_heads(
    make_game, django_assert_num_queries
):
    """ "My games" and a game being gathered carry the same token: with it and no cookie, "My
    games"' head answers the player's games in its one query, and a table's head answers its
    host; without a good one, as a visitor: 403."""
    game = make_game(n_players=2, seed="live-viewer-home")
    mover, _seq = seat_to_move(game)
    player = Client()
    player.force_login(mover.user)
    token = _viewer_token(player.get(reverse("lobby:home")).content.decode())
    home = reverse("games:home_head")
    with django_assert_num_queries(1):
        answer = Client().get(home, headers={head_viewer.HEADER: token}).json()
    assert answer["your_turn"] is True and answer["waiting"] == 1 and "viewer" not in answer
    assert answer["version"] == player.get(home).json()["version"]
    assert Client().get(home, headers={head_viewer.HEADER: token[:-1] + "!"}).status_code == 403

    proposal = Proposal.objects.create(host=mover.user)
    Invitation.objects.create(proposal=proposal, email="guest@example.org", position=1)
    page = player.get(reverse("lobby:proposal", args=[proposal.pk])).content.decode()
    head = reverse("games:proposal_head", args=[proposal.pk])
    assert Client().get(head, headers={head_viewer.HEADER: _viewer_token(page)}).status_code == 200
    stranger = head_viewer.issue(game.seats.exclude(pk=mover.pk).get().user_id)
    assert Client().get(head, headers={head_viewer.HEADER: stranger}).status_code == 403
    assert Client().get(head).status_code == 403


def _request_with(token: str):
    from django.test import RequestFactory

    return RequestFactory().get("/", headers={head_viewer.HEADER: token})


# -- My games and the lobby --------------------------------------------------------------------


def test_my_games_head_is_for_signed_in_players_and_moves_with_their_games(client, make_game):
    game = make_game(n_players=2, seed="live-home")
    mover, seq = seat_to_move(game)
    url = reverse("games:home_head")
    assert client.get(url).status_code == 403
    client.force_login(mover.user)
    first = client.get(url).json()
    assert first["your_turn"] is True and first["waiting"] == 1
    assert f'data-live-version="{first["version"]}"' in client.get(reverse("lobby:home")).content.decode()
    state, _ = store.load(game)
    submit_command(
        game=game, seat=mover, command=rules.legal_commands(state, mover.colour)[0], expected_seq=seq
    )
    assert client.get(url).json()["version"] != first["version"]


def test_my_games_head_moves_with_host_acts_invitations_and_answers(client, make_game):
    from games.play import table
    from lobby import services
    from players.accounts import user_for_email

    game = make_game(n_players=2, seed="live-home-lobby")
    mover, _seq = seat_to_move(game)
    url = reverse("games:home_head")
    client.force_login(mover.user)
    versions = [client.get(url).json()["version"]]
    table.game_pause(game=game)  # a host act in one of their games
    versions.append(client.get(url).json()["version"])
    host = user_for_email("host-of-a-proposal@example.org")
    proposal = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email=mover.user.email), services.PlaceSpec(is_bot=True)],
        host_plays=True,
        setup="random",
        deadlines={},
        reaction_mode="quick",
    )
    versions.append(client.get(url).json()["version"])  # an invitation to them
    client.force_login(host)
    hosts = [client.get(url).json()["version"]]
    services.invitation_answer(
        invitation=proposal.invitations.get(user=mover.user), user=mover.user, accept=False
    )
    hosts.append(client.get(url).json()["version"])  # an answer to the host's proposal
    assert len(set(versions)) == 3 and len(set(hosts)) == 2


def test_the_proposal_head_is_for_its_host_and_the_invited_and_moves_with_the_answers(client):
    from lobby import services
    from players.accounts import user_for_email

    host, friend, stranger = (user_for_email(f"{n}@example.org") for n in ("host", "friend", "stranger"))
    proposal = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="friend@example.org"), services.PlaceSpec(is_bot=True)],
        host_plays=True,
        setup="random",
        deadlines={},
        reaction_mode="quick",
    )
    url = reverse("games:proposal_head", args=[proposal.pk])
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    client.force_login(host)
    before = client.get(url).json()["version"]
    assert (
        f'data-live-version="{before}"'
        in client.get(reverse("lobby:proposal", args=[proposal.pk])).content.decode()
    )
    invitation = proposal.invitations.get(user=friend)
    services.invitation_answer(invitation=invitation, user=friend, accept=False)
    client.force_login(friend)
    assert client.get(url).json()["version"] != before


def test_the_script_is_served_by_the_app_and_revalidated(client):
    response = client.get(reverse("games:live_script"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert b"data-live-head" in response.content
    again = client.get(reverse("games:live_script"), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    page = client.get(reverse("lobby:sign_in")).content.decode()
    assert f'<script src="{reverse("games:live_script")}" defer>' in page


# --- Rate limit ------------------------------------------------------------------------------


@pytest.fixture
def frozen_minute(monkeypatch):
    """The rate limits' clock stopped in the middle of a minute: a test's polls all fall in one
    window, however long the test takes."""
    import time as real_time
    from types import SimpleNamespace

    from web import rate_limits

    now = (real_time.time() // 60) * 60 + 30.25
    monkeypatch.setattr(rate_limits, "time", SimpleNamespace(time=lambda: now))
    return now


def test_three_hundred_polls_from_one_client_are_not_all_answered(make_game, settings, frozen_minute):
    game = make_game(n_players=2, seed="live-flood")
    flood = Client(REMOTE_ADDR="10.20.30.40")

    statuses = [flood.get(reverse("games:head", args=[game.pk])).status_code for _ in range(300)]

    limit = settings.HEAD_POLLS_PER_CLIENT_PER_MINUTE
    assert statuses == [200] * limit + [429] * (300 - limit)


def test_a_refused_poll_says_when_to_ask_again_and_other_clients_are_still_answered(
    make_game, settings, frozen_minute
):
    settings.HEAD_POLLS_PER_CLIENT_PER_MINUTE = 5
    game = make_game(n_players=2, seed="live-limit")
    url = reverse("games:head", args=[game.pk])
    flood = Client(REMOTE_ADDR="10.20.30.41")
    for _ in range(5):
        assert flood.get(url).status_code == 200

    refused = flood.get(url)

    assert refused.status_code == 429
    assert refused["Retry-After"] == "30"  # the rest of the minute
    assert "no-cache" in refused["Cache-Control"]
    # Every head of the live pages counts against the same allowance of the client.
    flood.force_login(game.seats.get(colour="green").user)
    assert flood.get(reverse("games:home_head")).status_code == 429
    assert Client(REMOTE_ADDR="10.20.30.42").get(url).status_code == 200


def test_the_limit_is_far_above_what_a_players_open_pages_ask(settings):
    """live.js asks every POLL_MS (4 seconds) in view: 15 heads a minute per page. The default
    answers eight pages in view from one address (or a household behind one) with room to spare."""
    per_page = 60_000 // live.POLL_MS
    assert 8 * per_page <= settings.HEAD_POLLS_PER_CLIENT_PER_MINUTE
    assert "var every = %d;" % live.POLL_MS in live.SCRIPT.decode()


def test_another_players_season_turn_is_named_for_the_reader_not_told_to_them(client, make_game):
    """The "Waiting" panel names whom the game waits for and what they decide: under another
    player's name it says "their Season turn", never the rules' prompt that speaks to that
    player ("Your turn in the Season: ..."); a French reader reads "son tour de Saison"."""
    import random

    from games import bots

    game = make_game(n_players=3, seed="waiting-words")
    state, seq = store.load(game)
    while not any(d.kind == "season_turn" for d in rules.pending(state)):
        decision = rules.pending(state)[0]
        command = bots.choose(state, decision.seat, "random", random.Random(seq))
        submit_command(
            game=game, seat=game.seats.get(colour=decision.seat), command=command, expected_seq=seq
        )
        state, seq = store.load(game)
    mover = rules.pending(state)[0].seat
    other = game.seats.exclude(colour=mover).first()
    client.force_login(other.user)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    waiting = page[page.index('id="waiting"') :]
    waiting = waiting[: waiting.index("</section>")]
    assert "their Season turn" in waiting and "Your turn" not in waiting
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"  # the signed-in player's choice
    french = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "son tour de Saison" in french
