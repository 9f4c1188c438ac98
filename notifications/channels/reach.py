"""Push first, email after: the rows a decision's prompt is written as, by channel.

For a seat whose player has web push on (WEB_PUSH, and a device: `players.PushSubscription`)
or a private chat target (CHAT_TARGETS, `players.ChatTarget`), a decision is pushed (and
chatted) at once, and its email waits the player's `email_after_push` seconds
(`Outbox.not_before`): answered meanwhile (from the push, the page or a reply), the email is
SKIPPED as stale, like any prompt whose decision moved on. 0 sends the email with the push;
None ("never") writes no email for the decision. Without push, the email alone, at once.

When the player's last device is removed (its push service said it is gone, or the player turned
it off: `email_when_no_device_is_left`) and no chat target is left either, their open decisions
that came by push alone reach them by no channel any more: their emails are written then, and
those waiting for their delay are sent at once (docs/notifications.md, "When a device stops").
For that, the web push row of a "never" decision keeps what its email is written from
(`headers[EMAIL_SPEC]`, the prompt's `render_spec`).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone

from games.play.models import SeatClock
from notifications import outbox
from notifications.models import Outbox
from players.email_addresses import canonical_address
from players.models import ChatTarget, Player, PushSubscription

# The keys of a prompt's outbox item that its push row takes too.
_PUSHED_KEYS = ("kind", "to_email", "seq", "game", "seat", "decision_seq")
# The key of a "never" decision's web push row's headers that holds its email's `render_spec`.
EMAIL_SPEC = "email_render_spec"


def with_pushes(items: list[dict], *, now) -> list[dict]:
    """The outbox items (`notifications.outbox.enqueue_all`'s dicts) `items` with, for each
    PROMPT whose player has a push device (WEB_PUSH) or a chat target (CHAT_TARGETS), a web push
    row and a chat row of the same decision first, and the email held until `now` + the
    player's `email_after_push` (left out when "never": the push row keeps what it is written
    from, `EMAIL_SPEC`). With both off, `items` as they are and no query; else one query when
    there is a prompt."""
    prompts = [item for item in items if item["kind"] == Outbox.Kind.PROMPT and item.get("channel") is None]
    if not ((settings.WEB_PUSH or settings.CHAT_TARGETS) and prompts):
        return items
    reached = _reached({canonical_address(item["to_email"]) for item in prompts})
    expanded: list[dict] = []
    for item in items:
        found = reached.get(canonical_address(item["to_email"])) if item in prompts else None
        if found is None:
            expanded.append(item)
            continue
        channels, delay = found
        decision = {key: item[key] for key in _PUSHED_KEYS if key in item}
        # "Never": the push row keeps what the email is written from, should no device be left.
        spec = item.get("render_spec") if delay is None else None
        for channel in channels:
            kept = spec is not None and channel == Outbox.Channel.WEB_PUSH
            expanded.append(
                {**decision, "channel": channel, **({"headers": {EMAIL_SPEC: spec}} if kept else {})}
            )
        if delay is None:  # never: push and chat only (`email_when_no_device_is_left`)
            continue
        expanded.append({**item, "not_before": now + timedelta(seconds=delay)} if delay > 0 else item)
    return expanded


def _reached(addresses: set[str]) -> dict[str, tuple[list[str], int | None]]:
    """{address: (the channels that reach its player first, their email_after_push)} for the
    players of `addresses` with a push device or a chat target, in one query."""
    found = Player.objects.filter(email__in=addresses).annotate(
        has_push=Exists(PushSubscription.objects.filter(player=OuterRef("pk"))),
        has_chat=Exists(ChatTarget.objects.filter(player=OuterRef("pk"))),
    )
    reached: dict[str, tuple[list[str], int | None]] = {}
    for email, has_push, has_chat, delay in found.values_list(
        "email", "has_push", "has_chat", "email_after_push"
    ):
        channels: list[str] = [Outbox.Channel.WEB_PUSH] if has_push and settings.WEB_PUSH else []
        channels += [Outbox.Channel.CHAT] if has_chat and settings.CHAT_TARGETS else []
        if channels:
            reached[email] = (channels, delay)
    return reached


@receiver(post_delete, sender=PushSubscription, dispatch_uid="notifications.reach.no_device_left")
def email_when_no_device_is_left(sender, instance: PushSubscription, **kwargs) -> None:
    """When `instance`, a device just removed (`players.push_devices.remove_device`, or
    `channels.web_push.send` when its push service says it is gone), was its player's last one
    and they have no chat target: the emails of their open decisions are sent at once, those
    left out for "never" written from their push row (`EMAIL_SPEC`), those waiting for their
    delay released. Without this, a "never" decision whose only device is found gone at its push
    would reach the player by no channel. Two queries when a device or a chat target is left; a
    few more, one per open decision, otherwise.
    In the caller's transaction (autocommit in the push's delivery); the emails are delivered
    after its commit, and skipped as any prompt if their decision is taken by then."""
    player_id = instance.player_id
    if (
        PushSubscription.objects.filter(player_id=player_id).exists()
        or ChatTarget.objects.filter(player_id=player_id).exists()
    ):
        return
    address = Player.objects.filter(pk=player_id).values_list("email", flat=True).first()
    if address is None:  # the player is being erased: their seats are no longer theirs
        return
    open_decisions = SeatClock.objects.filter(
        seat__email=address, seat__is_bot=False, seq__isnull=False, stand_in=False
    ).values_list("seat_id", "seq")
    prompts = [
        row
        for seat_id, seq in open_decisions
        for row in Outbox.objects.filter(seat_id=seat_id, decision_seq=seq, kind=Outbox.Kind.PROMPT)
        .select_related("game", "seat")
        .order_by("id")
    ]
    emails = [row for row in prompts if row.channel == Outbox.Channel.EMAIL]
    now = timezone.now()
    waiting = [
        row.pk
        for row in emails
        if row.status == Outbox.Status.PENDING and row.not_before is not None and row.not_before > now
    ]
    emailed = {(row.seat_id, row.decision_seq) for row in emails}
    unwritten = [
        dict(
            kind=Outbox.Kind.PROMPT,
            to_email=row.to_email,
            render_spec=row.headers[EMAIL_SPEC],
            seq=row.seq,
            game=row.game,
            seat=row.seat,
            decision_seq=row.decision_seq,
        )
        for row in prompts
        if row.channel == Outbox.Channel.WEB_PUSH
        and EMAIL_SPEC in (row.headers or {})
        and (row.seat_id, row.decision_seq) not in emailed
    ]
    if not (waiting or unwritten):
        return
    if waiting:
        Outbox.objects.filter(pk__in=waiting).update(not_before=None, queued_at=now)
        outbox.schedule(waiting)
    if unwritten:
        outbox.enqueue_all(unwritten)
