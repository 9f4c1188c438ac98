"""Help and messages of the email command language, in the player's language.

`describe_syntax(kind)` is the short syntax reminder for a decision kind, put in prompt emails and
in rejection replies; `message(key, language, **fields)` gives the text of the answers of
`notifications.command_language`. The sentences are English, marked for the gettext catalog of
`notifications` and read in French from it (`translations`, docs/translation.md). The full
reference for players is docs/email-commands.md: keep both in step.
"""

from __future__ import annotations

from games.rules import territory_name
from notifications.command_language.translations import catalog, gettext_noop, language_code

NUMBER_HINT = gettext_noop("Or reply with the number of an option from the list.")
POLICY_HINT = gettext_noop(
    'Standing policy (any time, on its own line): "never ask geis", "ask me about geis", "never ask" (all Triskel cards).'
)

ORDER_HINT = gettext_noop(
    'Standing orders (any time, each on its own line): "order: peace refuse", "order: attack remove", '
    '"order: draft geis, warlord; ask druid", "order: pass until it concerns me", "cancel order 2".'
)

TAKE_BACK_HINT = gettext_noop(
    'Take back your last move while nobody has acted since: "take back" (or "undo"), alone in a reply.'
)

SYNTAX = {
    "draft": gettext_noop('Draft: "keep bard, druid" (as many cards as you keep now), or "pick bard".'),
    "season_turn": gettext_noop(
        'Your turn: "play <card> <details>", "pass" or "pretender". Examples: "play migration from valley: 2 to cove, 1 to plains", "citadel valley", "conquest plains from valley 2, cove 1", "new clans valley cove", "new alliance valley replace blue", "scouts spies blue", "warlord plains".'
    ),
    "citadel": gettext_noop(
        'Citadels step: "citadel" (or "yes") to shelter 1 clan, "no citadel" (or "no") not to.'
    ),
    "maneuver": gettext_noop(
        'Maneuver: "attack blue", "withdraw 2 to plains" or "withdraw 1 to plains, 1 to cove", "propose peace", or "end the clash" when you alone have exposed clans.'
    ),
    "attack_response": gettext_noop(
        'You are attacked: "discard geis" (an Action card of yours) or "remove a clan".'
    ),
    "attack_choice": gettext_noop(
        'Choose for the attacked player: "remove" (a clan) or "discard" (an Action card).'
    ),
    "mountains_toll": gettext_noop(
        'The Mountains: "discard geis" (an Action card) or "lose a clan"; "play mountains" to ignore it if you hold that card.'
    ),
    "peace_vote": gettext_noop(
        'End the clash? "yes" or "no" (also "end the clash: yes" / "end the clash: no").'
    ),
    "reaction": gettext_noop(
        'Triskel window: "decline" (or "no", "pass"), or play a Triskel card: "geis", "react geis", "warlord next blue", "master craftsman to blue".'
    ),
    "territory_cell": gettext_noop(
        'Exploration: where the new territory goes: "cell 1,-1" or "place the territory at 1,-1" (q,r as listed).'
    ),
    "clash_order": gettext_noop('Several clashes: "clash plains" or "resolve plains first".'),
    "card_choice": gettext_noop(
        'Your card asks for a choice: Druid "take bard"; Scouts & Spies "move 2 from valley to cove" or "skip"; or name the card asked for ("give geis", "set aside geis").'
    ),
    "keep_epic": gettext_noop('Keep Epic Tale cards: "keep eriu" (as many as you keep).'),
}
# The set-up's decisions: the example names territories they offer (`describe_syntax`'s `legal`),
# so that a player reads a place of their own island; the reference names the Valley and the Cove.
PLACE_SYNTAX = {
    "choose_capital": gettext_noop('Choose the Capital: "capital {territory}" (or just "{territory}").'),
    "place_clan": gettext_noop('Place 1 clan: "place {territory}" (or just "{territory}").'),
    "place_clans": gettext_noop(
        'Place your 2 clans: "place {territory}, {other}" or "place {territory} {territory}" (both in one).'
    ),
}
# A card's choice (`card_choice`) named by what the card asks now: the example of each type of
# command it offers (Druid, Deirdre's Beauty: choose; Scouts & Spies; Tailtu's Land: its tile,
# then its move; the Advantage cards' and Epic Tales' give, set aside and remove).
CARD_CHOICE_HEAD = gettext_noop("Your card asks for a choice: ")
CARD_CHOICE_SYNTAX = {
    "choose": gettext_noop('"take bard" (the card you take)'),
    "scouts_move": gettext_noop('"move 2 from valley to cove" or "skip"'),
    "place_territory": gettext_noop('"place gates at 1,-1" (the tile you drew, then the place as listed)'),
    "tailtu_move": gettext_noop('"move from valley" (where your clan comes from) or "skip"'),
    "give": gettext_noop('"give geis"'),
    "set_aside": gettext_noop('"set aside geis"'),
    "remove_clan": gettext_noop('"remove a clan from valley"'),
}
GENERAL = gettext_noop(
    'Write one command per line, e.g. "pass", "play migration from valley: 2 to cove", "attack blue", "keep bard, druid".'
)


