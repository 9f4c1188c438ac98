"""A player's private chat target (`ChatTarget`), set and removed by the player signed in: it
gets the player's decisions in every game with links that play for them, so only the account of
the player's address sets it (the trust rule of push devices, `players.push_devices`).

The URL is one of the chat services docs/notifications.md names, as apprise writes it (ntfy,
Telegram, Matrix, Discord: `CHAT_SCHEMES`), and the server it leads to is not this site nor on a
private network: the server posts to it. The same check is made again just before each post
(`plugin_to_send`), since a name may lead elsewhere later; no post follows a redirect.

`destination_refusal` is that address rule, shared with the push devices' endpoints: a host is
taken when it does not name this site and every address it resolves to (numeric forms such as
`2130706433` included: the resolver reads them as 127.0.0.1) is a public one.

A topic on ntfy's public server (ntfy.sh) is read by anybody who subscribes to its name, and
every message carries a seat link that acts for days: an address set from now on must name a
topic nobody can guess there (`guessable_ntfy_topic`); an ntfy server of one's own is not
concerned, and an address kept before is still posted to.
"""

from __future__ import annotations

import enum
import ipaddress
import secrets
import socket
from urllib.parse import urlsplit

import apprise
from apprise.plugins.base import NotifyBase
from apprise.plugins.matrix import MatrixDiscoveryException, NotifyMatrix
from apprise.plugins.ntfy import NotifyNtfy
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from players.erasure import erased_account
from players.models import ChatTarget, Player

# The apprise schemes of the services docs/notifications.md offers: ntfy, Telegram, Matrix and
# Discord (the player's messages name them). Others are refused: some choose their server in a
# parameter (mailto's `smtp=`), some write on this machine (syslog://), some post anything
# anywhere (json://).
CHAT_SCHEMES = frozenset({"ntfy", "ntfys", "tgram", "matrix", "matrixs", "discord"})
# Services whose server is theirs whatever the URL says (api.telegram.org, discord.com): the
# URL's host is a token there, nothing to resolve. ntfy's cloud mode (ntfy.sh) has no host.
FIXED_SERVERS = {"tgram", "discord"}

# No apprise post of this process follows a redirect (a chat server's answer must not lead it to
# an address never checked): apprise's global default, AppriseAsset.http_redirects, which every
# plugin made without an asset of its own reads, the table channel's (`table_news`) included. A
# URL's own `redirect=yes` is refused (`checked_plugin`).
apprise.AppriseAsset.http_redirects = False

# The schemes whose plain form posts over plain HTTP to the server the URL names, and their
# encrypted (HTTPS) form. ntfy's cloud mode (`ntfy://topic`) posts to https://ntfy.sh already.
ENCRYPTED_SCHEMES = {"ntfy": "ntfys", "matrix": "matrixs"}

# ntfy's public server (apprise's cloud mode, `ntfy://topic`, posts there too): its topics are
# read by whoever subscribes to their name. A topic there has at least this many characters,
# letters and digits among them (`guessable_ntfy_topic`).
NTFY_PUBLIC_SERVER = "ntfy.sh"
NTFY_TOPIC_MIN_LENGTH = 16

# NAT64's well-known prefix (RFC 6052): its last 32 bits are the IPv4 address reached.
NAT64 = ipaddress.ip_network("64:ff9b::/96")


class TargetError(ValueError):
    """A chat target that cannot be kept; its message says what was wrong, for the player."""


class Refusal(enum.Enum):
    """Why a host may not be posted to (`destination_refusal`)."""

    SITE = "it names this site"
    PRIVATE = "one of its addresses is not a public one"
    UNKNOWN = "it resolves to no address"


def _is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether `address` is on the public internet: not loopback, private, link-local, shared
    (100.64/10), reserved, multicast nor unspecified, nor an IPv6 form of an IPv4 address
    (IPv4-mapped: refused; 6to4 and NAT64: judged by the IPv4 address they carry)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return False
        if address.sixtofour is not None and not _is_public(address.sixtofour):
            return False
        if address in NAT64:
            return _is_public(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or address.is_loopback
        or address.is_link_local
        or address.is_private
        or address.is_unspecified
    )


