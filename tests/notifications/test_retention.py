"""Old mail is forgotten by the sweep: sent emails after OUTBOX_KEEP_DAYS, the message of a
processed inbound email after INBOUND_KEEP_DAYS; what is still to send or to process, failed mail,
and the record that a message was received (so that a second delivery plays nothing) stay."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from inis_pbem.tasks import sweep
from notifications import digests, retention
from notifications.models import InboundEmail, NewsItem, Outbox
from players.models import Player
from players.preferences import player_for
from press.services import press_send
from tests.notifications.test_inbound import last_to, send_all


def _age(queryset, days: float, field: str) -> None:
    queryset.update(**{field: timezone.now() - timedelta(days=days)})


def test_the_sweep_deletes_sent_mail_older_than_the_kept_days_and_keeps_the_rest(db, settings):
    settings.OUTBOX_KEEP_DAYS = 30
    rows = [
        Outbox.objects.create(
            kind=Outbox.Kind.DIGEST,
            seq=0,
            to_email=f"p{i}@example.org",
            subject="Your digest",
            body_text="News.",
        )
        for i in range(7)
    ]
    old_sent, old_skipped, old_folded, old_failed, old_pending, *recent = rows
    Outbox.objects.filter(pk__in=[old_sent.pk, *(r.pk for r in recent)]).update(
        status=Outbox.Status.SENT, sent_at=timezone.now()
    )
    Outbox.objects.filter(pk=old_skipped.pk).update(status=Outbox.Status.SKIPPED)
    # An acceptance said inside the seat's next email (sent): it goes as that email does.
    Outbox.objects.filter(pk=old_folded.pk).update(status=Outbox.Status.FOLDED)
    Outbox.objects.filter(pk=old_failed.pk).update(status=Outbox.Status.FAILED)
    _age(Outbox.objects.all(), 31, "created_at")
    _age(Outbox.objects.filter(pk=old_sent.pk), 31, "sent_at")
    _age(Outbox.objects.filter(pk__in=[r.pk for r in recent]), 29, "sent_at")

    counts = sweep.apply().result

    assert counts["pruned"] == 3
    left = set(Outbox.objects.values_list("pk", flat=True))
    assert old_sent.pk not in left and old_skipped.pk not in left and old_folded.pk not in left
    # Failed mail stays for the operator; the old pending row was just sent by this very sweep.
    assert {old_failed.pk, old_pending.pk, *(r.pk for r in recent)} <= left
    assert Outbox.objects.get(pk=old_pending.pk).status == Outbox.Status.SENT
    assert sweep.apply().result["pruned"] == 0


def test_the_sweep_forgets_the_message_of_old_processed_inbound_mail_but_knows_it_came(db, settings):
    settings.INBOUND_KEEP_DAYS = 30

    def inbound(key, status, days):
        row = InboundEmail.objects.create(
            message_key=key,
            source="test",
            raw=b"From: a@example.org\r\n\r\npass",
            status=status,
            processed_at=timezone.now(),
        )
        _age(InboundEmail.objects.filter(pk=row.pk), days, "processed_at")
        return row

    old = inbound("<old@example.org>", InboundEmail.Status.ACCEPTED, 31)
    recent = inbound("<recent@example.org>", InboundEmail.Status.REJECTED, 29)
    waiting = inbound("<waiting@example.org>", InboundEmail.Status.RECEIVED, 31)

    assert sweep.apply().result["inbound_forgotten"] == 1

    old.refresh_from_db(), recent.refresh_from_db(), waiting.refresh_from_db()
    assert bytes(old.raw) == b"" and old.status == InboundEmail.Status.ACCEPTED
    assert InboundEmail.objects.filter(message_key="<old@example.org>").exists()
    assert bytes(recent.raw) and bytes(waiting.raw)


def test_no_stored_email_keeps_its_body_past_the_body_days_but_its_message_id_and_status_stay(db, settings):
    """docs/privacy.md: failed mail (kept for the operator) and old inbound mail lose their
    bodies after EMAIL_BODY_KEEP_DAYS; younger mail keeps them."""
    settings.EMAIL_BODY_KEEP_DAYS = 90
    settings.OUTBOX_KEEP_DAYS = settings.INBOUND_KEEP_DAYS = 365

    def outbox(status, days):
        row = Outbox.objects.create(
            kind=Outbox.Kind.ANSWER,
            seq=0,
            to_email="ann@example.org",
            subject="Your move was refused",
            body_text="You hold the Bard.",
            headers={"Message-ID": f"<{status}@inis>", "Reply-To": "inis+token@example.org"},
            status=status,
        )
        _age(Outbox.objects.filter(pk=row.pk), days, "created_at")
        return row

    old_failed, recent_failed = outbox(Outbox.Status.FAILED, 91), outbox(Outbox.Status.FAILED, 89)
    old_reply = InboundEmail.objects.create(
        message_key="<old@mail>", source="test", raw=b"From: ann@example.org\r\n\r\nBard", status="accepted"
    )
    _age(InboundEmail.objects.filter(pk=old_reply.pk), 91, "received_at")

    assert sweep.apply().result["bodies_purged"] == 2

    old_failed.refresh_from_db()
    assert (old_failed.subject, old_failed.body_text, old_failed.status) == ("", "", Outbox.Status.FAILED)
    assert old_failed.headers == {"Message-ID": "<failed@inis>"}
    recent_failed.refresh_from_db()
    assert recent_failed.body_text == "You hold the Bard."
    old_reply.refresh_from_db()
    assert (
        bytes(old_reply.raw) == b"" and old_reply.from_email == "" and old_reply.message_key == "<old@mail>"
    )
    assert old_reply.status == "accepted"
    assert sweep.apply().result["bodies_purged"] == 0


def test_digest_lines_go_with_their_email_and_none_outlives_the_body_days(make_game, settings, monkeypatch):
    """docs/privacy.md: a digest's lines are its body (table talk's words, private ones too, in
    clear): mailed, they go OUTBOX_KEEP_DAYS later, as the digest does; a line still waiting for
    its digest stays for it, but not past EMAIL_BODY_KEEP_DAYS."""
    settings.OUTBOX_KEEP_DAYS, settings.EMAIL_BODY_KEEP_DAYS = 30, 90
    game = make_game(3, seed="digest-lines")
    green, blue, orange = (game.seats.get(colour=c) for c in ("green", "blue", "orange"))
    Player.objects.filter(email__in=[blue.email, orange.email]).update(delivery=Player.Delivery.DIGEST)
    monkeypatch.setattr(digests, "digest_due", lambda player, now=None: True)
    press_send(game=game, seat=green, to="blue", text="Quixotrel, between us.")
    press_send(game=game, seat=green, to="orange", text="Zwarblenix, for orange.")
    assert digests.send_digest(player_for(blue.email).pk) == 1
    send_all()
    assert "Quixotrel" in last_to(blue.email).body

    def sweep_at(days: int) -> None:
        later = timezone.now() + timedelta(days=days)
        retention.prune_outbox(keep_days=settings.OUTBOX_KEEP_DAYS, now=later)
        retention.purge_bodies(keep_days=settings.EMAIL_BODY_KEEP_DAYS, now=later)

    def stored(words: str) -> list[str]:
        lines = NewsItem.objects.filter(text__contains=words)
        emails = Outbox.objects.filter(Q(body_text__contains=words) | Q(body_html__contains=words))
        return [
            *(f"line of {line.seat.colour}" for line in lines),
            *(f"email to {e.to_email}" for e in emails),
        ]

    sweep_at(29)
    assert stored("Quixotrel") == ["line of blue", f"email to {blue.email}"]
    sweep_at(31)
    assert stored("Quixotrel") == [], "blue's digest and its lines are gone together"
    assert stored("Zwarblenix") == ["line of orange"], "orange's digest has not gone yet"
    assert digests.send_digest(player_for(orange.email).pk) == 1
    send_all()
    assert "Zwarblenix" in last_to(orange.email).body, "the line waited for its digest"

    press_send(game=game, seat=green, to="orange", text="Frumious, never mailed.")
    sweep_at(89)
    assert stored("Frumious") == ["line of orange"]
    sweep_at(91)
    assert stored("Frumious") == [], "no line outlives EMAIL_BODY_KEEP_DAYS, mailed or not"
