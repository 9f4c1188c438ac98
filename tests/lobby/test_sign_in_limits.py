"""/signin/ is rate-limited per client, per mailbox and in all (lobby.sign_in_limits): 25 requests
no longer send 25 emails, however the address is spelt, and the answer is the same for an
address we know and one we do not."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from players.accounts import user_for_email

# Real commits: a sign-in link is written to the outbox and delivered after the commit.
pytestmark = pytest.mark.django_db(transaction=True)


def ask(client, email, **extra):
    return client.post(reverse("lobby:sign_in"), {"email": email}, **extra)


def page_text(response, email) -> str:
    """The page, with the address asked for and the CSRF token taken out."""
    body = response.content.decode().replace(email, "ADDRESS")
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", body)


def test_twenty_five_requests_for_one_address_send_at_most_the_hourly_limit(db, settings):
    user_for_email("victim@example.org")
    statuses = [ask(Client(REMOTE_ADDR=f"10.0.0.{n}"), "victim@example.org").status_code for n in range(25)]
    limit = settings.SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR
    assert len(mail.outbox) == limit
    assert statuses[:limit] == [200] * limit and set(statuses[limit:]) == {429}


def test_one_client_cycling_through_addresses_is_stopped(db, settings):
    client = Client(REMOTE_ADDR="10.1.2.3")
    statuses = [ask(client, f"p{n}@example.org").status_code for n in range(25)]
    limit = settings.SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR
    assert len(mail.outbox) == limit and statuses[limit:] == [429] * (25 - limit)
    assert ask(Client(REMOTE_ADDR="10.9.9.9"), "p99@example.org").status_code == 200  # another client


def test_the_limited_answer_is_the_same_for_a_known_and_an_unknown_address(db, settings):
    settings.SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR = 2
    user_for_email("known@example.org")
    answers = {}
    for email in ("known@example.org", "unknown@example.org"):
        client = Client(REMOTE_ADDR="10.3.3.3" if email.startswith("known") else "10.4.4.4")
        first = [ask(client, email) for _ in range(2)]
        limited = ask(client, email)
        answers[email] = (
            [r.status_code for r in first],
            page_text(first[0], email),
            limited.status_code,
            page_text(limited, email),
        )
    assert answers["known@example.org"] == answers["unknown@example.org"]
    assert answers["known@example.org"][2] == 429
    assert "Too many sign-in links" in answers["known@example.org"][3]
    assert len(mail.outbox) == 4


def test_the_client_address_comes_from_the_proxy_header_only_when_configured(db, settings):
    settings.SIGN_IN_REQUESTS_PER_CLIENT_PER_HOUR = 1
    proxy = Client(REMOTE_ADDR="10.0.0.1")
    # Not configured: a client's own X-Real-IP is ignored; both requests come from 10.0.0.1.
    assert ask(proxy, "a@example.org", HTTP_X_REAL_IP="1.1.1.1").status_code == 200
    assert ask(proxy, "b@example.org", HTTP_X_REAL_IP="2.2.2.2").status_code == 429
    settings.CLIENT_IP_HEADER = "X-Real-IP"
    assert ask(proxy, "c@example.org", HTTP_X_REAL_IP="3.3.3.3").status_code == 200
    assert ask(proxy, "d@example.org", HTTP_X_REAL_IP="4.4.4.4").status_code == 200
    assert ask(proxy, "e@example.org", HTTP_X_REAL_IP="4.4.4.4").status_code == 429


# One mailbox written twelve ways: case, plus-tags, a full-width "m", a whole full-width domain
# and a Roman numeral "m" (U+217F) in it: mail to each is delivered to victim@example.org.
ONE_MAILBOX = [
    "victim@example.org",
    "Victim@Example.org",
    "victim+1@example.org",
    "victim+2@example.org",
    "VICTIM+inis@EXAMPLE.ORG",
    "victim@exa\uff4dple.org",
    "victim+3@exa\uff4dple.org",
    "victim@\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.org",
    "victim+4@exa\u217fple.org",
    "victim+5@Exa\uff4dple.org",
    "victim+6@example.org",
    "victim+7@EXA\uff2dPLE.org",
]


def test_plus_tags_case_and_look_alike_domains_share_the_quota_of_their_one_mailbox(db, settings):
    statuses = [
        ask(Client(REMOTE_ADDR=f"10.7.0.{n}"), email).status_code for n, email in enumerate(ONE_MAILBOX)
    ]

    limit = settings.SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR
    assert statuses[:limit] == [200] * limit and set(statuses[limit:]) == {429}
    assert len(mail.outbox) == limit


def test_each_link_goes_to_the_address_typed_and_a_look_alike_is_the_same_account(db):
    victim = user_for_email("victim@example.org")
    for n, email in enumerate(["victim+games@example.org", "victim@exa\uff4dple.org"]):
        assert ask(Client(REMOTE_ADDR=f"10.8.0.{n}"), email).status_code == 200

    # The tag is kept: it is where the player wants the mail; the full-width m is the domain's
    # own letter, as delivery writes it, and its account is the victim's, not a second one.
    assert [m.to for m in mail.outbox] == [["victim+games@example.org"], ["victim@example.org"]]
    assert user_for_email("victim@exa\uff4dple.org") == victim
    assert get_user_model().objects.filter(email__startswith="victim@").count() == 1


def test_all_sign_in_links_of_an_hour_are_capped_whoever_asks_for_whatever_address(db, settings):
    settings.SIGN_IN_LINKS_PER_HOUR = 4

    statuses = [ask(Client(REMOTE_ADDR=f"10.9.0.{n}"), f"flood{n}@example.org").status_code for n in range(7)]

    assert statuses == [200] * 4 + [429] * 3
    assert len(mail.outbox) == 4


def test_refused_requests_do_not_spend_the_hours_links(db, settings):
    settings.SIGN_IN_LINKS_PER_HOUR, settings.SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR = 3, 1
    for n in range(5):  # one link to the victim, then four refusals for the same mailbox
        ask(Client(REMOTE_ADDR=f"10.10.0.{n}"), f"victim+{n}@example.org")

    statuses = [ask(Client(REMOTE_ADDR=f"10.11.0.{n}"), f"p{n}@example.org").status_code for n in range(3)]
    assert statuses == [200, 200, 429]
