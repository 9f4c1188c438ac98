"""Every signed token (players.signed_tokens): forged, expired and cross-purpose tokens are
refused with a reason that says which; tokens already sent in emails keep acting; a reply
address fits in an email address's local part."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.core import signing
from django.test import override_settings
from django.urls import reverse
from django.utils.crypto import salted_hmac

from notifications.tokens import LOCAL_PART_MAX, reply_address
from players import signed_tokens as st
from players.accounts import user_for_email
from players.preferences import player_for

SECRET = "seat-secret-of-green"
OTHER_SECRET = "seat-secret-of-blue"
ADDRESS = "ann@example.org"


def reason_of(call) -> str:
    with pytest.raises(st.BadToken) as refused:
        call()
    return refused.value.reason


def every_purpose() -> dict[str, str]:
    """One token of each purpose, each over the same ids where it can."""
    return {
        "reply": st.reply_token(game_id=7, seat_id=7, seq=7, seat_secret=SECRET),
        "seat link": st.seat_link_token(game_id=7, seat_id=7, seat_secret=SECRET),
        "email links": st.email_links_token(7),
        "unfollow": st.unfollow_token(user_id=7, game_id=7),
        "invitation": st.invitation_token(invitation_id=7, email=ADDRESS),
        "my data": st.my_data_token(user_id=7, email=ADDRESS),
    }


def readers() -> dict:
    """Each purpose's check, as the pages and the inbound mail call it."""
    return {
        "reply": lambda token: st.check_reply_token(token, SECRET),
        "seat link": lambda token: st.check_seat_link(
            token, game_id=7, seat_secret=SECRET, max_age=timedelta(days=7)
        ),
        "email links": st.read_email_links_token,
        "unfollow": st.read_unfollow_token,
        "invitation": lambda token: st.check_invitation_token(token, email=ADDRESS),
        "my data": lambda token: st.check_my_data_token(token, email=ADDRESS),
    }


def test_each_token_acts_for_its_own_purpose():
    tokens = every_purpose()
    st.check_reply_token(tokens["reply"], SECRET)
    assert st.read_reply_token(tokens["reply"]) == st.ReplyToken(7, 7, 7)
    st.check_seat_link(tokens["seat link"], game_id=7, seat_secret=SECRET, max_age=timedelta(days=7))
    assert st.read_email_links_token(tokens["email links"]) == 7
    assert st.read_unfollow_token(tokens["unfollow"]) == (7, 7)
    assert st.read_unfollow_token(st.unfollow_token(user_id=3)) == (3, None)
    st.check_invitation_token(tokens["invitation"], email=ADDRESS)
    assert st.invitation_token_id(tokens["invitation"]) == 7
    st.check_my_data_token(tokens["my data"], email=ADDRESS)
    assert st.my_data_token_user(tokens["my data"]) == 7


def test_an_invitation_or_data_link_made_for_another_address_is_forged():
    """Their address is in the salt: a seat asked of somebody else, or an account whose email
    changed, ends them."""
    invitation = st.invitation_token(invitation_id=7, email=ADDRESS)
    assert reason_of(lambda: st.check_invitation_token(invitation, email="cy@example.org")) == "forged"
    data = st.my_data_token(user_id=7, email=ADDRESS)
    assert reason_of(lambda: st.check_my_data_token(data, email="cy@example.org")) == "forged"


PURPOSES = ["reply", "seat link", "email links", "unfollow", "invitation", "my data"]


@pytest.mark.parametrize(
    ("made_for", "used_for"), [(made, used) for made in PURPOSES for used in PURPOSES if made != used]
)
def test_a_token_of_one_purpose_never_works_for_another(made_for, used_for):
    token = every_purpose()[made_for]
    assert reason_of(lambda: readers()[used_for](token)) in ("damaged", "forged")


def test_a_token_given_the_form_of_another_purpose_is_still_refused_by_its_signature():
    """The same HMAC value under the reply salt, dressed as a player's email link: forged."""
    reply = st.reply_token(game_id=1, seat_id=2, seq=3, seat_secret=SECRET)
    hex_signature = reply.rsplit(".", 1)[1]
    assert reason_of(lambda: st.read_email_links_token(f"7.{hex_signature}")) == "forged"


