"""The current decision as web forms, built from `rules.legal_commands` and read back from a POST.

The seat's legal commands are grouped by what they do (`group_key`: the command type, and the
card for `play` / `react`). A small group is offered as a list of whole commands (radio buttons,
each worded by `describe_command`); a large one (a Migration split over three territories has
hundreds) as a *builder*: one input per command field, its options taken from the values that
field takes in the legal commands — a choice (select), counts per key (number inputs, for
`moves` / `placements` / `remove`), or cards / territories to tick (lists).

`command_from_post` turns a submitted form back into a command dict; `legal_match` finds the legal
command it names. Only that legal command is sent to `services.submit_command` (and so recorded):
never the posted dict, which may carry anything beside the command. A post that names no legal
command is refused with the rules' message (the same as by email); a builder's post is refused
first with the page's own reason when one shows (`explain_builder`: territories by name, and why).

A builder whose one choice narrows its counts (a Migration's origin, a Conquest's territory)
carries a `Link`: which keys each choice allows and how many clans, for the page's script to hide
the other destinations and count "2 of 3 clans". Without the script the form is the same, whole.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from games.record.hashchain import canonical_json
from games.rules import (
    CARDS,
    COLOUR_WORDS,
    TERRITORY_INFO,
    card_name,
    colour_name,
    place_phrase,
    territory_name,
    territory_phrase,
)
from games.story.descriptions import card_ref, describe_command
from web.confirm import consequence, group_needs_confirm

# A group with more commands than this is offered as a builder rather than a list.
MAX_LISTED = 12

# No command nests deeper than this (a command, its `moves`, a list in it): anything deeper in a
# POST is refused before it is compared, since comparing recurses once per level.
MAX_DEPTH = 6

TITLES = {
    "pass": gettext_noop("Pass"),
    "pretender": gettext_noop("Take a Pretender token"),
    "choose_capital": gettext_noop("Choose the Capital"),
    "place_clan": gettext_noop("Place a clan"),
    "place_clans": gettext_noop("Place your 2 clans"),
    "draft": gettext_noop("Draft: cards to keep"),
    "citadel": gettext_noop("Shelter a clan in a Citadel"),
    "no_citadel": gettext_noop("Do not shelter a clan"),
    "attack": gettext_noop("Attack"),
    "withdraw": gettext_noop("Withdraw"),
    "propose_peace": gettext_noop("Propose to end the clash"),
    "end_clash": gettext_noop("End the clash"),
    "peace_vote": gettext_noop("End the clash?"),
    "attack_response": gettext_noop("Answer the attack"),
    "clash_order": gettext_noop("Which clash next"),
    "territory_cell": gettext_noop("Where the new territory goes"),
    "scouts_move": gettext_noop("Scouts & Spies: move clans"),
    "choose": gettext_noop("Take a card"),
    "decline": gettext_noop("Decline"),
    "remove_clan": gettext_noop("Lose a clan"),
    "give": gettext_noop("Give a card"),
    "keep": gettext_noop("Cards to keep"),
    "place_territory": gettext_noop("Place a territory"),
    "tailtu_move": gettext_noop("Tailtu's Land: move a clan"),
    "set_aside": gettext_noop("Set a card aside"),
    "attack_choice": gettext_noop("Choose for the attacked player"),
    "mountains_toll": gettext_noop("Pay the Mountains' toll"),
    "moor": gettext_noop("Look at a player's Epic Tales (Moor)"),
}
FIELD_LABELS = {
    "from": gettext_noop("From"),
    "to": gettext_noop("To"),
    "territory": gettext_noop("Territory"),
    "territories": gettext_noop("Territories"),
    "moves": gettext_noop("Clans to move"),
    "placements": gettext_noop("Clans to place"),
    "remove": gettext_noop("Clans to remove"),
    "target": gettext_noop("Whom"),
    "opponent": gettext_noop("Opponent"),
    "owner": gettext_noop("Whose clan"),
    "instigator": gettext_noop("Instigator"),
    "next": gettext_noop("Next to maneuver"),
    "count": gettext_noop("How many"),
    "keep": gettext_noop("Cards"),
    "cards": gettext_noop("Cards"),
    "cell": gettext_noop("Place"),
    "choice": gettext_noop("Answer"),
    "agree": gettext_noop("Agree"),
    "discard": gettext_noop("Discard"),
    "mode": gettext_noop("How"),
    "place": gettext_noop("Clans to place"),
    "flip": gettext_noop("Flip the Flock of Crows"),
    "skip": gettext_noop("Skip"),
    "card": gettext_noop("Card"),
    # The Fianna: how many of the clans moved come from the Citadels.
    "sheltered": gettext_noop("Of those, from the Citadels"),
    "pay": gettext_noop("How to pay"),
    # A Triskel answer's card said ahead for later in the clash step, and its arguments.
    "then": gettext_noop("Later in this step of the clash"),
    "then_next": gettext_noop("Later: next to maneuver"),
    "then_to": gettext_noop("Later: where the clan goes"),
    "then_instigator": gettext_noop("Later: instigator"),
    "then_mode": gettext_noop("Later: how"),
}


def group_key(command: dict) -> str:
    """What a command does, as a group: its type, and its card for a card play."""
    if command["type"] in ("play", "react") and "card" in command:
        return f"{command['type']}:{command['card']}"
    return command["type"]


def value_label(value) -> str:
    """A command field's value in words: territory and card names, yes/no, numbers."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        if value in TERRITORY_INFO:
            return territory_name(value)
        if value in CARDS:
            return card_name(value)
        if value in COLOUR_WORDS:  # a seat ("target": "blue")
            return colour_name(value)
    return str(value)


