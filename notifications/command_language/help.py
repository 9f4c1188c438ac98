"""Help and messages of the email command language, in English and French.

`describe_syntax(kind)` is the short syntax reminder for a decision kind, put in prompt emails and
in rejection replies; `message(key, language, **fields)` gives the text of the answers of
`notifications.command_language`. The full reference for players is docs/email-commands.md: keep
both in step.
"""

from __future__ import annotations

NUMBER_HINT = {
    "en": "Or reply with the number of an option from the list.",
    "fr": "Ou répondez par le numéro d'une option de la liste.",
}
POLICY_HINT = {
    "en": 'Standing policy (any time, on its own line): "never ask geis", "ask me about geis", '
    '"never ask" (all Triskel cards).',
    "fr": "Consigne permanente (à tout moment, sur sa propre ligne) : « ne plus demander geis », "
    "« demande-moi pour geis », « ne plus demander » (toutes les cartes Triskel).",
}

ORDER_HINT = {
    "en": 'Standing orders (any time, each on its own line): "order: peace refuse", "order: attack remove", '
    '"order: draft geis, warlord; ask druid", "order: pass until it concerns me", "cancel order 2".',
    "fr": "Ordres permanents (à tout moment, chacun sur sa ligne) : « ordre : paix refuser », "
    "« ordre : attaque perdre », « ordre : draft geis, seigneur de guerre ; demander druide », "
    "« ordre : passer jusqu'à ce que ça me concerne », « annuler ordre 2 ».",
}

SYNTAX = {
    "choose_capital": {
        "en": 'Choose the Capital: "capital valley" (or just "valley").',
        "fr": "Choisir la Capitale : « capitale vallée » (ou simplement « vallée »).",
    },
    "place_clan": {
        "en": 'Place 1 clan: "place valley" (or just "valley").',
        "fr": "Placer 1 clan : « placer vallée » (ou simplement « vallée »).",
    },
    "place_clans": {
        "en": 'Place your 2 clans: "place valley, cove" or "place valley valley" (both in one).',
        "fr": "Placer vos 2 clans : « placer vallée, anse » ou « placer vallée vallée ».",
    },
    "draft": {
        "en": 'Draft: "keep bard, druid" (as many cards as you keep now), or "pick bard".',
        "fr": "Draft : « garder barde, druide » (autant de cartes que vous en gardez), ou « prendre barde ».",
    },
    "season_turn": {
        "en": 'Your turn: "play <card> <details>", "pass" or "pretender". Examples: "play migration '
        'from valley: 2 to cove, 1 to plains", "citadel valley", "conquest plains from valley 2, '
        'cove 1", "new clans valley cove", "new alliance valley replace blue", "scouts spies '
        'blue", "warlord plains".',
        "fr": "Votre tour : « jouer <carte> <détails> », « passer » ou « prétendant ». Exemples : "
        "« jouer migration depuis vallée : 2 vers anse, 1 vers plaine », « citadelle vallée », "
        "« conquête plaine depuis vallée 2, anse 1 », « nouveaux clans vallée anse ».",
    },
    "citadel": {
        "en": 'Citadels step: "citadel" (or "yes") to shelter 1 clan, "no citadel" (or "no") not to.',
        "fr": "Étape des Citadelles : « citadelle » (ou « oui ») pour abriter 1 clan, « pas de "
        "citadelle » (ou « non »).",
    },
    "maneuver": {
        "en": 'Maneuver: "attack blue", "withdraw 2 to plains" or "withdraw 1 to plains, 1 to cove", '
        '"propose peace", or "end the clash" when you alone have exposed clans.',
        "fr": "Manœuvre : « attaquer bleu », « retraite 2 vers plaine » ou « retraite 1 vers plaine, "
        "1 vers anse », « proposer la paix », ou « finir le conflit » si vous êtes seul exposé.",
    },
    "attack_response": {
        "en": 'You are attacked: "discard geis" (an Action card of yours) or "remove a clan".',
        "fr": "Vous êtes attaqué : « défausser geis » (une de vos cartes Action) ou « retirer un clan ».",
    },
    "attack_choice": {
        "en": 'Choose for the attacked player: "remove" (a clan) or "discard" (an Action card).',
        "fr": "Choisissez pour le joueur attaqué : « retirer » (un clan) ou « défausser » (une "
        "carte Action).",
    },
    "mountains_toll": {
        "en": 'The Mountains: "discard geis" (an Action card) or "lose a clan"; "play mountains" to '
        "ignore it if you hold that card.",
        "fr": "Les Montagnes : « défausser geis » (une carte Action) ou « perdre un clan ».",
    },
    "peace_vote": {
        "en": 'End the clash? "yes" or "no" (also "end the clash: yes" / "end the clash: no").',
        "fr": "Finir le conflit ? « oui » ou « non » (aussi « finir le conflit : oui » / « non »).",
    },
    "reaction": {
        "en": 'Triskel window: "decline" (or "no", "pass"), or play a Triskel card: "geis", '
        '"react geis", "warlord next blue", "master craftsman to blue".',
        "fr": "Fenêtre Triskel : « décliner » (ou « non », « passer »), ou jouer une carte Triskel : "
        "« geis », « réagir geis », « chef de guerre suivant bleu ».",
    },
    "territory_cell": {
        "en": 'Exploration: where the new territory goes: "cell 1,-1" or "place the territory at '
        '1,-1" (q,r as listed).',
        "fr": "Exploration : où va le nouveau territoire : « case 1,-1 » (q,r comme listé).",
    },
    "clash_order": {
        "en": 'Several clashes: "clash plains" or "resolve plains first".',
        "fr": "Plusieurs conflits : « conflit plaine » ou « résoudre plaine d'abord ».",
    },
    "card_choice": {
        "en": 'Your card asks for a choice: Druid "take bard"; Scouts & Spies "move 2 from valley '
        'to cove" or "skip"; or name the card asked for ("give geis", "set aside geis").',
        "fr": "Votre carte demande un choix : Druide « prendre barde » ; Espions et Éclaireurs "
        "« déplacer 2 de vallée vers anse » ou « passer ».",
    },
    "keep_epic": {
        "en": 'Keep Epic Tale cards: "keep eriu" (as many as you keep).',
        "fr": "Garder des cartes Récit épique : « garder eriu ».",
    },
}
GENERAL = {
    "en": 'Write one command per line, e.g. "pass", "play migration from valley: 2 to cove", '
    '"attack blue", "keep bard, druid".',
    "fr": "Une commande par ligne, par exemple « passer », « jouer migration depuis vallée : 2 vers "
    "anse », « attaquer bleu », « garder barde, druide ».",
}


