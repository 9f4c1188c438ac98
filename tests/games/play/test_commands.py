"""games.services: create_game and submit_command (idempotency, refusals, rebasing, bots)."""

from __future__ import annotations

import pytest

from games import rules, store
from games.models import Command, Event, Game, seed_commitment
from games.play.signals import events_recorded
from games.services import SeatSpec, create_game, submit_command


def first_decision(game):
    state, seq = store.load(game)
    decision = rules.pending(state)[0]
    seat = game.seats.get(colour=decision.seat)
    return state, seq, seat


def test_create_game_seats_seed_commitment_and_setup_events(db):
    game = create_game(
        seats=[SeatSpec(email="a@example.org"), SeatSpec(is_bot=True)], seed="s33d", play_bots=False
    )
    assert [(s.colour, s.email, s.is_bot, s.position) for s in game.seats.all()] == [
        ("green", "a@example.org", False, 0),
        ("blue", "", True, 1),
    ]
    assert game.seed_commitment == seed_commitment("s33d")
    assert len({s.token for s in game.seats.all()}) == 2
    events = rules.start_game(["green", "blue"], seed="s33d")
    assert [e.type for e in Event.objects.filter(game=game).order_by("seq")] == [e.type for e in events]
    assert game.player_count == 2 and game.status == Game.Status.ACTIVE


def test_create_game_makes_a_random_seed_when_none_is_given(db):
    one = create_game(seats=[SeatSpec(is_bot=True)] * 2, play_bots=False)
    two = create_game(seats=[SeatSpec(is_bot=True)] * 2, play_bots=False)
    assert len(one.seed) == 32 and one.seed != two.seed


@pytest.mark.parametrize(
    "seats, seed, match",
    [
        ([SeatSpec(email="a@example.org")], None, "2 to 4"),
        ([SeatSpec(is_bot=True)] * 5, None, "2 to 4"),
        ([SeatSpec(email="not an email"), SeatSpec(is_bot=True)], None, "email"),
        ([SeatSpec(is_bot=True)] * 2, "bad\x00seed", "seed"),
    ],
)
def test_create_game_refuses_bad_configurations_and_writes_nothing(db, seats, seed, match):
    with pytest.raises(ValueError, match=match):
        create_game(seats=seats, seed=seed)
    assert not Game.objects.exists()


def test_create_game_passes_the_rules_refusal_on(db):
    with pytest.raises(rules.InvalidCommand):
        create_game(seats=[SeatSpec(is_bot=True)] * 2, setup={"territories": {}})
    assert not Game.objects.exists() and not Event.objects.exists()


def test_an_accepted_command_appends_its_events_and_records_the_command(make_game):
    game = make_game()
    state, seq, seat = first_decision(game)
    command = rules.legal_commands(state, seat.colour)[0]
    expected = rules.decide(state, seat.colour, command, rng=rules.rng_for(game.seed, seq))

    result = submit_command(game=game, seat=seat, command=command, expected_seq=seq, command_id="c1")

    assert result.accepted and not result.duplicate and not result.rebased
    assert (result.first_seq, result.last_seq) == (seq + 1, seq + len(expected))
    assert result.message == f"Accepted: {rules.describe_command(state, command)}."
    stored = [store.to_rules_event(r) for r in Event.objects.filter(game=game, seq__gt=seq).order_by("seq")]
    assert [e.to_json() for e in stored] == [rules.Event.from_json(e.to_json()).to_json() for e in expected]
    record = Command.objects.get(game=game, command_id="c1")
    assert (record.seat, record.body, record.client_seq) == (seat, command, seq)
    assert list(Event.objects.filter(command=record).values_list("seq", flat=True)) == list(
        range(result.first_seq, result.last_seq + 1)
    )


def test_a_refused_command_returns_the_rules_message_and_writes_nothing(make_game):
    game = make_game()
    state, seq, seat = first_decision(game)
    other = game.seats.exclude(pk=seat.pk).first()
    command = rules.legal_commands(state, seat.colour)[0]
    with pytest.raises(rules.CommandError) as rules_says:
        rules.decide(state, other.colour, command, rng=rules.rng_for(game.seed, seq))

    result = submit_command(game=game, seat=other, command=command, expected_seq=seq, command_id="x")

    assert not result.accepted
    assert result.message == str(rules_says.value)
    assert result.error_kind == rules_says.value.kind
    assert store.head(game)[0] == seq and not Command.objects.exists()


def test_a_malformed_command_is_refused_as_invalid(make_game):
    game = make_game()
    _state, seq, seat = first_decision(game)
    result = submit_command(game=game, seat=seat, command={"no": "type"}, expected_seq=seq)
    assert not result.accepted and result.error_kind == "invalid"


