"""docs/management-commands.md, receive_email: the refusals of its input, as documented."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

PAGE = Path(__file__).resolve().parents[2] / "docs" / "management-commands.md"


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"", "No message on standard input."),
        (b"a" * (10 * 1024 * 1024 + 1), "The message is larger than 10485760 bytes."),
    ],
)
def test_an_empty_or_oversized_input_is_refused_with_the_documented_line(raw, message):
    with pytest.raises(CommandError) as refused:
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO(), stderr=io.StringIO())
    assert str(refused.value) == message
    assert f"`CommandError: {message}`" in " ".join(PAGE.read_text().split())
