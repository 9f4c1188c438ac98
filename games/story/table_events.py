"""The table log (docs/table-log.md: what the host did) told in words, for the game pages, the
lobby and the followers' digests."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.rules import colour_name
from games.story.names import player_name


def describe_table_event(event_type: str, payload: dict, *, reader: str | None = None) -> str:
    """A table event (games.play.table) in one line, in the active language, told to `reader`
    (the colour of the seat whose page or email it is; None: a spectator, the host's tools). A
    player is named as every line of the game names them (`rules.player_name`: "Ann (green)"
    inside `rules.players_named`, docs/web.md "Players by name"), the reader as "you"."""
    seat = payload.get("seat")
    if event_type == "DeadlineExtended":
        hours = payload["hours"]
        count = hours if isinstance(hours, int) else 2  # the plural's form: 1 hour, 2 hours
        if seat is not None and seat == reader:
            return ngettext(
                "The host gave you {hours} more hour for the current decision.",
                "The host gave you {hours} more hours for the current decision.",
                count,
            ).format(hours=hours)
        return ngettext(
            "The host gave {who} {hours} more hour for the current decision.",
            "The host gave {who} {hours} more hours for the current decision.",
            count,
        ).format(who=player_name(seat) if seat else _("every seat"), hours=hours)
    if event_type == "SeatReplaced" and payload.get("now") != "bot" and seat is not None and seat == reader:
        return _("The host gave {colour} to a new player: you.").format(colour=colour_name(seat))
    if event_type == "GamePaused":
        return _("The host paused the game: deadlines stop until it resumes.")
    if event_type == "GameResumed":
        return _resumed(float(payload.get("paused_hours", 0)))
    if event_type == "SeatReplaced":
        if payload.get("now") == "bot":
            return _("The host gave {colour} to the bot.").format(colour=colour_name(payload["seat"]))
        return _("The host gave {colour} to a new player.").format(colour=colour_name(payload["seat"]))
    if event_type == "PlayerLeft":
        return _("The player of {colour} left the site: the bot plays the seat from now on.").format(
            colour=colour_name(payload["seat"])
        )
    if event_type == "VisibilityChanged":
        return (
            _("The host made the game public: anyone may follow it.")
            if payload.get("public")
            else _("The host made the game private: it is no longer listed for followers.")
        )
    if event_type == "TableChannelSet":
        return _("The host sends the game's public news to a chat on {chat}.").format(
            chat=payload.get("chat") or _("a chat service")
        )
    if event_type == "TableChannelRemoved":
        return _channel_stopped(payload.get("by"))
    return event_type + "".join(f" {k}={v}" for k, v in payload.items())


def _channel_stopped(by: str | None) -> str:
    """A table channel stopped: by the host (no `by`), the site's operator, or the host's
    departure (`games.play.table.table_channel_stopped`)."""
    if by == "operator":
        return _("The site's operator stopped sending the game's news to a chat.")
    if by == "host_left":
        return _("The host left the site: the game's news no longer go to a chat.")
    return _("The host stopped sending the game's news to a chat.")


def _resumed(hours: float) -> str:
    """The end of a pause of `hours`: in minutes under an hour, else in hours to a tenth."""
    minutes = round(hours * 60)
    if minutes < 1:
        return _("The host resumed the game less than a minute after pausing it.")
    if minutes < 60:
        return ngettext(
            "The host resumed the game after {n} minute.",
            "The host resumed the game after {n} minutes.",
            minutes,
        ).format(n=minutes)
    tenths = round(hours, 1)
    return ngettext(
        "The host resumed the game after {hours} hour.",
        "The host resumed the game after {hours} hours.",
        1 if tenths == 1 else 2,
    ).format(hours=number_format(tenths, decimal_pos=1 if tenths % 1 else 0))
