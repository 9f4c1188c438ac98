"""games.store.verification.verify_game: a sound record passes; each kind of tampering is caught."""

from __future__ import annotations

from games import rules, store
from games.models import Command, Event, Game
from games.store.verification import verify_game


def played_game(make_game, play, steps=25, **kwargs):
    game = make_game(**kwargs)
    play(game, steps)
    return game


def test_a_sound_game_verifies(make_game, play):
    game = played_game(make_game, play)
    report = verify_game(game)
    assert report.ok, report.lines()
    assert report.events == store.head(game)[0]
    assert report.commands == Command.objects.filter(game=game).count() > 0
    assert report.lines()[0].startswith(f"Game {game.pk}: OK")


def test_an_edited_payload_breaks_the_chain(make_game, play, unprotected_log):
    game = played_game(make_game, play)
    row = Event.objects.filter(game=game, command__isnull=False).order_by("seq").first()
    with unprotected_log():
        Event.objects.filter(pk=row.pk).update(payload={**row.payload, "forged": True})
    report = verify_game(game)
    assert not report.ok
    assert any(f"event #{row.seq}" in p and "hash" in p for p in report.problems), report.problems


def test_an_edit_with_recomputed_hashes_is_caught_by_the_replay(make_game, play, unprotected_log):
    """A forger who rewrites the chain still cannot make the rules produce the forged events."""
    from games.record.hashchain import chained_hash

    game = played_game(make_game, play)
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    target = next(r for r in rows if r.command_id is not None)
    with unprotected_log():
        prev = target.prev_hash
        for row in rows[target.seq - 1 :]:
            payload = {**row.payload, "forged": True} if row.pk == target.pk else row.payload
            digest = chained_hash(
                prev,
                chain_version=game.chain_version,
                seed=game.seed,
                seq=row.seq,
                type=row.type,
                version=row.version,
                payload=payload,
                visibility=row.visibility,
            )
            Event.objects.filter(pk=row.pk).update(payload=payload, prev_hash=prev, hash=digest)
            prev = digest
    report = verify_game(game)
    assert not report.ok
    assert not any(p.startswith("chain") for p in report.problems), report.problems
    assert any(f"event #{target.seq}" in p and "the rules give" in p for p in report.problems), (
        report.problems
    )


def test_a_changed_seed_breaks_the_commitment(make_game, play):
    game = played_game(make_game, play, steps=5)
    Game.objects.filter(pk=game.pk).update(seed="another seed")
    game.refresh_from_db()
    report = verify_game(game)
    assert any("commitment" in p for p in report.problems)


def test_events_appended_without_a_command_are_reported(make_game, play):
    game = played_game(make_game, play, steps=5)
    state, seq = store.load(game)
    seat = game.seats.get(colour=rules.pending(state)[0].seat)
    events = rules.decide(
        state, seat.colour, rules.legal_commands(state, seat.colour)[0], rng=rules.rng_for(game.seed, seq)
    )
    store.append(game, events, expected_seq=seq)  # legal events, but no command recorded
    report = verify_game(game)
    assert any("recorded by no command" in p for p in report.problems), report.problems


def test_a_command_that_was_not_legal_is_reported(make_game, play):
    """Events recorded under a command that the rules refuse at that point."""
    game = played_game(make_game, play, steps=5)
    state, seq = store.load(game)
    decider = rules.pending(state)[0].seat
    idle = game.seats.exclude(colour=decider).first()
    events = rules.decide(
        state, decider, rules.legal_commands(state, decider)[0], rng=rules.rng_for(game.seed, seq)
    )
    store.append(
        game,
        events,
        expected_seq=seq,
        command_id="forged",
        command=store.CommandRecord(seat=idle, body=rules.legal_commands(state, decider)[0], client_seq=seq),
    )
    report = verify_game(game)
    assert any("not legal" in p for p in report.problems), report.problems


def test_draws_that_do_not_follow_from_the_seed_are_reported(make_game, play):
    """Set-up events drawn with another seed than the one committed to."""
    game = make_game(seed="real-seed")
    forged = make_game(seed="other-seed")
    report = verify_game(forged)
    assert report.ok
    Game.objects.filter(pk=forged.pk).update(seed=game.seed, seed_commitment=game.seed_commitment)
    forged.refresh_from_db()
    report = verify_game(forged)
    assert not report.ok
    assert any(p.startswith("set-up") for p in report.problems), report.problems


def test_a_stale_snapshot_is_reported(make_game, play):
    game = played_game(make_game, play, steps=10)
    state, seq = store.load(game, until=20)
    state.round += 7  # a cache that no longer matches the fold
    store.save_snapshot(game, state)
    report = verify_game(game)
    assert any("snapshot at #20" in p for p in report.problems), report.problems


def test_a_game_that_only_the_audit_can_fold_fails_to_load(make_game, clash_position, monkeypatch):
    """A described position's event once had its rules registered only by `start_game`: every
    other process failed to read the game while the audit, which calls `start_game` first, said
    OK. The audit now loads the game as readers do before running the rules itself."""
    from games.rules.engine import EVOLVERS

    game = make_game(seed="verify-position", n_players=2, setup=clash_position)
    evolve_position = EVOLVERS["PositionDescribed"]
    monkeypatch.delitem(EVOLVERS, "PositionDescribed")  # put back after the test
    start_game = rules.start_game

    def registering_start_game(*args, **kwargs):
        EVOLVERS["PositionDescribed"] = evolve_position
        return start_game(*args, **kwargs)

    monkeypatch.setattr(rules, "start_game", registering_start_game)
    report = verify_game(game)
    assert not report.ok
    assert any(p.startswith("load: the game cannot be read") for p in report.problems), report.lines()