# The kinds whose help names usual moves (`games.rules.usual_moves`): the head, then each move's
# words (in the order of `usual_moves.USUAL`), then what follows when a move is named.
USUAL_SYNTAX = {
    "season_turn": {
        "head": gettext_noop("Your turn: "),
        "season_card": gettext_noop('"play <card> <details>"'),
        "pass": gettext_noop('"pass"'),
        "pretender": gettext_noop('"pretender"'),
        "after:season_card": gettext_noop(
            ' Examples: "play migration from valley: 2 to cove, 1 to plains", "citadel valley", "conquest plains from valley 2, cove 1", "new clans valley cove", "new alliance valley replace blue", "scouts spies blue", "warlord plains".'
        ),
    },
    "maneuver": {
        "head": gettext_noop("Maneuver: "),
        "attack": gettext_noop('"attack blue"'),
        "withdraw": gettext_noop('"withdraw 2 to plains" or "withdraw 1 to plains, 1 to cove"'),
        "end_clash": gettext_noop('"end the clash"'),
        "propose_peace": gettext_noop('"propose peace"'),
    },
    "attack_response": {
        "head": gettext_noop("You are attacked: "),
        "discard": gettext_noop('"discard geis" (an Action card of yours)'),
        "remove": gettext_noop('"remove a clan"'),
    },
}
OR = gettext_noop(" or ")


def _usual_syntax(kind: str, lang: str, offered) -> str | None:
    """The help of `kind` naming only the usual moves `offered` (keys of
    `games.rules.usual_moves.move_words`, in prompt order); None when none is offered (the
    whole help is given then)."""
    t = catalog(lang)
    words = USUAL_SYNTAX[kind]
    parts = [t.gettext(words[k]) for k in offered if k in words]
    if not parts:
        return None
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + t.gettext(OR) + parts[-1]
    after = "".join(t.gettext(words[f"after:{k}"]) for k in offered if f"after:{k}" in words)
    return t.gettext(words["head"]) + listed + "." + after


def _place_syntax(kind: str, lang: str, legal) -> str:
    """The help of a set-up decision `kind` whose example names the first two territories the
    seat's `legal` commands offer (their "territory" or "territories"), as the player writes them
    in `lang` ("salt mine", "mine de sel"); the Valley and the Cove when `legal` offers none."""
    offered: list[str] = [c["territory"] for c in legal if c.get("territory")]
    offered += [t for c in legal for t in c.get("territories") or ()]
    names: list[str] = [*dict.fromkeys(offered), "valley", "cove"]
    first, other = names[0], next(t for t in names[1:] if t != names[0])
    return (
        catalog(lang)
        .gettext(PLACE_SYNTAX[kind])
        .format(territory=_written(first, lang), other=_written(other, lang))
    )


def _written(territory: str, lang: str) -> str:
    """A territory's name as a reply writes it: lower case, in `lang` ("salt mine")."""
    return territory_name(territory, lang).lower()


