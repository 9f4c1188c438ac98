"""The outbox relay (inis_pbem.relay): with a broker, a command writes rows and sends no task; the
relay publishes the committed rows and bot moves, in order, once, and again when their task was
lost; a broker that refuses leaves them to the next pass. And the hand-off of an email: recorded
before the send, never sent again when the provider reported it."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerDown

from games import store
from games.models import Game
from games.services import SeatSpec, create_game
from inis_pbem import relay
from inis_pbem.celery import app as celery_app
from notifications import outbox
from notifications.models import Outbox
from notifications.tracking import provider_has_it
from web import page_readers


class Recorder:
    """Stands in for a task: records the arguments of each `delay`, or refuses them all."""

    def __init__(self, refuse: bool = False):
        self.calls: list[tuple] = []
        self.refuse = refuse

    def delay(self, *args):
        if self.refuse:
            raise BrokerDown("the broker is down")
        self.calls.append(args)

    def apply_async(self, args, producer=None):
        self.delay(*args)


@pytest.fixture
def through_broker(monkeypatch):
    """Tasks go to a broker (not in-process); the relay's tasks are recorded, not sent."""
    celery_app.conf.task_always_eager = False  # restored by the autouse celery_in_process
    tasks = {"deliver_many": Recorder(), "play_bots": Recorder(), "render_live_parts": Recorder()}
    monkeypatch.setattr(relay, "deliver_many", tasks["deliver_many"])
    monkeypatch.setattr(relay, "play_bots", tasks["play_bots"])
    monkeypatch.setattr(relay, "render_live_parts", tasks["render_live_parts"])
    monkeypatch.setattr(outbox.deliver_many, "delay", _no_task)
    return tasks


def _no_task(*args):
    raise AssertionError("a command sent a task to the broker")


def four_players(seed="relay"):
    return create_game(seats=[SeatSpec(email=f"relay{i}@example.org") for i in range(4)], seed=seed)


def opened_by_a_player(game):
    """A player of `game` opened its page (what the view notes: web.page_readers)."""
    page_readers.note(game_id=game.pk, user_id=game.seats.order_by("position").first().user_id)
    return game


@pytest.mark.django_db
def test_a_command_queues_its_emails_and_the_relay_publishes_each_game_once_in_order(through_broker):
    games = [opened_by_a_player(four_players("relay-a")), opened_by_a_player(four_players("relay-b"))]
    rows = list(Outbox.objects.order_by("queued_at", "id"))
    assert rows and all(r.status == "pending" and r.queued_at is not None for r in rows)
    done = relay.publish_due()
    assert done.rows == len(rows) and done.tasks == 2 and not mail.outbox
    published = [ids for (ids,) in through_broker["deliver_many"].calls]
    for game, ids in zip(games, published):
        assert ids == [r.pk for r in rows if r.game_id == game.pk]  # in queue order, one task
    # With each game's emails, its players' first view is rendered ahead (web.prerender).
    assert through_broker["render_live_parts"].calls == [(game.pk,) for game in games]
    assert not relay.publish_due()  # published: not again at once
    assert all(r.publishes == 1 and r.queued_at > timezone.now() for r in Outbox.objects.all())


@pytest.mark.django_db
def test_the_pages_of_a_game_nobody_opened_are_not_rendered_ahead(through_broker):
    """A game whose players play by email alone: its emails are published, and no task renders
    its pages ahead (each page is built when somebody looks, web.page_readers)."""
    by_email, on_the_web = four_players("relay-email"), opened_by_a_player(four_players("relay-web"))
    done = relay.publish_due()
    assert done.tasks == 2 and {ids[0] for (ids,) in through_broker["deliver_many"].calls} == {
        Outbox.objects.filter(game=game).order_by("queued_at", "id").first().pk
        for game in (by_email, on_the_web)
    }
    assert through_broker["render_live_parts"].calls == [(on_the_web.pk,)]


