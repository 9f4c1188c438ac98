"""The words of the email command language: folding, tokens, names, keywords (docs/email-commands.md).

Pure Python data and lexing for `notifications.command_language`; no Django. Everything here works
on *folded* text: case-folded, accents removed, typographic quotes made plain, French elisions
split ("l'anse" -> "l anse") and English possessives joined ("balor's" -> "balors").

A line becomes a list of `Token`s. Card and territory names are matched longest first, forgiving
plurals, articles and partial names ("craftsmen", "tir na nog"); a span that has several readings
(the Cove is a territory and an Advantage card; "citadel" is a card and the Citadels-step answer)
keeps all of them, and the matcher picks the one that fits a legal command.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from games.rules import CARDS, COLOURS, TERRITORY_INFO, card_name, territory_name

# -- folding ---------------------------------------------------------------------------------

_QUOTES = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "\u02bc": "'",
        "`": "'",
        "\u00b4": "'",
        "\u2032": "'",
        "&": " and ",
        "_": " ",
        "\u2192": " -> ",
        "\u21d2": " -> ",
        "\u00a0": " ",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
    }
)
_ELISION = re.compile(r"\b(qu|[ldjnmstc])'(?=[^\W\d_])")
_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def fold(text: str) -> str:
    """Lower-case, accent-free, plain-quoted text: "L'Anse – Vallée" -> "l anse - vallee"."""
    text = text.translate(_QUOTES)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = text.replace("\u0153", "oe").replace("\u00e6", "ae").replace("\u00f8", "o")
    text = _ELISION.sub(r"\1 ", text)
    text = _HYPHEN.sub(" ", text)
    return text.replace("'", "")


# -- phrases: several words that mean one thing, replaced by a marker before tokenising --------
# Markers are upper-case words: folded text never contains upper case.

_PHRASES = [
    # standing policies for Triskel windows
    (
        r"\b(?:(?:please )?(?:never|dont|do not|don t|stop|no longer|no more|quit)(?: ever)?(?: again)?"
        r" ask(?:ing)?(?: me)?(?: again)?|ne (?:me )?(?:demandez?|demander|demande) (?:plus|jamais)(?: rien)?"
        r"|ne (?:plus|jamais) (?:me )?demander|(?:plus )?jamais demander|ne plus (?:me )?solliciter)"
        r"(?: (?:about|for|on|regarding|if i want to play|whether to play|pour|a propos de|au sujet de"
        r"|concernant|sur))?\b",
        " XNEVER ",
    ),
    (
        r"\b(?:(?:please )?(?:always |again )?ask(?: me)?(?: again)?|(?:toujours |de nouveau )?"
        r"(?:me )?(?:demande|demandez|demander)(?: moi)?(?: a nouveau| de nouveau)?)"
        r"(?: (?:about|for|on|regarding|pour|a propos de|au sujet de|concernant|sur))?\b",
        " XASK ",
    ),
    # Citadels step
    (
        r"\b(?:no|dont|do not|don t|not|never|pas de|sans|ne pas|aucune?|non)"
        r" (?:citadels?|citadelles?|shelter(?:ing)?|abriter|abri|mettre a l abri)\b",
        " XNOCITADEL ",
    ),
    # peace
    (
        r"\b(?:propose[sd]?|proposer|proposons|offer|suggest)(?: (?:to|de|d|la|a))?"
        r" (?:peace|paix|(?:end|stop|finish|finir|terminer|arreter|mettre fin)"
        r"(?: (?:the|this|le|ce|au|a|la))? (?:clash|conflit|combat))\b",
        " XPROPOSE ",
    ),
    (
        r"\b(?:end|stop|finish|close|ending)(?: (?:to|of))?(?: (?:the|this))? clash\b"
        r"|\b(?:mettre )?fin (?:au|du|de ce|de la|a ce|le) (?:conflit|combat)\b"
        r"|\b(?:finir|terminer|arreter|termine|finis|arrete)(?: (?:le|ce|la))? (?:conflit|combat)\b",
        " XENDCLASH ",
    ),
    # Triskel windows and optional moves
    (
        r"\b(?:play no triskel(?: cards?)?|no triskel(?: cards?)?|no reaction|dont react|do not react"
        r"|pas de (?:reaction|triskel)|ne pas reagir|aucune reaction)\b",
        " XDECLINE ",
    ),
    (
        r"\b(?:move no clans?|no (?:move|moves|movement)|dont move|do not move|stay put"
        r"|ne pas (?:bouger|deplacer)|aucun deplacement|pas de deplacement|je ne bouge pas)\b",
        " XSKIP ",
    ),
    (r"\b(?:set aside|put aside|mettre de cote|mets de cote|mettre a part)\b", " XSETASIDE "),
    (
        r"\b(?:take|prendre|prends|prend)(?: (?:a|the|un|le))?(?: (?:marqueur|jeton))? (?:pretender|pretendant)\b",
        " XPRETENDER ",
    ),
    # a card played for no effect (docs/rulings.md), as its option line says it
    (
        r"\b(?:(?:for|with) )?no effect(?: *\(? *nothing of it can be done now *\)?)?"
        r"|\bsans effet(?: *\(? *rien ne peut en etre fait maintenant *\)?)?",
        " XNOEFFECT ",
    ),
    # a no said with the word of a yes ("pas d'accord": "d'accord" alone is a yes)
    (r"\b(?:(?:do not|dont|don t) agree|(?:ne )?(?:suis )?pas d accord)\b", " XDISAGREE "),
]
_PHRASES = [(re.compile(p), m) for p, m in _PHRASES]


# -- tokens -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """kind: word, num, marker, sep (`,;:/.()+`), arrow or junk; text: the folded text."""

    kind: str
    text: str


_TOKEN = re.compile(
    r"(?P<arrow>-+>|=+>|>)|(?P<num>(?<![\w-])-[0-9]+|[0-9]+)|(?P<marker>[A-Z]+)"
    r"|(?P<word>[^\W\d_]+)|(?P<sep>[,;:/.()\[\]{}+|!?])|(?P<junk>\S)"
)


def tokenize(folded: str) -> list[Token]:
    """Tokens of folded text, with multi-word phrases replaced by their marker."""
    for pattern, marker in _PHRASES:
        folded = pattern.sub(marker, folded)
    return [Token(m.lastgroup, m.group()) for m in _TOKEN.finditer(folded)]


# -- names of cards and territories ------------------------------------------------------------

GLUE = frozenset({"the", "le", "la", "les", "l", "and", "et", "of", "de", "du", "des", "d"})
# Words of names too common to stand for the name alone ("new", "clans", "mine", "resolve"...).
GENERIC = frozenset(
    {
        "new",
        "nouveau",
        "nouveaux",
        "nouvelle",
        "clan",
        "mine",
        "land",
        "terre",
        "act",
        "adv",
        "ep",
        "eye",
        "word",
        "share",
        "club",
        "harp",
        "beauty",
        "spear",
        "wealth",
        "horse",
        "horses",
        "ploy",
        "resolve",
        "memory",
        "tale",
        "battle",
        "circle",
        "lost",
        "na",
        "main",
        "argent",
        "autre",
        "monde",
        "oeil",
        "parole",
        "part",
        "massue",
        "harpe",
        "beaute",
        "lance",
        "richesse",
        "chevaux",
        "ruse",
        "voix",
        "volonte",
        "memoire",
        "geste",
        "pierre",
        "furie",
        "enfant",
        "enfants",
        "great",
    }
)


def stem(word: str) -> str:
    """Forgive plurals in names: "plains" -> "plain", "dagdas" -> "dagda"."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _name_key(name: str) -> tuple:
    words = [t.text for t in tokenize(fold(name)) if t.kind == "word"]
    return tuple(stem(w) for w in words if w not in GLUE)