def test_a_forged_or_tampered_token_is_refused_as_forged():
    tokens = every_purpose()
    value, signature = tokens["email links"].split(".")
    assert reason_of(lambda: st.read_email_links_token(f"8.{signature}")) == "forged"
    reply = tokens["reply"]
    assert reason_of(lambda: st.check_reply_token(reply.replace("7.7.7.", "7.7.8.", 1), SECRET)) == "forged"
    # The seat changed hands: its new secret refuses the old player's reply address and link.
    assert reason_of(lambda: st.check_reply_token(reply, OTHER_SECRET)) == "forged"
    link = tokens["seat link"]
    assert (
        reason_of(
            lambda: st.check_seat_link(link, game_id=7, seat_secret=OTHER_SECRET, max_age=timedelta(days=7))
        )
        == "forged"
    )
    assert (
        reason_of(lambda: st.check_seat_link(link, game_id=8, seat_secret=SECRET, max_age=timedelta(days=7)))
        == "forged"
    )
    unfollow = tokens["unfollow"]
    assert reason_of(lambda: st.read_unfollow_token(unfollow.replace("7-7:", "7-all:"))) == "forged"


def test_a_token_signed_with_another_secret_key_is_refused_but_a_rotated_key_still_acts():
    with override_settings(SECRET_KEY="an-older-key-" + "x" * 40):
        old = st.email_links_token(5)
    assert reason_of(lambda: st.read_email_links_token(old)) == "forged"
    with override_settings(SECRET_KEY_FALLBACKS=["an-older-key-" + "x" * 40]):
        assert st.read_email_links_token(old) == 5


def test_an_expired_seat_link_is_refused_as_expired():
    token = st.seat_link_token(game_id=7, seat_id=7, seat_secret=SECRET)
    later = time.time() + timedelta(days=7, seconds=1).total_seconds()
    with mock.patch("django.core.signing.time.time", return_value=later):
        assert (
            reason_of(
                lambda: st.check_seat_link(token, game_id=7, seat_secret=SECRET, max_age=timedelta(days=7))
            )
            == "expired"
        )


@pytest.mark.parametrize("token", ["", "7", "7.", "abc.def", "7.7.7.ZZZ", "1\x00.2", "7-7", "x" * 500])
def test_damaged_tokens_are_refused_as_damaged(token):
    for purpose, read in readers().items():
        reason = reason_of(lambda: read(token))
        assert reason == "damaged", (purpose, token, reason)


def test_a_reply_token_survives_a_mail_system_that_changes_the_case():
    token = st.reply_token(game_id=12, seat_id=345, seq=6789, seat_secret=SECRET)
    st.check_reply_token(token.upper(), SECRET)
    assert st.read_reply_token(token.upper()) == st.ReplyToken(12, 345, 6789)


@override_settings(INBOUND_EMAIL="Inis <inis-replies@example.org>")
def test_a_reply_address_fits_in_an_email_local_part():
    """RFC 5321: a local part is at most 64 characters. With a 12-character local part and ids
    of 8 digits (a hundred million games, seats and decisions), the reply address still fits."""
    address = reply_address(game_id=99_999_999, seat_id=99_999_999, seq=99_999_999, seat_secret=SECRET)
    local = address.rpartition("@")[0]
    assert local.startswith("inis-replies+")
    assert len(local) <= LOCAL_PART_MAX
    assert len(
        st.reply_token(game_id=10**12 - 1, seat_id=10**12 - 1, seq=10**12 - 1, seat_secret=SECRET)
    ) == (st.REPLY_TOKEN_MAX)


def legacy_email_links_token(player_id: int) -> str:
    """A player's email links token as emails carried it until November 2026: the player's id
    and the hex HMAC under the salt "notifications.player"."""
    value = str(player_id)
    signature = salted_hmac("notifications.player" + "signer", value, algorithm="sha256").hexdigest()[:24]
    return f"{value}.{signature}"