@dataclass
class FieldInput:
    """One input of a builder. kind: "choice" (one of `options`), "counts" (a number 0..`max`
    per option key), "multi" (tick any of `options`). options: [(value, label)], where value is
    the option's canonical JSON for "choice" and the key itself for the others."""

    name: str
    label: str
    kind: str
    options: list
    max: int = 0
    optional: bool = False


@dataclass
class Link:
    """How a builder's one choice (`choice`: "from" for Migration and Plains, "territory" for
    Conquest) narrows its counts (`counts`: "moves"): for each value of the choice (its canonical
    JSON), the keys that may be counted, the most per key and the most in all, as the legal
    commands with that value have them. {"<json>": {"keys": [...], "per_key": {key: n}, "max": n}}.
    The page's script hides the keys a choice does not allow and counts "2 of 3 clans"."""

    choice: str
    counts: str
    by_value: dict

    @property
    def as_json(self) -> str:
        return json.dumps(
            {"choice": self.choice, "counts": self.counts, "by_value": self.by_value}, sort_keys=True
        )


@dataclass
class Group:
    """A group of legal commands. choices: [(canonical JSON, description)] when listed;
    inputs: the builder's inputs otherwise. card: `card_reference` of the card played, or None.
    link: how the builder's choice narrows its counts (`Link`), or None. cards: for a group
    whose commands name cards to keep (the draft's `keep`), `card_reference` of each such card,
    shown beside the options. max_total: a builder's most clans in all (0: no counts)."""

    key: str
    title: str
    card: dict | None
    size: int
    choices: list = field(default_factory=list)
    inputs: list = field(default_factory=list)
    link: Link | None = None
    cards: list = field(default_factory=list)
    max_total: int = 0

    @property
    def is_builder(self) -> bool:
        return not self.choices

    @property
    def confirm(self) -> bool:
        """Whether its moves end the turn or start a clash, so are confirmed first (web/confirm.py)."""
        return group_needs_confirm(self.key)

    @property
    def confirm_text(self) -> str:
        """What its moves do, asked before they are sent ("This ends your maneuver: ... Send
        it?"), in the active language (web/confirm.py)."""
        return _("{consequence} Send it?").format(consequence=consequence(self.key))


def _title(key: str, commands: list[dict], state, seat: str | None = None) -> str:
    kind, _sep, card = key.partition(":")
    if kind == "play":
        return _("Play {card}").format(card=card_name(card))
    if kind == "react":
        return _("Play the Triskel card {card}").format(card=card_name(card))
    if len(commands) == 1:
        return describe_command(state, commands[0], seat)
    return _(TITLES[kind]) if kind in TITLES else kind.replace("_", " ").capitalize()


