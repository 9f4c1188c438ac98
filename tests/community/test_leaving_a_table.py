"""A table waiting to start, as its players live it (docs/open-tables.md, "Leaving a table"):
"My games" lists the tables where you host or sit, the table's page says your seat is yours
until the game starts, and "Leave this table" gives it up: a joined seat is open again, an
accepted invitation is declined and its host told by email. Only the seat's own player, only
before the start; the host cancels instead."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from community.models import OpenTable
from lobby import services
from lobby.live import home_version
from lobby.models import GatheringEvent, Invitation, Proposal
from notifications.models import InboundEmail
from players.accounts import user_for_email
from tests.community.test_open_tables import email_to_service, host, last_to, open_table, signed_in
from tests.lobby.test_lobby import propose

__all__ = ["host"]  # the fixture, used by name

pytestmark = pytest.mark.django_db(transaction=True)


def page_text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


def table_row(client, number: int) -> str:
    page = client.get(reverse("community:open_tables")).content.decode()
    row = re.search(rf'<tr data-table="{number}">.*?</tr>', page, re.S)
    assert row is not None, f"table {number} is not listed"
    return row.group(0)


def leave(client, number: int):
    return client.post(reverse("lobby:proposal", args=[number]), {"action": "leave"}, follow=True)


def test_a_joiner_finds_the_table_on_my_games_and_leaves_it_before_the_start(host):
    table = open_table(host, open_seats=2)
    ana = signed_in("ana@example.org")
    ana.post(reverse("community:join", args=[table.pk]))

    home = page_text(ana.get(reverse("lobby:home")))
    assert f"Table {table.pk}, hosted by Brigid: 2 of 3 seats taken" in home
    assert "You play no game yet" not in home
    seat_page = ana.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    assert "You have a seat at this table" in seat_page and 'value="leave"' in seat_page
    # The list links her table to its page rather than offering her to join it again.
    row = table_row(ana, table.pk)
    assert "Your table" in row and f'href="{reverse("lobby:proposal", args=[table.pk])}"' in row
    assert 'name="table"' not in row and 'name="table"' in table_row(signed_in("cy@example.org"), table.pk)

    left = leave(ana, table.pk)
    assert left.redirect_chain[-1][0] == reverse("lobby:home")
    home = page_text(left)
    assert f"You left table {table.pk}." in home and f"Table {table.pk}" not in home.replace(
        f"You left table {table.pk}.", ""
    )
    assert not table.invitations.filter(user__email="ana@example.org").exists()
    assert GatheringEvent.objects.filter(proposal=table).last().type == "left"
    assert OpenTable.objects.get(number=table.pk).seats_filled == 1  # the list shows the seat open again
    assert "1 of 3" in page_text(signed_in("cy@example.org").get(reverse("community:open_tables")))
    assert 'name="table"' in table_row(ana, table.pk)  # hers no more: she may join again

    # Leaving is no removal: the player may take a seat there again.
    assert ana.post(reverse("community:join", args=[table.pk])).status_code == 302
    assert table.invitations.filter(user__email="ana@example.org", status=Invitation.Status.ACCEPTED).exists()


def test_an_invited_player_who_accepted_leaves_and_the_host_is_told(host):
    proposal = propose(host, "fay@example.org", "gil@example.org")
    fay = signed_in("fay@example.org")
    fay.post(reverse("lobby:proposal", args=[proposal.pk]), {"action": "accept"})
    assert f"Table {proposal.pk}, hosted by Brigid: 2 of 3 seats taken" in page_text(
        fay.get(reverse("lobby:home"))
    )
    mail.outbox.clear()

    leave(fay, proposal.pk)
    invitation = proposal.invitations.get(email="fay@example.org")
    assert invitation.status == Invitation.Status.DECLINED
    told = last_to("host@example.org")
    assert "fay@example.org left your game of Inis" in told.subject
    assert "accepted your invitation, then left the table before the game started" in told.body
    # The host asks somebody else for that seat, as for any declined invitation.
    host_page = signed_in("host@example.org").get(reverse("lobby:proposal", args=[proposal.pk]))
    row = re.search(rf'<tr data-position="{invitation.position}">.*?</tr>', host_page.content.decode(), re.S)
    assert "declined" in row.group(0) and 'value="reinvite"' in row.group(0)


def test_a_player_who_declined_or_left_an_invited_seat_may_take_an_open_seat(host):
    """Ana was asked for a seat of an open table, declined, and then wants to play after all:
    "join N" seats her at the open seat, as anyone; she had no seat there. So does Bo, who
    accepted his invitation and then left."""
    table = open_table(host, asked=("ana@example.org", "bo@example.org"), open_seats=1)
    ana, bo = user_for_email("ana@example.org"), user_for_email("bo@example.org")
    services.invitation_answer(invitation=table.invitations.get(user=ana), user=ana, accept=False)
    services.table_join(proposal_id=table.pk, user=ana)
    assert table.invitations.filter(user=ana, joined=True, status=Invitation.Status.ACCEPTED).exists()
    services.invitation_answer(invitation=table.invitations.get(user=bo), user=bo, accept=True)
    services.table_leave(proposal_id=table.pk, user=bo)
    with pytest.raises(services.LobbyError, match="is full"):
        services.table_join(proposal_id=table.pk, user=bo)  # no open seat left, but he may ask


def test_only_a_seated_player_leaves_only_before_the_start_and_a_refusal_writes_nothing(host):
    table = open_table(host, open_seats=2)
    ana, bo = user_for_email("ana@example.org"), user_for_email("bo@example.org")
    services.table_join(proposal_id=table.pk, user=ana)
    before = (GatheringEvent.objects.count(), list(Invitation.objects.values_list("status", "email")))
    for user, refusal in [
        (host, f"You host table {table.pk}: cancel it rather than leave it."),
        (bo, f"You have no seat at table {table.pk}."),
    ]:
        with pytest.raises(services.LobbyError, match=re.escape(refusal)):
            services.table_leave(proposal_id=table.pk, user=user)
    with pytest.raises(services.LobbyError, match="There is no table 999."):
        services.table_leave(proposal_id=999, user=ana)
    assert (GatheringEvent.objects.count(), list(Invitation.objects.values_list("status", "email"))) == before

    services.table_join(proposal_id=table.pk, user=bo)
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED
    page = page_text(leave(signed_in("ana@example.org"), table.pk))
    assert f"Table {table.pk} is started: its seats can no longer be left." in page
    assert table.invitations.get(user=ana).status == Invitation.Status.ACCEPTED


def test_my_games_moves_on_when_a_seat_changes_at_a_table_you_sit_at(host):
    table = open_table(host, open_seats=3)
    ana = user_for_email("ana@example.org")
    services.table_join(proposal_id=table.pk, user=ana)
    seen, _waiting = home_version(ana.pk)
    services.table_join(proposal_id=open_table(host, open_seats=1).pk, user=user_for_email("zed@example.org"))
    assert home_version(ana.pk)[0] == seen  # another table: nothing of hers moved
    services.table_join(proposal_id=table.pk, user=user_for_email("bo@example.org"))
    assert home_version(ana.pk)[0] != seen  # a seat taken at her table: "2 of 4" is now "3 of 4"


def test_an_open_seat_waits_for_a_player_and_says_who_fills_it(host):
    table = open_table(host, open_seats=1)
    host_client = signed_in("host@example.org")
    seats = page_text(host_client.get(reverse("lobby:proposal", args=[table.pk])))
    assert "an open seat: anyone may take it" in seats and "waiting for a player" in seats
    assert "waiting for an answer" not in seats
    host_client.post(reverse("lobby:proposal", args=[table.pk]), {"action": "unlisted"})
    seats = page_text(host_client.get(reverse("lobby:proposal", args=[table.pk])))
    assert "an open seat, for the host to fill" in seats and "anyone may take it" not in seats


def test_a_french_player_who_joined_by_email_is_told_where_to_sign_in_to_choose_a_name(host):
    """The answer to `join N` tells a player who came by email alone the site's address, where
    they sign in (by the link emailed from there) to choose their name; in their language."""
    from players.preferences import player_for

    table = open_table(host, open_seats=2)
    ana = player_for("ana@example.org")
    ana.language = "fr"
    ana.save()
    email_to_service("ana@example.org", "list")
    email_to_service("ana@example.org", f"join {table.pk}", to=last_to("ana@example.org").reply_to[0])

    joined = last_to("ana@example.org").body
    assert f"connectez-vous sur le site, {settings.SITE_URL}/signin/, puis ouvrez les Préférences." in joined
    assert "sesame" not in joined


def test_a_player_who_joined_by_email_leaves_by_email_and_a_forged_from_unseats_nobody(host):
    table, other = open_table(host, open_seats=2), open_table(host, open_seats=3)
    email_to_service("ana@example.org", "list")
    email_to_service("ana@example.org", f"join {table.pk}", to=last_to("ana@example.org").reply_to[0])
    joined = last_to("ana@example.org")
    assert f"To give your seat up before then, reply with: leave {table.pk}" in joined.body
    assert "read you as “a player with no name yet” until you choose your name" in joined.body
    assert "sesame" not in joined.body  # no sign-in link: the From of a mail proves no mailbox
    # A player who came by email alone is told where the site is, to sign in and choose a name.
    assert f"sign in on the site, {settings.SITE_URL}/signin/, then open Preferences." in joined.body

    # "leave N" to the plain address proves no mailbox: anybody can write ana's address in From.
    email_to_service("ana@example.org", f"leave {table.pk}")
    assert table.invitations.filter(user__email="ana@example.org").exists()
    assert f"To leave table {table.pk}, reply to this email with: leave {table.pk}" in (
        last_to("ana@example.org").body
    )

    email_to_service("ana@example.org", f"Leave table {table.pk}\n\nsorry", to=joined.reply_to[0])
    answer = last_to("ana@example.org")
    assert f"You left table {table.pk}." in answer.body
    assert f"Table {other.pk}, hosted by Brigid: 1 of 4 seats taken" in answer.body  # the other tables
    assert f"Table {table.pk}," not in answer.body
    assert not table.invitations.filter(user__email="ana@example.org").exists()
    email_to_service("ana@example.org", f"quitter {table.pk}", to=joined.reply_to[0])
    assert f"You have no seat at table {table.pk}." in last_to("ana@example.org").body
    statuses = list(InboundEmail.objects.order_by("id").values_list("status", flat=True))
    assert statuses[-3:] == ["rejected", "accepted", "rejected"]


def test_when_the_host_cancels_everybody_seated_or_asked_is_told(host):
    """A player who joined or accepted would otherwise wait for a game that will never start."""
    table = services.proposal_create(
        host=host,
        places=[
            services.PlaceSpec(email="fay@example.org"),
            services.PlaceSpec(email="gil@example.org"),
            services.PlaceSpec(email="hal@example.org"),
            services.PlaceSpec(is_open=True),
        ],
        host_plays=False,
        setup="discovery",
        deadlines={"default": 24},
        reaction_mode="holders",
        listed=True,
    )
    fay, gil = user_for_email("fay@example.org"), user_for_email("gil@example.org")
    services.invitation_answer(invitation=table.invitations.get(user=fay), user=fay, accept=True)
    services.invitation_answer(invitation=table.invitations.get(user=gil), user=gil, accept=False)
    services.table_join(proposal_id=table.pk, user=user_for_email("ana@example.org"))
    mail.outbox.clear()

    host_client = signed_in("host@example.org")
    done = host_client.post(reverse("lobby:proposal", args=[table.pk]), {"action": "cancel"}, follow=True)
    assert "The game is cancelled." in page_text(done)
    told = {m.to[0]: m for m in mail.outbox}
    # fay accepted, hal was still asked, ana joined; gil declined and the host cancelled it.
    assert set(told) == {"fay@example.org", "hal@example.org", "ana@example.org"}
    ana = told["ana@example.org"]
    assert ana.subject == f"Table {table.pk} was cancelled by its host"
    assert f"Brigid, the host of table {table.pk}, cancelled it before the game started" in ana.body
    assert "host@example.org" not in ana.body and reverse("community:open_tables") in ana.body
    assert f"Table {table.pk}" not in page_text(signed_in("ana@example.org").get(reverse("lobby:home")))


def test_a_french_player_reads_the_table_waiting_on_my_games_in_french(host):
    from players.models import Player

    table = open_table(host, open_seats=2)
    Player.objects.update_or_create(email="ana@example.org", defaults={"language": "fr"})
    ana = signed_in("ana@example.org")
    ana.cookies["django_language"] = "fr"
    ana.post(reverse("community:join", args=[table.pk]))
    home = page_text(ana.get(reverse("lobby:home")))
    assert f"Table {table.pk}, organisée par Brigid : 2 places prises sur 3" in home
    seat = page_text(ana.get(reverse("lobby:proposal", args=[table.pk])))
    assert "Vous avez une place à cette table." in seat and "Quitter cette table" in seat


def test_erasing_an_account_gives_up_its_seats_and_cancels_the_tables_it_hosts(host):
    """docs/privacy.md: an erased player's seat at a table still gathering is given up as
    leaving gives it up (no seat held by nobody, which would start a game with an empty seat),
    and a table they host is cancelled, its players told without the host's name."""
    from players.erasure import erase_account

    table = open_table(host, open_seats=2)
    ana, fay, bo = (user_for_email(f"{n}@example.org") for n in ("ana", "fay", "bo"))
    services.table_join(proposal_id=table.pk, user=ana)
    asked = propose(host, "fay@example.org", "gil@example.org")
    services.invitation_answer(invitation=asked.invitations.get(user=fay), user=fay, accept=True)
    hers = open_table(ana, open_seats=2)
    services.table_join(proposal_id=hers.pk, user=bo)
    mail.outbox.clear()

    erase_account(ana.pk)
    erase_account(fay.pk)
    seat = table.invitations.get(position=1)
    assert (seat.email, seat.user_id, seat.status, seat.joined) == (
        "",
        None,
        Invitation.Status.PENDING,
        False,
    )
    assert GatheringEvent.objects.filter(proposal=table).last().type == "left"
    assert OpenTable.objects.get(number=table.pk).seats_filled == 1  # open again, in the list
    place = asked.invitations.get(position=1)
    assert (place.email, place.user_id, place.status) == ("", None, Invitation.Status.DECLINED)
    hers.refresh_from_db()
    assert hers.status == Proposal.Status.CANCELLED and not OpenTable.objects.filter(number=hers.pk).exists()
    told = last_to("bo@example.org")
    assert f"The host of table {hers.pk} cancelled it before the game started" in told.body
    assert "ana" not in told.body.lower().replace("cancel", "")