def _resolve(host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """Every address `host` resolves to (the system's resolver, as the post's connection
    does: a numeric host in any form it reads is normalised); [] when it resolves to none."""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError):
        return []
    addresses = []
    for _family, _type, _proto, _name, sockaddr in found:
        try:
            addresses.append(ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0]))
        except ValueError:
            continue
    return addresses


def _names_this_site(host: str) -> bool:
    """Whether `host` (lower case, no final dot) is SITE_URL's host or one of ALLOWED_HOSTS
    (".example.org" standing for example.org and its subdomains, as Django reads it)."""
    own = [urlsplit(settings.SITE_URL).hostname or "", *(settings.ALLOWED_HOSTS or [])]
    for name in own:
        name = str(name).lower().strip("[]").rstrip(".")
        if not name or name == "*":
            continue
        if name.startswith("."):
            if host == name[1:] or host.endswith(name):
                return True
        elif host == name:
            return True
    return False


def destination_refusal(host: str) -> Refusal | None:
    """None when the server may post to `host` (a URL's host: a name, or an IP address with or
    without its brackets); else why not. Resolves the name (a DNS look-up). With the tests'
    LOOPBACK_TARGETS_FOR_TESTS on, a host all of whose addresses are loopback ones is taken."""
    host = str(host or "").strip().strip("[]").rstrip(".").lower()
    addresses = _resolve(host) if host else []
    tests_loopback = getattr(settings, "LOOPBACK_TARGETS_FOR_TESTS", False)
    if tests_loopback and addresses and all(address.is_loopback for address in addresses):
        return None
    if _names_this_site(host):
        return Refusal.SITE
    if not addresses:
        return Refusal.UNKNOWN
    if not all(_is_public(address) for address in addresses):
        return Refusal.PRIVATE
    return None


def encrypted(url: str) -> str:
    """`url` (stripped) with its plain scheme made the encrypted one (`ENCRYPTED_SCHEMES`:
    `ntfy://ntfy.sh/topic` posts over plain HTTP, `ntfys://ntfy.sh/topic` over HTTPS): a
    player's messages and the URL's own secrets (a Matrix password, an ntfy token) never cross
    the internet unencrypted. ntfy's cloud mode (`ntfy://topic`) is HTTPS already and stays; so
    does a host all of whose addresses are loopback ones while the tests' LOOPBACK_TARGETS_FOR_TESTS
    is on (their chat services speak plain HTTP)."""
    url = (url or "").strip()
    scheme, sep, rest = url.partition("://")
    secure = ENCRYPTED_SCHEMES.get(scheme.lower())
    if not sep or secure is None:
        return url
    plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
    if plugin is None or getattr(plugin, "mode", None) == "cloud":
        return url
    if getattr(settings, "LOOPBACK_TARGETS_FOR_TESTS", False):
        addresses = _resolve(str(getattr(plugin, "host", "") or "").strip("[]").rstrip(".").lower())
        if addresses and all(address.is_loopback for address in addresses):
            return url
    return f"{secure}://{rest}"


def checked_plugin(url: str) -> NotifyBase:
    """The apprise plugin of `url` made `encrypted` (following no redirect), if it is a chat
    service of CHAT_SCHEMES whose server is neither this site nor on a private network
    (`destination_refusal`, a DNS look-up). Raises TargetError saying why not, for the player."""
    url = encrypted(url)
    if not url or len(url) > 1000:
        raise TargetError(
            _("Give the address of your chat, as apprise writes it (e.g. {example}).").format(
                example=unguessable_topic_example()
            )
        )
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme not in CHAT_SCHEMES:
        raise TargetError(
            _(
                "Give the address of a chat on ntfy, Telegram, Matrix or Discord, as apprise writes "
                "it: it starts with ntfy://, ntfys://, tgram://, matrix://, matrixs:// or discord://."
            )
        )
    plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
    if plugin is None:
        raise TargetError(
            _(
                "This is no chat address apprise knows (e.g. {example}, tgram://123456789:bot-token/chat-id)."
            ).format(example=unguessable_topic_example())
        )
    if plugin.redirects:
        raise TargetError(
            _("This address asks for redirects to be followed (redirect=yes): remove that part.")
        )
    host = "" if scheme in FIXED_SERVERS else str(getattr(plugin, "host", "") or "")
    if host:
        _check_destination(host)
    return plugin


