"""Standing orders by email: the lines that set or cancel them (docs/email-commands.md, "Standing orders").

A line starting with "order" (French "ordre") sets an order, one starting with "cancel" ("annuler")
cancels one; any other line is left to the parser. Both languages are always understood. Pure
Python: the line becomes `{"type": "standing_order", "order": {...}}` (the JSON of
docs/standing-orders.md, which `games.play.standing_orders.set_order` checks and stores) or
`{"type": "cancel_order", "which": "all" | a number (as the prompts list the orders) | a kind}`.
A line that starts like an order but cannot be read raises `InvalidCommand` saying what was not
understood and what is allowed.
"""

from __future__ import annotations

import re

# Which cards an order can queue is the play room's, which refuses the others too.
from games.play.queued_plays import NOT_QUEUED, QUEUE_SHAPES
from games.rules import CARDS, TRISKEL, InvalidCommand, card_name
from notifications.command_language import words

ORDER_WORDS = frozenset({"order", "orders", "ordre", "ordres"})
CANCEL_WORDS = frozenset({"cancel", "annuler", "annule", "annulez"})
ALL_WORDS = frozenset({"all", "every", "tous", "toutes", "tout"})

_KIND_WORDS = {
    "triskel": {"triskel"},
    "queue_play": {"next", "prochain", "queue", "queued"},
    "pass_until": {"pass", "passe", "passer"},
    "attack": {"attack", "attacked", "attaque", "attaquer", "attaques"},
    "peace": {"peace", "paix"},
    "citadel": {"citadel", "citadels", "citadelle", "citadelles", "shelter", "abri", "abriter"},
    "withdraw": {"withdraw", "retreat", "retraite", "repli", "replier", "quitter"},
    "draft": {"draft", "ranking", "rank", "classement"},
    "stand_in": {"bot", "robot", "standin"},
}
# "Only when I am attacked" (a Triskel order about the seat's own clashes); a line starting with
# "attack" is an attack order instead.
ATTACKED = frozenset({"attacked", "attaque", "attaquee", "attaques", "attaquees"})
CONCERN = frozenset({"concern", "concerns", "concerned", "concerne", "concernent", "concernee", "concernes"})
UNTIL = frozenset({"until", "till", "unless", "jusqu", "jusqua", "jusque", "tant"})
REMOVE = frozenset({"remove", "lose", "sacrifice", "perdre", "retirer", "retire", "enlever", "sacrifier"})
DISCARD = frozenset({"discard", "defausse", "defausser", "defausses"})
YES = frozenset({"yes", "accept", "accepts", "agree", "always", "oui", "accepte", "accepter", "toujours"})
NO = frozenset({"no", "refuse", "refuses", "never", "not", "non", "refuser", "jamais", "pas"})
WATCH = frozenset({"unless", "watch", "watching", "sauf", "surveille", "surveiller"})
ASK = frozenset({"ask", "asks", "demander", "demande", "demandez"})
PASS = frozenset({"pass", "passe", "passer"})
# What a stand-in order hands to the bot: maneuvers in clashes, or the Triskel windows of one's own play.
MANEUVERS = frozenset(
    {"maneuver", "maneuvers", "manoeuvre", "manoeuvres", "clash", "clashes", "conflit", "conflits"}
)
TRISKEL_WORDS = frozenset({"triskel", "triskels"})
# ... where the setup clans go ("bot setup", "robot mise en place"), or the choices a played card asks.
SETUP = frozenset({"setup", "set", "placement", "placements", "place", "installation", "mise"})
CARD_CHOICES = frozenset(
    {"choice", "choices", "choose", "card", "cards", "choix", "choisir", "carte", "cartes"}
)
PRETENDER = frozenset({"pretender", "pretendant", "pretendante"})

