"""`my data` and `erase my account` by email (docs/email-commands.md): answered with a link, only
to the account of the sender's address; a stranger gets no link; the erasure link erases only on
its page's button."""

from __future__ import annotations

import io
import json
import re
import time
import zipfile
from urllib.parse import urlsplit

import pytest
from django.core import mail, signing
from django.test import Client
from django.urls import reverse

from players.accounts import user_for_email
from players.erasure import is_erased
from players.preferences import player_for
from players.signed_tokens import MY_DATA_LINK_DAYS
from tests.community.test_open_tables import email_to_service, last_to
from tests.notifications import mail_clients
from tests.notifications.test_inbound import feed

pytestmark = pytest.mark.django_db(transaction=True)


def my_data_link(address: str) -> str:
    """The path of the link answering `address`'s "my data" email."""
    email_to_service(address, "my data", subject="data")
    answer = last_to(address)
    assert answer.subject == "Your data on Inis by email"
    found = re.search(r"(http\S+/email/my-data/\S+)", answer.body)
    assert found, answer.body
    return urlsplit(found[1]).path


def test_my_data_by_email_answers_the_account_with_a_link_that_downloads_it_and_signs_nobody_in():
    user_for_email("ana@example.org")
    link = my_data_link("ana@example.org")
    friend = Client()
    response = friend.get(link)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    account = json.loads(zipfile.ZipFile(io.BytesIO(response.content)).read("account.json"))
    assert "ana@example.org" in json.dumps(account)
    assert "_auth_user_id" not in friend.session
    assert "My games" not in friend.get("/").content.decode()
    # The signed-in download stays as it was: for the account signed in only.
    assert friend.get(reverse("email:my_data")).status_code == 302


def test_the_link_goes_to_the_accounts_own_address_as_stored_not_as_the_from_line_spells_it():
    """docs/privacy.md: `my data` is answered "to the account's own address only". A From line
    in capitals reaches the same account, and the answer goes to the address the account keeps."""
    user_for_email("ana@example.org")
    mail.outbox.clear()
    email_to_service("Ana <ANA@Example.ORG>", "my data", subject="data")
    (answer,) = [sent for sent in mail.outbox if sent.subject == "Your data on Inis by email"]
    assert answer.to == ["ana@example.org"]


def test_a_forged_expired_or_other_accounts_data_link_downloads_nothing(monkeypatch):
    user_for_email("ana@example.org")
    bob = user_for_email("bob@example.org")
    link = my_data_link("ana@example.org")
    token = link.rstrip("/").rsplit("/", 1)[1]
    _user, rest = token.split(".", 1)
    for bad in (f"{bob.pk}.{rest}", token[:-4] + "AAAA", "garbled"):
        refused = Client().get(link.replace(token, bad))
        assert refused.status_code == 400 and refused["Content-Type"].startswith("text/html")
        assert "not made by this site for this account" in refused.content.decode()
    later = time.time() + (MY_DATA_LINK_DAYS * 24 + 1) * 3600
    monkeypatch.setattr(signing.time, "time", lambda: later)
    expired = Client().get(link)
    assert expired.status_code == 400 and "This link ran out" in expired.content.decode()


def test_a_stranger_asking_for_data_gets_no_link():
    email_to_service("nobody@example.org", "my data", subject="data")
    assert not [m for m in mail.outbox if "/email/my-data/" in m.body]


def test_erase_my_account_in_french_answers_with_the_page_and_erases_nothing_yet():
    user = user_for_email("bea@example.org")
    player = player_for("bea@example.org")
    player.language = "fr"
    player.save()
    email_to_service("bea@example.org", "Effacer mon compte.", subject="effacer")
    answer = last_to("bea@example.org")
    assert answer.subject == "Effacer votre compte sur Inis by email"
    assert not is_erased(user.pk)
    path = re.search(r"http\S+(/email/erase/\S+/)", answer.body)[1]
    assert Client().post(path).status_code == 200
    assert is_erased(user.pk)


def test_my_data_and_erase_my_account_from_html_only_mail_clients_are_read():
    """docs/email-commands.md: HTML-only mail (Word's HTML from Outlook too) is read as the text
    it shows: a reply to the service's answer, to its plain address, asks again."""
    user_for_email("cid@example.org")
    email_to_service("cid@example.org", "my data", subject="data")
    first = last_to("cid@example.org")
    feed(mail_clients.html_only(first, "Erase my account", sender="cid@example.org", to="inis@localhost"))
    erase = last_to("cid@example.org")
    assert erase.subject == "Erasing your account on Inis by email"
    feed(mail_clients.outlook_word_html(erase, "My data", sender="cid@example.org", to="inis@localhost"))
    assert last_to("cid@example.org").subject == "Your data on Inis by email"


def test_the_hourly_cap_counts_the_mailbox_whatever_the_spelling_of_the_from_line(settings):
    """docs/email-commands.md, "Limits": mail without a valid reply address is answered at most
    EMAIL_ANSWERS_PER_HOUR times an hour per address; docs/security.md counts a mailbox by its
    key. Capitals or a full-width letter in the domain reach the same inbox: they share the cap,
    so a forger cannot send a player's inbox one more stream of answers per spelling."""
    settings.EMAIL_ANSWERS_PER_HOUR = 3
    user_for_email("ana@example.org")
    mail.outbox.clear()
    for spelling in ("ana@example.org", "ANA@example.org", "ana@exaｍple.org"):
        for attempt in range(3):  # each a message of its own (its own Message-ID)
            email_to_service(spelling, f"my data\n\n{attempt}", subject="data")
    assert len([m for m in mail.outbox if m.subject == "Your data on Inis by email"]) == 3
    mail.outbox.clear()
    for spelling in ("bob@example.org", "BOB@example.org", "bob@exaｍple.org", "Bob+x@Example.org"):
        for attempt in range(3):
            email_to_service(spelling, f"list\n\n{attempt}", subject="tables")
    assert len(mail.outbox) == 3
