"""The name other players read for a person: the display name they chose (`Player.display_name`,
asked for at first sign-in and in the preferences), never their email address.

A person who has not chosen one yet is named by the part of their address before the "@"
("ann" for ann@example.org): a word they gave, not the address itself, which other players must
never read (docs/security.md).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from players.email_addresses import canonical_address
from players.models import Player

# The longest display name, in characters (`Player.display_name`).
MAX_NAME = 30


def clean_name(value: str) -> str:
    """`value` as a display name: spaces collapsed. Raises forms.ValidationError (in the active
    language) for an email address (an "@") or control characters."""
    name = " ".join((value or "").split())
    if "@" in name:
        raise forms.ValidationError(_("A name, not an email address: other players see it."))
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise forms.ValidationError(_("Letters, digits and spaces only."))
    return name


def fallback_name(email: str) -> str:
    """The name of a person who chose none: their address before the "@" ("" for none)."""
    return (email or "").partition("@")[0][:MAX_NAME]


def names_for(emails) -> dict:
    """{email as given: the name other players read} for `emails` (strings), in one query."""
    emails = [e for e in emails if e]
    kept = {e: canonical_address(e) for e in emails}
    chosen = dict(
        Player.objects.filter(email__in=set(kept.values()))
        .exclude(display_name="")
        .values_list("email", "display_name")
    )
    return {e: chosen.get(kept[e]) or fallback_name(e) for e in emails}


def name_for(email: str) -> str:
    """The name other players read for the person of `email` (one query)."""
    return names_for([email]).get(email, "")


def needs_name(email: str) -> bool:
    """Whether the person of `email` has not chosen a display name yet (one query)."""
    return not Player.objects.filter(email=canonical_address(email)).exclude(display_name="").exists()


def seat_names(seats) -> dict:
    """{colour: the name other players see}: the player's chosen display name
    (`players.Player.display_name`), a bot's seat by its level ("Hard bot", `bot_name`), ""
    when none was chosen.
    Never the email address. One query for the seats given."""
    seats = list(seats)
    emails = {s.email.lower() for s in seats if s.email and not s.is_bot}
    chosen = (
        dict(
            Player.objects.filter(email__in=emails)
            .exclude(display_name="")
            .values_list("email", "display_name")
        )
        if emails
        else {}
    )
    return {
        s.colour: bot_name(s.bot_level) if s.is_bot else chosen.get((s.email or "").lower(), "")
        for s in seats
    }


# A bot as the table names it, by its level (games.bots.LEVELS).
BOT_NAMES = {
    "random": gettext_noop("Random bot"),
    "easy": gettext_noop("Easy bot"),
    "hard": gettext_noop("Hard bot"),
}


def bot_name(level: str) -> str:
    """A bot seat's name in the active language, by its level: "Hard bot" ("Robot difficile")."""
    return _(BOT_NAMES[level]) if level in BOT_NAMES else _("bot")