def _names(name_of, ident: str) -> tuple[str, str]:
    """The English and the official French name of a card or territory (`rules.card_name`,
    `rules.territory_name`): a reply may use either, whatever the player's language."""
    return name_of(ident, "en"), name_of(ident, "fr")


def _build_names():
    exact: dict[tuple, set] = {}
    partial: dict[tuple, set] = {}
    entities = [("territory", t, (*_names(territory_name, t), t.replace("_", " "))) for t in TERRITORY_INFO]
    entities += [("card", c, (*_names(card_name, c), c.replace("_", " "))) for c in CARDS]
    for kind, ident, names in entities:
        for name in names:
            key = _name_key(name)
            exact.setdefault(key, set()).add((kind, ident))
            for i in range(len(key)):
                for j in range(i + 1, len(key) + 1):
                    sub = key[i:j]
                    if sub != key and any(w not in GENERIC for w in sub):
                        partial.setdefault(sub, set()).add((kind, ident))
    for key in exact:
        partial.pop(key, None)
    longest = max(len(k) for k in exact)
    return exact, partial, longest


NAMES_EXACT, NAMES_PARTIAL, LONGEST_NAME = _build_names()


def match_name(tokens: list[Token], i: int):
    """The longest card/territory name starting at `tokens[i]`: (end index, sorted entities) or
    None. Glue words ("of", "de", "the") may sit inside a name, never at its start."""
    if tokens[i].kind != "word" or tokens[i].text in GLUE:
        return None
    positions, words, j = [], [], i
    while j < len(tokens) and tokens[j].kind == "word" and len(words) < LONGEST_NAME:
        if tokens[j].text not in GLUE:
            words.append(stem(tokens[j].text))
            positions.append(j)
        j += 1
    for n in range(len(words), 0, -1):
        key = tuple(words[:n])
        found = NAMES_EXACT.get(key) or NAMES_PARTIAL.get(key)
        if found:
            return positions[n - 1] + 1, sorted(found)
    return None


