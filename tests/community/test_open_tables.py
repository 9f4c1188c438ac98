"""Open tables (docs/open-tables.md): a stranger finds a table seeking players and takes a seat,
on the web and by email (`list`, `join N`); a full, closed or private table and a second seat
are refused with a clear answer and nothing written; the table starts when full or when the
host gives the open seats to bots; a table not filled within a week closes and tells its
players; the list is a read model of the gathering's log, and rebuilding it gives what the
feeds gave."""

from __future__ import annotations

import html
import io
import re
from datetime import timedelta
from email.message import EmailMessage

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from community import projections
from community.models import OpenTable, ProjectionPosition
from lobby import services
from lobby.models import GatheringEvent, Invitation, Proposal
from notifications.models import InboundEmail
from players.accounts import user_for_email
from players.preferences import set_display_name
from tests.notifications.grace import after_the_grace

pytestmark = pytest.mark.django_db(transaction=True)


def open_table(host, *, open_seats=2, bots=0, asked=(), language="en", deadlines=None, **kw):
    """A listed table of `host` (who plays): a seat asked of each address of `asked`, then
    `bots` bots, then `open_seats` open seats."""
    places = (
        [services.PlaceSpec(email=email) for email in asked]
        + [services.PlaceSpec(is_bot=True)] * bots
        + [services.PlaceSpec(is_open=True)] * open_seats
    )
    return services.proposal_create(
        host=host,
        places=places,
        host_plays=True,
        setup="discovery",
        deadlines=deadlines or {"default": 24, "reaction": 6},
        reaction_mode="holders",
        listed=True,
        language=language,
        **kw,
    )


@pytest.fixture
def host(transactional_db):
    user = user_for_email("host@example.org")
    set_display_name("host@example.org", "Brigid")
    return user


def signed_in(email: str) -> Client:
    client = Client()
    client.force_login(user_for_email(email))
    return client


