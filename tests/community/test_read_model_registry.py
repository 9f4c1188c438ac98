"""docs/architecture.md, "Read models": "A new log it reads carries `append_only_triggers(table)`
and `wakes_relay_on_insert(name)` in its `Meta.triggers`: without the latter the relay feeds it
only on its first pass, after an error, and the sweep." Each registered projection's log is held
to it here, so a read model of a new log fails a test rather than lagging behind in production."""

from __future__ import annotations

import pgtrigger
import pytest

from community import projections
from games.store.models import REFUSE_TRUNCATE, WAKE_RELAY_NAMING_TABLE


def log_triggers(name: str) -> list:
    # django-pgtrigger adds `triggers` to a model's Meta options.
    return list(getattr(projections.registered()[name].source._meta, "triggers", []))


@pytest.mark.parametrize("name", sorted(projections.registered()))
def test_the_log_of_every_read_model_is_append_only(name):
    triggers = log_triggers(name)
    protects = [t for t in triggers if isinstance(t, pgtrigger.Protect)]
    assert any(pgtrigger.Update in t.operation and pgtrigger.Delete in t.operation for t in protects), (
        f"the log of {name} refuses no UPDATE or DELETE: append_only_triggers(table) is missing"
    )
    assert any(t.func == REFUSE_TRUNCATE for t in triggers), f"the log of {name} allows TRUNCATE"


@pytest.mark.parametrize("name", sorted(projections.registered()))
def test_the_log_of_every_read_model_wakes_the_relay_on_insert(name):
    waking = [t for t in log_triggers(name) if t.func == WAKE_RELAY_NAMING_TABLE]
    assert waking, f"the log of {name} has no wakes_relay_on_insert(name): the relay would not feed it"
    assert all(t.operation == pgtrigger.Insert and t.level == pgtrigger.Statement for t in waking)


def test_a_log_without_the_triggers_is_named(monkeypatch):
    """A read model of a log that lacks them fails the two tests above."""

    class Bare:
        class _meta:
            triggers: list = []

    projection = next(iter(projections.registered().values()))
    monkeypatch.setattr(projection, "source", Bare)
    with pytest.raises(AssertionError, match="append_only_triggers"):
        test_the_log_of_every_read_model_is_append_only(projection.name)
    with pytest.raises(AssertionError, match="wakes_relay_on_insert"):
        test_the_log_of_every_read_model_wakes_the_relay_on_insert(projection.name)
