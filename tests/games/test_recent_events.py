"""The per-process cache of recent events (`store.events_between`): what the mail receivers word
as "what happened" is the log's own events, read without a query only when the cache's copy is
vouched for by the log's hash chain."""
from __future__ import annotations

import pytest
from django.db import transaction

from games import rules, store
from games.models import Event
from games.services import SeatSpec, create_game

pytestmark = pytest.mark.django_db(transaction=True)


def _game():
    return create_game(seats=[SeatSpec(email=f"p{i}@example.org") for i in range(1, 4)], seed="recent")


def _truth(game, after, upto):
    return [(row.seq, store.to_rules_event(row)) for row in
            Event.objects.filter(game=game, seq__gt=after, seq__lte=upto).order_by("seq")]


def test_committed_events_are_served_without_a_query_when_the_head_hash_matches(django_assert_num_queries):
    game = _game()
    seq, digest = store.head(game)
    with django_assert_num_queries(0):
        cached = store.events_between(game, 0, seq, upto_hash=digest)
    assert cached == _truth(game, 0, seq)


def test_a_cached_copy_that_the_log_does_not_vouch_for_is_not_used(django_assert_num_queries):
    game = _game()
    seq, digest = store.head(game)
    # Another history under the same game id (a rolled-back test database, a restored backup):
    # the cached last event no longer has the log's hash.
    store._recent[game.pk][seq] = ("0" * 64, rules.Event("Forged", {}))
    with django_assert_num_queries(1):
        events = store.events_between(game, 0, seq, upto_hash=digest)
    assert events == _truth(game, 0, seq)
    assert all(event.type != "Forged" for _seq, event in events)


def test_events_of_a_rolled_back_append_never_reach_the_cache():
    game = _game()
    seq, digest = store.head(game)
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            store.append(game, [rules.Event("TestNoted", {})], expected_seq=seq)
            rows = list(Event.objects.filter(game=game, seq=seq + 1))
            store.remember_rows(game, rows, [store.to_rules_event(row) for row in rows])
            raise RuntimeError("rolled back")
    assert seq + 1 not in store._recent.get(game.pk, {})
    assert store.head(game) == (seq, digest)
