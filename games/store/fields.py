"""A JSON model field that keeps the text exactly as written: object keys in their order.

Why not Django's JSONField: on PostgreSQL it is `jsonb`, which stores objects with their keys
re-ordered (by length, then bytes). The rules engine iterates dicts (territories, placements,
moves) and that order shows in legal-command lists and in the order of the events `decide`
emits, so a state folded from re-ordered payloads can decide differently from the state that
decided first, and a game would no longer replay from its seed. Stored as text, a payload reads
back exactly as Python's json wrote it, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models


class OrderedJSONField(models.TextField):  # type: ignore[type-arg]  # a TextField holding any JSON
    """A JSON value (dict, list, str, number, bool, None) stored as JSON text, key order kept.

    Not queryable inside (no `payload__key` lookups): nothing needs to look into these values in
    SQL. Raises ValidationError / TypeError for values JSON cannot carry (NaN, sets, objects).
    """

    description = "JSON text (key order preserved)"

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        if value is None or not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except json.JSONDecodeError as error:
            raise ValidationError(f"not JSON: {error}") from None

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        return json.dumps(value, ensure_ascii=False, allow_nan=False)

    def value_to_string(self, obj: models.Model) -> str | None:  # type: ignore[override]
        return self.get_prep_value(self.value_from_object(obj))
