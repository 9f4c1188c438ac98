"""Rematch (docs/rematch.md): at a game's end, "Rematch" opens a table for the same seats with
the same options, each other player asks by email and takes their place in one click; it starts
when all have; a rematch that cannot be is refused with a clear answer and nothing written."""

from __future__ import annotations

import html

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from community.rematch_mail import asks_rematch
from games.models import Game
from lobby.models import Invitation, Proposal
from notifications.models import Outbox
from players.accounts import user_for_email
from players.erasure import erase_account
from tests.community.test_open_tables import email_to_service, last_to
from tests.community.test_ratings import play_to_the_end, rated_table
from tests.notifications.email_positions import END, game_from
from tests.notifications.grace import after_the_grace

pytestmark = pytest.mark.django_db(transaction=True)


def finished(seed: str, *, bots: int = 0) -> Game:
    """A game of END played to its end, its set-up recorded as a discovery island (END is a
    described position, whose rematch is refused: `test_a_described_island_has_no_rematch`)."""
    game = rated_table(seed, players=4 - bots, bots=bots)
    Game.objects.filter(pk=game.pk).update(
        setup=Game.Setup.DISCOVERY, options={**game.options, "public": True}
    )
    game.refresh_from_db()  # the game-over email reads its set-up
    play_to_the_end(game)
    game.refresh_from_db()
    return game


def client_of(game: Game, colour: str) -> Client:
    client = Client()
    user = game.seats.get(colour=colour).user
    assert user is not None
    client.force_login(user)
    return client


def ask(client: Client, game: Game):
    return client.post(reverse("lobby:rematch", args=[game.pk]), follow=True)


def test_the_game_over_page_offers_a_rematch_to_its_players():
    game = finished("offer")
    page = client_of(game, "blue").get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="rematch"' in page and reverse("lobby:rematch", args=[game.pk]) in page
    assert 'id="rematch"' not in Client().get(reverse("games:detail", args=[game.pk])).content.decode()


def test_a_rematch_asks_the_same_seats_and_starts_when_all_accept():
    game = finished("rematch", bots=1)
    ask(client_of(game, "green"), game)
    table = Proposal.objects.get(rematch_of=game)
    places = list(table.invitations.order_by("position"))
    humans = {seat.email for seat in game.seats.filter(is_bot=False)}
    assert {place.email for place in places if not place.is_bot} == humans
    assert [place.is_bot for place in places].count(True) == 1
    assert table.rated and table.options["public"] is True
    assert places[0].status == Invitation.Status.ACCEPTED  # green asked: green sits first
    invited = set(
        Outbox.objects.filter(
            subject__contains=f"invites you to a rematch of game {game.pk} of Inis"
        ).values_list("to_email", flat=True)
    )
    assert invited >= humans - {game.seats.get(colour="green").email}

    for colour in ("blue", "orange"):
        response = ask(client_of(game, colour), game)
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED and table.game_id
    assert "the rematch has begun" in response.content.decode()
    # Asking again once it started says where the rematch is, and opens nothing.
    response = ask(client_of(game, "green"), game)
    assert f"it is game {table.game_id}" in response.content.decode()
    assert Proposal.objects.filter(rematch_of=game).count() == 1


def test_a_game_not_over_has_no_rematch_and_nothing_is_written():
    game = rated_table("not-over")
    Game.objects.filter(pk=game.pk).update(setup=Game.Setup.DISCOVERY)
    response = ask(client_of(game, "green"), game)
    assert f"Game {game.pk} is not over" in response.content.decode()
    assert not Proposal.objects.filter(rematch_of=game).exists()


def test_only_its_players_may_ask_for_a_rematch():
    game = finished("stranger")
    stranger = Client()
    stranger.force_login(user_for_email("stranger@example.org"))
    response = ask(stranger, game)
    assert f"Only the players of game {game.pk} may ask for its rematch." in response.content.decode()
    assert not Proposal.objects.filter(rematch_of=game).exists()


def test_a_described_island_has_no_rematch():
    """A game begun on a described position cannot be dealt again: its page offers no button
    and its game-over email no reply "rematch"; asking anyway is refused."""
    game = game_from(END, seed="described")
    play_to_the_end(game)
    after_the_grace()
    page = client_of(game, "blue").get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="rematch"' not in page
    over = game_over_to(game.seats.get(colour="blue").email)
    assert "rematch" not in over.body.lower()
    response = ask(client_of(game, "green"), game)
    assert "a rematch needs a random or a discovery set-up" in response.content.decode()
    assert not Proposal.objects.filter(rematch_of=game).exists()


def game_over_to(address: str):
    return next(m for m in reversed(mail.outbox) if address in m.to and m.subject.startswith("Game over"))


def test_a_reply_rematch_to_the_game_over_email_takes_a_place_at_the_rematch():

    game = finished("by-email")
    after_the_grace()
    blue = game.seats.get(colour="blue")
    over = last_to(blue.email)
    assert "reply to this email with: rematch" in over.body
    assert over.subject.startswith("Game over"), over.subject
    reply_to = over.reply_to[0]
    email_to_service(blue.email, "Rematch!\n\n> the quoted game-over email", to=reply_to, subject="Re: over")
    table = Proposal.objects.get(rematch_of=game)
    assert table.host_id == blue.user_id
    answer = last_to(blue.email)
    assert answer.subject == "Your rematch of Inis"
    assert "You have a seat at the rematch." in answer.body
    # Another player's reply takes their place; a stranger with a made-up token changes nothing.
    orange = game.seats.get(colour="orange")
    email_to_service(orange.email, "rematch", to=game_over_to(orange.email).reply_to[0])
    assert table.invitations.get(user=orange.user).status == Invitation.Status.ACCEPTED
    sent = len(mail.outbox)
    forged = reply_to.replace(reply_to.split("+")[1].split("@")[0][-4:], "0000")
    email_to_service("stranger@example.org", "rematch", to=forged)
    assert Proposal.objects.filter(rematch_of=game).count() == 1
    assert len(mail.outbox) <= sent + 1  # at most the usual answer to a bad reply address


