"""Another seat's decision in words for whoever reads the page: "green: their Season turn",
"blue: a maneuver in the clash in the Moor". The rules' prompt of a decision is public, but it
speaks to the seat deciding ("Your turn in the Season: play a Season card or pass."), which
reads wrongly under another player's name on the game page's "Waiting" list and the island at an
event (`web.pages`). Public facts only: the decision's kind and its public context (the clash's
territory, the card that asks).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import rules
from games.story.names import joined

# What a seat decides, by the decision's kind (`rules.Decision.kind`), as a phrase after its name.
KIND_PHRASES = {
    "season_turn": gettext_noop("their Season turn"),
    "draft": gettext_noop("a draft pick"),
    "choose_capital": gettext_noop("the choice of the Capital"),
    "place_clan": gettext_noop("placing a clan"),
    "place_clans": gettext_noop("placing clans"),
    "territory_cell": gettext_noop("placing the new territory"),
    "clash_order": gettext_noop("the order of the clashes"),
    "keep_epic": gettext_noop("keeping an Epic Tale"),
    "mountains_toll": gettext_noop("the Mountains' toll"),
    "reaction": gettext_noop("a Triskel reaction"),
    "citadel": gettext_noop("the Citadels step of a clash"),
    "maneuver": gettext_noop("a maneuver in a clash"),
    "attack_response": gettext_noop("the answer to an attack"),
    "attack_choice": gettext_noop("the effect of their attack"),
    "peace_vote": gettext_noop("a vote on ending a clash"),
}
# The same in a clash whose territory the decision names ({the_territory}: "the Moor").
CLASH_PHRASES = {
    "citadel": gettext_noop("the Citadels step of the clash in {the_territory}"),
    "maneuver": gettext_noop("a maneuver in the clash in {the_territory}"),
    "attack_response": gettext_noop("the answer to an attack in {the_territory}"),
    "attack_choice": gettext_noop("the effect of their attack in {the_territory}"),
    "peace_vote": gettext_noop("a vote on ending the clash in {the_territory}"),
}


def others_decision(decision: dict) -> str:
    """What another seat decides, in the active language, from `decision` (a pending decision as
    `rules.view_for` gives it: "kind", "context", "prompt"): a phrase for the reader, never the
    rules' prompt addressed to the seat itself. A decision of a card (kind "card_choice") is
    named by its card, as its prompt begins ("Druid: ..." gives "a choice for the Druid"); a
    kind without a phrase keeps the rules' prompt."""
    kind, context = decision.get("kind", ""), decision.get("context") or {}
    territory = context.get("territory")
    if kind in CLASH_PHRASES and isinstance(territory, str) and territory in rules.TERRITORY_INFO:
        return _(CLASH_PHRASES[kind]).format(the_territory=rules.territory_phrase(territory))
    if kind in KIND_PHRASES:
        return _(KIND_PHRASES[kind])
    prompt = str(decision.get("prompt") or "")
    if kind == "card_choice" and ":" in prompt:
        return _("a choice for {card}").format(card=prompt.split(":", 1)[0].strip())
    return joined(prompt)
