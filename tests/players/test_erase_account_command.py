"""manage.py erase_account (docs/management-commands.md): the operator erases accounts as their
owners do on the web, by number or address, e.g. again after restoring a backup older than the
erasures (docs/operations.md, "Backing up and restoring")."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Seat
from players.erasure import is_erased
from players.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def erase(*accounts: str) -> list[str]:
    out = StringIO()
    call_command("erase_account", *accounts, stdout=out)
    return out.getvalue().splitlines()


def test_accounts_named_by_number_or_address_are_erased_as_on_the_web(make_game):
    # White stays: with every player erased the bots would play the whole game out here.
    game = make_game(4)
    green, blue, orange = (game.seats.get(colour=c) for c in ("green", "blue", "orange"))
    addresses = (green.email, blue.email)

    lines = erase(str(green.user_id), blue.email.upper(), str(orange.user_id))

    assert lines == [
        f"account {green.user_id}: erased",
        f"account {blue.user_id}: erased",
        f"account {orange.user_id}: erased",
    ]
    assert all(is_erased(seat.user_id) for seat in (green, blue, orange))
    for seat in Seat.objects.filter(game=game).exclude(colour="white"):
        assert seat.email == "" and seat.user_id is None and seat.left_at is not None
    assert not Player.objects.filter(email__in=addresses).exists()


def test_an_account_erased_already_or_unknown_is_said_so_and_left(make_game):
    green = make_game(2).seats.get(colour="green")
    erase(str(green.user_id))

    assert erase(str(green.user_id), "999999", "nobody@example.net") == [
        f"account {green.user_id}: erased already",
        "no account 999999: nothing to erase",
        "no account for nobody@example.net: nothing to erase",
    ]
    assert erase() == [], "an empty list (no erasure since the dump) erases nothing"


def test_a_name_that_is_neither_a_number_nor_an_address_is_refused(make_game):
    green = make_game(2).seats.get(colour="green")
    with pytest.raises(CommandError, match="neither an account number nor an email address"):
        erase("green")
    assert not is_erased(green.user_id)
