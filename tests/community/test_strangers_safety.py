"""Strangers at one table (docs/open-tables.md, docs/profiles.md, docs/security.md): a player
blocks another from their profile (never seated together at an open table again, either way; the
joiner is not told who), and a host gives back a joined seat before the start (the player is told
by email, in their language, and may not join that table again)."""

from __future__ import annotations

import html
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from community.models import OpenTable
from lobby import services
from lobby.models import GatheringEvent, Invitation, Proposal
from notifications.models import NewsItem, Outbox
from players.accounts import user_for_email
from players.erasure import erase_account
from players.models import Block, Player
from players.preferences import set_display_name
from press.models import PressMessage
from press.services import press_send
from tests.community.test_open_tables import email_to_service, host, last_to, open_table, signed_in
from tests.lobby.test_lobby import propose

__all__ = ["host"]  # the fixture, used by name

pytestmark = pytest.mark.django_db(transaction=True)


def block(client: Client, player_id: int, value: str = "1"):
    return client.post(reverse("community:block", args=[player_id]), {"blocked": value})


def join(client: Client, number: int):
    return client.post(reverse("community:join", args=[number]), follow=True)


def test_a_player_blocks_another_from_their_profile_and_unblocks_from_their_own(host):
    ana = user_for_email("ana@example.org")
    set_display_name("ana@example.org", "Ana")
    client = signed_in("host@example.org")
    page = client.get(reverse("community:profile", args=[ana.pk])).content.decode()
    assert 'name="blocked" value="1"' in page and ">Block<" in page

    response = block(client, ana.pk)
    assert response.status_code == 302
    assert Block.objects.filter(blocker=host, blocked=ana).count() == 1
    page = client.get(reverse("community:profile", args=[ana.pk])).content.decode()
    assert "You blocked this player" in page and ">Unblock<" in page
    block(client, ana.pk)  # twice: still one block
    assert Block.objects.count() == 1

    own = client.get(reverse("community:profile", args=[host.pk])).content.decode()
    listed = own[own.index('id="blocked-players"') :]
    assert "Ana" in listed and "ana@example.org" not in own
    # The blocked player reads nothing of it on the blocker's profile or their own.
    ana_client = signed_in("ana@example.org")
    seen = ana_client.get(reverse("community:profile", args=[host.pk])).content.decode()
    assert "You blocked" not in seen and ">Block<" in seen
    assert "Brigid" not in ana_client.get(reverse("community:profile", args=[ana.pk])).content.decode()

    block(client, ana.pk, "0")
    assert not Block.objects.exists()


@pytest.mark.parametrize("value", ["", "yes", "2"])
def test_a_garbled_block_choice_is_refused_and_writes_nothing(host, value):
    ana = user_for_email("ana@example.org")
    response = signed_in("host@example.org").post(
        reverse("community:block", args=[ana.pk]), {"blocked": value}, follow=True
    )
    assert "Choose to block this player or to unblock them." in response.content.decode()
    assert not Block.objects.exists()


def test_nobody_blocks_themselves_a_visitor_nor_an_account_that_does_not_exist(host):
    client = signed_in("host@example.org")
    response = block(client, host.pk)
    assert not Block.objects.exists()
    assert "You cannot block yourself." in client.get(response.url).content.decode()
    response = client.post(reverse("community:block", args=[987654]), {"blocked": "1"}, follow=True)
    assert "There is no such player." in response.content.decode()
    response = block(Client(), host.pk)
    assert response.status_code == 302 and "signin" in response.url
    assert not Block.objects.exists()


