"""Confirming a move before it is sent: a mis-tap on a phone must not end a turn or start a clash.

A move that ends your turn or starts a clash (`needs_confirm`) is sent only once confirmed, unless
the player turned confirmation off in their preferences (`players.Player.confirm_moves`). Without
JavaScript the game page answers such a POST with a confirm step (`templates/games/confirm.html`:
the move in words, "Confirm" re-sends the same form with `confirmed=1`, "Go back" returns to the
page); with JavaScript the form opens a dialog first and is sent already confirmed
(`static/live.js`, the forms' `data-confirm`).

Whether a move asks is told from the command's type alone, never from what it would cause: the
outcome may hang on a hidden card or a random draw, which a question asked or not would reveal.
What the question says (`consequence`) is told from the type too, and from the card played: an
Epic Tale played as a maneuver ends the maneuver, not the turn.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.rules import CARDS
from players.models import Player

# The command types that end your turn or start a clash (docs/commands.md): a Season turn's
# card, pass or Pretender token; a maneuver (an attack, a withdrawal, a peace proposal, the end of
# a clash, an Epic Tale played as the maneuver); the answer to an attack; a draft pick (the pack
# goes on). And the Moor, played at any time: it ends nothing, but it shows an opponent's Epic
# Tales, which no take-back hides again.
CONFIRMED_TYPES = frozenset(
    {
        "play",
        "pass",
        "pretender",
        "attack",
        "withdraw",
        "propose_peace",
        "end_clash",
        "attack_response",
        "draft",
        "moor",
    }
)


# What each confirmed move does, said in the dialog under the move's own words (issue: the same
# sentence for every move). From the command's type alone, like the question itself.
CONSEQUENCES = {
    "play": gettext_noop("This ends your turn."),
    "pass": gettext_noop("This ends your turn. If every other player passes too, the Season ends."),
    "pretender": gettext_noop("This ends your turn."),
    "attack": gettext_noop(
        "This ends your maneuver: the player you attack loses an exposed clan or discards an Action card."
    ),
    "withdraw": gettext_noop("This ends your maneuver: the clans you move leave the clash."),
    "propose_peace": gettext_noop(
        "Every player with exposed clans votes; if all agree, the clash ends at once."
    ),
    "end_clash": gettext_noop("This ends the clash."),
    "attack_response": gettext_noop("This answers the attack; the clash goes on."),
    "draft": gettext_noop("The other cards of the pack go on to the next player."),
    "moor": gettext_noop("You look at that player's Epic Tales; then the game goes on where it was."),
}
# A `play` in a clash: one of the Epic Tales played as the maneuver (The Fianna, ...), which ends
# the maneuver, not the turn.
MANEUVER_CONSEQUENCE = gettext_noop(
    "This ends your maneuver: the card is played instead of an attack or a withdrawal."
)
GENERIC_CONSEQUENCE = gettext_noop("This ends your turn or starts a clash.")


def consequence(key: str) -> str:
    """What a confirmed move does, in one sentence in the active language ("This ends your
    maneuver: ..."). key: the move's form group key (`web.decision_forms.group_key`: "attack",
    "play:ep_the_fianna"), or its command type alone; a card played as a maneuver is told apart
    by its card, so a `play` without one reads as a Season card's. The generic sentence for a
    type with none of its own."""
    kind, _sep, card = key.partition(":")
    if kind == "play" and card in CARDS and CARDS[card].as_maneuver:
        return _(MANEUVER_CONSEQUENCE)
    return _(CONSEQUENCES.get(kind, GENERIC_CONSEQUENCE))


def needs_confirm(command: dict) -> bool:
    """Whether `command` (a legal command dict) ends the turn or starts a clash, so is confirmed
    first (when the player wants it)."""
    return command.get("type") in CONFIRMED_TYPES


def group_needs_confirm(key: str) -> bool:
    """`needs_confirm` for a decision form's group key (`web.decision_forms.group_key`:
    "attack", "play:act_bard")."""
    return key.partition(":")[0] in CONFIRMED_TYPES


def wants_confirm(user) -> bool:
    """Whether the signed-in `user` (anonymous: a visitor holding a seat link) has moves confirmed
    (their preference; yes by default, and for a visitor). One query for a signed-in user."""
    if user is None or not user.is_authenticated or not user.email:
        return True
    found = Player.objects.filter(email__iexact=user.email).values_list("confirm_moves", flat=True).first()
    return True if found is None else found
