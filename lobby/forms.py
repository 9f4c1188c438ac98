"""Forms of the lobby: sign in by email, propose a game, the host's tools.

Labels and choices are lazy translations (`gettext_lazy`): each page shows them in its reader's
language; the values posted (setup, deadlines, reaction mode, seat colours) stay language-free.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.bots.ratings import level_ratings
from games.rules import colour_name, current_language
from lobby.speeds import speed_choices

# A seat colour's displayed word ("green", "vert") in the language of the page that shows it.
colour_word = lazy(colour_name, str)

SETUPS = [("random", _("Random island")), ("discovery", _("Discovery (the first-game set-up)"))]
DEADLINES = [
    ("relaxed", _("Relaxed: 4 days per decision, 1 day for Triskel reactions")),
    ("normal", _("Normal: 2 days per decision, 12 hours for Triskel reactions")),
    ("brisk", _("Brisk: 1 day per decision, 6 hours for Triskel reactions")),
    ("none", _("No deadlines")),
]
# How the bots play (`games.bots.LEVELS`): every level sees only what its seat may see.
BOT_LEVELS = [
    ("strong", _("Strong: weighs many possible hands and answers, and watches every threat")),
    ("hard", _("Hard: plays to win, thinking several moves ahead")),
    ("easy", _("Easy: looks one move ahead")),
    ("random", _("Beginner: any move the rules allow, at random")),
]


def bot_level_choices() -> list[tuple[str, str]]:
    """`BOT_LEVELS`, each named with its rating on the players' scale where the bots' arena has
    measured it (`games.bots.ratings.level_ratings`, docs/ratings.md), in the active language;
    the rated levels first, the best rated first (a level's name says how it plays, its rating
    how well: the arena may rate "hard" above "strong"), then the others in `BOT_LEVELS`' order."""
    ratings = level_ratings()
    ordered = sorted(BOT_LEVELS, key=lambda item: -ratings[item[0]] if item[0] in ratings else float("inf"))
    return [
        (
            level,
            gettext("{level} (rated {rating})").format(level=label, rating=ratings[level])
            if level in ratings
            else str(label),
        )
        for level, label in ordered
    ]


REACTIONS = [
    (
        "holders",
        _(
            "Only who can answer: a Triskel window asks only players holding a card that can "
            "answer; nobody sees who was asked, but a wait shows that someone can"
        ),
    ),
    (
        "strict",
        _(
            "Strict: a window asks every player who could hold such a card (by the cards' "
            "types, which are public), so asking reveals nothing, at the cost of many prompts "
            "you can only decline"
        ),
    ),
    (
        "quick",
        _(
            "Quick: nobody is asked about Triskel cards unless they turn asking on; that a "
            "player turned it on is public"
        ),
    ),
]


class SignInForm(forms.Form):
    email = forms.EmailField(label=_("Your email address"))


class NewGameForm(forms.Form):
    """The host plays the first seat (unless `host_plays` is off); then up to 3 more players by
    email, bots (playing at `bot_level`, hard when left out) and open seats (`open_seats`, at an
    open table: `listed`) to fill 2 to 4 seats; `language` and `rated` are shown in the list.
    `press_public_after_end`: the host's table option for private table talk once the game is
    over (docs/press.md)."""

    host_plays = forms.BooleanField(required=False, initial=True, label=_("I play too (first seat)"))
    player_1 = forms.EmailField(required=False, label=_("Player"))
    player_2 = forms.EmailField(required=False, label=_("Player"))
    player_3 = forms.EmailField(required=False, label=_("Player"))
    player_4 = forms.EmailField(required=False, label=_("Player"))
    bots = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(4)], coerce=int, initial=0, label=_("Bots")
    )
    bot_level = forms.ChoiceField(
        choices=bot_level_choices,
        initial="hard",
        required=False,
        widget=forms.RadioSelect,
        label=_("How the bots play"),
    )
    setup = forms.ChoiceField(choices=SETUPS, initial="random", widget=forms.RadioSelect)
    deadlines = forms.ChoiceField(choices=DEADLINES, initial="normal", widget=forms.RadioSelect)
    reaction_mode = forms.ChoiceField(
        choices=REACTIONS, initial="holders", widget=forms.RadioSelect, label=_("Triskel reactions")
    )
    public = forms.BooleanField(
        required=False,
        initial=False,
        label=_(
            "Public: anyone may follow this game (its public page and a daily "
            "digest of its news; never a hand nor a private message)"
        ),
    )
    press_public_after_end = forms.BooleanField(
        required=False,
        initial=False,
        label=_(
            "Once the game is over, the private messages (to one player) become readable by "
            "everybody; otherwise they stay their sender's and recipient's for ever"
        ),
    )
    open_seats = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(4)],
        coerce=int,
        initial=0,
        required=False,
        empty_value=None,
        label=_("Open seats"),
    )
    listed = forms.BooleanField(
        required=False,
        initial=False,
        label=_(
            "Open table: list it among the open tables, where anyone signed in may take an open "
            "seat (they see your name, never an address); otherwise only the players you invite"
        ),
    )
    # Offered in the host's own language (the page's): a French host opens a French table
    # unless they choose otherwise.
    language = forms.ChoiceField(
        choices=settings.LANGUAGES,  # each by its own name, as the language switch writes them
        required=False,
        label=_("The table's language"),
    )
    rated = forms.BooleanField(required=False, initial=False, label=_("Rated game"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each speed with the length of a game at it, in the page's language.
        self.fields["deadlines"].choices = speed_choices(DEADLINES)
        self.fields["language"].initial = current_language()

    def emails(self) -> list[str]:
        return [self.cleaned_data[f"player_{i}"] for i in range(1, 5) if self.cleaned_data.get(f"player_{i}")]


class ExtendForm(forms.Form):
    """seat: a colour, or "" for every seat (so not a required field: "" is a choice)."""

    seat = forms.ChoiceField(label=_("For"), required=False)
    hours = forms.IntegerField(min_value=1, max_value=24 * 14, initial=24)

    def __init__(self, *args, colours=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", pgettext_lazy("deadline of", "every seat"))] + [
            (c, colour_word(c)) for c in colours
        ]


class ReplaceForm(forms.Form):
    seat = forms.ChoiceField(label=_("Seat"))
    email = forms.EmailField(required=False, label=_("New player's email (empty: the bot)"))

    def __init__(self, *args, colours=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(c, colour_word(c)) for c in colours]