def test_an_erased_account_is_no_such_player_to_block_nor_listed_among_ones_blocks(host):
    """docs/profiles.md: "an account that does not exist or was erased ... gets "There is no such
    player.", and nothing is written"; the blocker's list shows "never an erased account"."""
    ana = user_for_email("ana@example.org")
    set_display_name("ana@example.org", "Ana")
    erase_account(ana.pk)
    client = signed_in("host@example.org")
    response = client.post(reverse("community:block", args=[ana.pk]), {"blocked": "1"}, follow=True)
    page = response.content.decode()
    assert "There is no such player." in page and "You blocked this player" not in page
    assert not Block.objects.exists()
    # A block written in the moment of the erasure (it removes the blocks against the account)
    # is still no nameless line on the blocker's profile.
    Block.objects.create(blocker=host, blocked=ana)
    own = client.get(reverse("community:profile", args=[host.pk])).content.decode()
    assert reverse("community:profile", args=[ana.pk]) not in own[own.index('id="blocked-players"') :]


@pytest.mark.parametrize("who_blocks", ["joiner", "seated"])
def test_a_blocked_pair_is_never_seated_at_one_open_table_either_way(host, who_blocks):
    table = open_table(host, open_seats=2)
    ana, bo = user_for_email("ana@example.org"), user_for_email("bo@example.org")
    set_display_name("ana@example.org", "Ana")
    assert services.table_join(proposal_id=table.pk, user=ana)
    blocker, blocked = (bo, ana) if who_blocks == "joiner" else (ana, bo)
    Block.objects.create(blocker=blocker, blocked=blocked)

    page = join(signed_in("bo@example.org"), table.pk).content.decode()
    refusal = f"You cannot sit at table {table.pk} with its players: choose another table."
    assert refusal in page
    assert "Ana" not in page.split(refusal)[0][-400:]  # the refusal names nobody
    assert not Invitation.objects.filter(proposal=table, user=bo).exists()
    # The host counts as seated too.
    Block.objects.all().delete()
    Block.objects.create(blocker=host, blocked=bo)
    assert refusal in join(signed_in("bo@example.org"), table.pk).content.decode()
    # Anybody else still joins.
    join(signed_in("cy@example.org"), table.pk)
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED


def test_a_block_with_a_player_who_declined_or_left_an_asked_seat_keeps_nobody_from_joining(host):
    """docs/open-tables.md: refused for "a block between you and the host or a player asked or
    seated there"; "an invitation there that you declined, or a seat the host asked you for that
    you left, is no seat"."""
    table = open_table(host, asked=("dee@example.org", "eve@example.org"), open_seats=1)
    dee, eve = user_for_email("dee@example.org"), user_for_email("eve@example.org")
    xav, yan = user_for_email("xav@example.org"), user_for_email("yan@example.org")
    Block.objects.create(blocker=xav, blocked=dee)
    Block.objects.create(blocker=eve, blocked=yan)
    refusal = f"You cannot sit at table {table.pk} with its players: choose another table."
    assert refusal in join(signed_in("xav@example.org"), table.pk).content.decode()  # dee is asked

    services.invitation_answer(invitation=table.invitations.get(user=dee), user=dee, accept=False)
    services.invitation_answer(invitation=table.invitations.get(user=eve), user=eve, accept=True)
    services.table_leave(proposal_id=table.pk, user=eve)
    assert refusal not in join(signed_in("xav@example.org"), table.pk).content.decode()
    assert Invitation.objects.filter(proposal=table, user=xav, joined=True).exists()
    # Eve left her seat: Yan, whom she blocked, is told only what anybody is (the block is checked
    # before the seats are counted).
    answer = join(signed_in("yan@example.org"), table.pk).content.decode()
    assert f"Table {table.pk} is full." in answer and refusal not in answer


def test_join_n_by_email_is_refused_for_a_blocked_pair_without_saying_who(host):
    table = open_table(host, open_seats=2)
    bo = user_for_email("bo@example.org")
    Block.objects.create(blocker=bo, blocked=host)
    email_to_service("bo@example.org", "list")
    reply_to = last_to("bo@example.org").reply_to[0]
    email_to_service("bo@example.org", f"join {table.pk}", to=reply_to)
    answer = last_to("bo@example.org").body
    assert f"You cannot sit at table {table.pk} with its players: choose another table." in answer
    assert "Brigid" not in answer.split("choose another table")[0][-200:]
    assert not Invitation.objects.filter(proposal=table, user=bo).exists()


