"""One mailbox, one player: an address written with look-alike Unicode (a full-width letter in the
domain) or in capitals reaches the same mailbox, so it is the same account, the same seat owner
and the same email preferences (players.email_addresses); per-mailbox limits also fold plus-tags."""

from __future__ import annotations

import pytest

from games.services import SeatSpec, create_game
from players import preferences as players
from players.accounts import user_for_email
from players.email_addresses import canonical_address, mailbox_key
from players.models import Player

FULL_WIDTH_M = "exa\uff4dple.org"  # "exaｍple.org": delivered to example.org


@pytest.mark.parametrize(
    "typed, kept, counted",
    [
        ("Ana@Example.org", "ana@example.org", "ana@example.org"),
        ("  ana@example.org ", "ana@example.org", "ana@example.org"),
        (f"ana@{FULL_WIDTH_M}", "ana@example.org", "ana@example.org"),
        ("ana+inis@EXAMPLE.org", "ana+inis@example.org", "ana@example.org"),
        ("ana@\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.org", "ana@example.org", "ana@example.org"),
        ("\uff41\uff4e\uff41+x@example.org", "\uff41\uff4e\uff41+x@example.org", "ana@example.org"),
        ("bo@Café.fr", "bo@café.fr", "bo@xn--caf-dma.fr"),
        # A look-alike that is another domain (a Cyrillic "а") is another mailbox: never folded.
        ("ana@ex\u0430mple.org", "ana@ex\u0430mple.org", "ana@xn--exmple-4nf.org"),
        # Quotes that change nothing are no other mailbox (RFC 5322): not a fresh account, nor
        # a fresh quota of sign-in links (docs/security.md); quotes that are needed stay.
        ('"ana+x"@example.org', "ana+x@example.org", "ana@example.org"),
        ('"Victim"@example.org', "victim@example.org", "victim@example.org"),
        ('"ana smith"@example.org', '"ana smith"@example.org', '"ana smith"@example.org'),
        ("not an address", "not an address", "not an address"),
    ],
)
def test_the_kept_form_folds_what_delivery_folds_and_the_counted_form_folds_plus_tags_too(
    typed, kept, counted
):
    assert canonical_address(typed) == kept
    assert mailbox_key(typed) == counted


def test_a_look_alike_address_is_the_same_account_and_the_same_preferences(db):
    ana = user_for_email("ana@example.org")
    Player.objects.create(email="ana@example.org", language="fr", display_name="Ana")

    assert user_for_email(f"Ana@{FULL_WIDTH_M}") == ana
    assert players.player_for(f"ana@{FULL_WIDTH_M}").display_name == "Ana"
    assert Player.objects.count() == 1


def test_a_quoted_spelling_is_the_same_account(db):
    """docs/security.md: "every spelling that reaches one mailbox is one account and one
    `Player`": '"victim"@example.org' is victim@example.org."""
    victim = user_for_email("victim@example.org")
    assert user_for_email('"victim"@example.org') == victim
    assert user_for_email('"Victim+inis"@Example.org').email == "victim+inis@example.org"


def test_a_seat_given_to_a_look_alike_address_is_the_players_own(db):
    ana = user_for_email("ana@example.org")

    game = create_game(
        seats=[SeatSpec(email=f"ANA@{FULL_WIDTH_M}"), SeatSpec(email="bo@example.org")],
        seed="look-alike",
        play_bots=False,
    )

    seat = game.seats.get(colour="green")
    assert (seat.user, seat.email) == (ana, "ana@example.org")