# The kinds whose help names usual moves (`games.rules.usual_moves`): the head, then each move's
# words (in the order of `usual_moves.USUAL`), then what follows when a move is named.
USUAL_SYNTAX = {
    "season_turn": {
        "head": {"en": "Your turn: ", "fr": "Votre tour : "},
        "season_card": {"en": '"play <card> <details>"', "fr": "« jouer <carte> <détails> »"},
        "pass": {"en": '"pass"', "fr": "« passer »"},
        "pretender": {"en": '"pretender"', "fr": "« prétendant »"},
        "after:season_card": {
            "en": ' Examples: "play migration from valley: 2 to cove, 1 to plains", "citadel valley", '
            '"conquest plains from valley 2, cove 1", "new clans valley cove", "new alliance '
            'valley replace blue", "scouts spies blue", "warlord plains".',
            "fr": " Exemples : « jouer migration depuis vallée : 2 vers anse, 1 vers plaine », "
            "« citadelle vallée », « conquête plaine depuis vallée 2, anse 1 », « nouveaux "
            "clans vallée anse ».",
        },
    },
    "maneuver": {
        "head": {"en": "Maneuver: ", "fr": "Manœuvre : "},
        "attack": {"en": '"attack blue"', "fr": "« attaquer bleu »"},
        "withdraw": {
            "en": '"withdraw 2 to plains" or "withdraw 1 to plains, 1 to cove"',
            "fr": "« retraite 2 vers plaine » ou « retraite 1 vers plaine, 1 vers anse »",
        },
        "end_clash": {"en": '"end the clash"', "fr": "« finir le conflit »"},
        "propose_peace": {"en": '"propose peace"', "fr": "« proposer la paix »"},
    },
    "attack_response": {
        "head": {"en": "You are attacked: ", "fr": "Vous êtes attaqué : "},
        "discard": {
            "en": '"discard geis" (an Action card of yours)',
            "fr": "« défausser geis » (une de vos cartes Action)",
        },
        "remove": {"en": '"remove a clan"', "fr": "« retirer un clan »"},
    },
}
OR = {"en": " or ", "fr": " ou "}


