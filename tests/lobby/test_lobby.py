"""lobby: sign-in by emailed link, proposing a game, invitations answered, the game starting when
every seat is taken, "my games" with those waiting for me first."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import rules, store
from games.models import Game
from lobby import services
from lobby.models import Invitation, Proposal
from players.accounts import sign_in_link, user_for_email
from players.models import Player
from players.preferences import set_display_name
from tests.moments import in_words, text_of

# Real commits: invitations and "game started" emails are sent after the commit (on_commit).
pytestmark = pytest.mark.django_db(transaction=True)


def link_in(message) -> str:
    """The path and query of the first link to this site in an email's text part."""
    url = re.search(r"http://127\.0\.0\.1:8000(/\S*)", message.body).group(1)
    return url


@pytest.fixture
def host(transactional_db):
    return user_for_email("host@example.org")


def propose(host, *emails, bots=0, **kw):
    places = [services.PlaceSpec(email=e) for e in emails] + [services.PlaceSpec(is_bot=True)] * bots
    kw.setdefault("setup", "discovery")
    kw.setdefault("deadlines", {"default": 24, "reaction": 6})
    kw.setdefault("reaction_mode", "holders")
    return services.proposal_create(host=host, places=places, host_plays=True, **kw)


def test_a_sign_in_link_signs_in_without_a_password(client, db):
    response = client.post(reverse("lobby:sign_in"), {"email": "New.Player@Example.org"})
    assert response.status_code == 200 and "on its way" in response.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["new.player@example.org"]
    assert client.get(reverse("lobby:home")).content.decode().count("Sign in") >= 1
    landing = client.get(link_in(mail.outbox[0]))
    assert landing.status_code == 302 and "sesame" not in landing.url
    home = client.get(landing.url).content.decode()
    assert "My games" in home and "new.player@example.org" in home


def test_a_forged_or_tampered_link_signs_nobody_in(client, db):
    client.post(reverse("lobby:sign_in"), {"email": "someone@example.org"})
    path = link_in(mail.outbox[0])
    tampered = path[:-3] + ("AAA" if not path.endswith("AAA") else "BBB")
    client.get(tampered)
    assert "My games" not in client.get(reverse("lobby:home")).content.decode()


def test_invited_players_accept_and_the_game_starts_when_every_seat_is_taken(client, host):
    proposal = propose(host, "ann@example.org", "bob@example.org", bots=1)
    assert proposal.status == Proposal.Status.OPEN and proposal.game is None
    invited = {m.to[0]: m for m in mail.outbox}
    assert set(invited) == {"ann@example.org", "bob@example.org"}
    # Ann follows her emailed link (her invitation's page, nobody signed in) and accepts there.
    page = client.get(link_in(invited["ann@example.org"]))
    assert page.status_code == 200 and "You are invited" in page.content.decode()
    client.post(link_in(invited["ann@example.org"]), {"action": "accept"})
    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.OPEN
    mail.outbox.clear()
    bob = user_for_email("bob@example.org")
    services.invitation_answer(invitation=proposal.invitations.get(user=bob), user=bob, accept=True)
    proposal.refresh_from_db()
    game = proposal.game
    assert proposal.status == Proposal.Status.STARTED and game is not None
    assert [(s.colour, s.email, s.is_bot) for s in game.seats.order_by("position")] == [
        ("green", "host@example.org", False),
        ("blue", "ann@example.org", False),
        ("orange", "bob@example.org", False),
        ("white", "", True),
    ]
    assert game.host == host and game.setup == "discovery"
    assert (
        game.options["deadlines"] == {"default": 24, "reaction": 6}
        and game.options["reaction_mode"] == "holders" == game.options["reactions"]
    )
    started = [m for m in mail.outbox if m.subject.startswith("Game started: ")]
    assert sorted(m.to[0] for m in started) == ["ann@example.org", "bob@example.org", "host@example.org"]


def test_a_declined_seat_can_be_given_to_somebody_else_or_a_bot(client, host):
    proposal = propose(host, "ann@example.org")
    ann = user_for_email("ann@example.org")
    services.invitation_answer(invitation=proposal.invitations.get(user=ann), user=ann, accept=False)
    assert any("declined" in m.subject and m.to == ["host@example.org"] for m in mail.outbox)
    with pytest.raises(services.LobbyError):
        services.invitation_answer(invitation=proposal.invitations.get(user=ann), user=ann, accept=True)
    client.force_login(host)
    client.post(reverse("lobby:proposal", args=[proposal.pk]), {"action": "bot", "position": "1"})
    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.STARTED
    assert proposal.game.seats.get(colour="blue").is_bot