# -- other words ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Keyword:
    """What a word says about the command.

    strong: command types the word restricts to (intersected); weak: types it suggests, applied
    only when compatible with the rest; flags: facts the command must accept (yes, no, discard,
    replace, remove, never, ask); soft: facts that may satisfy a need but need not be used;
    marker: the role of the next card named ("discard"); label: English echo in messages.
    """

    label: str
    strong: frozenset | None = None
    weak: frozenset | None = None
    flags: frozenset = frozenset()
    soft: frozenset = frozenset()
    marker: str | None = None


# The words each language knows, for "did you mean" hints in the player's own language only
# (`known_words`); the reader understands both languages whatever the player's.
VOCABULARY: dict[str, set] = {"en": set(), "fr": set()}
# {folded French word: its French spelling} ("defausser": "défausser"), for the hints (`spelled`).
_FRENCH_SPELLING: dict[str, str] = {}


def _in_languages(words: str) -> list[str]:
    """The words of "english words | french words", folded, each recorded in its language's
    VOCABULARY (a word of both languages is written on both sides). French words are written
    with their accents: the hints show them so (`spelled`), the reader matches them folded."""
    english, _bar, french = words.partition("|")
    folded = []
    for word in french.split():
        folded.append(fold(word))
        _FRENCH_SPELLING.setdefault(folded[-1], word)
    VOCABULARY["en"].update(english.split())
    VOCABULARY["fr"].update(folded)
    return english.split() + folded


def _kw(words: str, label: str, strong=None, weak=None, flags=(), soft=(), marker=None) -> dict:
    """Keyword entries for `words` ("english words | french words")."""
    k = Keyword(
        label,
        frozenset(strong) if strong is not None else None,
        frozenset(weak) if weak is not None else None,
        frozenset(flags),
        frozenset(soft),
        marker,
    )
    return {w: k for w in _in_languages(words)}


SKIPPING = "*skip"  # in a type set: any command with "skip": true (Scouts & Spies' move...)
PASSING = ("pass", "decline", "no_citadel", SKIPPING)
ANSWERS = ("attack_response", "attack_choice", "mountains_toll", "remove_clan")
KEYWORDS: dict[str, Keyword] = {
    **_kw("pass passes | passe passer passes passons", "pass", strong=PASSING),
    **_kw("skip skips XSKIP", "skip", strong=PASSING),
    **_kw("decline declines declined XDECLINE | décliner", "decline", strong=("decline",)),
    **_kw("pretender XPRETENDER | prétendant prétendante prétendre", "Pretender", strong=("pretender",)),
    **_kw("attack attacks attacking | attaque attaquer attaques attaquons", "attack", strong=("attack",)),
    **_kw(
        "withdraw withdraws withdrawal retreat retreats | retraite replier repli reculer recule quitter quitte quittons",
        "withdraw",
        strong=("withdraw",),
    ),
    **_kw("| retirer retire", "retirer", strong=("withdraw",) + ANSWERS, soft=("remove",)),
    **_kw(
        "remove removes lose loose sacrifice | perdre perds perd enlever enlève éliminer sacrifier sacrifice",
        "remove",
        strong=ANSWERS,
        flags=("remove",),
    ),
    **_kw(
        "discard discards discarding | défausse défausser défausses défausserai jeter jette",
        "discard",
        weak=ANSWERS + ("play",),
        flags=("discard",),
        marker="discard",
    ),
    **_kw("propose proposes XPROPOSE | proposer proposes", "propose peace", strong=("propose_peace",)),
    **_kw("peace truce | paix trêve", "peace", strong=("propose_peace", "peace_vote")),
    **_kw("XENDCLASH", "end the clash", strong=("end_clash", "peace_vote")),
    **_kw("XNOCITADEL", "no citadel", strong=("no_citadel",)),
    **_kw("shelter | abriter abrite abri protéger réfugier", "shelter", strong=("citadel",)),
    **_kw("citadel citadels | citadelle citadelles", "citadel", strong=("citadel",)),
    **_kw("capital | capitale", "capital", strong=("choose_capital",)),
    **_kw("resolve | résoudre", "resolve", strong=("clash_order",)),
    **_kw("clash clashes | conflit conflits", "clash", weak=("clash_order",)),
    **_kw("first | premier première abord", "first", weak=("clash_order",)),
    **_kw(
        "cell hex hexagon position coordinates coords spot | case hexagone emplacement position coordonnées",
        "cell",
        strong=("territory_cell", "place_territory"),
    ),
    **_kw("XNEVER", "never ask", strong=("set_policy",), flags=("never",)),
    **_kw("XASK", "ask", strong=("set_policy",), flags=("ask",)),
    **_kw("XNOEFFECT", "for no effect", flags=("no_effect",)),
    **_kw("react reacts respond counter | réagir réagis contrer", "react", strong=("react",)),
    **_kw("keep keeps keeping | garder garde gardes gardons", "keep", weak=("draft", "choose", "keep")),
    **_kw(
        "pick picks choose chooses select draft want | choisir choisis choisit",
        "pick",
        weak=("draft", "choose", "keep"),
    ),
    **_kw("take takes | prendre prends prend", "take", weak=("draft", "choose", "keep")),
    **_kw("give gives | donner donne donnes", "give", weak=("give", "react")),
    **_kw("XSETASIDE", "set aside", strong=("set_aside",)),
    **_kw(
        "play plays playing use cast | jouer joue joues jouons utiliser utilise",
        "play",
        weak=("play", "react"),
    ),
    **_kw(
        "place places placing put deploy | placer poser pose mettre mets",
        "place",
        weak=("place_clan", "place_clans", "territory_cell", "choose_capital", "place_territory"),
    ),
    **_kw(
        "move moves moving send | déplacer déplace bouger bouge envoyer envoie",
        "move",
        weak=("scouts_move", "tailtu_move", "play", "withdraw", "react"),
    ),
    **_kw("replace replaces replacing | remplacer remplace", "replace", weak=("play",), flags=("replace",)),
    **_kw("yes yeah yep yup agree agreed accept | oui ouais accepte accepter accord", "yes", flags=("yes",)),
    **_kw("ok okay sure fine | ok volontiers", "ok", soft=("yes",)),
    **_kw("not dont | ne pas", "not", flags=("no",)),
    **_kw(
        "no nope nah refuse refuses refused reject rejects disagree XDISAGREE | non refuse refuser rejeter",
        "no",
        flags=("no",),
    ),
}

# Prepositions: the role of the next territory named.
PREPOSITIONS = {
    **{w: "from" for w in _in_languages("from out | depuis hors")},
    **{w: "de" for w in _in_languages("| de du des")},
    **{w: "to" for w in _in_languages("to into towards toward onto | vers jusqu jusque à au aux")},
    **{w: "at" for w in _in_languages("in at on inside within | en dans sur chez")},
}

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "un": 1,
    "une": 1,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
    "cinq": 5,
    "sept": 7,
    "huit": 8,
    "neuf": 9,
    "dix": 10,
    "onze": 11,
    "douze": 12,
}
_in_languages(
    "one two three four five six seven eight nine ten eleven twelve | un une deux trois "
    "quatre cinq six sept huit neuf dix onze douze"
)

SEAT_WORDS = {
    **{w: "green" for w in _in_languages("green greens | vert verte verts vertes")},
    **{w: "blue" for w in _in_languages("blue blues | bleu bleue bleus bleues")},
    **{w: "orange" for w in _in_languages("orange oranges | orange oranges")},
    **{w: "white" for w in _in_languages("white whites | blanc blanche blancs blanches")},
}
assert set(SEAT_WORDS.values()) == set(COLOURS)
SELF_WORDS = frozenset(_in_languages("me myself self | moi même"))

# Words that carry nothing: pronouns, articles, politeness, the game's own nouns.
FILLERS = frozenset(
    _in_languages("""
i im ill ive id we lets let us will would shall like wish please pls plz kindly thanks thank thx
ty you cheers my mine our your the a an of with then also just now turn this that these those it
its is be do does doing did card cards triskel token tokens exposed clan clans here there go going
hand hands looking look against giving next territory territories tile new maneuver maneuvers
manoeuvre manoeuvres instead only option choice number for about some both each time again so
well as by player players season action epic tale tales all any anything everything make or
hi hello hey dear regards best thing answer reply step vote voting order s t am are can could
should get ahead
|
je j vais veux voudrais aimerais souhaite bien le la les l des du d mon ma mes notre nos carte
cartes avec puis ensuite aussi alors il vous plaît svp stp te tu tour ce cette cet ces tuile
territoire jeton jetons marqueur marqueurs nouveau nouvelle nouveaux pour donc y on nous qui que qu est c ça voilà
merci bonjour salut cordialement amicalement bises et ou faire fais suis exposé exposés ici voici
option numéro choix joueur action épique récit saison étape vote prochain suivant tout tous toute
rien ma mon mes leur leurs contre regardant regarder main mains donnant se
""")
)

# Taking back one's last move (docs/email-commands.md, "Taking back your last move"): a line whose
# folded words are one of these phrases, followed by TAKE_BACK_MORE words only ("undo my move",
# "annuler mon dernier coup").
TAKE_BACK_PHRASES = (("take", "back"), ("undo",), ("reprendre",), ("reprends",), ("annuler",), ("annule",))
_in_languages("take back undo | reprendre reprends annuler annule")  # the "did you mean" hints know them
TAKE_BACK_MORE = frozenset(
    _in_languages("my last move please pls | mon dernier coup le svp stp s il vous plaît")
)

