"""Push first, email after: the rows a decision's prompt is written as, by channel.

For a seat whose player has web push on (WEB_PUSH, and a device: `players.PushSubscription`)
or a private chat target (CHAT_TARGETS, `players.ChatTarget`), a decision is pushed (and
chatted) at once, and its email waits the player's `email_after_push` seconds
(`Outbox.not_before`): answered meanwhile (from the push, the page or a reply), the email is
SKIPPED as stale, like any prompt whose decision moved on. 0 sends the email with the push;
None ("never") writes no email for the decision. Without push, the email alone, at once.

When the player's last way of being reached first is removed (a device its push service said is
gone, turned off, or removed as its browser signed out; or their chat address removed:
`email_when_no_device_is_left`), their open decisions that came by push or chat alone reach them
by no channel any more: their emails are written then, and those waiting for their delay are
sent at once (docs/notifications.md, "When a device stops"). A device counts as left only with
WEB_PUSH on, a chat target only with CHAT_TARGETS on: what is off reaches nobody. For that, every
push and chat row of a "never" decision keeps what its email is written from
(`headers[EMAIL_SPEC]`, the prompt's `render_spec`): a chat-only player has no push row.
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
    player's `email_after_push` (left out when "never": each push and chat row keeps what it is
    written from, `EMAIL_SPEC`). With both off, `items` as they are and no query; else one query
    when there is a prompt."""
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
        # "Never": each channel's row keeps what the email is written from, should neither a
        # device nor the chat address be left (a chat-only player has no push row to keep it).
        spec = item.get("render_spec") if delay is None else None
        kept = {"headers": {EMAIL_SPEC: spec}} if spec is not None else {}
        for channel in channels:
            expanded.append({**decision, "channel": channel, **kept})
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


def _anything_left(player_id: int) -> bool:
    """Whether the player `player_id` is still reached first by something that is on: a push
    device with WEB_PUSH on, or a chat target with CHAT_TARGETS on (a channel turned off sends
    nothing, whatever rows are left). At most two queries, none with both off."""
    return bool(
        (settings.WEB_PUSH and PushSubscription.objects.filter(player_id=player_id).exists())
        or (settings.CHAT_TARGETS and ChatTarget.objects.filter(player_id=player_id).exists())
    )


@receiver(post_delete, sender=PushSubscription, dispatch_uid="notifications.reach.no_device_left")
@receiver(post_delete, sender=ChatTarget, dispatch_uid="notifications.reach.no_chat_left")
def email_when_no_device_is_left(sender, instance: PushSubscription | ChatTarget, **kwargs) -> None:
    """When `instance`, a device or a chat target just removed (`players.push_devices.
    remove_device`, `remove_sessions_devices` at a sign-out, `channels.web_push.send` when its push
    service says a device is gone, `players.chat_targets.remove_target`), leaves its player nothing
    that reaches them first (`_anything_left`): the emails of their open decisions are sent at once,
    those left out for "never" written from their push or chat row (`EMAIL_SPEC`; one email a
    decision), those waiting for their delay released. Without this, a "never" decision whose only
    device is found gone at its push, or whose player removes their chat address, would reach the
    player by no channel. Two queries when something is left; a few more, one per open decision,
    otherwise.
    In the caller's transaction (autocommit in the push's delivery); the emails are delivered
    after its commit, and skipped as any prompt if their decision is taken by then."""
    player_id = instance.player_id
    if _anything_left(player_id):
        return
    address = Player.objects.filter(pk=player_id).values_list("email", flat=True).first()
    if address is None:  # the player is being erased: their seats are no longer theirs
        return
    prompts = _open_prompts(address)
    emails = [row for row in prompts if row.channel == Outbox.Channel.EMAIL]
    now = timezone.now()
    waiting = [
        row.pk
        for row in emails
        if row.status == Outbox.Status.PENDING and row.not_before is not None and row.not_before > now
    ]
    unwritten = _emails_left_out(prompts, emailed={(row.seat_id, row.decision_seq) for row in emails})
    if not (waiting or unwritten):
        return
    if waiting:
        Outbox.objects.filter(pk__in=waiting).update(not_before=None, queued_at=now)
        outbox.schedule(waiting)
    if unwritten:
        outbox.enqueue_all(unwritten)


def _open_prompts(address: str) -> list[Outbox]:
    """Every prompt row (email, push, chat) of the open decisions of the player of `address`
    (their seats' clocks running, not played by the stand-in), oldest first, with game and seat."""
    open_decisions = SeatClock.objects.filter(
        seat__email=address, seat__is_bot=False, seq__isnull=False, stand_in=False
    ).values_list("seat_id", "seq")
    return [
        row
        for seat_id, seq in open_decisions
        for row in Outbox.objects.filter(seat_id=seat_id, decision_seq=seq, kind=Outbox.Kind.PROMPT)
        .select_related("game", "seat")
        .order_by("id")
    ]


def _emails_left_out(prompts: list[Outbox], *, emailed: set[tuple[int | None, int | None]]) -> list[dict]:
    """The email rows (`outbox.enqueue_all` items) to write for the decisions among `prompts`
    that a push or chat row kept an email for ("never": `EMAIL_SPEC`) and that have none yet
    (`emailed`: (seat id, decision seq) of those with an email row): one a decision."""
    unwritten = []
    for row in prompts:
        decision = (row.seat_id, row.decision_seq)
        if (
            row.channel == Outbox.Channel.EMAIL
            or EMAIL_SPEC not in (row.headers or {})
            or decision in emailed
        ):
            continue
        emailed.add(decision)  # its push row and its chat row both keep it: one email
        unwritten.append(
            dict(
                kind=Outbox.Kind.PROMPT,
                to_email=row.to_email,
                render_spec=row.headers[EMAIL_SPEC],
                seq=row.seq,
                game=row.game,
                seat=row.seat,
                decision_seq=row.decision_seq,
            )
        )
    return unwritten
