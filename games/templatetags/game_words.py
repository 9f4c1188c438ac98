"""`{% load game_words %}{{ seat.colour|colour }}`: a seat colour as the page's reader reads it
("green"; in French "vert", `rules.colour_name`). The colour itself stays data in URLs, form
values, CSS classes and JSON; only the displayed word changes."""

from __future__ import annotations

from django import template
from django.utils.translation import ngettext

from games.record.options import can_be_dealt_again
from games.rules import COLOURS, clan_letter, colour_name, players_named
from games.story.dates import dated as story_dated
from games.story.names import joined as story_joined
from games.story.names import player_name

register = template.Library()


@register.filter(expects_localtime=True)
def dated(value, format: str) -> str:
    """Django's `date` filter, with the French ordinal of the first of a month ("1er décembre",
    `games.story.dates.dated`): `{{ deadline|dated:"j F, H:i" }}`."""
    return story_dated(value, format) if value else ""


@register.filter
def colour(value) -> str:
    """The displayed word of a seat colour in the active language ("" for none); anything that
    is no seat colour is shown as it is."""
    return colour_name(value) if value else ""


@register.filter
def dealt_again(setup) -> bool:
    """Whether a game of this set-up can be dealt again for its players, as a rematch is
    (`games.record.options.can_be_dealt_again`): the page offers a rematch only then."""
    return can_be_dealt_again(setup or "")


@register.filter
def colours(values) -> str:
    """Seat colours in words, joined with ", " ("green, blue"; "vert, bleu")."""
    return ", ".join(colour_name(v) for v in values or [])


@register.filter
def player(value, names=None) -> str:
    """A seat as a sentence names its player: "Ann (blue)", "Hard bot (orange)" (`names`:
    {colour: name}, the page's `seat_names`; without it, the names in use around the render,
    `rules.players_named`), or its colour alone when it has no name."""
    if not value:
        return ""
    if names is None:
        return player_name(value)
    with players_named(names):
        return player_name(value)


@register.filter
def player_first(value, names=None) -> str:
    """`player` at the start of a sentence: a colour alone with its capital ("Green started
    it"), a name as the player wrote it ("Ann (green)"), as the story's lines begin
    (`games.story.event_text.sentence`)."""
    if not value:
        return ""
    if names is None:
        return player_name(value, capital=True)
    with players_named(names):
        return player_name(value, capital=True)


@register.filter(is_safe=True)
def joined(text) -> str:
    """A sentence of the page that names a player, as the story says it
    (`games.story.names.joined`): the French "Main du joueur Joueur 2 (parti, bleu)" reads "Main
    de Joueur 2 (parti, bleu)". `{% filter joined %}…{% endfilter %}`."""
    return story_joined(str(text))


@register.filter
def players(values, names) -> str:
    """Seats as `player` names them, joined with ", " ("Ann (green), Bob (blue)")."""
    with players_named(names or {}):
        return ", ".join(player_name(v) for v in values or [])


@register.filter
def hand_words(summary) -> str:
    """A hand counted by type, each count with its own plural as the email board says it ("3
    cards: 0 Actions, 2 Advantages, 1 Epic Tale"): `summary` is {"size", "action", "advantage",
    "epic"} (`rules.views.hand_summary`)."""
    action, advantage, epic = summary["action"], summary["advantage"], summary["epic"]
    return ngettext(
        "{size} card: {action}, {advantage}, {epic}",
        "{size} cards: {action}, {advantage}, {epic}",
        summary["size"],
    ).format(
        size=summary["size"],
        action=ngettext("{count} Action", "{count} Actions", action).format(count=action),
        advantage=ngettext("{count} Advantage", "{count} Advantages", advantage).format(count=advantage),
        epic=ngettext("{count} Epic Tale", "{count} Epic Tales", epic).format(count=epic),
    )


@register.simple_tag
def clan_letters() -> list:
    """`[(letter, colour word)]` for the four seat colours, as the island marks clans ("G",
    "green"; in French "V", "vert"; `rules.language.clan_letter`)."""
    return [(clan_letter(c), colour_name(c)) for c in COLOURS]
