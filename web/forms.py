"""The hidden fields every decision form of the game page carries.

The command itself is read from the rest of the POST by `web.decision_forms.command_from_post`.
"""

from __future__ import annotations

import secrets

from django import forms


def new_nonce() -> str:
    """A fresh form nonce: the idempotency key of the command this form will submit."""
    return secrets.token_hex(16)


class DecisionForm(forms.Form):
    """seat: the colour the player acts for (must be one of their seats); expected_seq: the log's
    length the page showed; nonce: the idempotency key (the same form sent twice acts once)."""

    seat = forms.CharField(max_length=16)
    expected_seq = forms.IntegerField(min_value=0)
    nonce = forms.CharField(max_length=64)