def test_only_the_invited_and_the_host_see_a_proposal_and_nobody_answers_for_another(client, host):
    proposal = propose(host, "ann@example.org", "bob@example.org")
    client.force_login(user_for_email("eve@example.org"))
    assert client.get(reverse("lobby:proposal", args=[proposal.pk])).status_code == 403
    assert client.post(reverse("lobby:proposal", args=[proposal.pk]), {"action": "accept"}).status_code == 403
    ann = user_for_email("ann@example.org")
    bob_invitation = proposal.invitations.get(email="bob@example.org")
    with pytest.raises(services.LobbyError):
        services.invitation_answer(invitation=bob_invitation, user=ann, accept=True)
    client.force_login(ann)
    client.post(reverse("lobby:proposal", args=[proposal.pk]), {"action": "bot", "position": "2"})
    assert proposal.invitations.get(position=2).status == Invitation.Status.PENDING


def test_the_new_game_form_checks_the_seats(client, host):
    client.force_login(host)
    alone = client.post(
        reverse("lobby:new"),
        {
            "host_plays": "on",
            "bots": "0",
            "setup": "random",
            "deadlines": "normal",
            "reaction_mode": "holders",
        },
    )
    assert alone.status_code == 400 and "2 to 4 players" in alone.content.decode()
    twice = client.post(
        reverse("lobby:new"),
        {
            "host_plays": "on",
            "player_1": "host@example.org",
            "bots": "0",
            "setup": "random",
            "deadlines": "normal",
            "reaction_mode": "holders",
        },
    )
    assert twice.status_code == 400 and "only one seat" in twice.content.decode()
    assert not Proposal.objects.exists()


