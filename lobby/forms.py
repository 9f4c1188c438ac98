"""Forms of the lobby: sign in by email, propose a game, the host's tools."""
from __future__ import annotations

from django import forms

SETUPS = [("random", "Random island"), ("discovery", "Discovery (the first-game set-up)")]
DEADLINES = [("relaxed", "Relaxed: 4 days per decision, 1 day for Triskel reactions"),
             ("normal", "Normal: 2 days per decision, 12 hours for Triskel reactions"),
             ("brisk", "Brisk: 1 day per decision, 6 hours for Triskel reactions"),
             ("none", "No deadlines")]
REACTIONS = [
    ("holders", "Only who can answer: a Triskel window asks only players holding a card that can "
                "answer; nobody sees who was asked, but a wait shows that someone can"),
    ("strict", "Strict: a window asks every player who could hold such a card (by the cards' "
               "types, which are public), so asking reveals nothing, at the cost of many prompts "
               "you can only decline"),
    ("quick", "Quick: nobody is asked about Triskel cards unless they turn asking on; that a "
              "player turned it on is public"),
]


class SignInForm(forms.Form):
    email = forms.EmailField(label="Your email address")


class NewGameForm(forms.Form):
    """The host plays the first seat (unless `host_plays` is off); then up to 3 more players by
    email and bots to fill 2 to 4 seats."""

    host_plays = forms.BooleanField(required=False, initial=True, label="I play too (first seat)")
    player_1 = forms.EmailField(required=False, label="Player")
    player_2 = forms.EmailField(required=False, label="Player")
    player_3 = forms.EmailField(required=False, label="Player")
    player_4 = forms.EmailField(required=False, label="Player")
    bots = forms.TypedChoiceField(choices=[(n, str(n)) for n in range(4)], coerce=int, initial=0,
                                  label="Bots")
    setup = forms.ChoiceField(choices=SETUPS, initial="random", widget=forms.RadioSelect)
    deadlines = forms.ChoiceField(choices=DEADLINES, initial="normal", widget=forms.RadioSelect)
    reaction_mode = forms.ChoiceField(choices=REACTIONS, initial="holders", widget=forms.RadioSelect,
                                      label="Triskel reactions")
    public = forms.BooleanField(required=False, initial=False,
                                label="Public: anyone may follow this game (its public page and a daily "
                                      "digest of its news; never a hand nor a private message)")

    def emails(self) -> list[str]:
        return [self.cleaned_data[f"player_{i}"] for i in range(1, 5) if self.cleaned_data.get(f"player_{i}")]


class ExtendForm(forms.Form):
    """seat: a colour, or "" for every seat (so not a required field: "" is a choice)."""

    seat = forms.ChoiceField(label="For", required=False)
    hours = forms.IntegerField(min_value=1, max_value=24 * 14, initial=24)

    def __init__(self, *args, colours=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", "every seat")] + [(c, c) for c in colours]


class ReplaceForm(forms.Form):
    seat = forms.ChoiceField(label="Seat")
    email = forms.EmailField(required=False, label="New player's email (empty: the bot)")

    def __init__(self, *args, colours=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(c, c) for c in colours]
