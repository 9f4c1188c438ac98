"""Old mail is forgotten by the sweep: sent emails after OUTBOX_KEEP_DAYS, the message of a
processed inbound email after INBOUND_KEEP_DAYS; what is still to send or to process, failed mail,
and the record that a message was received (so that a second delivery plays nothing) stay."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from inis_pbem.tasks import sweep
from notifications.models import InboundEmail, Outbox


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
        for i in range(6)
    ]
    old_sent, old_skipped, old_failed, old_pending, *recent = rows
    Outbox.objects.filter(pk__in=[old_sent.pk, *(r.pk for r in recent)]).update(
        status=Outbox.Status.SENT, sent_at=timezone.now()
    )
    Outbox.objects.filter(pk=old_skipped.pk).update(status=Outbox.Status.SKIPPED)
    Outbox.objects.filter(pk=old_failed.pk).update(status=Outbox.Status.FAILED)
    _age(Outbox.objects.all(), 31, "created_at")
    _age(Outbox.objects.filter(pk=old_sent.pk), 31, "sent_at")
    _age(Outbox.objects.filter(pk__in=[r.pk for r in recent]), 29, "sent_at")

    counts = sweep.apply().result

    assert counts["pruned"] == 2
    left = set(Outbox.objects.values_list("pk", flat=True))
    assert old_sent.pk not in left and old_skipped.pk not in left
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