def test_a_rematch_asked_from_another_address_is_answered_at_the_seats_own():
    """docs/email-commands.md: "Every reply is answered, in the thread of the game, at the
    seat's own address", and "a reply from another address of yours works"."""
    game = finished("rematch-other-address")
    after_the_grace()
    blue = game.seats.get(colour="blue")
    reply_to = game_over_to(blue.email).reply_to[0]
    sent = len(mail.outbox)
    email_to_service("Blue <blue.elsewhere@example.org>", "rematch", to=reply_to, subject="Re: over")
    (answer,) = [m for m in mail.outbox[sent:] if m.subject == "Your rematch of Inis"]
    assert answer.to == [blue.email]
    assert Proposal.objects.get(rematch_of=game).host_id == blue.user_id


def test_a_rematch_invitation_names_no_part_of_an_unnamed_hosts_address():
    """The players of a game met at its table, where a player with no name is their colour:
    the rematch's invitation and table page do not name its host by their address's start."""
    game = finished("names")
    blue = game.seats.get(colour="blue")
    local = blue.email.partition("@")[0]
    mail.outbox.clear()
    ask(client_of(game, "blue"), game)
    table = Proposal.objects.get(rematch_of=game)
    invited = [m for m in mail.outbox if m.to == [game.seats.get(colour="green").email]][-1]
    assert invited.subject == f"A player with no name yet invites you to a rematch of game {game.pk} of Inis"
    assert "A player with no name yet invites you to a rematch" in invited.body and local not in invited.body
    page = client_of(game, "green").get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    assert local not in page.replace(blue.email, "")
    # "My games" lists the invitation the same way.
    home = html.unescape(client_of(game, "green").get(reverse("lobby:home")).content.decode())
    assert "a player with no name yet invites you to a game" in home and local not in home


def test_the_rematch_host_never_reads_the_other_players_addresses():
    """Whoever asks first hosts the rematch, but did not type the others' addresses: the table's
    page, the declined email and the host's tools of the game it starts name each other player
    by the name strangers read ("a player with no name yet" until they choose one), never by
    their address; an address the host types themselves is theirs to read."""
    game = finished("rematch-host-names")
    seats = {s.colour: s for s in game.seats.all()}
    others = [seats[c].email for c in ("green", "orange", "white")]
    ask(client_of(game, "blue"), game)
    table = Proposal.objects.get(rematch_of=game)
    host = client_of(game, "blue")
    page = host.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    assert not [e for e in others if e.partition("@")[0] in page]
    assert "a player with no name yet" in page

    mail.outbox.clear()
    client_of(game, "orange").post(reverse("lobby:proposal", args=[table.pk]), {"action": "decline"})
    after_the_grace()
    declined = [m for m in mail.outbox if m.to == [seats["blue"].email]]
    assert declined and not [m for m in declined if seats["orange"].email in m.subject + m.body]
    assert declined[-1].subject == "A player with no name yet declined your game of Inis"

    # The host asks an address they type for orange's place: that one they read.
    host.post(
        reverse("lobby:proposal", args=[table.pk]),
        {"action": "reinvite", "position": 2, "email": "newcomer@example.org"},
    )
    page = host.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    assert "newcomer@example.org" in page
    for colour in ("green", "white"):
        ask(client_of(game, colour), game)
    newcomer = Client()
    newcomer.force_login(user_for_email("newcomer@example.org"))
    newcomer.post(reverse("lobby:proposal", args=[table.pk]), {"action": "accept"})
    table.refresh_from_db()
    assert table.game_id
    tools = host.get(reverse("lobby:host", args=[table.game_id])).content.decode()
    assert not [e for e in others if e in tools] and "newcomer@example.org" in tools


@pytest.mark.parametrize(
    ("first_line", "asks"),
    [
        ("Revanche !", True),  # French typography: a space before "!"
        ("Rematch !", True),
        ("rematch?", True),
        ("  REMATCH.  ", True),
        ("revanche", True),
        ("rematch please, and the same seats", False),
        ("no rematch", False),
        ("pass", False),
    ],
)
def test_a_reply_asks_for_a_rematch_whatever_its_case_spaces_and_punctuation(first_line, asks):
    assert asks_rematch(f"{first_line}\n\n> the quoted game-over email") is asks


def test_the_place_of_a_player_who_erased_their_account_waits_for_the_host():
    """White erased their account after the game: the rematch does not hand white's place to a
    bot nobody chose; it stays open, for the host to ask somebody for or give to a bot."""
    game = finished("erased")
    white = game.seats.get(colour="white")
    erase_account(white.user_id)
    ask(client_of(game, "blue"), game)
    table = Proposal.objects.get(rematch_of=game)
    place = table.invitations.get(position=white.position)
    assert not place.is_bot and not place.email and place.status == Invitation.Status.PENDING
    host = client_of(game, "blue")
    page = host.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    assert "an open seat, for the host to fill" in page
    for colour in ("green", "orange"):
        ask(client_of(game, colour), game)
    table.refresh_from_db()
    assert table.status == Proposal.Status.OPEN  # waits for the host
    host.post(reverse("lobby:proposal", args=[table.pk]), {"action": "bot", "position": white.position})
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED
