"""The command path's queries: a command costs a fixed handful of queries, whatever the number of
seats, so that a change which adds one to the hot path fails here (a count, not a timing).

A command that prompts a seat, in a 4-seat game played by email, is: BEGIN; the game's row lock
with the log's head and the seats; the command row with its events (one statement on PostgreSQL,
two elsewhere); the seats' clocks locked with the players' preferences; the outbox rows and the
clocks that changed (one statement on PostgreSQL, two elsewhere); COMMIT. A move the rules leave only
one way to make is played in the same transaction and costs one more append and its emails.
The emails are delivered by a worker after the commit, one task per append (here recorded, not
run: its queries are the worker's).
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import rules, store
from games.services import SeatSpec, create_game, submit_command_and_fold
from notifications import tasks
from notifications.models import Outbox

pytestmark = pytest.mark.django_db(transaction=True)

EMAILS = [f"player{i}@example.org" for i in range(1, 5)]
# The command row and its events: one statement on PostgreSQL, two elsewhere; so are the outbox
# rows and the clocks' update.
APPEND = 1 if connection.vendor == "postgresql" else 2
WRITES = APPEND
# BEGIN, lock + head + seats, command and events, clocks + players, outbox and clocks, COMMIT.
COMMAND_QUERIES = 4 + APPEND + WRITES
# Each forced move played after it: lock + head + seats, command and events, clocks + players,
# outbox and clocks.
FORCED_MOVE_QUERIES = 2 + APPEND + WRITES


def _appends(queries) -> int:
    return sum('INSERT INTO "games_command"' in q["sql"] for q in queries)


def _play(game, commands: int, seed: int):
    """Yield (result, queries) for `commands` random legal commands submitted against the state
    the previous one returned (as a web page or a reply does)."""
    seats = {seat.colour: seat for seat in game.seats.all()}
    loaded = store.load(game)
    rng = random.Random(seed)
    for _ in range(commands):
        state, seq = loaded
        colour = rng.choice(sorted({d.seat for d in rules.pending(state)}))
        command = rng.choice([c for c in rules.legal_commands(state, colour) if c["type"] != "pretender"])
        with CaptureQueriesContext(connection) as queries:
            result, after = submit_command_and_fold(
                game=game, seat=seats[colour], command=command, expected_seq=seq, loaded=loaded
            )
        assert result.accepted, result.message
        yield result, queries.captured_queries
        loaded = (after, after.seq)


@pytest.fixture
def deliveries(monkeypatch):
    """The `deliver_many` tasks enqueued (lists of outbox ids), instead of running them."""
    sent = []
    monkeypatch.setattr(tasks.deliver_many, "delay", sent.append)
    return sent


def test_every_command_costs_a_fixed_number_of_queries(settings, deliveries):
    settings.SNAPSHOT_EVERY = 1_000_000  # a snapshot is written after the commit: counted apart
    game = create_game(seats=[SeatSpec(email=e) for e in EMAILS], seed="query-count")
    prompts_before = Outbox.objects.filter(kind=Outbox.Kind.PROMPT).count()
    plain, deliveries[:] = 0, []
    for _result, queries in _play(game, 40, seed=1):
        forced = _appends(queries) - 1
        tasks_enqueued, deliveries[:] = len(deliveries), []
        assert tasks_enqueued <= 1 + forced  # one delivery task per append, not one per email
        budget = COMMAND_QUERIES + FORCED_MOVE_QUERIES * forced
        assert len(queries) <= budget, (
            f"{len(queries)} queries for a command with {forced} forced moves (at most {budget}):\n"
            + "\n".join(q["sql"][:120] for q in queries)
        )
        plain += forced == 0
    assert plain >= 20  # most commands force nothing: the common case was measured
    assert Outbox.objects.filter(kind=Outbox.Kind.PROMPT).count() > prompts_before + 20


def test_a_command_that_prompts_the_next_seat(settings, deliveries, django_assert_max_num_queries):
    settings.SNAPSHOT_EVERY = 1_000_000
    game = create_game(seats=[SeatSpec(email=e) for e in EMAILS], seed="query-count")
    for _ in _play(game, 5, seed=2):  # past the set-up's first prompts
        pass
    seats = {seat.colour: seat for seat in game.seats.all()}
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    command = rules.legal_commands(state, colour)[0]
    prompts_before = Outbox.objects.filter(kind=Outbox.Kind.PROMPT).count()
    with django_assert_max_num_queries(COMMAND_QUERIES) as queries:
        result, _after = submit_command_and_fold(
            game=game, seat=seats[colour], command=command, expected_seq=seq, loaded=(state, seq)
        )
    assert result.accepted and _appends(queries.captured_queries) == 1
    written = list(Outbox.objects.filter(kind=Outbox.Kind.PROMPT).order_by("id").values_list("pk", flat=True))
    assert len(written) > prompts_before
    assert deliveries[-1] == written[prompts_before:]  # delivered after the commit, in one task