def test_a_game_of_the_host_and_bots_starts_at_once_with_quick_reactions(client, host):
    client.force_login(host)
    response = client.post(
        reverse("lobby:new"),
        {"host_plays": "on", "bots": "2", "setup": "random", "deadlines": "brisk", "reaction_mode": "quick"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == reverse("games:detail", args=[game.pk])
    assert game.options["deadlines"] == {"default": 24, "reaction": 6}
    state, _ = store.load(game)
    assert state.policies["green"] == {"all": "never"}  # quick: never asked about Triskel cards


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_new_table_speaks_its_hosts_language_unless_told_otherwise(client, host, language):
    """The form offers the page's language as the table's; a table proposed without one (an old
    form, a script) speaks the host's page language too, not English whatever the host reads."""
    from django.conf import settings

    client.force_login(host)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("lobby:new")).content.decode()
    assert f'<option value="{language}" selected>' in page
    invite = {"host_plays": "on", "player_1": "ann@example.org", "bots": "0", "setup": "random"}
    client.post(reverse("lobby:new"), {**invite, "deadlines": "normal", "reaction_mode": "holders"})
    assert Proposal.objects.get().language == language


@pytest.mark.parametrize("level", ["easy", "random", None])
def test_the_host_chooses_how_the_bots_play(client, host, level):
    """The new-game form offers the bots' levels (issue: random, easy, hard); the game's bot
    seats play at the chosen one, hard when the form leaves it out."""
    client.force_login(host)
    page = client.get(reverse("lobby:new")).content.decode()
    assert 'name="bot_level"' in page and "Hard: plays to win" in page
    form = {
        "host_plays": "on",
        "bots": "2",
        "setup": "random",
        "deadlines": "brisk",
        "reaction_mode": "holders",
    }
    if level:
        form["bot_level"] = level
    client.post(reverse("lobby:new"), form)
    game = Game.objects.get()
    assert [(s.is_bot, s.bot_level) for s in game.seats.all()][1:] == [(True, level or "hard")] * 2


def test_each_bot_level_is_named_with_the_rating_the_arena_measured(client, host, tmp_path, monkeypatch):
    """The lobby names each level with its figure on the players' scale, read from the file the
    bots' arena writes (`python -m bench.bots --arena`); a level the arena has not rated is
    named without one. In French too."""
    from games.bots import ratings

    measured = tmp_path / "ratings.json"
    measured.write_text(
        '{"levels": {"hard": {"rating": 412}, "easy": {"rating": 187}, "strong": {"rating": 398}}}'
    )
    monkeypatch.setattr(ratings, "RATINGS_FILE", measured)
    client.force_login(host)
    page = client.get(reverse("lobby:new")).content.decode()
    assert "Hard: plays to win, thinking several moves ahead (rated 412)" in page
    assert "Easy: looks one move ahead (rated 187)" in page
    assert "Beginner: any move the rules allow, at random" in page
    assert "at random (rated" not in page
    # The best rated first, whatever its name: here "hard" above "strong"; the unrated last.
    order = [page.index(name) for name in ("(rated 412)", "(rated 398)", "(rated 187)", "at random")]
    assert order == sorted(order)
    page = client.get(reverse("lobby:new"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "(cote 412)" in page


def test_an_unknown_bot_level_is_refused_with_the_choices(client, host):
    client.force_login(host)
    response = client.post(
        reverse("lobby:new"),
        {
            "host_plays": "on",
            "bots": "1",
            "setup": "random",
            "deadlines": "brisk",
            "reaction_mode": "holders",
            "bot_level": "genius",
        },
    )
    assert response.status_code == 400 and not Game.objects.exists()
    assert "genius is not one of the available choices" in response.content.decode()


@pytest.mark.parametrize("chosen", [True, False])
def test_the_host_chooses_whether_private_talk_is_made_public_after_the_end(client, host, chosen):
    """The new-game form's "Private table talk" option is the game's table option
    `press_public_after_end` (docs/press.md, docs/game-options.md), off unless the host ticks it."""
    from press.selectors import public_after_end

    client.force_login(host)
    assert 'name="press_public_after_end"' in client.get(reverse("lobby:new")).content.decode()
    form = {
        "host_plays": "on",
        "bots": "1",
        "setup": "random",
        "deadlines": "normal",
        "reaction_mode": "holders",
    }
    client.post(reverse("lobby:new"), {**form, **({"press_public_after_end": "on"} if chosen else {})})
    game = Game.objects.get()
    assert game.options["press_public_after_end"] is chosen and public_after_end(game) is chosen


def test_my_games_lists_the_ones_waiting_for_me_first(client, make_game, play):
    waiting = make_game(seed="mine-a", n_players=2)
    other = make_game(seed="mine-b", n_players=2)  # the same two players (same emails)
    state, _ = store.load(waiting)
    colour = rules.pending(state)[0].seat
    me = waiting.seats.get(colour=colour).user
    play(other, 60, until=lambda s: all(d.seat != colour for d in rules.pending(s)))
    client.force_login(me)
    body = client.get(reverse("lobby:home")).content.decode()
    assert body.index(f'data-game="{waiting.pk}"') < body.index(f'data-game="{other.pk}"')
    mine = body[body.index(f'data-game="{waiting.pk}"') : body.index(f'data-game="{other.pk}"')]
    assert "Waiting for you" in mine


def test_one_unreadable_game_does_not_hide_the_others_in_my_games(
    client, make_game, clash_position, monkeypatch
):
    """A game whose log cannot be read (here: its described position, as when a process lacked
    that event's rules) is listed as such; the page still shows the player's other games."""
    from games.rules.engine import EVOLVERS

    readable = make_game(seed="mine-ok", n_players=2)
    broken = make_game(seed="mine-broken", n_players=2, setup=clash_position)
    me = broken.seats.get(colour="green").user
    assert readable.seats.filter(user=me).exists()
    monkeypatch.delitem(EVOLVERS, "PositionDescribed")
    client.force_login(me)
    response = client.get(reverse("lobby:home"))
    assert response.status_code == 200
    body = response.content.decode()
    row = body[body.index(f'data-game="{broken.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "cannot be shown right now" in row
    assert "PositionDescribed" not in body and "event #" not in body
    row = body[body.index(f'data-game="{readable.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "cannot be shown" not in row and ("Waiting for you" in row or "Round" in row)


OFF_SITE_NEXTS = [
    "@evil.example/steal",
    ".evil.example/x",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "/\t/evil.example",
    "/games/\r\nX: y",
    # Percent-encoded: Django decodes the path before the link's redirect reads it.
    "/%2F%2Fevil.example",
    "/%2F%5Cevil.example",
    "/%5C%5Cevil.example/",
]


@pytest.mark.parametrize("next_path", OFF_SITE_NEXTS)
def test_a_sign_in_link_never_leads_off_this_site(client, db, next_path):
    """An attacker asks for a sign-in link for a player with a `next` that would move the link's
    token to another host (SITE_URL + "@evil.example/..." has the host evil.example): the email
    the player gets points at this site only, to the home page, and the token, used by someone
    else, signs them in here and sends them nowhere else."""
    client.post(
        reverse("lobby:sign_in") + "?next=" + quote(next_path, safe=""),
        {"email": "victim@example.org", "next": next_path},
    )
    assert len(mail.outbox) == 1
    url = re.search(r"http\S*sesame=\S+", mail.outbox[0].body).group(0)
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc) == ("http", "127.0.0.1:8000")
    assert parts.path == reverse("lobby:home")
    assert "evil" not in mail.outbox[0].body and "evil" not in mail.outbox[0].alternatives[0][0]
    other = Client()
    landing = other.get(f"{parts.path}?{parts.query}")
    assert landing.status_code == 302
    assert urlsplit(landing.url).netloc == "" and landing.url.startswith("/")
    assert not landing.url.startswith(("//", "/\\"))


@pytest.mark.parametrize("path", ["/%2F%2Fevil.example", "/%2F%5Cevil.example", "/%5C%5Cevil.example/"])
def test_a_token_put_on_an_encoded_off_site_path_by_hand_stays_on_this_site(db, path):
    """docs/security.md, "Accounts and links": a link leads to a path of this site only. A token
    of one's own put by hand on "/%2F%2Fevil.example" (which Django reads as "///evil.example")
    signs its account in and lands on this site, never at evil.example: the site is no open
    redirect."""
    from sesame.utils import get_query_string

    landing = Client().get(path + get_query_string(user_for_email("mallory@example.org")))
    assert landing.status_code == 302
    assert urlsplit(landing.url).netloc == "" and not landing.url.startswith(("//", "/\\"))


@pytest.mark.parametrize("next_path", OFF_SITE_NEXTS)
def test_the_sign_in_link_builder_refuses_anything_but_a_path_of_this_site(db, next_path):
    with pytest.raises(ValueError):
        sign_in_link(user_for_email("victim@example.org"), next_path)


def test_a_sign_in_link_keeps_a_path_of_this_site_and_its_query(client, db):
    client.post(reverse("lobby:sign_in"), {"email": "player@example.org", "next": "/games/3/history/?page=2"})
    url = re.search(r"http\S*sesame=\S+", mail.outbox[0].body).group(0)
    parts = urlsplit(url)
    assert parts.path == "/games/3/history/" and parts.query.startswith("page=2&sesame=")


def test_email_subjects_show_quotes_and_apostrophes_as_written(host):
    """Subjects are plain text: an invited address holding a quote and an apostrophe (valid as a
    quoted local part) and a host's name holding both read as typed, never as `&quot;` or
    `&#x27;`, in the "declined" email and the invitation."""
    invited = '"o\'neil,jr"@example.org'  # quoted: its comma needs the quotes
    Player.objects.update_or_create(
        email="host@example.org", defaults={"display_name": 'Máire "the Bard" O\'Neill'}
    )
    proposal = propose(host, invited)
    invitation = proposal.invitations.get(email=invited)
    services.invitation_answer(invitation=invitation, user=invitation.user, accept=False)

    subjects = [m.subject for m in mail.outbox]
    assert f"{invited} declined your game of Inis" in subjects
    assert 'Máire "the Bard" O\'Neill invites you to a game of Inis' in subjects
    assert not any("&" in subject for subject in subjects)


def test_every_email_subject_template_is_plain_text():
    """Every subject template turns autoescaping off: a subject is a header, never HTML."""
    folder = Path(settings.BASE_DIR) / "templates" / "emails"
    subjects = sorted(folder.glob("*.subject.txt"))
    assert subjects
    for path in subjects:
        assert "{% autoescape off %}" in path.read_text(encoding="utf-8"), path.name


def test_the_game_started_email_says_who_sits_where_by_name_in_the_readers_language(host):
    """Strangers from an open table learn each other's names from the first email, as the game
    page shows them: "Aoife (green), Hard bot (white), you (blue)" — never an address."""
    set_display_name("host@example.org", "Aoife")
    set_display_name("ann@example.org", "Ann")
    Player.objects.update_or_create(email="bob@example.org", defaults={"language": "fr"})
    proposal = propose(host, "ann@example.org", "bob@example.org", bots=1)
    for email in ("ann@example.org", "bob@example.org"):
        user = user_for_email(email)
        services.invitation_answer(invitation=proposal.invitations.get(user=user), user=user, accept=True)
    ann = [m for m in mail.outbox if m.to == ["ann@example.org"] and m.subject.startswith("Game started")][-1]
    assert "At the table: Aoife (green), you (blue), orange, Hard bot (white)." in ann.body
    assert "example.org" not in ann.body.split("At the table:")[1].split("\n")[0]
    bob = [m for m in mail.outbox if m.to == ["bob@example.org"]][-1]
    assert "À la table : Aoife (vert), Ann (bleu), vous (orange), Robot difficile (blanc)." in bob.body
    assert "Seed commitment" not in ann.body and "anyone can check every draw" in ann.body


def test_my_games_names_who_the_game_waits_for_and_who_won(client):
    """Strangers' names on "My games", as the game page gives them: "Round 3: waiting for Aoife
    (green)", then "Over: Aoife (green) won" to the others and "Over: you won" to her."""
    from tests.community.test_ratings import play_to_the_end
    from tests.notifications.email_positions import END, game_from

    game = game_from(END, seed="my-games-names")
    seats = {seat.colour: seat for seat in game.seats.all()}
    set_display_name(seats["green"].email, "Aoife")
    client.force_login(seats["blue"].user)
    home = html_text(client.get(reverse("lobby:home")))
    assert "Round 3: waiting for Aoife (green)" in home
    play_to_the_end(game)
    assert "Over: Aoife (green) won" in html_text(client.get(reverse("lobby:home")))
    client.force_login(seats["green"].user)
    assert "Over: you won" in html_text(client.get(reverse("lobby:home")))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_my_games_gives_the_last_move_as_a_date_in_the_readers_language(client, make_game, language):
    """ "Last move" ("Dernier coup") reads as the other pages' moments do ("5 January 2026, 14:03
    UTC", "5 janvier 2026, 14:03 UTC", "1er" for the first of a month in French), never the
    ISO form; the ISO moment stays in the cell's <time datetime>."""
    from games.models import Event

    game = make_game(seed="my-games-date", n_players=2)
    me = game.seats.order_by("position").first()
    Player.objects.filter(email=me.email).update(language=language)
    client.force_login(me.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    moment = Event.objects.filter(game=game).order_by("-seq").values_list("recorded_at", flat=True)[0]

    row = client.get(reverse("lobby:home")).content.decode().split(f'data-game="{game.pk}"')[1]
    row = row[: row.index("</tr>")]

    assert f"{in_words(moment, language)} UTC" in text_of(row)
    assert f"{moment:%Y-%m-%d}" not in text_of(row)
    assert f'datetime="{moment.isoformat()}"' in row


def html_text(response) -> str:
    import html as html_module

    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_a_signed_in_player_reaches_their_preferences_from_the_header(client, db):
    """How the game reaches you (email, push, chat), your vacation and your data were reached
    only from an email's footer; the header of every page now leads there too."""
    from players.preferences import player_for
    from players.signed_tokens import email_links_token

    user = user_for_email("ann@example.org")
    assert client.get(reverse("lobby:preferences")).status_code == 302  # a visitor: sign in first
    assert reverse("lobby:sign_in") in client.get(reverse("lobby:preferences")).url
    client.force_login(user)
    assert f'href="{reverse("lobby:preferences")}"' in client.get(reverse("lobby:home")).content.decode()
    landed = client.get(reverse("lobby:preferences"), follow=True)
    token = email_links_token(player_for("ann@example.org").pk)
    assert landed.redirect_chain[-1][0] == reverse("email:preferences", args=[token])
    assert landed.status_code == 200 and "ann@example.org" in landed.content.decode()


def test_an_invitation_says_how_fast_the_game_goes_and_how_long_it_takes(host):
    """Before accepting, the invited player reads what they commit to, in their language."""
    Player.objects.update_or_create(email="bob@example.org", defaults={"language": "fr"})
    propose(host, "ann@example.org", "bob@example.org", deadlines={"default": 24, "reaction": 6})
    ann = [m for m in mail.outbox if m.to == ["ann@example.org"]][-1]
    assert re.search(r"24 hours per decision: at this speed a game takes about \d+ weeks\.", ann.body)
    bob = [m for m in mail.outbox if m.to == ["bob@example.org"]][-1]
    assert re.search(
        r"24 heures par décision : à ce rythme, une partie dure environ \d+ semaines\.", bob.body
    )
    propose(host, "cy@example.org", deadlines={"default": 0})
    cy = [m for m in mail.outbox if m.to == ["cy@example.org"]][-1]
    assert "No deadlines: a game takes about" in cy.body


def test_every_invitation_gives_the_number_of_players_at_the_table(host):
    """The host and three invited players: each of the three reads "4 players", whoever was
    asked first."""
    propose(host, "ann@example.org", "bob@example.org", "cy@example.org")
    for address in ("ann@example.org", "bob@example.org", "cy@example.org"):
        invitation = [m for m in mail.outbox if m.to == [address]][-1]
        assert "invites you to a game of Inis by email (4 players," in invitation.body, address