COURTESY = frozenset(
    [
        "hi",
        "hello",
        "hey",
        "dear",
        "thanks",
        "thank",
        "thx",
        "cheers",
        "regards",
        "best",
        "bonjour",
        "salut",
        "merci",
        "cordialement",
        "amicalement",
        "bises",
        "coucou",
        "greetings",
        "sincerely",
        "yours",
        # closings: "Good luck", "Have a nice day", "Many thanks", "Bonne partie à tous"
        "good",
        "have",
        "many",
        "kind",
        "warm",
        "bye",
        "goodbye",
        "ciao",
        "bonne",
        "bonsoir",
    ]
)
# Greetings and closings of two words whose first one is no courtesy word alone ("take" is a
# command word, "à" a preposition), as folded words.
COURTESY_OPENINGS = frozenset(
    {("take", "care"), ("see", "you"), ("a", "bientot"), ("a", "plus"), ("au", "revoir")}
)


def _name_words(language: str) -> set:
    """The words of card and territory names in `language` (English also has the ids)."""
    found = set()
    entities = [*((t, territory_name) for t in TERRITORY_INFO), *((c, card_name) for c in CARDS)]
    for ident, name_of in entities:
        names = (
            (name_of(ident, "en"), ident.replace("_", " ")) if language == "en" else (name_of(ident, "fr"),)
        )
        for name in names:
            found.update(t.text for t in tokenize(fold(name)) if t.kind == "word")
    return found


@functools.lru_cache(maxsize=3)
def known_words(language: str | None = None) -> tuple:
    """The words the language knows in `language` ("en" or "fr"; None: both), sorted: the "did
    you mean" hints of a reply come from the player's own language only (an English player
    is never told "did you mean “donne”?")."""
    languages = ("en", "fr") if language is None else ("fr" if language == "fr" else "en",)
    words = set()
    for code in languages:
        words |= VOCABULARY[code] | _name_words(code)
    return tuple(sorted(w for w in words if w.islower() and len(w) > 2))


@functools.lru_cache(maxsize=1)
def _french_spellings() -> dict[str, str]:
    """{folded word: its French spelling} for the words of `known_words("fr")`: those of the
    official French card and territory names, lower-cased ("vallee": "vallée"), and the words
    of the language (`_in_languages`)."""
    spelled: dict[str, str] = {}
    entities = [*((t, territory_name) for t in TERRITORY_INFO), *((c, card_name) for c in CARDS)]
    for ident, name_of in entities:
        for written in re.findall(r"[^\W\d_]+", name_of(ident, "fr")):
            spelled.setdefault(fold(written), written.lower())
    for folded, written in _FRENCH_SPELLING.items():
        spelled.setdefault(folded, written)
    return spelled


def spelled(word: str, language: str) -> str:
    """How `language` ("en" or "fr") writes `word`, a folded word of `known_words(language)`:
    French with its accents ("vallee" -> "vallée", "defausser" -> "défausser"); English as it
    is."""
    return _french_spellings().get(word, word) if language == "fr" else word


# The open tables (docs/email-commands.md, "Finding a table"): mail to the service's address (or a
# reply to its list of tables) whose first line's folded words are a LIST phrase asks for the
# tables seeking players; a JOIN phrase followed by a table's number takes a seat there, and a
# LEAVE phrase followed by one gives it up before the game starts.
TABLES_LIST_PHRASES = (
    ("list",),
    ("list", "tables"),
    ("list", "open", "tables"),
    ("tables",),
    ("open", "tables"),
    ("liste",),
    ("lister",),
    ("liste", "des", "tables"),
    ("tables", "ouvertes"),
)
TABLES_JOIN_PHRASES = (
    ("join",),
    ("join", "table"),
    ("rejoindre",),
    ("rejoindre", "table"),
    ("rejoindre", "la", "table"),
)
TABLES_LEAVE_PHRASES = (
    ("leave",),
    ("leave", "table"),
    ("quitter",),
    ("quitter", "table"),
    ("quitter", "la", "table"),
)
_in_languages(
    "list tables open join leave table | liste lister des tables ouvertes rejoindre quitter la table"
)
