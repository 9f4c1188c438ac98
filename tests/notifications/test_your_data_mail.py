"""`my data` and `erase my account` by email (docs/email-commands.md): answered with a link, only
to the account of the sender's address; a stranger gets no link; the erasure link erases only on
its page's button."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from players.accounts import user_for_email
from players.erasure import is_erased
from players.preferences import player_for
from tests.community.test_open_tables import email_to_service, last_to
from tests.notifications import mail_clients
from tests.notifications.test_inbound import feed

pytestmark = pytest.mark.django_db(transaction=True)


def test_my_data_by_email_answers_the_account_with_a_link_that_downloads_it():
    user_for_email("ana@example.org")
    email_to_service("ana@example.org", "my data", subject="data")
    answer = last_to("ana@example.org")
    assert answer.subject == "Your data on Inis by email"
    link = re.search(r"(http\S+/email/my-data/\S+)", answer.body)[1]
    response = Client().get(link.replace("http://localhost:8000", ""), follow=True)
    assert response["Content-Type"] == "application/zip"


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
