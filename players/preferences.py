"""Players' preferences: find or create a player by email, change preferences.

A `Player` is keyed by the email address in the form it is kept in (lower case, the domain
as delivery writes it: `players.email_addresses`), so it needs no account; the web accounts can
find a person's preferences by the same address. A change is announced (`players.signals.
preferences_saved`) in its transaction: the play room moves the deadlines a vacation moves.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.email_addresses import canonical_address
from players.erasure import erased_account, is_erased
from players.models import Player
from players.signals import preferences_saved


class PreferenceError(ValueError):
    """A preference value that cannot be used (unknown time zone, a vacation ending before it
    starts or longer than VACATION_MAX_DAYS)."""


def vacation_too_long(days: int) -> str:
    """The refusal of a vacation over the longest one, `days` (VACATION_MAX_DAYS), in words."""
    return ngettext(
        "A vacation lasts at most {days} day (its first and last day included): choose an earlier last day.",
        "A vacation lasts at most {days} days (its first and last day included): choose an earlier last day.",
        days,
    ).format(days=days)


def vacation_days(away_from: datetime, away_until: datetime, time_zone: str) -> int:
    """How many days a vacation covers in `time_zone`, its first and last day included."""
    zone = ZoneInfo(time_zone)
    return (away_until.astimezone(zone).date() - away_from.astimezone(zone).date()).days + 1


def player_for(email: str) -> Player:
    """The Player of `email` (its kept form, `players.email_addresses.canonical_address`: case and
    look-alike spellings of the domain do not matter), created with the defaults if new."""
    player, _created = Player.objects.get_or_create(email=canonical_address(email))
    return player


def preferences_of(email: str) -> Player:
    """The Player of `email` (its kept form) as it is kept, or, when it has none, one with the
    defaults that is never saved. For a reader that needs only the preferences (language, time
    zone) of an address it read earlier, outside the lock its erasure takes: an erasure
    committed meanwhile deleted the row, and `player_for` would make it again with the erased
    address (docs/privacy.md)."""
    address = canonical_address(email)
    return Player.objects.filter(email=address).first() or Player(email=address)


def player_of_account(user) -> Player:
    """The Player of the signed-in account `user` (created if new), read under the account's row
    lock, in the caller's transaction, as an erasure takes it first (docs/privacy.md's order).
    The request read its account before: an erasure committed since would otherwise see its
    address written back in a new row (`player_for` creates one). Raises PreferenceError when
    the account was erased by the time its lock was had."""
    account = get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    if account is None or not account.email or is_erased(user.pk):
        raise PreferenceError(erased_account())
    return player_for(account.email)


def save_language(user, language: str) -> Player:
    """Save `language` ("en"/"fr") as the language of the signed-in account `user`'s emails and
    pages (the language switch of every page). Raises PreferenceError, nothing saved, for
    another language or when the account was erased (`player_of_account`)."""
    if language not in Player.Language.values:
        raise PreferenceError(
            _("language must be one of {values}.").format(values=", ".join(Player.Language.values))
        )
    with transaction.atomic():
        player = player_of_account(user)
        player.language = language
        player.save(update_fields=["language", "updated_at"])
    return player


def vacation(player: Player) -> tuple[datetime, datetime] | None:
    """The player's vacation `(start, end)`, or None; never longer than VACATION_MAX_DAYS days
    from its start (a vacation saved before that cap, or through no page, counts for that long
    only: no stored value can stop a player's games for longer)."""
    if player.away_from and player.away_until and player.away_until > player.away_from:
        return player.away_from, min(
            player.away_until, player.away_from + timedelta(days=settings.VACATION_MAX_DAYS)
        )
    return None


def validate_time_zone(name: str) -> str:
    """`name` when it is an IANA time zone; raises PreferenceError otherwise."""
    if name not in available_timezones():
        raise PreferenceError(
            _("{name} is not a time zone name (e.g. Europe/Paris, America/New_York, UTC).").format(
                name=repr(name)
            )
        )
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise PreferenceError(_("{name} is not a time zone name.").format(name=repr(name))) from None
    return name


def update_preferences(  # noqa: PLR0913 - one keyword per preference of the form
    player: Player,
    *,
    delivery: str,
    news: bool,
    time_zone: str,
    language: str,
    away_from: datetime | None,
    away_until: datetime | None,
    display_name: str | None = None,
    confirm_moves: bool | None = None,
    acceptances: bool | None = None,
    forced_moves_at_once: bool | None = None,
) -> Player:
    """Save the player's preferences, and (through `preferences_saved`, in the same transaction)
    move the deadlines of their open decisions when the vacation changed. display_name: the name
    other players see at the table (None: unchanged); confirm_moves: whether the game page asks to
    confirm a move that ends the turn or starts a fight (None: unchanged); acceptances: whether a
    reply that leaves nothing more to decide gets a short email of its own (None: unchanged);
    forced_moves_at_once: whether a Season turn the hand leaves only the pass is passed at once
    (None: unchanged; docs/rulings.md, "Forced moves"). Raises PreferenceError (nothing saved) for
    an unknown time zone, delivery or language, or a new vacation that ends before it starts or
    covers more than VACATION_MAX_DAYS days in `time_zone` (an unchanged one is kept as it is),
    and for a player whose account was erased since `player` was read."""
    validate_time_zone(time_zone)
    if delivery not in Player.Delivery.values:
        raise PreferenceError(
            _("delivery must be one of {values}.").format(values=", ".join(Player.Delivery.values))
        )
    if language not in Player.Language.values:
        raise PreferenceError(
            _("language must be one of {values}.").format(values=", ".join(Player.Language.values))
        )
    if (away_from is None) != (away_until is None):
        raise PreferenceError(_("A vacation needs both its first and its last day."))
    if away_from and away_until <= away_from:
        raise PreferenceError(_("A vacation must end after it starts."))
    changed = (away_from, away_until) != (player.away_from, player.away_until)
    if away_from and changed and vacation_days(away_from, away_until, time_zone) > settings.VACATION_MAX_DAYS:
        raise PreferenceError(vacation_too_long(settings.VACATION_MAX_DAYS))
    with transaction.atomic():
        # Under the row's lock, as an erasure takes it: preferences read before an erasure and
        # saved after it would write the erased person's address back (a save of a row no
        # longer there inserts it).
        if player.pk is not None and not Player.objects.select_for_update().filter(pk=player.pk).exists():
            raise PreferenceError(erased_account())
        player.delivery, player.news, player.time_zone, player.language = delivery, news, time_zone, language
        player.away_from, player.away_until = away_from, away_until
        if display_name is not None:
            player.display_name = display_name
        if acceptances is not None:
            player.acceptances = acceptances
        if confirm_moves is not None:
            player.confirm_moves = confirm_moves
        if forced_moves_at_once is not None:
            player.forced_moves_at_once = forced_moves_at_once
        player.save()
        preferences_saved.send(sender=Player, player=player)
    return player


def set_display_name(email: str, name: str) -> Player:
    """Save `name` (already cleaned: `players.display_names.clean_name`) as the display name of
    the person of `email`, creating their Player if new; returns it. For an address with no
    account read before (set-ups, tests): a signed-in page saves with `save_display_name`, which
    an erasure committed meanwhile refuses."""
    player = player_for(email)
    player.display_name = name
    player.save(update_fields=["display_name", "updated_at"])
    return player


def save_display_name(user, name: str) -> Player:
    """Save `name` (already cleaned: `players.display_names.clean_name`) as the display name of
    the signed-in account `user` (the name form of "My games"), creating their Player if new;
    returns it. Raises PreferenceError, nothing saved, when the account was erased since the
    request read it (`player_of_account`: never a new row with the erased address)."""
    with transaction.atomic():
        player = player_of_account(user)
        player.display_name = name
        player.save(update_fields=["display_name", "updated_at"])
    return player