def _usual_syntax(kind: str, lang: str, offered) -> str | None:
    """The help of `kind` naming only the usual moves `offered` (keys of
    `games.rules.usual_moves.move_words`, in prompt order); None when none is offered (the
    whole help is given then)."""
    words = USUAL_SYNTAX[kind]
    parts = [words[k][lang] for k in offered if k in words]
    if not parts:
        return None
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + OR[lang] + parts[-1]
    after = "".join(words[f"after:{k}"][lang] for k in offered if f"after:{k}" in words)
    return words["head"][lang] + listed + "." + after


def describe_syntax(decision_kind: str | None, language: str = "en", offered=None) -> str:
    """A short help text of the command syntax for a decision kind (`Decision.kind`), in
    English ("en") or French ("fr"); a general reminder for an unknown kind or None.

    offered: for a prompt, the usual moves legal for its seat now
    (`games.rules.usual_moves.usual_moves(...).offered`): the help of a Season turn, a maneuver
    or an attack names only those (no "withdraw" to a seat that cannot withdraw). None: every
    usual move (the reference)."""
    lang = "fr" if str(language).lower().startswith("fr") else "en"
    text = None
    if offered is not None and decision_kind in USUAL_SYNTAX:
        text = _usual_syntax(decision_kind, lang, tuple(offered))
    if text is None:
        text = SYNTAX.get(decision_kind, GENERAL)[lang]
    return f"{text}\n{NUMBER_HINT[lang]}\n{POLICY_HINT[lang]}\n{ORDER_HINT[lang]}"