def _inputs(commands: list[dict], state=None) -> list[FieldInput]:
    """The builder's fields for `commands` (a group too long to list), each with its values'
    labels; `state` words the places of the island ("north-east of the Valley, ..."), the
    labels' only reader (None: the values alone are needed)."""
    names: list[str] = []
    for command in commands:
        for name in command:
            if (
                name not in ("type",)
                and not (name == "card" and command["type"] in ("play", "react"))
                and name not in names
            ):
                names.append(name)
    inputs = []
    for name in names:
        values = [c[name] for c in commands if name in c]
        optional = len(values) < len(commands)
        label = _(FIELD_LABELS[name]) if name in FIELD_LABELS else name.replace("_", " ").capitalize()
        if all(isinstance(v, dict) for v in values):
            keys = list(dict.fromkeys(k for v in values for k in v))
            top = max((n for v in values for n in v.values() if isinstance(n, int)), default=0)
            inputs.append(
                FieldInput(name, label, "counts", [(k, value_label(k)) for k in keys], top, optional)
            )
        elif all(isinstance(v, list) for v in values):
            items = list(dict.fromkeys(x for v in values for x in v))
            repeats = any(len(set(v)) < len(v) for v in values)
            if repeats:
                top = max(Counter(v).most_common(1)[0][1] for v in values if v)
                inputs.append(
                    FieldInput(name, label, "counts", [(x, value_label(x)) for x in items], top, optional)
                )
            else:
                inputs.append(
                    FieldInput(name, label, "multi", [(x, value_label(x)) for x in items], 0, optional)
                )
        else:
            distinct = list(dict.fromkeys(canonical_json(v) for v in values))
            # A place of the island is worded so it can be found on the map, not as "1,-1".
            word = (lambda v: place_phrase(state, v)) if name == "cell" and state is not None else value_label
            inputs.append(
                FieldInput(name, label, "choice", [(v, word(json.loads(v))) for v in distinct], 0, optional)
            )
    return inputs


def decision_groups(state, commands: list[dict], seat: str | None = None) -> list[Group]:
    """The forms for `commands` (`seat`'s `legal_commands`), in the order the rules list them,
    worded to `seat` where an option names it ("then you maneuver")."""
    by_key: dict[str, list[dict]] = {}
    for command in commands:
        by_key.setdefault(group_key(command), []).append(command)
    groups = []
    for key, members in by_key.items():
        kind, _sep, card = key.partition(":")
        group = Group(
            key=key,
            title=_title(key, members, state, seat),
            card=card_ref(card) if card else None,
            size=len(members),
        )
        if len(members) <= MAX_LISTED:
            group.choices = [(canonical_json(c), describe_command(state, c, seat)) for c in members]
        else:
            group.inputs = _inputs(members, state)
            group.link = _link(members, group.inputs)
            counts = next((f for f in group.inputs if f.kind == "counts"), None)
            if counts is not None:
                group.max_total = max(sum(_counted(c.get(counts.name)).values()) for c in members)
        group.cards = _named_cards(members)
        groups.append(group)
    return groups


# Fields whose values are card ids the player chooses among (the draft's `keep`, an Epic Tale
# draw's `cards`): their texts are shown next to the options.
CARD_LIST_FIELDS = ("keep", "cards")


def _named_cards(commands: list[dict]) -> list[dict]:
    """`card_reference` of every card the commands' card lists name, once each, in order."""
    ids: list[str] = []
    for command in commands:
        for name in CARD_LIST_FIELDS:
            value = command.get(name)
            for card in value if isinstance(value, list) else []:
                if card in CARDS and card not in ids:
                    ids.append(card)
    return [card_ref(card) for card in ids]


def _counted(value) -> Counter:
    """A counts field's value ({key: n}, or a list with repeats) as a Counter; empty if absent."""
    if isinstance(value, dict):
        return Counter({k: n for k, n in value.items() if isinstance(n, int)})
    if isinstance(value, list):
        return Counter(value)
    return Counter()


# The choice fields that narrow a counts field (`Link`), and what the counted keys then are.
LINKED_CHOICES = ("from", "territory")


