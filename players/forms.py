"""The preferences form (reached from the link in every email: `notifications.views.preferences`)."""
from __future__ import annotations

from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext as _, gettext_lazy

from players.models import Player

# The choices' words in the reader's language (the model's own are English).
DELIVERY_CHOICES = [
    (Player.Delivery.PROMPT, gettext_lazy("news only in my next prompt")),
    (Player.Delivery.EVERY, gettext_lazy("news emails too (at most one a minute per game)")),
    (Player.Delivery.DIGEST, gettext_lazy("a daily digest of news (prompts still at once)")),
]


class PreferencesForm(forms.Form):
    """display_name (seen by other players at the table), delivery, news, time_zone (IANA
    name), language, and an optional vacation (both days or
    neither; deadlines do not run from the start of `away_from` to the end of `away_until`, in
    the chosen time zone)."""

    display_name = forms.CharField(
        max_length=30, required=False, label=gettext_lazy("Your name at the table"),
        help_text=gettext_lazy("What other players see beside your colour on game pages (blank: your colour "
                               "alone). Your email address is never shown to them."))
    delivery = forms.ChoiceField(choices=DELIVERY_CHOICES, widget=forms.RadioSelect,
                                 label=gettext_lazy("Delivery"))
    news = forms.BooleanField(required=False, label=gettext_lazy("Send me news (not only prompts)"))
    time_zone = forms.CharField(max_length=64, label=gettext_lazy("Time zone"),
                                help_text=gettext_lazy("e.g. Europe/Paris, America/New_York, UTC"))
    language = forms.ChoiceField(choices=Player.Language.choices, label=gettext_lazy("Language"))
    away_from = forms.DateField(required=False, label=gettext_lazy("Vacation: first day"),
                                widget=forms.DateInput(attrs={"type": "date"}))
    away_until = forms.DateField(required=False, label=gettext_lazy("Vacation: last day"),
                                 widget=forms.DateInput(attrs={"type": "date"}))

    def clean_display_name(self):
        """Spaces collapsed; no "@" (an address is not a name, and other players must never read
        one) and no control characters."""
        name = " ".join(self.cleaned_data.get("display_name", "").split())
        if "@" in name:
            raise forms.ValidationError(_("A name, not an email address: other players see it."))
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
            raise forms.ValidationError(_("Letters, digits and spaces only."))
        return name

    def clean_time_zone(self):
        name = self.cleaned_data["time_zone"].strip()
        if name not in available_timezones():
            raise forms.ValidationError(
                _("{name} is not a time zone name (e.g. Europe/Paris, UTC).").format(name=repr(name)))
        return name

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("away_from"), cleaned.get("away_until")
        if (start is None) != (end is None):
            raise forms.ValidationError(_("A vacation needs both its first and its last day (or neither)."))
        if start and end and end < start:
            raise forms.ValidationError(_("The vacation's last day comes before its first day."))
        return cleaned
