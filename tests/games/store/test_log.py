"""games.store: appends with an expected seq, the hash chain, loads, snapshots, upcasting."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games import rules, store
from games.models import Command, Event, Snapshot
from games.record.hashchain import chained_hash, normalise


def state_json(state) -> dict:
    return normalise(state.to_json())


def test_append_numbers_events_from_expected_seq_and_chains_hashes(make_game):
    game = make_game()
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
    assert rows[0].prev_hash == game.seed_commitment
    for before, after in zip(rows, rows[1:]):
        assert after.prev_hash == before.hash
    for row in rows:
        assert row.hash == chained_hash(
            row.prev_hash,
            chain_version=game.chain_version,
            seed=game.seed,
            seq=row.seq,
            type=row.type,
            version=row.version,
            payload=row.payload,
            visibility=row.visibility,
        )


def test_a_stale_expected_seq_raises_and_writes_nothing(make_game):
    game = make_game()
    seq, last_hash = store.head(game)
    extra = [rules.Event("TestNoted", {"n": 1})]
    with pytest.raises(store.ConcurrencyConflict) as caught:
        store.append(game, extra, expected_seq=seq - 1)
    assert (caught.value.expected_seq, caught.value.actual_seq) == (seq - 1, seq)
    assert store.head(game) == (seq, last_hash)


def test_a_repeated_command_id_raises_duplicate_with_the_first_record(make_game):
    game = make_game()
    seat = game.seats.get(colour="green")
    seq, _ = store.head(game)
    record = store.CommandRecord(seat=seat, body={"type": "x"}, client_seq=seq)
    store.append(game, [rules.Event("TestNoted", {})], expected_seq=seq, command_id="k1", command=record)
    with pytest.raises(store.DuplicateCommand) as caught:
        store.append(
            game, [rules.Event("TestNoted", {})], expected_seq=seq + 1, command_id="k1", command=record
        )
    assert caught.value.command.first_seq == seq + 1
    assert store.head(game)[0] == seq + 1
    assert Command.objects.filter(game=game).count() == 1


def test_append_refuses_an_empty_batch_and_a_key_without_command(make_game):
    game = make_game()
    seq, _ = store.head(game)
    with pytest.raises(ValueError):
        store.append(game, [], expected_seq=seq)
    with pytest.raises(ValueError):
        store.append(game, [rules.Event("TestNoted", {})], expected_seq=seq, command_id="k")


def test_load_is_the_fold_of_the_log(make_game, play):
    game = make_game()
    play(game, 12)
    state, seq = store.load(game)
    events = [store.to_rules_event(row) for row in Event.objects.filter(game=game).order_by("seq")]
    assert seq == len(events) == state.seq
    assert state_json(state) == state_json(rules.fold(events))


def test_load_until_folds_a_prefix(make_game, play):
    game = make_game()
    play(game, 6)
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    state, seq = store.load(game, until=10)
    assert seq == 10
    assert state_json(state) == state_json(rules.fold([store.to_rules_event(r) for r in rows[:10]]))


def test_load_telling_is_load_and_events_between_in_one_read(
    make_game, play, settings, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """A prompt delivered late is written from the state at its seq and the events since the
    seat's previous prompt: both from one read of the log, whether that previous prompt is
    before the latest snapshot or after it."""
    settings.SNAPSHOT_EVERY = 7
    game = make_game()
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 12)
    _state, head = store.load(game)
    snapshots = sorted(Snapshot.objects.filter(game=game).values_list("seq", flat=True))
    assert snapshots and snapshots[-1] < head
    for until, after in [
        (head, 0),
        (head, snapshots[-1] + 1),
        (head, head - 1),
        (head, head),
        (snapshots[-1], snapshots[0] - 1),
        (snapshots[0] + 2, snapshots[0]),
    ]:
        with django_assert_num_queries(2):  # the snapshot, the events
            state, told = store.load_telling(game, until=until, after=after)
        expected, _seq = store.load(game, until=until)
        assert state.seq == until and state_json(state) == state_json(expected)
        assert told == store.events_between(game, after, until)


@pytest.mark.slow  # up to 40 commands a game, loaded again without its snapshots
@hypothesis_settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    seed=st.text(st.characters(whitelist_categories=("L", "N", "P", "S")), min_size=1, max_size=12),
    steps=st.integers(min_value=0, max_value=40),
    every=st.integers(min_value=1, max_value=25),
)
def test_deleting_every_snapshot_changes_no_state(
    make_game, play, settings, django_capture_on_commit_callbacks, seed, steps, every
):
    settings.SNAPSHOT_EVERY = every
    game = make_game(seed=seed)
    with django_capture_on_commit_callbacks(execute=True):
        play(game, steps, seed=seed)
    # Snapshots are written after commits; make sure at least one exists whatever was played.
    cached_state, _ = store.load(game)
    store.save_snapshot(game, cached_state)
    assert Snapshot.objects.filter(game=game).exists()

    with_snapshots, seq = store.load(game)
    Snapshot.objects.filter(game=game).delete()
    without, seq_without = store.load(game)
    assert seq == seq_without
    assert state_json(with_snapshots) == state_json(without)
    assert rules.pending(with_snapshots) == rules.pending(without)
    for colour in without.seats:
        assert rules.legal_commands(with_snapshots, colour) == rules.legal_commands(without, colour)
        assert rules.view_for(with_snapshots, colour) == rules.view_for(without, colour)


def test_snapshots_are_written_every_n_events_after_commit(
    make_game, play, settings, django_capture_on_commit_callbacks
):
    settings.SNAPSHOT_EVERY = 5
    game = make_game()
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 10)
    seqs = list(Snapshot.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs
    for snapshot in Snapshot.objects.filter(game=game):
        state, _ = store.load(game, until=snapshot.seq)
        assert normalise(snapshot.state) == state_json(state)


def test_an_old_event_version_is_upcast_on_load(make_game, play):
    """ClansPlaced v1 carried one territory and a count; the rules upcast it to v2's mapping."""
    original = make_game(seed="upcast")
    play(original, 30)
    rows = list(Event.objects.filter(game=original).order_by("seq"))
    single = [r for r in rows if r.type == "ClansPlaced" and len(r.payload["placements"]) == 1]
    assert single, "the game placed no clans: play more commands"

    copy = make_game(seed="upcast")  # same seed and seats: the same set-up events
    setup_count = store.head(copy)[0]
    stored_old = 0
    for row in rows[setup_count:]:
        event = store.to_rules_event(row)
        if row.type == "ClansPlaced" and len(row.payload["placements"]) == 1:
            ((territory, count),) = row.payload["placements"].items()
            event = rules.Event(
                "ClansPlaced",
                {"seat": row.payload["seat"], "territory": territory, "count": count},
                event.visibility,
                version=1,
            )
            stored_old += 1
        store.append(copy, [event], expected_seq=store.head(copy)[0])
    assert Event.objects.filter(game=copy, type="ClansPlaced", version=1).count() == stored_old > 0

    loaded_copy, _ = store.load(copy)
    loaded_original, _ = store.load(original)
    assert state_json(loaded_copy) == state_json(loaded_original)


def test_a_log_with_a_gap_does_not_load(make_game, play, unprotected_log):
    game = make_game()
    play(game, 3)
    with unprotected_log():
        last = Event.objects.filter(game=game).order_by("-seq").first()
        Event.objects.filter(pk=last.pk).update(seq=last.seq + 5)
    with pytest.raises(store.StoreError, match="missing"):
        store.load(game)


@pytest.mark.postgres
@pytest.mark.parametrize("table", ["games_event", "games_command"])
@pytest.mark.parametrize("statement", ["UPDATE {table} SET game_id = game_id", "DELETE FROM {table}"])
def test_raw_sql_cannot_update_or_delete_the_log(make_game, play, table, statement):
    game = make_game()
    play(game, 2)
    with (
        pytest.raises(DatabaseError, match="(?i)cannot|protect"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement.format(table=table))
    assert Event.objects.filter(game=game).count() == store.head(game)[0]
