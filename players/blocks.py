"""Blocking a player (docs/profiles.md, "Blocking"): the blocked pair is never seated at one open
table again, either way round, and the blocker no longer reads the blocked player's table talk.

The trust rule (docs/security.md): a player blocks or unblocks for themselves only (the signed-in
account), and nobody is ever told who blocked them: a refused join says only that the table is
not for them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from players.models import Block, Erasure


class BlockError(Exception):
    """The block is not possible (the message says why, for the player); nothing written."""


def block(*, blocker_id: int, blocked_id: int) -> bool:
    """`blocker_id` blocks `blocked_id` (account ids). Returns False when it was blocked already
    (nothing written). Raises BlockError for oneself, or when either account was erased."""
    if blocker_id == blocked_id:
        raise BlockError(_("You cannot block yourself."))
    try:
        with transaction.atomic():
            # Both accounts locked first, in order, as an erasure locks its own before it deletes
            # the blocks of the person: a block written as one of them is erased waits for the
            # erasure and is refused, rather than outliving it.
            accounts = get_user_model().objects.select_for_update(no_key=True)
            list(accounts.filter(pk__in=[blocker_id, blocked_id]).order_by("pk").values_list("pk"))
            if Erasure.objects.filter(user_id__in=[blocker_id, blocked_id]).exists():
                raise BlockError(_("There is no such player."))
            _row, created = Block.objects.get_or_create(blocker_id=blocker_id, blocked_id=blocked_id)
    except IntegrityError:  # a second request at once made the same row
        return False
    cache.delete(_cache_key(blocker_id))
    return created


def unblock(*, blocker_id: int, blocked_id: int) -> bool:
    """`blocker_id` no longer blocks `blocked_id`. Returns whether a block was lifted."""
    deleted, _rows = Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).delete()
    cache.delete(_cache_key(blocker_id))
    return bool(deleted)


def blocks(blocker_id: int, blocked_id: int) -> bool:
    """Whether `blocker_id` blocked `blocked_id` (one way only)."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


# How long Django's cache keeps whom one account blocked, in seconds: read by every game page a
# player opens (its talk panel), changed only by `block` and `unblock`, which forget it.
BLOCKED_SECONDS = 3600


def blocked_by(blocker_id: int | None) -> set[int]:
    """The account ids `blocker_id` blocked (empty for None: a visitor): one query, or none when
    Django's cache (Redis, shared by every process) holds it since the last block or unblock."""
    if blocker_id is None:
        return set()
    key = _cache_key(blocker_id)
    found = cache.get(key)
    if found is None:
        found = set(Block.objects.filter(blocker_id=blocker_id).values_list("blocked_id", flat=True))
        cache.set(key, found, BLOCKED_SECONDS)
    return found


def _cache_key(blocker_id: int) -> str:
    return f"blocked-by:{blocker_id}"


def erase_blocks(user_id: int) -> None:
    """Erasure's part of the blocks (docs/privacy.md): delete the blocks `user_id` made and
    those made against them, in the caller's transaction; after the commit, the cached
    `blocked_by` sets of every blocker concerned are forgotten. The erased account can sit at no
    table again, so a block against it keeps nobody apart: it would only keep an account
    number in another person's list."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id))
    blockers = set(rows.values_list("blocker_id", flat=True)) | {user_id}
    rows.delete()
    transaction.on_commit(lambda: cache.delete_many([_cache_key(blocker) for blocker in blockers]))


def any_block_between(user_id: int, others: Iterable[int | None]) -> bool:
    """Whether `user_id` blocked one of `others` (account ids; None ignored) or one of them
    blocked `user_id`: the pair that may not sit at one open table. One query."""
    ids = {other for other in others if other is not None and other != user_id}
    if not ids:
        return False
    return Block.objects.filter(
        Q(blocker_id=user_id, blocked_id__in=ids) | Q(blocked_id=user_id, blocker_id__in=ids)
    ).exists()
