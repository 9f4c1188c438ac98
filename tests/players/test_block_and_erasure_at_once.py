"""A player blocking another as that other player, or they themselves, erase their account
(real PostgreSQL, one connection per thread). docs/privacy.md: the erasure deletes the blocks
the person made and those made against them; docs/profiles.md, "Blocking": an erased account
cannot be blocked, and nothing is written.

The profile page checks the account before the block is written: an erasure committed between
the two used to leave the new block behind it, an account number in another person's list (or
in the erased person's). The block now locks both accounts, as the erasure locks its own first,
and is refused when either was erased."""

from __future__ import annotations

import pytest

from players.blocks import BlockError, block
from players.erasure import is_erased
from players.models import Block
from tests.players.test_devices_and_erasure_at_once import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def blocked_while_erased(monkeypatch, game, *, blocker: str, erased: str) -> tuple[list[str], list[str]]:
    """`blocker` blocks the other colour of `game` as the player of `erased` erases their
    account; (the errors of either thread, what the block answered when refused)."""
    seats = {seat.colour: seat for seat in game.seats.all()}
    blocked = next(colour for colour in seats if colour != blocker)
    answers: list[str] = []

    def blocks() -> None:
        try:
            block(blocker_id=seats[blocker].user_id, blocked_id=seats[blocked].user_id)
        except BlockError as refused:
            answers.append(str(refused))

    return at_once(monkeypatch, blocks, seats[erased].user_id), answers


@pytest.mark.parametrize("blocker", ["green", "blue"])
def test_a_block_as_one_of_the_two_erases_their_account_leaves_no_block(make_game, monkeypatch, blocker):
    """Green erases their account as green blocks blue, or as blue blocks green: the erasure goes
    through, the block is refused after it, and no block names green."""
    game = make_game(2, seed="block-and-erasure")
    green = game.seats.get(colour="green")

    errors, answers = blocked_while_erased(monkeypatch, game, blocker=blocker, erased="green")

    assert errors == []
    assert is_erased(green.user_id)
    assert answers == ["There is no such player."]
    assert not Block.objects.exists()
