"""The per-process caches of the store: recent events (`store.events_between`), which the mail
receivers word as "what happened", served without a query only when the log's hash chain vouches
for them; and the state a command left (`store.recent_state`), which spares the next command a
load but is never trusted over the log."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import rules, store
from games.models import Event
from games.services import SeatSpec, create_game
from games.store import recent

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def empty_caches():
    """Nothing kept from other tests (whose games may have had the same ids, on SQLite)."""
    recent._recent.clear()
    recent._states.clear()


def _game():
    return create_game(seats=[SeatSpec(email=f"p{i}@example.org") for i in range(1, 4)], seed="recent")


def _truth(game, after, upto):
    return [
        (row.seq, store.to_rules_event(row))
        for row in Event.objects.filter(game=game, seq__gt=after, seq__lte=upto).order_by("seq")
    ]


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
    recent._recent[game.pk][seq] = ("0" * 64, rules.Event("Forged", {}))
    with django_assert_num_queries(1):
        events = store.events_between(game, 0, seq, upto_hash=digest)
    assert events == _truth(game, 0, seq)
    assert all(event.type != "Forged" for _seq, event in events)


def test_events_of_a_rolled_back_append_never_reach_the_cache():
    game = _game()
    seq, digest = store.head(game)
    with pytest.raises(RuntimeError), transaction.atomic():
        store.append(game, [rules.Event("TestNoted", {})], expected_seq=seq)
        rows = list(Event.objects.filter(game=game, seq=seq + 1))
        store.remember_rows(game, rows, [store.to_rules_event(row) for row in rows])
        raise RuntimeError("rolled back")
    assert seq + 1 not in recent._recent.get(game.pk, {})
    assert store.head(game) == (seq, digest)


def _next(state):
    colour = rules.pending(state)[0].seat
    return colour, rules.legal_commands(state, colour)[0]


def test_the_next_command_in_this_process_does_not_load_the_game_again(
    django_assert_max_num_queries, monkeypatch
):
    from games.services import submit_command
    from notifications import tasks

    monkeypatch.setattr(tasks.deliver_many, "delay", lambda ids: None)  # the worker's queries, not ours

    game = _game()
    seats = {seat.colour: seat for seat in game.seats.all()}
    state, seq = store.load(game)
    colour, command = _next(state)
    assert submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq).accepted
    state, seq = store.load(game)
    colour, command = _next(state)
    with django_assert_max_num_queries(8) as queries:  # the command path alone: no snapshot, no events read
        result = submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq)
    assert result.accepted and not result.rebased
    assert not any("games_snapshot" in q["sql"] for q in queries.captured_queries)


def test_a_state_kept_from_before_another_process_moved_on_is_never_trusted():
    from games.services import submit_command

    game = _game()
    seats = {seat.colour: seat for seat in game.seats.all()}
    state, seq = store.load(game)
    colour, command = _next(state)
    assert submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq).accepted
    stale = recent._states[game.pk]
    state, seq = store.load(game)
    colour, command = _next(state)
    assert submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq).accepted
    # As if another process had played that command: this process still holds the older state.
    recent._states[game.pk] = stale
    head, digest = store.head(game)
    state, _ = store.load(game)
    colour, command = _next(state)
    # A player whose prompt is as old as that state: decided on the log, not on the old state.
    result = submit_command(game=game, seat=seats[colour], command=command, expected_seq=stale[0])
    assert result.accepted and result.rebased and result.first_seq == head + 1
    recent._states[game.pk] = stale
    # A command of the older state that the log no longer allows is refused by the log's rules.
    old_colour, old_command = _next(recent.recent_state(game)[0])  # the older state, as kept
    refused = submit_command(game=game, seat=seats[old_colour], command=old_command, expected_seq=stale[0])
    assert refused.accepted is (old_command in rules.legal_commands(store.load(game)[0], old_colour))
    from games.store.verification import verify_game

    assert verify_game(game).ok