def _card_choice_syntax(lang: str, legal) -> str | None:
    """The help of a card's choice giving the example of each type of command in `legal` (the
    seat's legal commands, dicts with a "type"), in their order; None when it knows none."""
    t = catalog(lang)
    types = list(dict.fromkeys(command.get("type") for command in legal))
    parts = [t.gettext(CARD_CHOICE_SYNTAX[k]) for k in types if k in CARD_CHOICE_SYNTAX]
    if not parts:
        return None
    return t.gettext(CARD_CHOICE_HEAD) + t.pgettext("between the parts of a list", "; ").join(parts) + "."


def describe_syntax(decision_kind: str | None, language: str = "en", offered=None, legal=None) -> str:
    """A short help text of the command syntax for a decision kind (`Decision.kind`), in
    English ("en") or French ("fr"); a general reminder for an unknown kind or None.

    offered: for a prompt, the usual moves legal for its seat now
    (`games.rules.usual_moves.usual_moves(...).offered`): the help of a Season turn, a maneuver
    or an attack names only those (no "withdraw" to a seat that cannot withdraw). None: every
    usual move (the reference). legal: the seat's legal commands now (`rules.legal_commands`):
    the help of a card's choice gives the examples of what this card asks (Tailtu's Land's
    tile: "place gates at 1,-1"), not those of every card. None: every card's (the reference)."""
    lang = language_code(language)
    t = catalog(lang)
    text = None
    if offered is not None and decision_kind in USUAL_SYNTAX:
        text = _usual_syntax(decision_kind, lang, tuple(offered))
    if legal and decision_kind == "card_choice":
        text = _card_choice_syntax(lang, legal)
    if decision_kind in PLACE_SYNTAX:
        text = _place_syntax(decision_kind, lang, legal or ())
    if text is None:
        text = t.gettext(SYNTAX.get(decision_kind, GENERAL))
    hints = (NUMBER_HINT, POLICY_HINT, ORDER_HINT, TAKE_BACK_HINT)
    return "\n".join([text, *(t.gettext(hint) for hint in hints)])


MESSAGES = {
    "empty": gettext_noop("I found no command in your reply."),
    "no_reply": gettext_noop("The reply has no text."),
    "no_seat": gettext_noop("There is no {seat} seat in this game."),
    "internal": gettext_noop(
        "Sorry, your reply could not be read; please write it again more simply, or use your page."
    ),
    "unknown": gettext_noop("I did not understand {words} in “{line}”."),
    "did_you_mean": gettext_noop(" (did you mean “{s}”?)"),
    "no_command": gettext_noop("I found no command in “{line}”."),
    "too_long": gettext_noop("The line “{line}…” is too long to be a command."),
    "too_complex": gettext_noop("“{line}” names too many things at once; please write it more simply."),
    "too_many_lines": gettext_noop(
        "I read {count} lines of text in your reply, from “{first}”; a reply holds at most {n} command lines. Write only your command (one decision per reply), above the quoted email."
    ),
    "above_quote": gettext_noop(
        "I found no command above the quoted email (only “{line}”), nor under it. Write your command above the quoted email, on the first lines of your reply."
    ),
    "under_quote": gettext_noop("Under the quoted email: "),
    "contradictory": gettext_noop("“{line}” mixes words that do not go together ({words})."),
    "ambiguous": gettext_noop(
        "“{line}” fits several of the commands allowed now. Reply with the number of the one you mean, or say it more precisely:"
    ),
    "illegal": gettext_noop("I understood “{understood}”, but that is not allowed now."),
    "allowed": gettext_noop("Allowed now:"),
    "alike": gettext_noop(" (and {n} more like it)"),
    "more": gettext_noop("… and {n} more (see your page, or be more precise)."),
    "nothing_to_decide": gettext_noop("You have nothing to decide now{waiting}."),
    "waiting": gettext_noop(": the game waits for {seats}"),
    "possible_reactions": gettext_noop("possible Triskel reactions"),
    "no_option": gettext_noop("There is no option {n}: the options are numbered 1 to {count}."),
    "one_decision": gettext_noop(
        "Your reply holds {n} different decisions ({commands}); send one decision per reply (standing policies may come with it)."
    ),
    "line": gettext_noop("Line {n} (“{line}”): "),
    "not_policy": gettext_noop(
        "I understood “{understood}”, but a standing policy needs one Triskel card, or none for all of them."
    ),
    "policy_cards": gettext_noop("Triskel cards: {cards}."),
    "take_back_alone": gettext_noop(
        "“take back” goes alone in its reply: send it, then your new move in a reply to the email that follows."
    ),
}