def _link(commands: list[dict], inputs: list[FieldInput]) -> Link | None:
    """The builder's `Link`, when it has one choice among LINKED_CHOICES and one counts field."""
    choices = [f for f in inputs if f.kind == "choice" and f.name in LINKED_CHOICES]
    counts = [f for f in inputs if f.kind == "counts"]
    if len(choices) != 1 or len(counts) != 1:
        return None
    choice, count = choices[0].name, counts[0].name
    by_value: dict[str, dict] = {}
    for command in commands:
        if choice not in command:
            continue
        entry = by_value.setdefault(canonical_json(command[choice]), {"keys": [], "per_key": {}, "max": 0})
        counted = _counted(command.get(count))
        for key, n in counted.items():
            if key not in entry["keys"]:
                entry["keys"].append(key)
            entry["per_key"][key] = max(entry["per_key"].get(key, 0), n)
        entry["max"] = max(entry["max"], sum(counted.values()))
    return Link(choice=choice, counts=count, by_value=by_value)


def _names(keys) -> str:
    """Territory (or card) names joined in words: "the Forest", "the Forest or the Valley",
    "the Cove, the Forest or the Valley"."""
    words = [_named(k) for k in keys]
    if len(words) <= 1:
        return "".join(words)
    return _("{names} or {last}").format(names=", ".join(words[:-1]), last=words[-1])


def _named(key) -> str:
    """A territory with its article ("the Moor", as the rulebook names them); anything else in
    words (`value_label`)."""
    return territory_phrase(key) if isinstance(key, str) and key in TERRITORY_INFO else value_label(key)


def _clans(n: int) -> str:
    return ngettext("{count} clan", "{count} clans", n).format(count=n)


def explain_builder(command: dict, commands: list[dict]) -> str | None:
    """Why a built command (from a builder form) is none of `commands` (the group's legal
    commands), in the player's words, naming territories by name and saying why: "From the Moor
    clans can go to the Forest or the Valley, not the Cove.", "You have only 3 clans in the
    Valley: you chose 4.". None when no single reason shows (then the rules' own message is
    given). Reads only the legal commands, so it says nothing the player may not know."""
    inputs = _inputs(commands)
    link = _link(commands, inputs)
    counts_spec = next((f for f in inputs if f.kind == "counts"), None)
    if counts_spec is None:
        return None
    chosen = _counted(command.get(counts_spec.name))
    total = sum(chosen.values())
    if link is not None and link.choice in command:
        anchor = command[link.choice]
        entry = link.by_value.get(canonical_json(anchor))
        if entry is None:
            return None
        allowed, per_key, most = entry["keys"], entry["per_key"], entry["max"]
        if total == 0:
            return _("Choose how many clans: up to {most}.").format(most=most)
        wrong = [k for k in chosen if k not in allowed]
        if link.choice == "from":
            if wrong:
                return _("From {the_territory} clans can go to {allowed}, not {wrong}.").format(
                    the_territory=_named(anchor), allowed=_names(allowed), wrong=_names(wrong)
                )
            if total > most:
                return _("You have only {clans} in {the_territory} that can go: you chose {chosen}.").format(
                    clans=_clans(most), the_territory=_named(anchor), chosen=total
                )
        else:
            if wrong:
                return _("Clans can come to {the_territory} from {allowed}, not from {wrong}.").format(
                    the_territory=_named(anchor), allowed=_names(allowed), wrong=_names(wrong)
                )
        for key, n in chosen.items():
            if n > per_key.get(key, 0):
                return _("You have only {clans} in {the_territory} that can go: you chose {chosen}.").format(
                    clans=_clans(per_key.get(key, 0)), the_territory=_named(key), chosen=n
                )
        if total > most:
            return _("At most {clans} in all: you chose {chosen}.").format(clans=_clans(most), chosen=total)
        return None
    # No choice narrows the counts (a withdrawal, placements): each key and the total.
    per_key: dict = {}
    for member in commands:
        for key, n in _counted(member.get(counts_spec.name)).items():
            per_key[key] = max(per_key.get(key, 0), n)
    most = max(sum(_counted(m.get(counts_spec.name)).values()) for m in commands)
    if total == 0 and not any(not _counted(m.get(counts_spec.name)) for m in commands):
        return _("Choose how many clans: up to {most}.").format(most=most)
    for key, n in chosen.items():
        if key in per_key and n > per_key[key]:
            return _("At most {count} in {the_territory}: you chose {chosen}.").format(
                count=per_key[key], the_territory=_named(key), chosen=n
            )
    if total > most:
        return _("At most {clans} in all: you chose {chosen}.").format(clans=_clans(most), chosen=total)
    return None


