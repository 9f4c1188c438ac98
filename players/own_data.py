"""The players room's part of a person's data (docs/privacy.md), besides their preferences
(`Player`, which `players.erasure` deletes and `players.archive` writes): their push devices,
their chat target and the blocks they made.

Registered as a personal data holder (`players.personal_data`) in `PlayersConfig.ready()`. The
archive gives only the person's own rows: their devices and chat target as they set them, and
the players they blocked (the address of each one's profile page, never a name); never who
blocked them (nobody is told that, docs/security.md). Erasing them deletes their blocks both
ways (`players.blocks.erase_blocks`); their devices and chat target go with their `Player`.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from players.blocks import erase_blocks
from players.models import Block, ChatTarget, PushSubscription
from players.personal_data import Person


def erase_own_data(person: Person) -> None:
    """Delete the blocks `person` made and those made against them (the caller's transaction)."""
    erase_blocks(person.user_id)


def collect_own_data(person: Person) -> dict[str, object]:
    """`person`'s part of their archive: "push_devices.json" (each device that gets their
    pushes: its name, the push service's address, when it was added), "chat_target.json" (the
    chat address they set and when, or null) and "blocks.json" (each player they blocked: the
    address of their profile page, since when)."""
    devices = PushSubscription.objects.filter(player__email=person.email).order_by("created_at", "id")
    target = ChatTarget.objects.filter(player__email=person.email).first()
    blocks = Block.objects.filter(blocker_id=person.user_id).order_by("created_at", "id")
    return {
        "push_devices.json": [
            {"device": device.device, "endpoint": device.endpoint, "added_at": device.created_at.isoformat()}
            for device in devices
        ],
        "chat_target.json": (
            {"url": target.url, "set_at": target.created_at.isoformat()} if target is not None else None
        ),
        "blocks.json": [
            {
                "player_page": settings.SITE_URL + reverse("community:profile", args=[block.blocked_id]),
                "since": block.created_at.isoformat(),
            }
            for block in blocks
        ],
    }
