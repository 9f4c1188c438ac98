"""A line of the game told to the seat reading it: its own colour becomes "you" ("You attacked
blue in the Moor.", "green attacked you in the Moor."). Both channels tell lines this way: the
emails (`notifications.happenings`, the prompts) and the game page's recent lines (`web.pages`).
English only: French lines speak to their reader from their author (`games.story.event_text`,
`viewer`).
"""

from __future__ import annotations

import re

from django.utils.translation import get_language

from games.story.names import player_name

# The verbs the lines put after a seat ("green is the Brenn", "Triskel answers revealed: green
# plays Bard", "then green maneuvers", "Triskel: green attacks in the clash"), as they read after
# "you".
AGREED = {
    "is": "are",
    "was": "were",
    "has": "have",
    "plays": "play",
    "wins": "win",
    "attacks": "attack",
    "maneuvers": "maneuver",
    "proposes": "propose",
}


def _french() -> bool:
    return (get_language() or "en").lower().startswith("fr")


def second_person(line: str, colour: str | None) -> str:
    """`line` (a sentence about the game naming seats by colour) as told to `colour`: its own
    colour becomes "you" / "your", so "Green attacked blue in the Moor." reads "You attacked blue
    in the Moor." to green and "Green attacked you in the Moor." to blue (a line that began with
    a capital still does). Other text is unchanged; `colour=None` (a spectator) gets the line as it is. A count of its clans reads "1 of your
    clans" ("removing 1 green clan" to green); the verb after it agrees (`AGREED`: "green plays
    Bard" reads "you play Bard"); in a line the seat begins, "them" is the seat ("in front of
    you"), but not in a count ("2 clans (1 of them from the Citadels)"). English only: in French the lines that
    speak to a seat are worded so by their author (`games.story.event_text`, `viewer`), and a French
    line is returned as it is. Inside `rules.players_named` the seat's own name with its colour
    ("Ann (green)") is the seat too: "Ann (green) attacked Bob (blue)." reads "You attacked Bob
    (blue)." to green."""
    if _french() or not colour:
        return line
    named = player_name(colour)
    if named != colour:
        line = line.replace(named, colour)
    # A line begins with a capital ("Green attacked blue.", `event_text.sentence`): the seat
    # that begins it is the seat all the same.
    capital = line[:1].isupper()
    line = re.sub(rf"^{colour.capitalize()}\b", colour, line)
    if not re.search(rf"\b{colour}\b", line):
        return line[:1].upper() + line[1:] if capital else line
    started = line.startswith(colour)
    # A count of the seat's clans ("removing 1 green clan", `rules.colour_clans`): "1 of your
    # clans", not "1 you clan".
    line = re.sub(rf"\b(\d+) {colour} clans?\b", r"\1 of your clans", line)
    verbs = "|".join(AGREED)
    line = re.sub(rf"^{colour} ({verbs})\b", lambda m: "You " + AGREED[m.group(1)], line)
    line = re.sub(rf"^{colour}'s\b", "Your", line)
    line = re.sub(rf"^{colour}\b", "You", line)
    line = re.sub(rf"\b{colour}'s\b", "your", line)
    line = re.sub(rf"\b{colour} ({verbs})\b", lambda m: "you " + AGREED[m.group(1)], line)
    line = re.sub(rf"\b{colour}\b", "you", line)
    if started:
        line = re.sub(r"\btheir\b", "your", line)
        # "in front of them" is the seat; "1 of them" counts the things just named (clans).
        line = re.sub(
            r"\b((?:\d+|all|some|none|each|both|any|one) of )?them\b",
            lambda m: m.group(0) if m.group(1) else "you",
            line,
        )
    return line[:1].upper() + line[1:] if capital else line


__all__ = ["second_person"]