def test_a_newcomer_finds_an_open_table_joins_and_the_game_starts_when_full(host):
    table = open_table(host, open_seats=2, rated=True)
    page = Client().get(reverse("community:open_tables")).content.decode()
    row = re.search(rf'<tr data-table="{table.pk}">.*?</tr>', page, re.S).group(0)
    assert "Brigid" in row and "1 of 3" in row and "brisk" in row and "English" in row
    assert "host@example.org" not in page  # the host's name, never an address
    assert "Sign in to join" in row  # a visitor signs in by emailed link first
    assert "<th>Seats taken</th>" in page  # "1 of 3" counts the seats taken

    ana = signed_in("ana@example.org")
    response = ana.post(reverse("community:join", args=[table.pk]))
    assert response.status_code == 302 and response.url == reverse("lobby:proposal", args=[table.pk])
    assert "ana@example.org" not in Client().get(reverse("community:open_tables")).content.decode()
    host_client = signed_in("host@example.org")
    assert (
        "ana@example.org" not in host_client.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    )
    assert "2 of 3" in Client().get(reverse("community:open_tables")).content.decode()

    response = signed_in("bo@example.org").post(reverse("community:join", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED and response.url == reverse(
        "games:detail", args=[table.game_id]
    )
    assert sorted(table.game.seats.values_list("email", flat=True)) == [
        "ana@example.org",
        "bo@example.org",
        "host@example.org",
    ]
    assert f'data-table="{table.pk}"' not in Client().get(reverse("community:open_tables")).content.decode()


def test_joining_twice_a_full_a_closed_or_a_private_table_is_refused_and_writes_nothing(host):
    table = open_table(host, open_seats=2)
    ana = signed_in("ana@example.org")
    ana.post(reverse("community:join", args=[table.pk]))
    events = GatheringEvent.objects.count()
    for client, expected in [
        (ana, f"You already have a seat at table {table.pk}."),
        (signed_in("host@example.org"), f"You already have a seat at table {table.pk}."),
    ]:
        page = client.post(reverse("community:join", args=[table.pk]), follow=True).content.decode()
        assert expected in page
    private = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="x@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24},
        reaction_mode="holders",
    )
    page = signed_in("bo@example.org").post(reverse("community:join", args=[private.pk]), follow=True)
    assert f"There is no open table {private.pk}." in page.content.decode()
    assert GatheringEvent.objects.count() == events + 1  # only the private table's creation
    assert Invitation.objects.filter(email="bo@example.org").count() == 0

    full = open_table(host, open_seats=1)
    signed_in("cy@example.org").post(reverse("community:join", args=[full.pk]))
    page = signed_in("di@example.org").post(reverse("community:join", args=[full.pk]), follow=True)
    assert f"Table {full.pk} is started: nobody can join it any more." in page.content.decode()

    with pytest.raises(services.LobbyError, match="is full"):
        waiting = services.proposal_create(
            host=user_for_email("eve@example.org"),
            places=[services.PlaceSpec(email="fay@example.org"), services.PlaceSpec(is_open=True)],
            host_plays=True,
            setup="discovery",
            deadlines={"default": 24},
            reaction_mode="holders",
            listed=True,
        )
        services.table_join(proposal_id=waiting.pk, user=user_for_email("gil@example.org"))
        services.table_join(proposal_id=waiting.pk, user=user_for_email("hal@example.org"))


def test_the_host_fills_the_open_seats_with_bots_and_the_game_starts(host):
    table = open_table(host, open_seats=2)
    page = signed_in("host@example.org").post(
        reverse("lobby:proposal", args=[table.pk]), {"action": "fill_bots"}, follow=True
    )
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED and "the game has begun" in page.content.decode()
    assert table.game.seats.filter(is_bot=True).count() == 2
    with pytest.raises(services.LobbyError, match="Only the host"):
        services.table_fill_with_bots(proposal_id=open_table(host).pk, user=user_for_email("ana@example.org"))


def test_a_private_table_leaves_the_list_and_refuses_strangers(host):
    table = open_table(host, open_seats=1)
    signed_in("host@example.org").post(reverse("lobby:proposal", args=[table.pk]), {"action": "unlisted"})
    assert not OpenTable.objects.filter(number=table.pk).exists()
    with pytest.raises(services.LobbyError, match="no open table"):
        services.table_join(proposal_id=table.pk, user=user_for_email("ana@example.org"))
    signed_in("host@example.org").post(reverse("lobby:proposal", args=[table.pk]), {"action": "listed"})
    assert OpenTable.objects.filter(number=table.pk).exists()


def test_the_list_is_filtered_by_speed_language_and_player_count(host):
    brisk_en = open_table(host, open_seats=1)
    relaxed_fr = open_table(host, open_seats=3, language="fr", deadlines={"default": 96, "reaction": 24})
    client = Client()

    def listed(**query) -> set[int]:
        page = client.get(reverse("community:open_tables"), query).content.decode()
        return {int(n) for n in re.findall(r'data-table="(\d+)"', page)}

    assert listed() == {brisk_en.pk, relaxed_fr.pk}
    assert listed(language="fr") == {relaxed_fr.pk}
    assert listed(speed="brisk") == {brisk_en.pk}
    assert listed(players="2") == {brisk_en.pk} and listed(players="4") == {relaxed_fr.pk}
    assert listed(players="9", speed="nonsense") == {brisk_en.pk, relaxed_fr.pk}  # unknown: any


@pytest.mark.parametrize(
    ("language", "none_match", "every"),
    [
        ("en", "No open table matches these choices just now.", "Show every open table"),
        (
            "fr",
            "Aucune table ouverte ne correspond à ces choix pour l'instant.",
            "Voir toutes les tables ouvertes",
        ),
    ],
)
def test_a_filter_that_leaves_no_table_says_so_and_leads_back_to_every_table(
    host, language, none_match, every
):
    """An English table is open: the list narrowed to French ones does not say that no table is
    looking for players (one is), but that none matches the choices, with the way back."""
    open_table(host, open_seats=1)
    client = Client()
    client.cookies["django_language"] = language

    page = client.get(reverse("community:open_tables"), {"speed": "", "language": "fr", "players": ""})

    text = html.unescape(page.content.decode())
    assert none_match in text and every in text
    assert 'id="none-match"' in text and f'href="{reverse("community:open_tables")}"' in text
    assert "Open one: it will be listed here" not in text and "Ouvrez-en une" not in text


def test_a_table_not_filled_within_a_week_closes_and_tells_its_players(host):
    table = open_table(host, open_seats=2)
    services.table_join(proposal_id=table.pk, user=user_for_email("ana@example.org"))
    fresh = open_table(host, open_seats=1)
    mail.outbox.clear()
    assert services.close_stale_tables(timezone.now() + timedelta(days=6)) == []
    closed = services.close_stale_tables(timezone.now() + timedelta(days=7, minutes=1))
    assert set(closed) == {table.pk, fresh.pk}
    table.refresh_from_db()
    assert table.status == Proposal.Status.CLOSED and not OpenTable.objects.exists()
    after_the_grace()
    told = sorted(address for m in mail.outbox for address in m.to if f"table {table.pk}" in m.subject)
    assert told == ["ana@example.org", "host@example.org"]
    to_ana = [m for m in mail.outbox if m.to == ["ana@example.org"] and f"table {table.pk}" in m.subject][-1]
    assert f"Open table {table.pk}, where you had a seat, waited a week" in to_ana.body  # not "Your"
    # Ana came: the host is not told "nobody came", and the link leads to tables one can join.
    to_host = [m for m in mail.outbox if m.to == ["host@example.org"] and f"table {table.pk}" in m.subject]
    assert to_host[-1].subject == f"Your open table {table.pk} closed: not every seat was taken"
    assert to_ana.subject == f"Open table {table.pk} closed: not every seat was taken"
    assert "http://127.0.0.1:8000/tables/" in to_host[-1].body and "/new/" not in to_host[-1].body
    assert "Join another open table, or open one, here:" in to_host[-1].body
    with pytest.raises(services.LobbyError, match="closed: not filled within a week"):
        services.table_join(proposal_id=table.pk, user=user_for_email("bo@example.org"))


def test_a_table_made_open_late_waits_a_week_from_then(host):
    """The host waited eight days for the players they invited, then made the table open: it
    stays in the list a week from then, and the list says it has just started waiting."""
    table = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="ana@example.org"), services.PlaceSpec(email="bo@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
    )
    Proposal.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(days=8))
    services.invitation_answer(
        invitation=table.invitations.get(email="bo@example.org"),
        user=user_for_email("bo@example.org"),
        accept=False,
    )
    services.place_reinvite(proposal=table, user=host, position=2, email="cy@example.org")
    services.table_set_listed(proposal_id=table.pk, user=host, listed=True)
    assert services.close_stale_tables(timezone.now()) == []
    assert services.close_stale_tables(timezone.now() + timedelta(days=6)) == []
    assert services.close_stale_tables(timezone.now() + timedelta(days=7, minutes=1)) == [table.pk]