@pytest.mark.django_db
def test_a_row_still_pending_is_published_again_later_and_later(through_broker, settings):
    four_players()
    row = Outbox.objects.first()
    settings.OUTBOX_REPUBLISH_AFTER, settings.OUTBOX_REPUBLISH_MAX = 5, 60
    relay.publish_due()
    waits = []
    for _ in range(6):  # its task was lost each time: the row's time comes again
        before = timezone.now()
        Outbox.objects.filter(pk=row.pk).update(queued_at=before - timedelta(seconds=1))
        relay.publish_due()
        row.refresh_from_db()
        waits.append(round((row.queued_at - before).total_seconds()))
    assert waits == [10, 20, 40, 60, 60, 60]
    Outbox.objects.filter(pk=row.pk).update(status="sent", queued_at=timezone.now() - timedelta(seconds=1))
    calls = len(through_broker["deliver_many"].calls)
    relay.publish_due()
    assert [row.pk] not in [ids for (ids,) in through_broker["deliver_many"].calls[calls:]]


@pytest.mark.django_db
def test_a_broker_that_refuses_leaves_every_row_to_the_next_pass(through_broker, monkeypatch):
    four_players()
    monkeypatch.setattr(relay, "deliver_many", Recorder(refuse=True))
    with pytest.raises(BrokerDown):
        relay.publish_due()
    assert all(r.publishes == 0 and r.queued_at <= timezone.now() for r in Outbox.objects.all())
    monkeypatch.setattr(relay, "deliver_many", through_broker["deliver_many"])
    assert relay.publish_due().rows == Outbox.objects.count()


@pytest.mark.django_db
def test_held_prompts_are_queued_after_the_answer_that_releases_them(through_broker):
    game = four_players()
    Outbox.objects.all().delete()
    seat = game.seats.get(colour="green")
    with transaction.atomic():
        with outbox.holding_prompts(seat.pk):
            outbox.enqueue(
                kind="prompt", to_email=seat.email, email=_email("prompt"), seq=1, game=game, seat=seat
            )
        outbox.enqueue(
            kind="answer", to_email=seat.email, email=_email("answer"), seq=1, game=game, seat=seat
        )
        assert Outbox.objects.get(kind="prompt").queued_at is None  # held: not published
        assert outbox.release_prompts(seat) == 1
    relay.publish_due()
    ((ids,),) = through_broker["deliver_many"].calls
    assert [Outbox.objects.get(pk=i).kind for i in ids] == ["answer", "prompt"]


def _email(subject):
    from notifications.prompts import RenderedEmail

    return RenderedEmail(subject=subject, text="text", html="", headers={"Message-ID": f"<{subject}@inis>"})


@pytest.mark.django_db
def test_bot_moves_due_are_published_once_and_emptied_by_the_task(through_broker):
    game = create_game(
        seats=[SeatSpec(email="human@example.org")] + [SeatSpec(is_bot=True)] * 3, seed="tasks"
    )
    game.refresh_from_db()
    assert game.bots_due_at is not None  # a bot seat decides first
    assert relay.publish_due().games == 1 and through_broker["play_bots"].calls == [(game.pk,)]
    assert relay.publish_due().games == 0
    from games.play.tasks import play_bots

    Game.objects.filter(pk=game.pk).update(bots_due_at=timezone.now() - timedelta(seconds=1))
    celery_app.conf.task_always_eager = True  # the task itself, run here
    play_bots(game.pk)
    game.refresh_from_db()
    assert game.bots_due_at is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_bots_turn_longer_than_the_republish_delay_is_published_once(through_broker):
    """The hard bots think for ten seconds; the relay's republish delay (5 s) passes meanwhile.
    The task is not published again while it runs (a second run would take a worker that a
    person's prompt needs), and a second run sent anyway (the sweep's) returns at once; once
    the turn ends with the bots still due (a worker killed), it is published again."""
    from games.play.sql import bots_turn
    from games.play.tasks import play_bots

    game = create_game(seats=[SeatSpec(email="human@example.org")] + [SeatSpec(is_bot=True)] * 3, seed="long")
    assert relay.publish_due().games == 1
    thinking, done = threading.Event(), threading.Event()

    def worker():  # the task in a worker process: its own connection, thinking
        try:
            with bots_turn(game.pk) as ours:
                assert ours
                thinking.set()
                done.wait(30)
        finally:
            connection.close()

    running = threading.Thread(target=worker)
    running.start()
    try:
        assert thinking.wait(30)
        Game.objects.filter(pk=game.pk).update(bots_due_at=timezone.now() - timedelta(seconds=1))
        assert relay.publish_due().games == 0  # still thinking: not published again
        seq = game.events.count()
        celery_app.conf.task_always_eager = True
        assert play_bots(game.pk) == 0 and game.events.count() == seq
        celery_app.conf.task_always_eager = False
    finally:
        done.set()
        running.join()
    assert relay.publish_due().games == 1  # the turn ended, its moves still due
    assert through_broker["play_bots"].calls == [(game.pk,), (game.pk,)]


