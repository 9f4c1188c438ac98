"""The seat's command form: one of the listed legal commands, or a command written as JSON."""
from __future__ import annotations

import json
import secrets

from django import forms


def new_nonce() -> str:
    """A fresh form nonce: the idempotency key of the command this form will submit."""
    return secrets.token_hex(16)


class CommandForm(forms.Form):
    """Fields: `choice` (radio, value = a command's JSON), `command_json` (free-form JSON, wins
    over `choice` when filled), `expected_seq` and `nonce` (hidden).

    `cleaned_data["command"]` is the command dict. Whether it is legal is for the rules to say;
    the form only checks that it is a JSON object with a "type".
    """

    choice = forms.CharField(required=False, widget=forms.RadioSelect)
    command_json = forms.CharField(
        required=False, label="or write a command (JSON)",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80, "placeholder": '{"type": "..."}'}),
    )
    expected_seq = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    nonce = forms.CharField(max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["choice"].widget.choices = [(c.value, c.label) for c in choices]

    def clean(self):
        cleaned = super().clean()
        text = (cleaned.get("command_json") or "").strip() or (cleaned.get("choice") or "").strip()
        if not text:
            raise forms.ValidationError("Choose a command, or write one as JSON.")
        try:
            command = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(f"That is not valid JSON: {error.msg} (at character {error.pos}).")
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise forms.ValidationError('A command is a JSON object with a "type", such as {"type": "pass"}.')
        cleaned["command"] = command
        return cleaned