def test_an_invitation_to_an_open_table_never_seats_a_blocked_pair(host):
    """Ana joins the open table and blocks Bo; the host then asks Bo by email for the other open
    seat. Bo's "Accept" is refused, naming nobody, and Bo may decline; nobody is seated."""
    table = open_table(host, open_seats=2)
    ana, bo = user_for_email("ana@example.org"), user_for_email("bo@example.org")
    set_display_name("ana@example.org", "Ana")
    services.table_join(proposal_id=table.pk, user=ana)
    Block.objects.create(blocker=ana, blocked=bo)
    position = table.invitations.get(user__isnull=True).position
    services.place_reinvite(proposal=table, user=host, position=position, email="bo@example.org")
    page = signed_in("bo@example.org").post(
        reverse("lobby:proposal", args=[table.pk]), {"action": "accept"}, follow=True
    )
    refusal = f"You cannot sit at table {table.pk} with its players: decline this invitation."
    assert refusal in html.unescape(page.content.decode())
    invitation = table.invitations.get(user=bo)
    assert invitation.status == Invitation.Status.PENDING
    services.invitation_answer(invitation=invitation, user=bo, accept=False)
    table.refresh_from_db()
    assert table.status == Proposal.Status.OPEN and table.game_id is None


def test_an_invitation_only_table_is_not_affected_by_blocks(host):
    ana = user_for_email("ana@example.org")
    Block.objects.create(blocker=ana, blocked=host)
    proposal = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="ana@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
    )
    invitation = proposal.invitations.get(user=ana)
    services.invitation_answer(invitation=invitation, user=ana, accept=True)
    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.STARTED


def test_the_host_removes_a_joiner_before_the_start_who_is_told_and_cannot_rejoin(host):
    table = open_table(host, open_seats=2)
    ana = user_for_email("ana@example.org")
    Player.objects.update_or_create(email="ana@example.org", defaults={"language": "fr"})
    join(signed_in("ana@example.org"), table.pk)
    seat = table.invitations.get(user=ana)
    host_client = signed_in("host@example.org")
    page = host_client.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    row = re.search(rf'<tr data-position="{seat.position}">.*?</tr>', page, re.S).group(0)
    assert 'value="remove"' in row
    mail.outbox.clear()

    response = host_client.post(
        reverse("lobby:proposal", args=[table.pk]),
        {"action": "remove", "position": seat.position},
        follow=True,
    )
    assert "The seat is open again" in response.content.decode()
    seat.refresh_from_db()
    assert (seat.user_id, seat.email, seat.status, seat.joined) == (
        None,
        "",
        Invitation.Status.PENDING,
        False,
    )
    assert GatheringEvent.objects.filter(proposal=table).last().type == "removed"
    assert OpenTable.objects.get(number=table.pk).seats_filled == 1  # the list shows the seat open
    told = last_to("ana@example.org")
    assert f"table ouverte {table.pk}" in told.subject and "Brigid" not in told.body

    again = html.unescape(join(signed_in("ana@example.org"), table.pk).content.decode())
    assert f"L'hôte de la table {table.pk} a libéré votre place : choisissez une autre table." in again
    assert not table.invitations.filter(user=ana).exists()


def test_only_the_host_removes_only_a_joined_seat_only_before_the_start(host):
    table = open_table(host, open_seats=2)
    ana, bo = user_for_email("ana@example.org"), user_for_email("bo@example.org")
    services.table_join(proposal_id=table.pk, user=ana)
    position = table.invitations.get(user=ana).position
    with pytest.raises(services.LobbyError, match="Only the host can change this table."):
        services.table_remove(proposal_id=table.pk, user=ana, position=position)
    with pytest.raises(services.LobbyError, match="Only a player who joined"):
        services.table_remove(proposal_id=table.pk, user=host, position=0)  # the host's own seat
    with pytest.raises(services.LobbyError, match="Only a player who joined"):
        services.table_remove(proposal_id=table.pk, user=host, position=2)  # still open
    services.table_join(proposal_id=table.pk, user=bo)
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED
    with pytest.raises(services.LobbyError, match="This game is started."):
        services.table_remove(proposal_id=table.pk, user=host, position=position)
    assert table.invitations.get(position=position).user_id == ana.pk