MESSAGES = {
    "unknown": (
        "I did not understand the order “{line}”. Orders: “order: peace refuse”, “order: attack remove” "
        "(or “attack discard bard, druid”), “order: citadel yes”, “order: withdraw cove, valley”, "
        "“order: draft geis, warlord; ask druid”, “order: geis only when it concerns me”, "
        "“order: warlord only when I am attacked”, “order: pass until it concerns me”, “order: next turn play citadel valley, unless valley”, "
        "“order: bot maneuvers”, “order: bot triskel after my plays”, “order: bot setup”, “order: bot card choices”. "
        "Cancel: “cancel order 2”, “cancel order peace”, “cancel all orders”.",
        "Je n'ai pas compris l'ordre « {line} ». Ordres : « ordre : paix refuser », « ordre : attaque perdre » "
        "(ou « attaque défausser barde, druide »), « ordre : citadelle oui », « ordre : repli anse, vallée », "
        "« ordre : draft geis, chef de guerre ; demander druide », « ordre : geis seulement si ça me concerne », "
        "« ordre : chef de guerre seulement si je suis attaqué », « ordre : passer jusqu'à ce que ça me concerne », « ordre : prochain tour jouer citadelle vallée, sauf vallée », "
        "« ordre : robot manœuvres », « ordre : robot triskel après mes coups », « ordre : robot mise en place », "
        "« ordre : robot choix de cartes ». "
        "Annuler : « annuler ordre 2 », « annuler ordre paix », « annuler tous les ordres ».",
    ),
    "stand_in": (
        "The order “{line}” does not say what the stand-in bot decides for you: write “order: bot maneuvers” "
        "(your maneuvers in clashes), “order: bot triskel after my plays” (your Triskel answers after your own play), "
        "“order: bot setup” (where your setup clans go) or “order: bot card choices” (the choices your cards "
        "ask once played: the card Druid takes, a second move, the Epic Tales you keep).",
        "L'ordre « {line} » ne dit pas ce que le robot décide pour vous : écrivez « ordre : robot "
        "manœuvres » (vos manœuvres dans les conflits), « ordre : robot triskel après mes coups » (vos "
        "réponses Triskel après votre propre coup), « ordre : robot mise en place » (où vont vos clans de "
        "mise en place) ou « ordre : robot choix de cartes » (les choix que vos cartes demandent une fois "
        "jouées : la carte que prend le Druide, un second déplacement, les Récits épiques que vous gardez).",
    ),
    "no_cards": (
        "The order “{line}” names no card I know.",
        "L'ordre « {line} » ne nomme aucune carte que je connaisse.",
    ),
    "no_territories": (
        "The order “{line}” names no territory I know.",
        "L'ordre « {line} » ne nomme aucun territoire que je connaisse.",
    ),
    "yes_or_no": (
        "The order “{line}” needs a yes or a no (accept or refuse).",
        "L'ordre « {line} » demande un oui ou un non (accepter ou refuser).",
    ),
    # {queued}: the cards that can be queued, {not_queued}: those that cannot, each by its
    # catalog name in the reader's language (`_queue_message`).
    "queue": (
        "I could not read the play queued in “{line}”: write “next turn pass”, “next turn pretender” or "
        "“next turn play <card> <territories or colour>” ({queued}). {not_queued} cannot be queued: "
        "play them on your turn.",
        "Je n'ai pas pu lire le coup prévu dans « {line} » : écrivez « prochain tour passer », « prochain tour "
        "prétendant » ou « prochain tour jouer <carte> <territoires ou couleur> » ({queued}). Les cartes "
        "{not_queued} ne peuvent pas être prévues : jouez-les à votre tour.",
    ),
    "not_queued": (
        "{card} cannot be queued, by email or on the game page: its play takes choices (clans from several "
        "places, cards to choose) an order does not hold. Play it on your turn; you may queue {queued}, a pass "
        "or a Pretender token.",
        "La carte {card} ne peut pas être prévue, ni par email ni sur la page de la partie : son jeu demande des "
        "choix (des clans venus de plusieurs endroits, des cartes à choisir) qu'un ordre ne contient pas. Jouez "
        "cette carte à votre tour ; vous pouvez prévoir {queued}, une passe ou un marqueur Prétendant.",
    ),
    "ambiguous_card": (
        "In the order “{line}”, “{word}” names several cards ({cards}): write the whole name of the one you mean.",
        "Dans l'ordre « {line} », « {word} » nomme plusieurs cartes ({cards}) : écrivez le nom entier de celle que "
        "vous voulez dire.",
    ),
    "no_triskel": (
        "{card} has no Triskel, so an order cannot say when you are asked about it. A Triskel order names "
        "cards with a Triskel (the Action cards {cards}, and the Advantage cards and Epic Tales that show "
        "one), or none for all of them: “order: geis only when it concerns me”.",
        "La carte {card} n'a pas de Triskel : un ordre ne peut pas dire quand vous êtes consulté à son sujet. "
        "Un ordre Triskel nomme des cartes à Triskel (les cartes Action {cards}, et les cartes Avantage et "
        "les Récits épiques qui en portent un), ou aucune pour toutes : « ordre : geis seulement si ça me "
        "concerne ».",
    ),
    "cancel": (
        "I did not understand which order to cancel in “{line}”: write “cancel order 2” (its number in the "
        "list of your orders), “cancel order peace” or “cancel all orders”.",
        "Je n'ai pas compris quel ordre annuler dans « {line} » : écrivez « annuler ordre 2 » (son numéro "
        "dans la liste de vos ordres), « annuler ordre paix » ou « annuler tous les ordres ».",
    ),
}