MESSAGES = {
    "empty": ("I found no command in your reply.", "Je n'ai trouvé aucune commande dans votre réponse."),
    "no_reply": ("The reply has no text.", "La réponse n'a pas de texte."),
    "no_seat": ("There is no {seat} seat in this game.", "Il n'y a pas de place {seat} dans cette partie."),
    "internal": (
        "Sorry, your reply could not be read; please write it again more simply, or use your page.",
        "Désolé, votre réponse n'a pas pu être lue ; réécrivez-la plus simplement, ou utilisez votre page.",
    ),
    "unknown": ("I did not understand {words} in “{line}”.", "Je n'ai pas compris {words} dans « {line} »."),
    "did_you_mean": (" (did you mean “{s}”?)", " (vouliez-vous dire « {s} » ?)"),
    "no_command": ("I found no command in “{line}”.", "Je n'ai trouvé aucune commande dans « {line} »."),
    "too_long": (
        "The line “{line}…” is too long to be a command.",
        "La ligne « {line}… » est trop longue pour être une commande.",
    ),
    "too_complex": (
        "“{line}” names too many things at once; please write it more simply.",
        "« {line} » nomme trop de choses à la fois ; écrivez-la plus simplement.",
    ),
    "too_many_lines": (
        "I read {count} lines of text in your reply, from “{first}”; a reply holds at "
        "most {n} command lines. Write only your command (one decision per reply), "
        "above the quoted email.",
        "J'ai lu {count} lignes de texte dans votre réponse, depuis « {first} » ; une "
        "réponse a au plus {n} lignes de commande. N'écrivez que votre commande (une "
        "décision par réponse), au-dessus du message cité.",
    ),
    "above_quote": (
        "I found no command above the quoted email (only “{line}”), nor under it. Write "
        "your command above the quoted email, on the first lines of your reply.",
        "Je n'ai trouvé aucune commande au-dessus du message cité (seulement "
        "« {line} »), ni en dessous. Écrivez votre commande au-dessus du message cité, "
        "sur les premières lignes de votre réponse.",
    ),
    "under_quote": ("Under the quoted email: ", "Sous le message cité : "),
    "contradictory": (
        "“{line}” mixes words that do not go together ({words}).",
        "« {line} » mélange des mots incompatibles ({words}).",
    ),
    "ambiguous": (
        "“{line}” fits several of the commands allowed now. Reply with the number of the "
        "one you mean, or say it more precisely:",
        "« {line} » correspond à plusieurs commandes permises. Répondez par le numéro de "
        "celle que vous voulez, ou soyez plus précis :",
    ),
    "illegal": (
        "I understood “{understood}”, but that is not allowed now.",
        "J'ai compris « {understood} », mais ce n'est pas permis maintenant.",
    ),
    "allowed": ("Allowed now:", "Permis maintenant :"),
    "alike": (" (and {n} more like it)", " (et {n} autres semblables)"),
    "more": (
        "… and {n} more (see your page, or be more precise).",
        "… et {n} autres (voir votre page, ou soyez plus précis).",
    ),
    "nothing_to_decide": (
        "You have nothing to decide now{waiting}.",
        "Vous n'avez rien à décider maintenant{waiting}.",
    ),
    "waiting": (" (waiting for {seats})", " (on attend {seats})"),
    "possible_reactions": ("possible Triskel reactions", "d'éventuelles réactions Triskel"),
    "no_option": (
        "There is no option {n}: the options are numbered 1 to {count}.",
        "Il n'y a pas d'option {n} : les options vont de 1 à {count}.",
    ),
    "one_decision": (
        "Your reply holds {n} different decisions ({commands}); send one decision per "
        "reply (standing policies may come with it).",
        "Votre réponse contient {n} décisions différentes ({commands}) ; une décision "
        "par réponse (des consignes permanentes peuvent l'accompagner).",
    ),
    "line": ("Line {n} (“{line}”): ", "Ligne {n} (« {line} ») : "),
    "not_policy": (
        "I understood “{understood}”, but a standing policy needs one Triskel card, or none for all of them.",
        "J'ai compris « {understood} », mais une consigne "
        "permanente nomme une carte Triskel, ou aucune pour toutes.",
    ),
    "policy_cards": ("Triskel cards: {cards}.", "Cartes Triskel : {cards}."),
    "prep:from": ("from", "depuis"),
    "prep:de": ("from", "de"),
    "prep:to": ("to", "vers"),
    "prep:at": ("in", "dans"),
    "seat:green": ("green", "vert"),
    "seat:blue": ("blue", "bleu"),
    "seat:orange": ("orange", "orange"),
    "seat:white": ("white", "blanc"),
}
LABELS_FR = {
    "pass": "passer",
    "decline": "décliner",
    "Pretender": "prétendant",
    "attack": "attaquer",
    "withdraw": "retraite",
    "retirer": "retirer",
    "remove": "retirer",
    "discard": "défausser",
    "propose peace": "proposer la paix",
    "peace": "paix",
    "end the clash": "finir le conflit",
    "no citadel": "pas de citadelle",
    "shelter": "abriter",
    "citadel": "citadelle",
    "capital": "capitale",
    "resolve": "résoudre",
    "clash": "conflit",
    "first": "d'abord",
    "cell": "case",
    "never ask": "ne plus demander",
    "ask": "demander",
    "react": "réagir",
    "keep": "garder",
    "pick": "choisir",
    "take": "prendre",
    "skip": "passer",
    "give": "donner",
    "set aside": "mettre de côté",
    "play": "jouer",
    "place": "placer",
    "move": "déplacer",
    "replace": "remplacer",
    "yes": "oui",
    "ok": "ok",
    "not": "pas",
    "no": "non",
}


def message(key: str, language: str = "en", **fields) -> str:
    """The text of message `key` in `language`, with `fields` filled in."""
    fr = language == "fr"
    if key.startswith("label:"):
        label = key[6:]
        return LABELS_FR.get(label, label) if fr else label
    en_text, fr_text = MESSAGES[key]
    return (fr_text if fr else en_text).format(**fields)