def talk_panel(client: Client, game) -> str:
    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    start = body.index('id="talk"')
    return body[start : body.index("</section>", start)]


def test_a_blocker_no_longer_reads_the_blocked_players_talk_on_the_page_or_by_email(make_game):
    game = make_game(3, seed="muted-talk")
    seats = {seat.colour: seat for seat in game.seats.all()}
    colours = sorted(seats)
    reader, talker, other = (seats[c] for c in colours)
    Block.objects.create(blocker=reader.user, blocked=talker.user)
    Player.objects.update_or_create(email=other.email, defaults={"delivery": Player.Delivery.DIGEST})
    press_send(game=game, seat=talker, to="all", text="Ally with me, or else.")
    press_send(game=game, seat=other, to="all", text="Good luck, all.")

    # By email: the blocker gets the other message only; the third player's digest line is kept.
    press_rows = Outbox.objects.filter(game=game, kind=Outbox.Kind.PRESS)
    to_reader = list(press_rows.filter(to_email=reader.email).values_list("body_text", flat=True))
    assert len(to_reader) == 1 and "Good luck, all." in to_reader[0]
    assert not any("Ally with me" in body for body in press_rows.values_list("body_text", flat=True))
    assert NewsItem.objects.filter(seat=other, text__contains="Ally with me").exists()

    blocker = Client()
    blocker.force_login(reader.user)
    panel = talk_panel(blocker, game)
    assert "Good luck, all." in panel and "Ally with me" not in panel
    third = Client()
    third.force_login(other.user)
    assert "Ally with me" in talk_panel(third, game)
    # The talk's log and the blocker's export are unchanged: hiding is at display time.
    export = blocker.get(reverse("games:export", args=[game.pk])).content.decode()
    assert "Ally with me" in export
    assert PressMessage.objects.filter(game=game).count() == 2


def test_a_spectator_who_blocked_a_player_no_longer_reads_their_talk_on_a_public_game(make_game):
    """A signed-in spectator of a public game blocks a player: from then on that player's talk is
    left out of their page, even the page they were served just before (kept in the page
    cache), while another spectator reads every message."""
    game = make_game(3, seed="muted-spectator", options={"public": True})
    seats = {seat.colour: seat for seat in game.seats.all()}
    talker, other = (seats[c] for c in sorted(seats)[:2])
    press_send(game=game, seat=talker, to="all", text="Ally with me, or else.")
    press_send(game=game, seat=other, to="all", text="Good luck, all.")
    watcher, fan = Client(), Client()
    watcher.force_login(user_for_email("watcher@example.org"))
    fan.force_login(user_for_email("fan@example.org"))
    assert "Ally with me" in talk_panel(watcher, game)  # read, and kept for them

    assert block(watcher, talker.user.pk).status_code == 302
    panel = talk_panel(watcher, game)
    assert "Good luck, all." in panel and "Ally with me" not in panel
    assert "Ally with me" in talk_panel(fan, game)  # twice: the first render, then the kept one
    assert "Ally with me" in talk_panel(fan, game)
    assert "Ally with me" not in talk_panel(watcher, game)
    assert "Ally with me" in talk_panel(Client(), game)  # a visitor blocked nobody

    block(watcher, talker.user.pk, "0")
    assert "Ally with me" in talk_panel(watcher, game)