_WORD = re.compile(r"[^\W\d_]+|\d+")


def _message(key: str, lang: str, **fields) -> str:
    english, french = MESSAGES[key]
    return (french if lang == "fr" else english).format(**fields)


def _queue_message(key: str, lang: str, **fields) -> str:
    """`_message` for the refusals of a queued play ("queue", "not_queued"), naming the cards that
    can be queued and those that cannot by the rules' catalog names in `lang` (never a second,
    hand-written list that could disagree with them)."""
    queued = ", ".join(card_name(card, lang) for card in QUEUE_SHAPES)
    not_queued = [card_name(card, lang) for card in CARDS if card in NOT_QUEUED]
    joined = ", ".join(not_queued[:-1]) + (" et " if lang == "fr" else " and ") + not_queued[-1]
    return _message(key, lang, queued=queued, not_queued=joined, **fields)


def _tokens(text: str) -> list:
    return [
        words.Token("num" if m.group().isdigit() else "word", m.group())
        for m in _WORD.finditer(words.fold(text))
    ]


def _names(tokens: list) -> list[tuple[str, str]]:
    """The cards, territories and colours named in `tokens`, in order: `(kind, id)` with kind
    "card", "territory" or "seat" (a span that names both a card and a territory is read as
    the territory when `prefer` finds one, see callers)."""
    found, i = [], 0
    while i < len(tokens):
        if tokens[i].text in words.SEAT_WORDS:
            found.append(("seat", words.SEAT_WORDS[tokens[i].text]))
            i += 1
            continue
        match = words.match_name(tokens, i)
        if match is None:
            i += 1
            continue
        end, entities = match
        found.append(tuple(entities[0]) if len(entities) == 1 else ("both", entities))
        i = end
    return found


def _cards(tokens, line: str, lang: str) -> list[str]:
    """The cards named in `tokens`, in order. A word that names several cards (French "artisans":
    Artisans et Paysans and Maître Artisan) is refused rather than read as all of them, which
    would rank or mark a card the player did not mean.

    :raises InvalidCommand: such a word, naming the cards it fits (in `lang`)."""
    i = 0
    while i < len(tokens):
        match = None if tokens[i].text in words.SEAT_WORDS else words.match_name(tokens, i)
        if match is None:
            i += 1
            continue
        end, entities = match
        several = sorted({ident for kind, ident in entities if kind == "card"})
        if len(several) > 1:
            raise InvalidCommand(
                _message(
                    "ambiguous_card",
                    lang,
                    line=line[:80],
                    word=" ".join(t.text for t in tokens[i:end]),
                    cards=", ".join(sorted(card_name(card, lang) for card in several)),
                )
            )
        i = end
    return _of(_names(tokens), "card")


