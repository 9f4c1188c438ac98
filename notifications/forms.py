"""The development mailbox's reply form (the email preferences form is `players.forms`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy


class MailboxReplyForm(forms.Form):
    """A reply typed in the development mailbox: what a player would write above the quote."""

    text = forms.CharField(
        max_length=10_000,
        label=gettext_lazy("Your reply"),
        widget=forms.Textarea(attrs={"rows": 4, "cols": 60}),
        help_text=gettext_lazy(
            "Write your command as you would in your mail client, e.g. 2 or "
            "play Bard; the email is quoted below it."
        ),
    )