def test_a_repeated_command_id_is_answered_with_the_first_result(make_game):
    game = make_game()
    state, seq, seat = first_decision(game)
    command = rules.legal_commands(state, seat.colour)[0]
    first = submit_command(game=game, seat=seat, command=command, expected_seq=seq, command_id="k")
    again = submit_command(game=game, seat=seat, command=command, expected_seq=seq, command_id="k")
    assert first.accepted and again.accepted and again.duplicate
    assert (again.first_seq, again.last_seq, again.events) == (first.first_seq, first.last_seq, first.events)
    assert store.head(game)[0] == first.last_seq
    assert Command.objects.filter(game=game).count() == 1


def test_another_seat_cannot_reuse_a_command_id(make_game):
    game = make_game()
    state, seq, seat = first_decision(game)
    submit_command(
        game=game,
        seat=seat,
        command=rules.legal_commands(state, seat.colour)[0],
        expected_seq=seq,
        command_id="k",
    )
    other = game.seats.exclude(pk=seat.pk).first()
    result = submit_command(game=game, seat=other, command={"type": "pass"}, expected_seq=seq, command_id="k")
    assert not result.accepted and "another seat" in result.message


def test_a_stale_command_still_legal_is_decided_against_the_new_state(make_game, play):
    """Simultaneous decisions: a seat's prompt is stale after another seat's draft pick."""
    game = make_game(n_players=4)

    def simultaneous(state):
        return len({d.seat for d in rules.pending(state)}) > 1

    play(game, 60, until=simultaneous)
    state, seq = store.load(game)
    assert simultaneous(state), "no simultaneous decision reached"
    colours = sorted({d.seat for d in rules.pending(state)})
    seats = {s.colour: s for s in game.seats.all()}
    late_command = rules.legal_commands(state, colours[1])[0]
    first = submit_command(
        game=game,
        seat=seats[colours[0]],
        command=rules.legal_commands(state, colours[0])[0],
        expected_seq=seq,
    )
    assert first.accepted
    late = submit_command(game=game, seat=seats[colours[1]], command=late_command, expected_seq=seq)
    assert late.accepted and late.rebased
    assert late.first_seq == first.last_seq + 1
    assert Command.objects.get(first_seq=late.first_seq).client_seq == seq


def test_a_stale_command_no_longer_legal_is_refused_with_a_note(make_game):
    game = make_game()
    state, seq, seat = first_decision(game)
    command = rules.legal_commands(state, seat.colour)[0]
    assert submit_command(game=game, seat=seat, command=command, expected_seq=seq).accepted
    again = submit_command(game=game, seat=seat, command=command, expected_seq=seq)
    assert not again.accepted and "moved on" in again.message


def test_a_command_from_the_future_is_refused(make_game):
    game = make_game()
    state, seq, seat = first_decision(game)
    result = submit_command(
        game=game, seat=seat, command=rules.legal_commands(state, seat.colour)[0], expected_seq=seq + 5
    )
    assert not result.accepted and store.head(game)[0] == seq


def test_a_seat_of_another_game_is_refused(make_game):
    game, other = make_game(seed="a"), make_game(seed="b")
    with pytest.raises(ValueError):
        submit_command(game=game, seat=other.seats.first(), command={"type": "pass"}, expected_seq=0)


def test_events_and_outbox_commit_together_or_not_at_all(make_game):
    """A receiver of events_recorded that fails rolls the events back with it."""
    game = make_game()
    state, seq, seat = first_decision(game)

    def fail(**kwargs):
        raise RuntimeError("outbox down")

    events_recorded.connect(fail, dispatch_uid="test-fail")
    try:
        with pytest.raises(RuntimeError):
            submit_command(
                game=game, seat=seat, command=rules.legal_commands(state, seat.colour)[0], expected_seq=seq
            )
    finally:
        events_recorded.disconnect(dispatch_uid="test-fail")
    assert store.head(game)[0] == seq and not Command.objects.exists()


def test_bots_play_after_the_commit_until_a_player_must_decide(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game(
            seats=[SeatSpec(email="me@example.org")] + [SeatSpec(is_bot=True)] * 3, seed="bots"
        )
    state, _seq = store.load(game)
    waiting = {d.seat for d in rules.pending(state)}
    assert waiting == {"green"}, waiting
    bot_commands = Command.objects.filter(game=game, seat__is_bot=True)
    assert bot_commands.exists()
    assert all(c.command_id == f"bot:{c.seat.colour}:{c.first_seq - 1}" for c in bot_commands)


def test_the_game_ends_with_status_and_winner(db):
    from games.play.bot_seats import play_bots

    game = create_game(seats=[SeatSpec(is_bot=True)] * 2, seed="short-2", play_bots=False)
    play_bots(game, max_commands=20000, max_rounds=60)
    game.refresh_from_db()
    state, _ = store.load(game)
    assert rules.is_over(state), "the bots did not finish within 60 rounds"
    assert game.status == Game.Status.OVER and game.winner == state.winner
    seat = game.seats.first()
    result = submit_command(game=game, seat=seat, command={"type": "pass"}, expected_seq=state.seq)
    assert not result.accepted