def test_the_list_counts_the_wait_from_when_the_table_was_made_open(host):
    """Open three days ago, private a while, open again: it has waited in the list since now."""
    table = open_table(host, open_seats=1)
    three_days_ago = timezone.now() - timedelta(days=3)
    Proposal.objects.filter(pk=table.pk).update(created_at=three_days_ago, listed_at=three_days_ago)
    services.table_set_listed(proposal_id=table.pk, user=host, listed=False)
    services.table_set_listed(proposal_id=table.pk, user=host, listed=True)
    row = OpenTable.objects.get(number=table.pk)
    assert timezone.now() - row.created_at < timedelta(minutes=1)


def test_rebuilding_the_projection_gives_what_the_feeds_gave(host):
    tables = [open_table(host, open_seats=n) for n in (1, 2, 3)]
    services.table_join(proposal_id=tables[1].pk, user=user_for_email("ana@example.org"))
    services.table_join(proposal_id=tables[0].pk, user=user_for_email("bo@example.org"))  # starts it
    services.table_set_listed(proposal_id=tables[2].pk, user=host, listed=False)
    services.table_set_listed(proposal_id=tables[2].pk, user=host, listed=True)
    set_display_name("host@example.org", "Brigid")

    def rows():
        return list(OpenTable.objects.order_by("number").values())

    incremental = rows()
    assert [r["number"] for r in incremental] == [tables[1].pk, tables[2].pk]
    position = ProjectionPosition.objects.get(name="open_tables").position
    assert position == GatheringEvent.objects.latest("id").id
    OpenTable.objects.filter(number=tables[1].pk).update(seats_filled=0)  # a damaged read model
    out = io.StringIO()
    call_command("rebuild_projections", "open_tables", stdout=out)
    assert rows() == incremental and "log rows folded" in out.getvalue()
    assert ProjectionPosition.objects.get(name="open_tables").position == position
    assert projections.feed() == 0  # nothing left to fold


