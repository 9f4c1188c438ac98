"""A player named in a sentence, with their seat's colour, as it reads naturally.

`rules.player_name` joins a seat's name and its colour as "{name} ({colour})": "Ann (blue)".
A name that ends in brackets of its own (a player who erased their account: "Player 2 (left)",
"Joueur 2 (parti)", `players.display_names.seat_names`) would read "Player 2 (left) (blue)":
the colour goes inside its brackets, "Player 2 (left, blue)" ("Joueur 2 (parti, bleu)").

French sentences (the rules' and the story's) say "le joueur {player}", "au joueur {player}",
"du joueur {player}": before "Joueur 2 (parti, bleu)" that reads "le joueur Joueur 2", so the
name is said alone there ("contre Joueur 2 (parti, bleu)", "Au tour de Joueur 2 (parti,
bleu).").

The rules write their sentences with `rules.player_name` (games/rules is pure and knows no
player who left): the service words every sentence it shows through `joined` (the story's lines,
`games.story.event_text`; a command's and a card play's words, `games.story.descriptions`; the
decisions' prompts where a channel shows them), and names a player itself with `player_name`.
"""

from __future__ import annotations

import re

from games import rules

# "le joueur " / "au joueur " / "du joueur " before a name that already says "Joueur": the
# article and noun go, "à" and "de" stay.
_FRENCH_PLAYER = re.compile(r"\b(le|Le|au|Au|du|Du) joueur (?=Joueur\b)")
_FRENCH_LEFT = {"le": "", "Le": "", "au": "à ", "Au": "À ", "du": "de ", "Du": "De "}


def _merged(colour: str) -> tuple[str, str] | None:
    """(the rules' join of `colour`'s name and colour, the natural one) when the name in use
    ends in brackets of its own ("Player 2 (left) (blue)", "Player 2 (left, blue)"); else None."""
    named = rules.player_name(colour)
    word = rules.colour_name(colour)
    tail = f") ({word})"
    if named == word or not named.endswith(tail):
        return None
    return named, named[: -len(tail)] + f", {word})"


def joined(text: str) -> str:
    """`text` (a sentence naming players with `rules.player_name`, in the active language and
    inside `rules.players_named`) with each name that ends in brackets joined with its colour
    inside them ("Player 2 (left, blue)"), and the French "le joueur Joueur 2" said "Joueur 2"."""
    if ") (" in text:
        for colour in rules.COLOURS:
            merged = _merged(colour)
            if merged is not None:
                text = text.replace(*merged)
    if "joueur Joueur" in text:
        text = _FRENCH_PLAYER.sub(lambda found: _FRENCH_LEFT[found.group(1)], text)
    return text


def player_name(colour: str | None, *, capital: bool = False) -> str:
    """`rules.player_name(colour)` as a sentence says it (`joined`): "Ann (blue)", "Player 2
    (left, blue)", "blue"."""
    return joined(rules.player_name(colour, capital=capital))


__all__ = ["joined", "player_name"]