# -- the hand-off ------------------------------------------------------------------------------


@pytest.fixture
def handed_over(make_game):
    """A prompt handed to the backend by a delivery that stopped before recording SENT."""
    make_game()
    row = Outbox.objects.first()
    Outbox.objects.filter(pk=row.pk).update(status="pending", handed_at=timezone.now())
    mail.outbox.clear()
    return row


def test_a_row_handed_over_moments_ago_is_not_sent_by_another_delivery(handed_over):
    assert outbox.deliver(handed_over.pk) is False
    assert not mail.outbox


def test_a_row_the_provider_reported_is_marked_sent_without_sending(handed_over, settings):
    settings.MAIL_TRACKING = True
    Outbox.objects.filter(pk=handed_over.pk).update(handed_at=timezone.now() - timedelta(hours=1))
    event = _tracking_event("delivered", handed_over.pk)
    assert provider_has_it(sender=None, event=event, esp_name="Postmark") is True
    assert outbox.deliver(handed_over.pk) is False
    handed_over.refresh_from_db()
    assert handed_over.status == "sent" and not mail.outbox


def test_a_row_the_provider_never_reported_is_sent_again_after_the_wait(handed_over, settings):
    settings.MAIL_TRACKING, settings.OUTBOX_HAND_OFF_WAIT = True, 600
    Outbox.objects.filter(pk=handed_over.pk).update(handed_at=timezone.now() - timedelta(seconds=601))
    assert (
        provider_has_it(sender=None, event=_tracking_event("failed", handed_over.pk), esp_name="x") is False
    )
    assert outbox.deliver(handed_over.pk) is True
    handed_over.refresh_from_db()
    assert len(mail.outbox) == 1 and handed_over.status == "sent"
    assert mail.outbox[0].extra_headers["Message-ID"] == handed_over.headers["Message-ID"]
    assert mail.outbox[0].metadata == {"outbox": str(handed_over.pk)}


def test_a_tracking_report_about_no_row_of_ours_changes_nothing(handed_over):
    for metadata in ({}, {"outbox": "not a number"}, {"outbox": "9" * 40}, {"outbox": "999999"}):
        event = _tracking_event("delivered", None)
        event.metadata = metadata
        assert provider_has_it(sender=None, event=event, esp_name="Postmark") is False
    assert Outbox.objects.filter(provider_seen_at__isnull=False).count() == 0


def _tracking_event(event_type, outbox_id):
    from anymail.signals import AnymailTrackingEvent

    return AnymailTrackingEvent(event_type=event_type, metadata={"outbox": str(outbox_id)})


# -- the wake-up -------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_relay_is_woken_by_the_commit_that_wrote_rows(through_broker):
    listener = relay.Listener()
    try:
        assert listener.wait(0.1) is None  # a new LISTEN: what committed before it is unknown
        assert listener.wait(0.1) == frozenset()  # nothing committed: the poll's time out
        woke = []
        thread = threading.Thread(target=lambda: woke.append(listener.wait(20)))
        thread.start()
        four_players("relay-wake")
        thread.join(timeout=30)
        # The outbox's NOTIFY names its table: no read model reads it, so none is fed.
        assert len(woke) == 1 and Outbox._meta.db_table in woke[0]
    finally:
        listener.close()
        connection.close()


@pytest.mark.django_db
def test_a_pass_publishes_every_game_over_one_broker_connection(through_broker, monkeypatch):
    """Three games' emails and pages ahead: one pass, one producer of Celery's pool (one broker
    connection) for its six tasks, rather than one acquired for each."""
    games = [opened_by_a_player(four_players(f"relay-one-{n}")) for n in range(3)]
    acquired = []
    real = celery_app.producer_or_acquire

    def counted(producer=None):
        acquired.append(producer)
        return real(producer)

    monkeypatch.setattr(celery_app, "producer_or_acquire", counted)
    done = relay.publish_due()
    assert done.tasks == 3 and len(through_broker["render_live_parts"].calls) == 3
    assert through_broker["render_live_parts"].calls == [(game.pk,) for game in games]
    assert len(acquired) == 1


