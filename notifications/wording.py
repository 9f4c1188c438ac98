"""Words for a player: what a decision is, in a few words for a subject line, and lines of the
game retold in the second person ("you attacked", not "green attacked") for the seat reading them.

Pure functions over the rules' public decisions (`rules.pending_for`) and the lines of
`notifications.happenings`; nothing here reads a hand or another seat's private decision.
"""
from __future__ import annotations

import re

from games import rules
from notifications import deadlines

# Decision kinds (docs/rules-api.md) in a few words, when their context names no territory.
KIND_WORDS = {
    "choose_capital": "choose the Capital",
    "place_clan": "place a clan (set-up)",
    "place_clans": "place your clans",
    "season_turn": "your Season turn",
    "territory_cell": "place the new territory",
    "clash_order": "choose the order of the clashes",
    "keep_epic": "keep an Epic Tale",
    "mountains_toll": "the Mountains' toll",
}
# Clash decisions: "<words> in the <territory>".
CLASH_WORDS = {
    "citadel": "Citadel in the {territory}",
    "maneuver": "maneuver in the clash in the {territory}",
    "attack_response": "you are attacked in the {territory}",
    "attack_choice": "attack in the {territory}: choose its effect",
    "peace_vote": "end the clash in the {territory}? (vote)",
}
TRISKEL_PROMPT = re.compile(r"^Triskel: (?P<trigger>.*?)\. Play a Triskel card", re.S)


def second_person(line: str, colour: str | None) -> str:
    """`line` (a sentence about the game naming seats by colour) as told to `colour`: its own
    colour becomes "you" / "your", so "green attacked blue in the Moor." reads "You attacked blue
    in the Moor." to green and "green attacked you in the Moor." to blue. Other text is unchanged;
    `colour=None` (a spectator) gets the line as it is."""
    if not colour or not re.search(rf"\b{colour}\b", line):
        return line
    started = line.startswith(colour)
    line = re.sub(rf"^{colour} (is|was|has)\b",
                  lambda m: "You " + {"is": "are", "was": "were", "has": "have"}[m.group(1)], line)
    line = re.sub(rf"^{colour}'s\b", "Your", line)
    line = re.sub(rf"^{colour}\b", "You", line)
    line = re.sub(rf"\b{colour}'s\b", "your", line)
    line = re.sub(rf"\b{colour} (is|was|has)\b",
                  lambda m: "you " + {"is": "are", "was": "were", "has": "have"}[m.group(1)], line)
    line = re.sub(rf"\b{colour}\b", "you", line)
    if started:
        line = re.sub(r"\btheir\b", "your", line)
        line = re.sub(r"\bthem\b", "you", line)
    return line


def decision_title(decision, colour: str | None = None) -> str:
    """What `decision` (a `rules.Decision`) asks, in a few words for a subject line, told to
    `colour`: "your Season turn", "Citadel in the Valley", "maneuver in the clash in the Moor",
    "draft (keep 1 of 4)", "Triskel reaction (blue has declared Geis)", "Druid". Only the
    decision's public facts (kind, context, prompt) are used."""
    kind, context = decision.kind, decision.context or {}
    if kind in CLASH_WORDS and context.get("territory"):
        return CLASH_WORDS[kind].format(territory=rules.territory_name(context["territory"]))
    if kind == "draft" and "keep" in context and "of" in context:
        return f"draft (keep {context['keep']} of {context['of']})"
    if kind == "reaction":
        match = TRISKEL_PROMPT.match(decision.prompt or "")
        trigger = second_person(match.group("trigger"), colour) if match else ""
        if trigger.startswith(("You ", "Your ")):  # inside brackets, mid-sentence
            trigger = trigger[0].lower() + trigger[1:]
        return f"Triskel reaction ({trigger})" if trigger else "Triskel reaction"
    if kind in KIND_WORDS:
        return KIND_WORDS[kind]
    if kind == "card_choice" and ":" in (decision.prompt or ""):
        # The card's effect asks ("Druid: take 1 card from ..."): the card names the choice.
        return second_person(decision.prompt.split(":", 1)[0].strip(), colour)
    return kind.replace("_", " ")


def decisions_title(decisions, colour: str | None = None) -> str:
    """The titles of a seat's decisions joined with " and " (one decision: its title)."""
    titles = []
    for decision in decisions:
        title = decision_title(decision, colour)
        if title not in titles:
            titles.append(title)
    return " and ".join(titles)


def default_words(state, colour: str, kind: str, describe) -> str:
    """What is played for `colour` when its decision of `kind` runs out, in words: the one
    default command described (`describe(command) -> str`, e.g. "Pass"), "one of: A, B (at
    random)" when several fit, or "a random legal choice" (see `notifications.deadlines.DEFAULTS`).
    "" when the seat has nothing to decide."""
    legal = rules.legal_commands(state, colour)
    if not legal:
        return ""
    for template in deadlines.DEFAULTS.get(kind, []):
        matching = [c for c in legal if all(c.get(k) == v for k, v in template.items())]
        if len(matching) == 1:
            return describe(matching[0])
        if matching:
            return "one of " + "; ".join(describe(c) for c in matching[:4]) + (
                "; ..." if len(matching) > 4 else "") + " (at random)"
    return "a random choice among the options below"
