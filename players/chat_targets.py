"""A player's private chat target (`ChatTarget`), set and removed by the player signed in: it
gets the player's decisions in every game with links that play for them, so only the account of
the player's address sets it (the trust rule of push devices, `players.push_devices`).

The URL is one apprise understands (a chat service it has a plugin for), and it may not point at
this site, nor at a loopback or private address: the server posts to it.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import apprise
from django.conf import settings
from django.utils.translation import gettext as _

from players.models import ChatTarget, Player


class TargetError(ValueError):
    """A chat target that cannot be kept; its message says what was wrong, for the player."""


def check_url(url: str) -> str:
    """`url` stripped, if apprise can send to it and it points elsewhere than this site or a
    local address. Raises TargetError."""
    url = (url or "").strip()
    if not url or len(url) > 1000:
        raise TargetError(
            _("Give the address of your chat, as apprise writes it (e.g. ntfy://ntfy.sh/your-topic).")
        )
    plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
    if plugin is None:
        raise TargetError(
            _("This is no chat address apprise knows (e.g. ntfy://ntfy.sh/your-topic, tgram://token/chat).")
        )
    host = str(getattr(plugin, "host", "") or "").lower().strip("[]")
    if host:
        own = {h.lower().lstrip(".") for h in (settings.ALLOWED_HOSTS or []) if h}
        own.add(urlsplit(settings.SITE_URL).hostname or "")
        if host in own:
            raise TargetError(_("A chat address cannot point at this site."))
        try:
            local = not ipaddress.ip_address(host).is_global
        except ValueError:
            local = host == "localhost" or host.endswith(".localhost")
        if local:
            raise TargetError(_("A chat address cannot be a local one."))
    return url


def set_target(player: Player, url: str) -> ChatTarget:
    """Make `url` (checked: `check_url`) the player's chat target, in place of any other.
    Raises TargetError."""
    checked = check_url(url)
    target, _created = ChatTarget.objects.update_or_create(player=player, defaults={"url": checked})
    return target


def remove_target(player: Player) -> bool:
    """Remove the player's chat target; True when there was one."""
    removed, _by_model = ChatTarget.objects.filter(player=player).delete()
    return removed > 0