def test_a_host_who_changes_their_name_is_read_by_it_on_the_list_at_once(host):
    """docs/open-tables.md: the list names each table's host by the name they chose. Brigid
    renames herself "Brigid of Kildare" on "My games" while her table waits for players: a
    stranger's next look at the list, and the list by email, name her so, not only once
    somebody joins. Another host's table keeps its host's name."""
    set_display_name("cy@example.org", "Cy")
    table = open_table(host, open_seats=2)
    others = open_table(user_for_email("cy@example.org"), open_seats=1)

    response = signed_in("host@example.org").post(
        reverse("lobby:name"), {"display_name": "Brigid of Kildare"}
    )

    assert response.status_code == 302
    page = Client().get(reverse("community:open_tables")).content.decode()
    row = re.search(rf'<tr data-table="{table.pk}">.*?</tr>', page, re.S).group(0)
    assert "Brigid of Kildare" in row
    assert "Cy" in re.search(rf'<tr data-table="{others.pk}">.*?</tr>', page, re.S).group(0)
    email_to_service("ana@example.org", "list")
    assert f"Table {table.pk}, hosted by Brigid of Kildare:" in last_to("ana@example.org").body


def email_to_service(sender: str, body: str, *, to: str = "inis@localhost", subject: str = "tables") -> str:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message["Message-ID"] = f"<{abs(hash((sender, body, to)))}@example.org>"
    message.set_content(body)
    out = io.StringIO()
    call_command("receive_email", stdin=io.BytesIO(message.as_bytes()), stdout=out)
    after_the_grace()
    return out.getvalue()


def last_to(address: str):
    return [m for m in mail.outbox if address in m.to][-1]


def test_a_game_by_email_joined_with_list_and_join(host):
    table = open_table(host, open_seats=2)
    french = open_table(host, open_seats=1, language="fr")
    email_to_service("ana@example.org", "list")
    answer = last_to("ana@example.org")
    assert f"Table {table.pk}, hosted by Brigid: 1 of 3 seats taken" in answer.body
    assert f"Table {french.pk}," not in answer.body  # the tables of the reader's language
    assert "host@example.org" not in answer.body
    reply_to = answer.reply_to[0]
    assert re.fullmatch(r"inis\+t\d+\.[0-9a-f]{24}@localhost", reply_to)

    # join N to the plain address proves no mailbox (a From header can be forged): no seat
    email_to_service("ana@example.org", f"join {table.pk}")
    assert not Invitation.objects.filter(email="ana@example.org").exists()
    assert f"reply to this email with: join {table.pk}" in last_to("ana@example.org").body

    email_to_service("ana@example.org", f"join {table.pk}", to=reply_to)
    assert "You have a seat at table" in last_to("ana@example.org").body
    email_to_service("ana@example.org", f"Join table {table.pk}\n\nthanks", to=reply_to)
    assert f"You already have a seat at table {table.pk}." in last_to("ana@example.org").body

    email_to_service("bo@example.org", "liste")
    bo_reply_to = last_to("bo@example.org").reply_to[0]
    email_to_service("bo@example.org", f"rejoindre {table.pk}", to=bo_reply_to)
    table.refresh_from_db()
    assert table.status == Proposal.Status.STARTED
    assert "every seat is taken, the game has begun" in last_to("bo@example.org").body
    email_to_service("cy@example.org", "list")
    cy_reply_to = last_to("cy@example.org").reply_to[0]
    email_to_service("cy@example.org", f"join {table.pk}", to=cy_reply_to)
    assert f"Table {table.pk} is started: nobody can join it any more." in last_to("cy@example.org").body
    statuses = list(InboundEmail.objects.order_by("id").values_list("status", flat=True))
    assert statuses == [
        "accepted",
        "rejected",
        "accepted",
        "rejected",
        "accepted",
        "accepted",
        "accepted",
        "rejected",
    ]


