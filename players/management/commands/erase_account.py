"""manage.py erase_account — erase accounts as their owners may on the web (docs/privacy.md,
docs/management-commands.md): after restoring a backup older than some erasures, the operator
erases those accounts again (docs/operations.md, "Backing up and restoring")."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from players.accounts import normalise_email
from players.erasure import ErasureRefused, erase_account, is_erased


class Command(BaseCommand):
    help = (
        "Erase each account named, by number or address, as its owner's erasure on the web does "
        "(players.erasure.erase_account, one transaction each). An account erased already, or "
        "that does not exist, is said so and left: nothing to erase."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "accounts",
            nargs="*",
            metavar="ACCOUNT",
            help="an account's number (as in the players_erasure list) or its email address",
        )

    def handle(self, *args, **options):
        for named in options["accounts"]:
            self.stdout.write(_erase(named))


def _erase(named: str) -> str:
    """Erase the account `named` (its number, or its address in any case); the line saying what
    became of it, which never holds the address of an account erased now or before. Raises
    CommandError for an argument that is neither a number nor an address."""
    accounts = get_user_model().objects.order_by("pk")
    if named.isdigit():
        found = accounts.filter(pk=int(named))
        missing = f"no account {named}"
    else:
        try:
            address = normalise_email(named)
        except ValueError:
            raise CommandError(f"{named!r} is neither an account number nor an email address.") from None
        found = accounts.filter(email__iexact=address)
        missing = f"no account for {address}"
    user_id = found.values_list("pk", flat=True).first()
    if user_id is None:
        return f"{missing}: nothing to erase"
    if is_erased(user_id):
        return f"account {user_id}: erased already"
    try:
        erase_account(user_id)
    except ErasureRefused:  # erased meanwhile, by its owner on the web
        return f"account {user_id}: erased already"
    return f"account {user_id}: erased"