def _small_words(t) -> dict[str, str]:
    """The prepositions and seat colours echoed in messages ("prep:<prep>", "seat:<colour>"),
    in the language of the catalog `t`."""
    return {
        "prep:from": t.pgettext("email command preposition: from a territory", "from"),
        "prep:de": t.pgettext("email command preposition: French “de”, from a territory", "from"),
        "prep:to": t.pgettext("email command preposition: to a territory", "to"),
        "prep:at": t.pgettext("email command preposition: in a territory", "in"),
        "seat:green": t.pgettext("email command seat", "green"),
        "seat:blue": t.pgettext("email command seat", "blue"),
        "seat:orange": t.pgettext("email command seat", "orange"),
        "seat:white": t.pgettext("email command seat", "white"),
    }


def _labels(t) -> dict[str, str]:
    """The command words echoed in messages ("label:<English word>"), in the language of the
    catalog `t`; a word not listed is echoed as it is."""
    return {
        "pass": t.pgettext("email command word", "pass"),
        "decline": t.pgettext("email command word", "decline"),
        "Pretender": t.pgettext("email command word", "Pretender"),
        "attack": t.pgettext("email command word", "attack"),
        "withdraw": t.pgettext("email command word", "withdraw"),
        "remove": t.pgettext("email command word", "remove"),
        "discard": t.pgettext("email command word", "discard"),
        "propose peace": t.pgettext("email command word", "propose peace"),
        "peace": t.pgettext("email command word", "peace"),
        "end the clash": t.pgettext("email command word", "end the clash"),
        "no citadel": t.pgettext("email command word", "no citadel"),
        "shelter": t.pgettext("email command word", "shelter"),
        "citadel": t.pgettext("email command word", "citadel"),
        "capital": t.pgettext("email command word", "capital"),
        "resolve": t.pgettext("email command word", "resolve"),
        "clash": t.pgettext("email command word", "clash"),
        "first": t.pgettext("email command word", "first"),
        "cell": t.pgettext("email command word", "cell"),
        "never ask": t.pgettext("email command word", "never ask"),
        "ask": t.pgettext("email command word", "ask"),
        "react": t.pgettext("email command word", "react"),
        "keep": t.pgettext("email command word", "keep"),
        "pick": t.pgettext("email command word", "pick"),
        "take": t.pgettext("email command word", "take"),
        "skip": t.pgettext("email command word", "skip"),
        "give": t.pgettext("email command word", "give"),
        "set aside": t.pgettext("email command word", "set aside"),
        "play": t.pgettext("email command word", "play"),
        "place": t.pgettext("email command word", "place"),
        "move": t.pgettext("email command word", "move"),
        "replace": t.pgettext("email command word", "replace"),
        "yes": t.pgettext("email command word", "yes"),
        "not": t.pgettext("email command word", "not"),
        "no": t.pgettext("email command word", "no"),
    }


def message(key: str, language: str = "en", **fields) -> str:
    """The text of message `key` (of MESSAGES, "prep:<prep>", "seat:<colour>" or
    "label:<command word>") in `language`, with `fields` filled in. Raises KeyError for an
    unknown key."""
    t = catalog(language)
    if key.startswith("label:"):
        label = key[6:]
        return _labels(t).get(label, label)
    if key.startswith(("prep:", "seat:")):
        return _small_words(t)[key]
    return t.gettext(MESSAGES[key]).format(**fields)