def test_a_forged_tables_address_seats_nobody(host):
    table = open_table(host, open_seats=2)
    email_to_service("ana@example.org", "list")
    reply_to = last_to("ana@example.org").reply_to[0]
    forged = reply_to.replace(reply_to.split(".")[1][:4], "0000")
    email_to_service("eve@example.org", f"join {table.pk}", to=forged)
    assert not Invitation.objects.filter(joined=True).exists()
    assert InboundEmail.objects.order_by("-id").first().status == "bad_token"


def test_a_french_player_reads_the_list_in_french(host):
    table = open_table(host, open_seats=1, language="fr")
    from players.models import Player

    Player.objects.update_or_create(email="zoe@example.org", defaults={"language": "fr"})
    email_to_service("zoe@example.org", "liste")
    answer = last_to("zoe@example.org")
    assert f"Table {table.pk}, organisée par Brigid" in answer.body and "rejoindre" in answer.body.lower()


def test_a_host_opens_a_table_from_the_form_within_the_hourly_limit(host, settings):
    settings.TABLES_CREATED_PER_HOUR = 1
    client = signed_in("host@example.org")
    form = {
        "host_plays": "on",
        "bots": "0",
        "open_seats": "2",
        "listed": "on",
        "language": "fr",
        "setup": "random",
        "deadlines": "relaxed",
        "reaction_mode": "holders",
    }
    response = client.post(reverse("lobby:new"), form)
    table = Proposal.objects.get()
    assert response.status_code == 302 and table.listed and table.language == "fr"
    assert OpenTable.objects.get().speed == "relaxed"
    again = client.post(reverse("lobby:new"), form)
    assert again.status_code == 400 and "too many tables this hour" in again.content.decode()
    private = client.post(reverse("lobby:new"), {**form, "listed": ""})
    assert Proposal.objects.count() == 1 and private.status_code == 400


def test_joining_too_often_in_an_hour_is_refused(host, settings):
    settings.OPEN_TABLE_JOINS_PER_HOUR = 1
    first, second = open_table(host, open_seats=2), open_table(host, open_seats=2)
    ana = signed_in("ana@example.org")
    ana.post(reverse("community:join", args=[first.pk]))
    page = ana.post(reverse("community:join", args=[second.pk]), follow=True).content.decode()
    assert "You joined tables too often this hour" in page
    assert not Invitation.objects.filter(proposal=second, email="ana@example.org").exists()


def full_table(host, taker: str):
    """An open table still gathering with no open seat: its one open seat taken by `taker`, the
    seat the host asked somebody for not answered yet."""
    table = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="asked@example.org"), services.PlaceSpec(is_open=True)],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24},
        reaction_mode="holders",
        listed=True,
    )
    services.table_join(proposal_id=table.pk, user=user_for_email(taker))
    return table


def test_joins_refused_by_full_tables_do_not_count_against_the_hourly_limit(host, settings):
    """The limit counts the seats taken: three full tables tried in a row cost nothing, the
    player then takes the two seats allowed, and only a third is refused, again and again."""
    settings.OPEN_TABLE_JOINS_PER_HOUR = 2
    full = [full_table(host, "cy@example.org") for _ in range(3)]
    open_ones = [open_table(host, open_seats=2) for _ in range(4)]
    ana = signed_in("ana@example.org")
    for table in full:
        page = ana.post(reverse("community:join", args=[table.pk]), follow=True).content.decode()
        assert f"Table {table.pk} is full." in page
    for table in open_ones[:2]:
        response = ana.post(reverse("community:join", args=[table.pk]))
        assert response.url == reverse("lobby:proposal", args=[table.pk])
    for table in open_ones[2:]:
        page = ana.post(reverse("community:join", args=[table.pk]), follow=True).content.decode()
        assert "You joined tables too often this hour" in page
    seats = Invitation.objects.filter(email="ana@example.org", joined=True)
    assert sorted(seats.values_list("proposal_id", flat=True)) == [t.pk for t in open_ones[:2]]