def test_a_follower_who_blocked_a_player_reads_none_of_their_talk_in_the_digest(make_game):
    from datetime import UTC, datetime

    from players.blocks import block as block_player
    from watching import digest
    from watching.services import follow

    game = make_game(3, seed="muted-follower", options={"public": True})
    seats = {seat.colour: seat for seat in game.seats.all()}
    talker, other = (seats[c] for c in sorted(seats)[:2])
    follower, fan = user_for_email("follower@example.org"), user_for_email("fan@example.org")
    for person in (follower, fan):
        follow(user=person, game=game)
    block_player(blocker_id=follower.pk, blocked_id=talker.user_id)
    press_send(game=game, seat=talker, to="all", text="Ally with me, or else.")
    press_send(game=game, seat=other, to="all", text="Good luck, all.")

    morning = datetime(2031, 5, 6, 8, 0, tzinfo=UTC)
    for person in (follower, fan):
        assert digest.send_follower_digest(person.pk, now=morning) > 0
    bodies = {
        row.to_email: row.body_text + row.body_html
        for row in Outbox.objects.filter(kind=Outbox.Kind.FOLLOWER_DIGEST)
    }
    assert "Good luck, all." in bodies["follower@example.org"]
    assert "Ally with me" not in bodies["follower@example.org"]
    assert "Ally with me" in bodies["fan@example.org"]


def test_strangers_never_read_a_part_of_an_unnamed_players_address(host):
    """With the common domains the part before the "@" is the address itself: the open tables
    (web and email), a profile and an open table's page name a player who chose no name "a
    player with no name yet"; the players a host invited by address still read "ann"."""
    quiet = user_for_email("john.smith.1985@example.org")
    table = open_table(quiet, open_seats=2)
    services.table_join(proposal_id=table.pk, user=user_for_email("jane.doe.77@example.org"))
    looks = [
        Client().get(reverse("community:open_tables")),
        signed_in("bo@example.org").get(reverse("community:profile", args=[quiet.pk])),
        signed_in("jane.doe.77@example.org").get(reverse("lobby:proposal", args=[table.pk])),
        signed_in("john.smith.1985@example.org").get(reverse("lobby:proposal", args=[table.pk])),
    ]
    for response in looks:
        page = html.unescape(response.content.decode())
        assert "a player with no name yet" in page
        assert "john.smith" not in page.replace("john.smith.1985@example.org", "")  # the header's own address
        assert "jane.doe" not in page.replace("jane.doe.77@example.org", "")
    own = html.unescape(looks[-1].content.decode())
    assert "A game of Inis that you host" in own and "choose your name at the table" in own
    email_to_service("cy@example.org", "list")
    listed = last_to("cy@example.org").body
    assert f"Table {table.pk}, hosted by a player with no name yet" in listed and "john.smith" not in listed
    # Once the game runs, the host's tools name the joiner the same way.
    services.table_join(proposal_id=table.pk, user=user_for_email("kim.lee.2001@example.org"))
    table.refresh_from_db()
    tools = signed_in("john.smith.1985@example.org").get(reverse("lobby:host", args=[table.game_id]))
    assert "kim.lee" not in tools.content.decode() and "a player with no name yet" in tools.content.decode()

    # At a private table the host, who typed the addresses, reads them; an invited player reads
    # their own seat as "you", and another invited player (whose address they were not given)
    # by name.
    private = propose(host, "ann@example.org", "max.power.99@example.org")
    invited = signed_in("ann@example.org").get(reverse("lobby:proposal", args=[private.pk]))
    row = re.search(r'<tr data-position="1">.*?</tr>', invited.content.decode(), re.S).group(0)
    assert ">you<" in row and "no name yet" not in row
    other = re.search(r'<tr data-position="2">.*?</tr>', invited.content.decode(), re.S).group(0)
    assert "max.power" not in other and "a player with no name yet" in other
    hosting = signed_in("host@example.org").get(reverse("lobby:proposal", args=[private.pk]))
    assert "max.power.99@example.org" in hosting.content.decode()