def test_leaving_again_says_you_have_no_seat_there_and_leads_to_my_games(host):
    """A second click on "Leave this table" (the first one already gave the seat up) is no
    forbidden page: it says the player has no seat there and leads to "My games"."""
    table = open_table(host, open_seats=2)
    ana = signed_in("ana@example.org")
    ana.post(reverse("community:join", args=[table.pk]))
    leave(ana, table.pk)
    again = leave(ana, table.pk)
    assert again.status_code == 200 and again.redirect_chain[-1][0] == reverse("lobby:home")
    text = page_text(again)
    assert f"You have no seat at table {table.pk} (any more)" in text
    assert "being gathered by its host" not in text
    # Reading the table's page without a seat there stays refused.
    assert ana.get(reverse("lobby:proposal", args=[table.pk])).status_code == 403


def test_a_player_the_host_asked_who_left_or_has_not_answered_is_led_to_my_games(host):
    """docs/open-tables.md: "a second click on "Leave this table" ..., an invitation you have not
    answered yet ... or one you declined, and any player without a seat there, are led to "My
    games": "You have no seat at table N (any more)…", never a 403 nor the table's page"."""
    table = propose(host, "fay@example.org", "gil@example.org")
    fay = signed_in("fay@example.org")
    before = (GatheringEvent.objects.count(), list(Invitation.objects.values_list("status", "email")))
    pending = leave(fay, table.pk)
    assert pending.redirect_chain[-1][0] == reverse("lobby:home")
    assert f"You have no seat at table {table.pk} (any more)" in page_text(pending)
    assert (GatheringEvent.objects.count(), list(Invitation.objects.values_list("status", "email"))) == before

    fay.post(reverse("lobby:proposal", args=[table.pk]), {"action": "accept"})
    assert f"You left table {table.pk}." in page_text(leave(fay, table.pk))
    again = leave(fay, table.pk)
    assert again.redirect_chain[-1][0] == reverse("lobby:home")
    assert f"You have no seat at table {table.pk} (any more)" in page_text(again)
    assert table.invitations.get(email="fay@example.org").status == Invitation.Status.DECLINED


def test_a_started_table_names_the_seats_of_erased_players_player_n_left(host):
    """docs/privacy.md: every seat of an erased person reads "Player N (left)" on every page, for
    every reader; a started table's page in the lobby too, its heading for an erased host. Only
    a table still gathering opens their seat again: this one is played, never open."""
    from players.erasure import erase_account

    table = open_table(host, open_seats=2, public=True)
    ana, bo = signed_in("ana@example.org"), signed_in("bo@example.org")
    ana.post(reverse("community:join", args=[table.pk]))
    bo.post(reverse("community:join", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED
    erase_account(user_for_email("ana@example.org").pk)
    erase_account(host.pk)

    page = " ".join(page_text(bo.get(reverse("lobby:proposal", args=[table.pk]))).split())
    page = page[page.index("Sign out") :]
    assert "A game of Inis by Player 1 (left) Started." in page, page
    assert "1 Player 1 (left) accepted" in page, page
    assert "2 Player 2 (left) accepted" in page, page
    assert "open seat" not in page and "Brigid" not in page, page
