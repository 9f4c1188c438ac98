"""The preferences form (reached from the link in every email: `notifications.views.preferences`)."""

from __future__ import annotations

from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from players.display_names import MAX_NAME, check_not_taken, clean_name
from players.models import Player
from players.preferences import vacation_too_long

# The choices' words in the reader's language (the model's own are English).
DELIVERY_CHOICES = [
    (Player.Delivery.PROMPT, gettext_lazy("news only in my next prompt")),
    (Player.Delivery.EVERY, gettext_lazy("news emails too (at most one a minute per game)")),
    (Player.Delivery.DIGEST, gettext_lazy("a daily digest of news (prompts still at once)")),
]


# Beside each field a visitor holding only the link cannot change (PreferencesForm.locked).
LOCKED_HELP = gettext_lazy("To change it, sign in (above).")


class PreferencesForm(forms.Form):
    """display_name (seen by other players at the table), delivery, news, acceptances (a short
    email when a reply leaves nothing more to decide: `notifications.acceptances`), confirm_moves
    (the game page asks to confirm a move that ends the turn or starts a clash),
    forced_moves_at_once (a Season turn the hand leaves only the pass is passed at once rather than
    after a delay like the player's answers: docs/rulings.md, "Forced moves"), time_zone (IANA
    name), language, and an optional vacation (both days or neither, at most VACATION_MAX_DAYS
    days; deadlines do not run from the start of `away_from` to the end of `away_until`, in the
    chosen time zone).

    email: the player's address (their own name is theirs to keep: `check_not_taken`).
    signed_in: whether the visitor is signed in as the player. Otherwise (they hold only the
    link of an email, which anybody it was forwarded to holds too, and which mail providers
    follow from `List-Unsubscribe`) every field but those in `OPEN_BY_LINK` (how and which
    emails come, the time zone, the language: docs/security.md) is locked: disabled, shown
    with its `initial` value, which stands whatever is posted (`locked_changes` tells whether a
    post tried to change one). So the name, the vacation, acceptances, move confirmation and
    forced moves at once (which may tell the table the player's hand) need a sign-in; a field
    added later is locked unless named in `OPEN_BY_LINK`.
    """

    OPEN_BY_LINK = ("delivery", "news", "time_zone", "language")

    display_name = forms.CharField(
        max_length=MAX_NAME,
        required=False,
        label=gettext_lazy("Your name at the table"),
        help_text=gettext_lazy(
            "What other players see beside your colour on game pages (blank: your colour "
            "alone). Your email address is never shown to them."
        ),
    )
    delivery = forms.ChoiceField(
        choices=DELIVERY_CHOICES, widget=forms.RadioSelect, label=gettext_lazy("Delivery")
    )
    news = forms.BooleanField(required=False, label=gettext_lazy("Send me news (not only prompts)"))
    acceptances = forms.BooleanField(
        required=False,
        label=gettext_lazy("Send me a short acceptance when my reply leaves me nothing more to decide"),
        help_text=gettext_lazy(
            "When your next move is yours at once, your next email says what was accepted. "
            "Without this, acceptances are said only at the top of your next prompt."
        ),
    )
    confirm_moves = forms.BooleanField(
        required=False,
        label=gettext_lazy("On the game page, ask me to confirm a move that ends my turn or starts a clash"),
    )
    forced_moves_at_once = forms.BooleanField(
        required=False,
        label=gettext_lazy("Play my forced moves at once"),
        help_text=gettext_lazy(
            "When no card in your hand can be played on your turn, the game passes for you without "
            "an email. By default it waits about as long as you usually take to answer, so that "
            "the other players cannot tell. At once, the other players may infer your hand from "
            "how quickly you passed."
        ),
    )
    time_zone = forms.CharField(
        max_length=64,
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("e.g. Europe/Paris, America/New_York, UTC"),
    )
    language = forms.ChoiceField(choices=Player.Language.choices, label=gettext_lazy("Language"))
    away_from = forms.DateField(
        required=False,
        label=gettext_lazy("Vacation: first day"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    away_until = forms.DateField(
        required=False,
        label=gettext_lazy("Vacation: last day"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, signed_in: bool, email: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.signed_in = signed_in
        self.email = email
        for name in self.locked():
            field = self.fields[name]
            field.disabled = True
            field.help_text = (
                format_lazy("{} {}", field.help_text, LOCKED_HELP) if field.help_text else LOCKED_HELP
            )

    def locked(self) -> list[str]:
        """The names of the fields the visitor may not change: every one not in `OPEN_BY_LINK`
        unless they are signed in as the player, in the form's order."""
        return [] if self.signed_in else [name for name in self.fields if name not in self.OPEN_BY_LINK]

    def locked_changes(self) -> list[str]:
        """The names of the locked fields whose posted value differs from their initial one (a
        browser never posts a disabled field, a checked box included: such a post was written by
        hand; a box left out reads as unchanged). [] when the visitor is signed in or the form
        is not bound."""
        if not self.is_bound:
            return []
        changed = []
        for name in self.locked():
            if name not in self.data:
                continue
            field, posted = self.fields[name], self.data.get(name)
            initial = self.get_initial_for_field(field, name)
            try:
                value = field.to_python(posted)
            except forms.ValidationError:
                changed.append(name)
                continue
            if name == "display_name":
                value, initial = " ".join(value.split()), " ".join((initial or "").split())
            elif isinstance(field, forms.BooleanField):
                value, initial = bool(value), bool(initial)
            else:
                initial = initial or None  # no vacation: as an empty date field reads
            if value != initial:
                changed.append(name)
        return changed

    def clean_display_name(self):
        """Spaces collapsed; no "@" (an address is not a name, and other players must never read
        one) and no control characters (`players.display_names.clean_name`); not another
        player's name nor the site's own, look-alikes included (`check_not_taken`)."""
        name = clean_name(self.cleaned_data.get("display_name", ""))
        check_not_taken(name, email=self.email)
        return name

    def clean_time_zone(self):
        name = self.cleaned_data["time_zone"].strip()
        if name not in available_timezones():
            raise forms.ValidationError(
                _("{name} is not a time zone name (e.g. Europe/Paris, UTC).").format(name=repr(name))
            )
        return name

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("away_from"), cleaned.get("away_until")
        if (start is None) != (end is None):
            raise forms.ValidationError(_("A vacation needs both its first and its last day (or neither)."))
        if start and end and end < start:
            raise forms.ValidationError(_("The vacation's last day comes before its first day."))
        longest = settings.VACATION_MAX_DAYS
        new = {"away_from", "away_until"} & set(self.changed_data)  # one saved before the cap stands
        if new and start and end and (end - start).days + 1 > longest:
            raise forms.ValidationError(vacation_too_long(longest))
        return cleaned


class DisplayNameForm(forms.Form):
    """The name asked for at first sign-in ("My games"): what other players see at the table.
    email: the address of the player choosing it (`check_not_taken`)."""

    display_name = forms.CharField(
        max_length=MAX_NAME,
        label=gettext_lazy("Your name at the table"),
        help_text=gettext_lazy(
            "What other players see beside your colour. Your email address is never shown to them."
        ),
    )

    def __init__(self, *args, email: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.email = email

    def clean_display_name(self):
        name = clean_name(self.cleaned_data.get("display_name", ""))
        if not name:
            raise forms.ValidationError(_("Write a name, or choose it later in your preferences."))
        check_not_taken(name, email=self.email)
        return name