def test_email_links_of_emails_already_sent_act_until_the_end_of_their_grace():
    old = legacy_email_links_token(42)
    before = st.LEGACY_EMAIL_LINKS_UNTIL - timedelta(seconds=1)
    assert st.read_email_links_token(old, now=before) == 42
    assert st.read_email_links_token(old.upper(), now=before) == 42
    forged = old[:-1] + ("0" if old[-1] != "0" else "1")
    assert reason_of(lambda: st.read_email_links_token(forged, now=before)) == "forged"
    assert reason_of(lambda: st.read_email_links_token(old, now=st.LEGACY_EMAIL_LINKS_UNTIL)) == "expired"
    assert datetime(2027, 6, 1, tzinfo=UTC) == st.LEGACY_EMAIL_LINKS_UNTIL


def test_new_email_links_are_not_of_the_old_form():
    token = st.email_links_token(42)
    assert token.startswith("42.") and len(token.split(".")[1]) == 43


@pytest.mark.django_db
def test_a_player_reads_why_an_old_email_link_no_longer_opens_their_preferences(client):
    """Past its grace, an old-form link says it comes from an older email (410) in the reader's
    language; before, it opens the preferences; a new one opens; a forged one, or a token of
    another purpose, says the link is not valid (404)."""
    player = player_for("ana@example.org")
    old = legacy_email_links_token(player.pk)
    for name in ("email:preferences", "email:unsubscribe"):
        assert client.get(reverse(name, args=[old])).status_code == 200
        assert client.get(reverse(name, args=[st.email_links_token(player.pk)])).status_code == 200
        forged = client.get(reverse(name, args=[old[:-1] + ("0" if old[-1] != "0" else "1")]))
        assert forged.status_code == 404 and "This link is not valid" in forged.content.decode()
        other_purpose = client.get(reverse(name, args=[st.unfollow_token(user_id=player.pk)]))
        assert other_purpose.status_code == 404 and "This link is not valid" in other_purpose.content.decode()
    with mock.patch.object(st, "LEGACY_EMAIL_LINKS_UNTIL", datetime(2026, 1, 1, tzinfo=UTC)):
        for name in ("email:preferences", "email:unsubscribe"):
            page = client.get(reverse(name, args=[old]))
            assert page.status_code == 410 and "This link comes from an older email" in page.content.decode()
        page = client.get(reverse("email:preferences", args=[old]), HTTP_ACCEPT_LANGUAGE="fr")
        assert "Ce lien vient d'un ancien email" in page.content.decode()
        assert client.post(reverse("email:unsubscribe", args=[old])).status_code == 410
    player.refresh_from_db()
    assert player.news  # nothing was stopped by the refused link


def test_reply_addresses_seat_links_and_unfollow_links_already_sent_keep_acting():
    """Tokens as emails carried them before the signing was gathered in one module, made here
    the way the old code made them: every one still acts."""
    value = "12.345.6789"
    signature = salted_hmac(
        f"notifications.reply:{SECRET}" + "signer", value, algorithm="sha256"
    ).hexdigest()[:24]
    old_reply = f"{value}.{signature}"
    st.check_reply_token(old_reply, SECRET)
    assert st.read_reply_token(old_reply) == st.ReplyToken(12, 345, 6789)

    old_link = signing.TimestampSigner(sep=".", salt=f"games.seat_link:7:{SECRET}").sign("7")
    st.check_seat_link(old_link, game_id=7, seat_secret=SECRET, max_age=timedelta(days=7))

    old_unfollow = signing.Signer(salt="watching.unsubscribe").sign("3-all")
    assert st.read_unfollow_token(old_unfollow) == (3, None)


@pytest.mark.django_db
def test_a_follower_reads_why_an_unfollow_link_stops_nothing(client):
    """A forged unfollow link, or a player's email link used as one: a page that says the link
    is not valid and what to use instead (404, in the reader's language); a real one works."""
    fan = user_for_email("fan@example.org")
    real = st.unfollow_token(user_id=fan.pk)
    for token in (real[:-2] + ("xx" if not real.endswith("xx") else "yy"), st.email_links_token(fan.pk)):
        page = client.post(reverse("watching:unsubscribe", args=[token]))
        assert page.status_code == 404 and "This link is not valid" in page.content.decode()
    page = client.get(
        reverse("watching:unsubscribe", args=[st.email_links_token(fan.pk)]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert "Ce lien n'est pas valide" in page.content.decode()
    assert client.post(reverse("watching:unsubscribe", args=[real])).status_code == 200
