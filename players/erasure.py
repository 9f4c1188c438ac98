"""Erasing an account at its owner's request (GDPR article 17; docs/privacy.md).

`erase_account` forgets a person in one transaction: every room's holder of personal data
(`players.personal_data`) forgets its part — the seats read "Player N (left)" and games in
progress go to the stand-in bot, the table-talk keys are destroyed, the stored emails to and
from them are deleted — then their preferences (`Player`) are deleted and the account is
emptied of its address and name (the row stays, numbered, so that the logs that name an account
number still point somewhere: nothing there names the person). Nothing of the games' records
changes: the moves stay, under the pseudonym.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import transaction
from django.utils.translation import gettext as _

from players.models import ChatTarget, Erasure, Player, PushSubscription
from players.personal_data import Person, holders

# The caches that may hold a rendered page or talk lines of the person: emptied after an
# erasure (a cache is rebuilt; a kept page could show their name or words).
PAGE_CACHES = ("pages", "prerendered")


class ErasureRefused(Exception):
    """The erasure cannot be done; str() says why, for the person who asked (in the active
    language). Nothing was changed."""


def erased_account() -> str:
    """The refusal of a change of an account's preferences, devices or chat target that an
    erasure committed before it (the request read the account before), in words."""
    return _("This account was erased: nothing was saved.")


def is_erased(user_id: int) -> bool:
    """Whether the account `user_id` was erased."""
    return Erasure.objects.filter(user_id=user_id).exists()


def erase_account(user_id: int) -> Person:
    """Erase the account `user_id` (see the module docstring); returns who was erased (their
    address and name as they were, for the answer). Locks the account's row, so that two
    erasures of the same account, or an erasure and a reply being processed for one of its
    seats (which lock the game first, then the seat), happen one after the other. Raises
    ErasureRefused when the account was erased already or does not exist."""
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first()
        if user is None or is_erased(user_id):
            raise ErasureRefused(_("This account was erased already: there is nothing left to erase."))
        email = user.email
        player = _lock_preferences(email)
        person = Person(user_id=user_id, email=email, name=player.display_name if player else "")
        for holder in holders():
            if holder.prepare is not None:
                holder.prepare(person)
        for holder in holders():
            if holder.erase is not None:
                holder.erase(person)
        Player.objects.filter(email=email).delete()
        user.username, user.email = f"erased-{user_id}", ""
        user.first_name = user.last_name = ""
        user.is_active = False
        user.set_unusable_password()
        user.save()
        Erasure.objects.create(user_id=user_id)
        transaction.on_commit(_forget_pages)
    return person


def _lock_preferences(email: str) -> Player | None:
    """Lock the person's preferences (`Player`), then their push devices and chat target, which
    go with them at the end of the erasure, and return the preferences (None: none kept). Taken
    with the account's lock, before any game's (docs/privacy.md's order): a vacation saved locks
    the preferences, then the clocks and games of the seats; a device removed (turned off, or
    found gone at a push) or a chat target removed writes the emails of its player's open
    decisions, which name their games. Locked last, as the erasure deletes them, each would be
    held by one of these while it waited for a game the erasure holds (a deadlock)."""
    player = Player.objects.select_for_update().filter(email=email).first()
    if player is not None:
        devices = PushSubscription.objects.select_for_update().filter(player=player).order_by("pk")
        list(devices.values_list("pk"))
        list(ChatTarget.objects.select_for_update().filter(player=player).values_list("pk"))
    return player


def _forget_pages() -> None:
    """Empty the page caches. Django's RedisCache.clear() would flush the whole Redis database
    (the broker's queues too), so a cache in Redis loses only the keys under its KEY_PREFIX
    (Django's documented key form, "<prefix>:<version>:<key>")."""
    for name in PAGE_CACHES:
        config: dict[str, str] = settings.CACHES[name]  # type: ignore[assignment]  # settings are untyped
        if not config["BACKEND"].endswith("RedisCache"):
            caches[name].clear()  # this process's memory only
            continue
        # Imported here: the Redis client, only where there is one (docs/architecture.md).
        import redis

        client = redis.Redis.from_url(config["LOCATION"])
        for key in client.scan_iter(match=f"{config.get('KEY_PREFIX', '')}:*"):
            client.delete(key)
