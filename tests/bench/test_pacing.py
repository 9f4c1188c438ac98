"""The pacing rows (bench/pacing.py) on a tiny configuration: their counts agree with each other
and with the service's outbox, the modes compare as the product promises, and the calendar is
reproducible. No timing is asserted: the figures are for `python -m bench` to print."""

from __future__ import annotations

import random

import pytest

from bench import pacing


@pytest.fixture(scope="module")
def tiny():
    """Two seeded games of two rounds in each reaction mode, the rules alone."""
    return pacing.play_all(2, seed="pace-test", max_rounds=2)


def test_each_prompt_is_counted_once_as_a_real_decision_or_a_single_option(tiny):
    for runs in tiny.values():
        for run in runs:
            assert set(run.counts) == {"green", "blue", "orange", "white"}
            for count in run.counts.values():
                assert count.prompts > 0
                assert count.real + count.single_option == count.prompts
                assert count.decline_only <= count.single_option
                # A decline-only prompt could cost the reaction deadline, 12 hours by default.
                assert count.decline_only_seconds == count.decline_only * 12 * 3600


def test_asking_only_the_holders_sends_fewer_prompts_and_never_a_decline_only_one(tiny):
    """The default mode asks a seat only when it holds a card that can answer now, so it is never
    asked to do nothing but decline; today's "strict" windows ask everyone who might answer."""
    holders = [sum(c.prompts for c in run.counts.values()) for run in tiny["holders"]]
    strict = [sum(c.prompts for c in run.counts.values()) for run in tiny["strict"]]
    assert sum(holders) < sum(strict)
    assert all(c.decline_only == 0 for run in tiny["holders"] for c in run.counts.values())
    assert sum(c.decline_only for run in tiny["strict"] for c in run.counts.values()) > 0
    # "quick": every seat says "never ask" at the start, so no window asks anybody.
    assert all(c.decline_only == 0 for run in tiny["quick"] for c in run.counts.values())


def test_the_table_judges_the_goal_on_the_default_mode_only(tiny):
    summaries = [pacing.summarise(mode, runs) for mode, runs in tiny.items()]
    rows = {row.figure: row for row in pacing.rows(summaries, None)}
    assert rows["holders: decline-only prompts per seat and round"].verdict == "met"
    assert rows["strict: decline-only prompts per seat and round"].verdict == ""
    assert rows["strict: median days a 4-player game takes"].ratio == 1
    text = pacing.report(summaries, None, pacing.Delays())
    assert "| holders (default) | 2 (" in text and "| strict | 2 (" in text and "| quick | 2 (" in text


def test_the_calendar_is_reproducible_and_bots_answer_at_once():
    once = pacing.play("pace-cal", "holders", max_rounds=1)
    again = pacing.play("pace-cal", "holders", max_rounds=1)
    assert once.seconds == again.seconds > 0
    assert once.counts == again.counts
    bots = pacing.play("pace-cal", "holders", humans=0, max_rounds=1)
    assert bots.seconds == 0 and bots.counts == {}
    one = pacing.play("pace-cal", "holders", humans=1, max_rounds=1)
    assert set(one.counts) == {"green"} and one.seconds > 0


def test_a_person_answers_within_the_deadline_around_the_documented_median():
    delays, rng = pacing.Delays(median_hours=4.0, sigma=1.0), random.Random(1)
    drawn = sorted(delays.draw(rng, 12) / 3600 for _ in range(2001))
    assert max(drawn) == 12  # capped: the deadline default answers for the late
    assert 3.5 < drawn[1000] < 4.5


@pytest.mark.django_db(transaction=True)
def test_every_real_decision_is_one_delivered_prompt_and_every_email_is_counted(mailoutbox):
    """Through the service (each command committed, mail delivered in-process): every real
    decision the count sees was one prompt email, prompts the service answered alone (a seat's
    only answer) were never delivered, and the emails counted are the mails sent."""
    from notifications.models import Outbox

    runs = pacing.measure_emails(1, rounds=1, seed="pace-mail-test", modes=("holders",))
    (run,) = runs["holders"]
    delivered = Outbox.objects.filter(kind=Outbox.Kind.PROMPT, status=Outbox.Status.SENT).count()
    real = sum(c.real for c in run.counts.values())
    assert 0 < real <= delivered == run.kinds["prompt"] <= sum(c.prompts for c in run.counts.values())
    assert sum(c.emails for c in run.counts.values()) == len(mailoutbox) == sum(run.kinds.values())
    for colour, count in run.counts.items():
        address = f"pace{['green', 'blue', 'orange', 'white'].index(colour) + 1}@example.org"
        assert count.emails == sum(address in m.to for m in mailoutbox)
    emails, real_per_round, kinds = pacing.email_per_seat_round(runs["holders"])
    assert emails == pytest.approx(sum(kinds.values())) and real_per_round > 0
    assert "| holders | 1 × 1 |" in pacing.email_table(runs)


@pytest.mark.parametrize(
    "card, prompts, real, hand_forced", [("act_geis", 0, 0, 1), ("act_festival", 1, 1, 0)]
)
def test_a_turn_only_the_hand_forces_is_no_prompt_and_no_decision(card, prompts, real, hand_forced):
    """White's Season turn holding only Geis (a Triskel card: white can only pass) gets no email:
    the service passes for it later, so the pace counts it as no prompt and no real decision.
    Holding Festival, white has a choice: one prompt, one real decision."""
    from games import rules
    from tests.faults.test_hidden_forced_moves import SEATS, _position

    state = rules.fold(rules.start_game(list(SEATS), seed="pace-hand", setup=_position(card)))
    for event in rules.decide(state, "green", {"type": "pass"}, rng=rules.rng_for("pace-hand", state.seq)):
        rules.evolve(state, event)
    count = pacing.SeatCount()
    pacing.count_prompt(count, state, "white", "season_turn", {})
    assert (count.prompts, count.real, count.hand_forced) == (prompts, real, hand_forced)