def _of(names, kind: str) -> list[str]:
    """The ids of `kind` ("card" or "territory") among `names`, a span with both readings read
    as `kind`."""
    out = []
    for entry in names:
        if entry[0] == kind:
            out.append(entry[1])
        elif entry[0] == "both":
            out.extend(ident for k, ident in entry[1] if k == kind)
    return list(dict.fromkeys(out))


def read_order_line(line: str, lang: str = "en", *, bare: bool = False) -> list[dict] | None:
    """The standing-order commands of one reply line, or None when the line is no order line.
    `bare`: the line is an order that need not start with "order" (the game page's orders field,
    docs/web.md), so it is never None and never a cancellation. Raises InvalidCommand (in `lang`)
    for an order line that cannot be read, quoting `line` as written."""
    tokens = _tokens(line)
    if len(tokens) > 1 and tokens[0].text == "standing" and tokens[1].text in ORDER_WORDS:
        tokens = tokens[1:]
    said_order = bool(tokens) and tokens[0].text in ORDER_WORDS
    if not bare:
        if not tokens:
            return None
        if tokens[0].text in CANCEL_WORDS:
            return [_cancel(tokens[1:], line, lang)]
        if not said_order:
            return None
    rest = tokens[1:] if said_order else tokens
    if not rest:
        raise InvalidCommand(_message("unknown", lang, line=line[:80]))
    return [{"type": "standing_order", "order": order} for order in _order(rest, line, lang)]


def _cancel(tokens, line: str, lang: str) -> dict:
    texts = [t.text for t in tokens if t.text not in ORDER_WORDS and t.text not in words.GLUE]
    if texts and texts[0] in ALL_WORDS:
        return {"type": "cancel_order", "which": "all"}
    if texts and texts[0].isdigit():
        return {"type": "cancel_order", "which": int(texts[0])}
    for kind, kind_words in _KIND_WORDS.items():
        if texts and texts[0] in kind_words:
            return {"type": "cancel_order", "which": kind}
    if texts and _of(_names(tokens), "card"):
        card = _of(_names(tokens), "card")[0]
        if TRISKEL in CARDS[card].timings:
            return {"type": "cancel_order", "which": "triskel:" + card}
    raise InvalidCommand(_message("cancel", lang, line=line[:80]))


def _order(tokens, line: str, lang: str) -> list[dict]:
    texts = [t.text for t in tokens]
    present = set(texts)
    first = texts[0]
    if first in _KIND_WORDS["stand_in"]:
        if present & MANEUVERS:
            return [{"kind": "stand_in", "decision": "maneuver"}]
        if present & TRISKEL_WORDS:
            return [{"kind": "stand_in", "decision": "own_triskel"}]
        if present & SETUP:
            return [{"kind": "stand_in", "decision": "setup"}]
        if present & CARD_CHOICES:
            return [{"kind": "stand_in", "decision": "card_choices"}]
        raise InvalidCommand(_message("stand_in", lang, line=line[:80]))
    # "next turn pass, unless the Valley" is a queued pass watching a territory, not "pass until".
    if first in _KIND_WORDS["queue_play"]:
        return [_queue(tokens, line, lang)]
    if present & PASS and present & UNTIL:
        return [{"kind": "pass_until"}]
    attacked = bool(present & ATTACKED) and first not in _KIND_WORDS["attack"]
    if present & CONCERN or attacked:
        return _triskel(tokens, line, lang, {"when": "attacked"} if attacked else {})
    if first in _KIND_WORDS["attack"]:
        if present & REMOVE or "clan" in present:
            return [{"kind": "attack", "answer": "remove"}]
        cards = _cards(tokens[1:], line, lang)
        if not cards:
            raise InvalidCommand(_message("no_cards", lang, line=line[:80]))
        return [{"kind": "attack", "answer": "discard", "cards": cards}]
    if first in _KIND_WORDS["peace"] or first in _KIND_WORDS["citadel"]:
        kind = "peace" if first in _KIND_WORDS["peace"] else "citadel"
        yes, no = bool(present & YES), bool(present & NO)
        if kind == "citadel" and not yes and not no:
            yes = True  # "order: shelter"
        if yes == no:
            raise InvalidCommand(_message("yes_or_no", lang, line=line[:80]))
        return [{"kind": kind, "agree" if kind == "peace" else "shelter": yes}]
    if first in _KIND_WORDS["withdraw"]:
        to = _of(_names(tokens[1:]), "territory")
        if not to:
            raise InvalidCommand(_message("no_territories", lang, line=line[:80]))
        return [{"kind": "withdraw", "to": to}]
    if first in _KIND_WORDS["draft"]:
        split = next((i for i, t in enumerate(texts) if t in ASK), len(texts))
        ranking, ask = _cards(tokens[1:split], line, lang), _cards(tokens[split + 1 :], line, lang)
        if not ranking and not ask:
            raise InvalidCommand(_message("no_cards", lang, line=line[:80]))
        return [{"kind": "draft", "ranking": ranking, "ask": ask}]
    raise InvalidCommand(_message("unknown", lang, line=line[:80]))


