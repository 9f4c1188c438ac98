"""Words for a player: what a decision is, in a few words for a subject line, and lines of the
game retold in the second person ("you attacked", not "green attacked") for the seat reading them.

Pure functions over the rules' public decisions (`rules.pending_for`) and the lines of
`notifications.happenings`; nothing here reads a hand or another seat's private decision.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from games import rules
from games.play import deadlines
from games.rules import gettext as rules_gettext
from games.story.names import joined
from games.story.second_person import second_person

# Decision kinds (docs/rules-api.md) in a few words, when their context names no territory
# (translated where they are used).
KIND_WORDS = {
    "choose_capital": gettext_noop("choose the Capital"),
    "place_clan": gettext_noop("place a clan (set-up)"),
    "place_clans": gettext_noop("place your clans"),
    "season_turn": gettext_noop("your Season turn"),
    "territory_cell": gettext_noop("place the new territory"),
    "clash_order": gettext_noop("choose the order of the clashes"),
    "keep_epic": gettext_noop("keep an Epic Tale"),
    "mountains_toll": gettext_noop("the Mountains' toll"),
}
# The other kinds, when their context or prompt gives nothing better (the kind's own words).
OTHER_KIND_WORDS = {
    "draft": gettext_noop("draft"),
    "card_choice": gettext_noop("card choice"),
    "citadel": gettext_noop("citadel"),
    "maneuver": gettext_noop("maneuver"),
    "attack_response": gettext_noop("attack response"),
    "attack_choice": gettext_noop("attack choice"),
    "peace_vote": gettext_noop("peace vote"),
}
# Clash decisions: "<words> in the <territory>" ({the_territory}: `rules.territory_phrase`).
CLASH_WORDS = {
    "citadel": gettext_noop("Citadel in {the_territory}"),
    "maneuver": gettext_noop("maneuver in the clash in {the_territory}"),
    "attack_response": gettext_noop("you are attacked in {the_territory}"),
    "attack_choice": gettext_noop("attack in {the_territory}: choose its effect"),
    "peace_vote": gettext_noop("end the clash in {the_territory}? (vote)"),
}
# The rules' prompt of a Triskel window (games/rules/reactions.py), read back in the active
# language to find its trigger: kept unmarked here, it is the rules' sentence, in their catalog.
REACTION_PROMPT = "Triskel: {trigger}. Play a Triskel card in response, or decline."
TRISKEL_PROMPT = re.compile(r"^Triskel: (?P<trigger>.*?)\. Play a Triskel card", re.S)


def triskel_trigger(prompt: str) -> str:
    """What opened the Triskel window of a reaction `prompt` ("blue has declared Geis"), read
    in the active language's form of the rules' prompt; "" when it is not one."""
    template = rules_gettext(REACTION_PROMPT)
    before, _sep, after = template.partition("{trigger}")
    pattern = re.escape(before) + r"(?P<trigger>.*?)" + re.escape(after)
    # A prompt may go on after the rules' sentence (in a clash step: "You will not be asked again
    # in this step of the clash: ..."): the sentence is matched at its start.
    match = re.match(pattern, prompt or "", re.S) or TRISKEL_PROMPT.match(prompt or "")
    return match.group("trigger") if match else ""


def decision_title(decision, colour: str | None = None) -> str:
    """What `decision` (a `rules.Decision`) asks, in a few words for a subject line, told to
    `colour`, in the active language: "your Season turn", "Citadel in the Valley", "maneuver in
    the clash in the Moor", "draft (keep 1 of 4)", "Triskel reaction (blue has declared Geis)",
    "Druid". Only the decision's public facts (kind, context, prompt) are used."""
    kind, context = decision.kind, decision.context or {}
    if kind in CLASH_WORDS and context.get("territory"):
        return _(CLASH_WORDS[kind]).format(the_territory=rules.territory_phrase(context["territory"]))
    if kind == "draft" and "keep" in context and "of" in context:
        return _("draft (keep {keep} of {of})").format(keep=context["keep"], of=context["of"])
    if kind == "reaction":
        trigger = second_person(joined(triskel_trigger(decision.prompt)), colour)
        if trigger.startswith(("You ", "Your ")):  # inside brackets, mid-sentence
            trigger = trigger[0].lower() + trigger[1:]
        return _("Triskel reaction ({trigger})").format(trigger=trigger) if trigger else _("Triskel reaction")
    if kind in KIND_WORDS:
        return _(KIND_WORDS[kind])
    if kind == "card_choice" and ":" in (decision.prompt or ""):
        # The card's effect asks ("Druid: take 1 card from ..."; in French "Druide : ..."): the
        # card names the choice.
        return second_person(decision.prompt.split(":", 1)[0].strip(), colour)
    if kind in OTHER_KIND_WORDS:
        return _(OTHER_KIND_WORDS[kind])
    return kind.replace("_", " ")


def decisions_title(decisions, colour: str | None = None) -> str:
    """The titles of a seat's decisions joined with " and " (one decision: its title)."""
    titles = []
    for decision in decisions:
        title = decision_title(decision, colour)
        if title not in titles:
            titles.append(title)
    return _(" and ").join(titles)


def default_words(state, colour: str, kind: str, describe) -> str:
    """What is played for `colour` when its decision of `kind` runs out, in words: the one
    default command described (`describe(command) -> str`, e.g. "Pass"), "one of: A, B (at
    random)" when several fit, or the stand-in bot's choice (`games.play.deadlines.fitting`).
    "" when the seat has nothing to decide."""
    legal = rules.legal_commands(state, colour)
    if not legal:
        return ""
    matching = deadlines.fitting(legal, kind)
    if len(matching) == 1:
        return describe(matching[0])
    if matching:
        separator = pgettext("between the parts of a list", "; ")
        return _("one of {choices} (at random)").format(
            choices=separator.join(describe(c) for c in matching[:4])
            + (separator + "..." if len(matching) > 4 else "")
        )
    return _("the choice of the bot that plays for absent players, from what you can see")