def test_joins_by_email_refused_by_full_tables_do_not_count_and_share_the_web_limit(host, settings):
    """`join N` by email counts as the web does, in the same count: three full tables refused,
    a seat by email and one on the web are the two allowed, and the next `join N` is refused."""
    settings.OPEN_TABLE_JOINS_PER_HOUR = 2
    full = [full_table(host, "cy@example.org") for _ in range(3)]
    by_mail, on_the_web, one_too_many = (open_table(host, open_seats=2) for _ in range(3))
    email_to_service("ana@example.org", "list")
    reply_to = last_to("ana@example.org").reply_to[0]
    for table in full:
        email_to_service("ana@example.org", f"join {table.pk}", to=reply_to)
        assert f"Table {table.pk} is full." in last_to("ana@example.org").body
    email_to_service("ana@example.org", f"join {by_mail.pk}", to=reply_to)
    assert f"You have a seat at table {by_mail.pk}." in last_to("ana@example.org").body
    signed_in("ana@example.org").post(reverse("community:join", args=[on_the_web.pk]))
    email_to_service("ana@example.org", f"join {one_too_many.pk}", to=reply_to)
    assert "You joined tables too often this hour" in last_to("ana@example.org").body
    seats = Invitation.objects.filter(email="ana@example.org", joined=True)
    assert sorted(seats.values_list("proposal_id", flat=True)) == [by_mail.pk, on_the_web.pk]
    assert (
        InboundEmail.objects.order_by("-id").first().detail.startswith("Tables: join refused (rate limit).")
    )


def test_the_list_joins_from_one_form_and_pages_through_many_tables(host, monkeypatch):
    from community import views

    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    tables = [open_table(host, open_seats=1) for _ in range(3)]
    client = signed_in("ana@example.org")
    first = client.get(reverse("community:open_tables")).content.decode()
    assert re.findall(r'data-table="(\d+)"', first) == [str(t.pk) for t in tables[:2]]
    assert "Tables 1 to 2 of 3." in first and "page=2" in first
    second = client.get(reverse("community:open_tables"), {"page": "2"}).content.decode()
    assert re.findall(r'data-table="(\d+)"', second) == [str(tables[2].pk)]
    assert client.get(reverse("community:open_tables"), {"page": "99"}).status_code == 200
    assert f'name="table" value="{tables[0].pk}"' in first  # the signed-in player's join button
    response = client.post(reverse("community:join_posted"), {"table": str(tables[0].pk)})
    assert response.url == reverse("games:detail", args=[Proposal.objects.get(pk=tables[0].pk).game_id])
    refused = client.post(reverse("community:join_posted"), {"table": "x"}, follow=True).content.decode()
    assert "Choose a table of the list." in refused


@pytest.mark.postgres
def test_the_gathering_log_is_append_only(host):
    """The gathering's log refuses UPDATE and DELETE as the game logs do (PostgreSQL), so the
    list rebuilt from it is the list the lobby wrote."""
    from django.db import DatabaseError, transaction

    open_table(host)
    event = GatheringEvent.objects.get()
    with pytest.raises(DatabaseError), transaction.atomic():
        GatheringEvent.objects.filter(pk=event.pk).update(type="edited")
    with pytest.raises(DatabaseError), transaction.atomic():
        GatheringEvent.objects.filter(pk=event.pk).delete()
    assert GatheringEvent.objects.get().type == "created"


def test_mail_that_is_no_command_gets_the_usual_answer_which_tells_of_list(host):
    email_to_service("ana@example.org", "hello, how do I play?")
    answer = last_to("ana@example.org")
    assert "was not read as a move" in answer.body and "just the word list" in answer.body
    assert InboundEmail.objects.get().status == "no_token" and not answer.reply_to


def test_the_host_never_reads_the_address_of_a_player_who_joined(host):
    table = open_table(host, open_seats=1)
    set_display_name("ana@example.org", "Ana")
    services.table_join(proposal_id=table.pk, user=user_for_email("ana@example.org"))
    table.refresh_from_db()
    host_client = signed_in("host@example.org")
    tools = host_client.get(reverse("lobby:host", args=[table.game_id])).content.decode()
    assert "Ana" in tools and "ana@example.org" not in tools
    gathered = host_client.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    assert "Ana" in gathered and "ana@example.org" not in gathered


def test_list_from_no_address_makes_no_account_and_is_not_answered(host):
    email_to_service("not an address", "list")
    assert InboundEmail.objects.get().status == "no_token"
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.count() == 1  # the host alone