def _triskel(tokens, line: str, lang: str, when: dict) -> list[dict]:
    """The Triskel orders of a line: one per card it names, or one for every Triskel card when
    it names none. Raises InvalidCommand when it names a card without a Triskel (an order about
    it could never apply), naming the cards that have one."""
    cards = _cards(tokens, line, lang)
    without = [card for card in cards if TRISKEL not in CARDS[card].timings]
    if without:
        actions = [
            card_name(c, lang)
            for c, info in CARDS.items()
            if info.type == "action" and TRISKEL in info.timings
        ]
        raise InvalidCommand(
            _message("no_triskel", lang, card=card_name(without[0], lang), cards=", ".join(actions))
        )
    return [{"kind": "triskel", "card": card, **when} for card in cards] or [
        {"kind": "triskel", "card": "all", **when}
    ]


def _queue(tokens, line: str, lang: str) -> dict:
    texts = [t.text for t in tokens]
    split = next((i for i, t in enumerate(texts) if t in WATCH), len(texts))
    watch = _of(_names(tokens[split + 1 :]), "territory")
    body, present = tokens[:split], set(texts[:split])
    if present & PASS:
        return {"kind": "queue_play", "command": {"type": "pass"}, "watch": watch}
    if present & PRETENDER:
        return {"kind": "queue_play", "command": {"type": "pretender"}, "watch": watch}
    names = _names(body)
    cards = [c for c in _of(names, "card") if c in QUEUE_SHAPES]
    if not cards:
        refused = [c for c in _of(names, "card") if c in NOT_QUEUED]
        if refused:
            raise InvalidCommand(_queue_message("not_queued", lang, card=card_name(refused[0], lang)))
        raise InvalidCommand(_queue_message("queue", lang, line=line[:80]))
    card = cards[0]
    # The names after the card's own: its targets (a span naming both a card and a territory,
    # such as "citadel", counts as the card once).
    after = names[next(i for i, n in enumerate(names) if card in _of([n], "card")) + 1 :]
    territories = [ident for entry in after for ident in _of([entry], "territory")]
    seats = [entry[1] for entry in after if entry[0] == "seat"]
    command = {"type": "play", "card": card}
    shape = QUEUE_SHAPES[card]
    if shape == ("territory",) and len(territories) == 1:
        command["territory"] = territories[0]
    elif shape == ("territories",) and territories:
        command["territories"] = sorted(territories * 2 if len(territories) == 1 else territories[:2])
    elif shape == ("from", "to") and len(territories) == 2:
        command["from"], command["to"] = territories
    elif shape == ("opponent",) and len(seats) == 1:
        command["opponent"] = seats[0]
    elif shape != ():
        raise InvalidCommand(_queue_message("queue", lang, line=line[:80]))
    return {"kind": "queue_play", "command": command, "watch": watch}