def _check_destination(host: str) -> None:
    """Raise TargetError when the chat server `host` may not be posted to."""
    refusal = destination_refusal(host)
    if refusal is Refusal.SITE:
        raise TargetError(_("This address points at this site: give the address of your chat service."))
    if refusal is Refusal.PRIVATE:
        raise TargetError(
            _(
                "This address points at a private network: give the address of a chat service "
                "on the internet (ntfy, Telegram, Matrix or Discord)."
            )
        )
    if refusal is Refusal.UNKNOWN:
        raise TargetError(_("This address's server cannot be found: check its name."))


def plugin_to_send(url: str) -> NotifyBase:
    """`checked_plugin(url)` checked again just before a post (the name may lead elsewhere
    now), and for a Matrix server that delegates to another (its .well-known discovery), that
    server too. Raises TargetError."""
    plugin = checked_plugin(url)
    if isinstance(plugin, NotifyMatrix) and plugin.discovery and plugin.secure:
        try:
            base = plugin.base_url  # the discovery's GETs (no token, no redirect), cached
        except MatrixDiscoveryException:
            return plugin  # the post fails the same way, and is retried
        delegate = urlsplit(base).hostname or ""
        if delegate and delegate.rstrip(".").lower() != str(plugin.host).rstrip(".").lower():
            _check_destination(delegate)
    return plugin


def check_url(url: str) -> str:
    """`url` stripped and `encrypted`, if it may be kept (`checked_plugin`) and names no topic of
    ntfy's public server that can be guessed (`guessable_ntfy_topic`). Raises TargetError."""
    url = encrypted(url)
    plugin = checked_plugin(url)  # its own `encrypted` finds nothing left to change
    if guessable_ntfy_topic(plugin):
        raise TargetError(
            _(
                "Anybody who guesses the name of a topic on ntfy.sh reads its messages: choose a topic "
                "of at least {length} characters with letters and digits, for example {example}."
            ).format(length=NTFY_TOPIC_MIN_LENGTH, example=unguessable_topic_example())
        )
    return url


def guessable_ntfy_topic(plugin: NotifyBase) -> bool:
    """Whether `plugin` posts to a topic of ntfy's public server (NTFY_PUBLIC_SERVER, or apprise's
    cloud mode) that is short or plain enough to guess: fewer than NTFY_TOPIC_MIN_LENGTH
    characters, or without both letters and digits. An ntfy server of one's own: False."""
    if not isinstance(plugin, NotifyNtfy):
        return False
    server = str(getattr(plugin, "host", "") or "").rstrip(".").lower()
    if getattr(plugin, "mode", None) != "cloud" and server != NTFY_PUBLIC_SERVER:
        return False
    return any(
        len(topic) < NTFY_TOPIC_MIN_LENGTH
        or not any(character.isdigit() for character in topic)
        or not any(character.isalpha() for character in topic)
        for topic in plugin.topics
    )


def unguessable_topic_example() -> str:
    """A fresh address of a random topic on ntfy.sh that `guessable_ntfy_topic` takes: the ntfy
    example every page and message shows a player (one they may take as it is, which nobody
    else was shown)."""
    while True:
        topic = f"inis-{secrets.token_hex(8)}"
        if any(character.isdigit() for character in topic[5:]):
            return f"ntfys://{NTFY_PUBLIC_SERVER}/{topic}"


def set_target(player: Player, url: str) -> ChatTarget:
    """Make `url` (checked: `check_url`) the player's chat target, in place of any other.
    Raises TargetError, nothing kept, for a target refused or a player whose account was erased
    since `player` was read ("This account was erased: nothing was saved.")."""
    checked = check_url(url)
    with transaction.atomic():
        # Under the player's row lock, as an erasure takes it before their chat target: a target
        # of a player erased meanwhile is refused, never kept (nor failed at the commit).
        if not Player.objects.select_for_update().filter(pk=player.pk).exists():
            raise TargetError(erased_account())
        target, _created = ChatTarget.objects.update_or_create(player=player, defaults={"url": checked})
    return target


def remove_target(player: Player) -> bool:
    """Remove the player's chat target; True when there was one. Its deletion is heard in the
    notifications room (`notifications.channels.reach.email_when_no_device_is_left`, a
    post_delete receiver, in the caller's transaction): when nothing else reaches the player
    first, their open decisions come by email, "never" ones too."""
    removed, _by_model = ChatTarget.objects.filter(player=player).delete()
    return removed > 0