def test_with_a_broker_the_relay_feeds_the_list(host, settings):
    """With a broker the lobby's commit feeds nothing itself: the relay's pass does."""
    from inis_pbem import relay
    from inis_pbem.celery import app as celery_app

    celery_app.conf.task_always_eager = False
    table = open_table(host, open_seats=1)
    assert not OpenTable.objects.filter(number=table.pk).exists()
    relay.run(once=True)
    assert OpenTable.objects.filter(number=table.pk).exists()


def test_the_relay_feeds_the_list_when_the_gathering_log_woke_it_not_a_move(host, settings):
    """A pass woken by a move's emails alone (the outbox's NOTIFY) leaves the list as it is; one
    woken by the gathering's log (its NOTIFY names its table) feeds it."""
    from inis_pbem import relay
    from inis_pbem.celery import app as celery_app
    from notifications.models import Outbox

    celery_app.conf.task_always_eager = False
    table = open_table(host, open_seats=1)
    assert relay.feed_read_models(frozenset({Outbox._meta.db_table, ""})) == 0
    assert not OpenTable.objects.filter(number=table.pk).exists()
    assert relay.feed_read_models(frozenset({GatheringEvent._meta.db_table})) > 0
    assert OpenTable.objects.filter(number=table.pk).exists()


def test_the_join_page_of_a_table_you_sit_at_offers_its_page_not_a_seat(host):
    """The page a join link leads to (after signing in by the emailed link) offers "Take a
    seat"; to the table's host, or to a player who has a seat there already, it says so and
    links to the table's page instead of a button that could only be refused."""
    table = open_table(host, open_seats=2)
    address = reverse("community:join", args=[table.pk])
    ana = signed_in("ana@example.org")
    assert "Take a seat" in ana.get(address).content.decode()
    ana.post(address)
    for client in (ana, signed_in("host@example.org")):
        page = client.get(address).content.decode()
        assert "Take a seat" not in page and "You already have a seat at this table" in page
        assert reverse("lobby:proposal", args=[table.pk]) in page


def test_the_join_page_of_a_table_that_never_existed_says_there_is_none(host):
    """/tables/999/join/ for a table nobody ever made: 404, "There is no table 999", not the
    words of a table that stopped looking for players; a started table keeps those words."""
    ana = signed_in("ana@example.org")
    missing = ana.get(reverse("community:join", args=[999_999]))
    assert missing.status_code == 404
    text = missing.content.decode()
    assert "There is no table 999999" in text and "not looking for players any more" not in text
    assert reverse("community:open_tables") in text
    started = open_table(host, open_seats=1)
    services.table_fill_with_bots(proposal_id=started.pk, user=host)
    page = ana.get(reverse("community:join", args=[started.pk]))
    assert page.status_code == 200 and "not looking for players any more" in page.content.decode()


def test_the_open_seats_given_to_bots_play_as_the_host_chose_when_proposing(host):
    """The host proposes an open table with no bot and "How the bots play: Beginner", then gives
    the open seats to bots: they are Beginner bots, not the default hard ones. A seat the host
    gives to a bot on a private table plays at the chosen level too."""
    client = signed_in("host@example.org")
    form = {
        "host_plays": "on",
        "bots": "0",
        "bot_level": "random",
        "open_seats": "2",
        "listed": "on",
        "setup": "random",
        "deadlines": "relaxed",
        "reaction_mode": "holders",
    }
    client.post(reverse("lobby:new"), form)
    table = Proposal.objects.get()
    client.post(reverse("lobby:proposal", args=[table.pk]), {"action": "fill_bots"})
    table.refresh_from_db()
    assert [(s.is_bot, s.bot_level) for s in table.game.seats.order_by("position")][1:] == [
        (True, "random")
    ] * 2

    invited = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="ana@example.org")],
        host_plays=True,
        setup="random",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
        bot_level="easy",
    )
    services.invitation_answer(
        invitation=invited.invitations.get(position=1), user=user_for_email("ana@example.org"), accept=False
    )
    client.post(reverse("lobby:proposal", args=[invited.pk]), {"action": "bot", "position": "1"})
    invited.refresh_from_db()
    assert invited.game.seats.get(position=1).bot_level == "easy"