class FormError(ValueError):
    """The POST cannot be read as a command (a missing or malformed field): nothing is sent."""


def _depth(value) -> int:
    """How deeply `value` (parsed JSON) nests: 0 for a scalar, 1 for a flat list or dict.
    Iterative, so that no input can exhaust the stack."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
            level += 1
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
            level += 1
        deepest = max(deepest, level)
    return deepest


def _no_constant(name: str):
    raise ValueError(f"{name} is not a value of any command")


def _finite_float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is not a value of any command")
    return value


def _json_value(raw: str, message: str):
    """`raw` parsed as JSON; FormError(message) when it is not JSON, nests deeper than a command
    can (MAX_DEPTH), or is too deep for the parser itself (RecursionError)."""
    try:
        value = json.loads(raw, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        raise FormError(message) from None
    if _depth(value) > MAX_DEPTH:
        raise FormError(message)
    return value


def legal_match(command: dict, commands: list[dict]) -> dict | None:
    """The legal command (one of `commands`, the seat's `legal_commands`) equal to `command`
    (dicts in any key order, lists in any order), as the rules list it; None when there is none.

    Only this one is ever sent on: a posted dict may carry anything beside the command (an
    extra field of any size), and what is recorded in the log must be the command, not the post.
    """
    if _depth(command) > MAX_DEPTH:
        return None
    wanted = _normal(command)
    for legal in commands:
        if _normal(legal) == wanted:
            return dict(legal)
    return None


def _normal(value):
    """A value compared without regard to key order or list order."""
    if isinstance(value, dict):
        return tuple(sorted((k, _normal(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(sorted(canonical_json(v) for v in value)))
    return value


def command_from_post(post, commands: list[dict]) -> dict:
    """The command a submitted decision form names.

    post: the request's POST (a QueryDict or a dict of lists). Either `choice` (a command's JSON,
    from a listed group) or `group` plus the builder's `f:<field>` / `f:<field>:<key>` inputs.
    commands: the seat's legal commands now (to find the builder's inputs, and to send the legal
    command itself when the built one equals it). Raises FormError.
    """
    choice = (post.get("choice") or "").strip()
    if choice:
        command = _json_value(choice, _("That choice is not a command."))
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise FormError(_('A command is a JSON object with a "type".'))
        return command
    key = (post.get("group") or "").strip()
    if not key:
        raise FormError(_("Choose what to do."))
    kind, _sep, card = key.partition(":")
    members = [c for c in commands if group_key(c) == key]
    command: dict = {"type": kind, **({"card": card} if card else {})}
    for spec in _inputs(members):
        if spec.kind == "choice":
            raw = post.get(f"f:{spec.name}", "")
            if raw == "":
                if spec.optional:
                    continue
                raise FormError(_("{field}: choose one.").format(field=spec.label))
            command[spec.name] = _json_value(raw, _("{field}: not a value.").format(field=spec.label))
        elif spec.kind == "counts":
            counts = {}
            for option, _label in spec.options:
                raw = post.get(f"f:{spec.name}:{option}", "") or "0"
                try:
                    n = int(raw)
                except ValueError:
                    raise FormError(
                        _("{field}: “{value}” is not a number.").format(field=spec.label, value=raw[:20])
                    ) from None
                if n < 0:
                    raise FormError(
                        _("{field}: a number of clans is 0 or more, not {count}.").format(
                            field=spec.label, count=n
                        )
                    )
                if n:
                    counts[option] = n
            if not counts and spec.optional:
                continue
            template = next((c[spec.name] for c in members if spec.name in c), {})
            command[spec.name] = (
                [x for x, n in counts.items() for _ in range(n)] if isinstance(template, list) else counts
            )
        else:
            ticked = (
                post.getlist(f"f:{spec.name}") if hasattr(post, "getlist") else post.get(f"f:{spec.name}", [])
            )
            if not ticked and spec.optional:
                continue
            command[spec.name] = list(ticked)
    matched = legal_match(command, members)
    if matched is not None:
        return matched
    why = explain_builder(command, members) if members else None
    if why:
        raise FormError(why)
    return command