@pytest.mark.django_db
def test_a_reply_whose_task_was_lost_is_published_by_the_relay_and_played(monkeypatch, settings):
    """The webhook stored the reply, then its task was lost (Redis down at the commit, the web
    process killed just after it): the relay publishes its processing once it has waited
    OUTBOX_REPUBLISH_AFTER seconds, not the sweep's 5 minutes later, and the move is played."""
    from notifications import inbound
    from notifications.models import InboundEmail
    from tests.notifications import mail_clients
    from tests.notifications.email_positions import END, game_from
    from tests.notifications.test_inbound import prompt_for

    settings.OUTBOX_REPUBLISH_AFTER, settings.OUTBOX_REPUBLISH_MAX = 5, 60
    lost = Recorder()
    monkeypatch.setattr(relay, "process_inbound_task", lost)
    clock = iter(range(0, 1000, settings.RELAY_POLL))  # each pass a poll's time after the last
    monkeypatch.setattr(relay, "inbound_retries", relay.InboundRetries(clock=lambda: float(next(clock))))
    game = game_from(END, seed="relay-lost-reply")
    prompt = prompt_for(game, "green")
    row, _created = inbound.receive(
        mail_clients.gmail(prompt, "Pretender, please!"), source="postmark", enqueue=False
    )

    relay.publish_all_due()
    assert lost.calls == []  # its own task may still be on its way
    InboundEmail.objects.filter(pk=row.pk).update(received_at=timezone.now() - timedelta(seconds=6))
    relay.publish_all_due()
    relay.publish_all_due()
    assert lost.calls == [(row.pk,)]  # once: again only after the doubled delay

    assert inbound.process(row.pk) == "accepted"
    state, _seq = store.load(game)
    assert "green" in state.pretenders
    relay.publish_all_due()
    assert lost.calls == [(row.pk,)]


@pytest.mark.django_db
def test_the_relay_looks_for_lost_replies_once_a_poll_not_at_every_commit(monkeypatch, settings):
    """Every commit that writes an email wakes a pass; a reply is lost only once it has waited
    OUTBOX_REPUBLISH_AFTER seconds. So the passes of a busy second look for lost replies once,
    and the next look comes RELAY_POLL seconds later, when it publishes one lost meanwhile."""
    from notifications import inbound
    from notifications.models import InboundEmail
    from tests.notifications import mail_clients
    from tests.notifications.email_positions import END, game_from
    from tests.notifications.test_inbound import prompt_for

    settings.RELAY_POLL, settings.OUTBOX_REPUBLISH_AFTER = 2, 5
    lost = Recorder()
    monkeypatch.setattr(relay, "process_inbound_task", lost)
    now = [100.0]
    monkeypatch.setattr(relay, "inbound_retries", relay.InboundRetries(clock=lambda: now[0]))
    looks = []
    real_look = relay.stale_inbound_ids
    monkeypatch.setattr(relay, "stale_inbound_ids", lambda **kw: looks.append(now[0]) or real_look(**kw))
    game = game_from(END, seed="relay-lost-reply-pace")
    row, _created = inbound.receive(
        mail_clients.gmail(prompt_for(game, "green"), "Pretender, please!"), source="postmark", enqueue=False
    )
    InboundEmail.objects.filter(pk=row.pk).update(received_at=timezone.now() - timedelta(seconds=6))
    relay.publish_all_due()
    assert looks == [100.0] and lost.calls == [(row.pk,)]

    for _commit in range(5):  # a busy second: five passes
        now[0] += 0.2
        relay.publish_all_due()
    assert looks == [100.0]
    now[0] = 102.0
    relay.publish_all_due()
    assert looks == [100.0, 102.0]


def test_a_lost_reply_is_published_again_later_and_later(settings):
    settings.OUTBOX_REPUBLISH_AFTER, settings.OUTBOX_REPUBLISH_MAX = 5, 60
    retries = relay.InboundRetries()
    published = [now for now in range(0, 200) if retries.due([7], float(now))]
    assert published == [0, 10, 30, 70, 130, 190]
    assert retries.due([], 500.0) == [] and retries.next == {}  # processed: forgotten
