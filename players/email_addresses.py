"""Email addresses: the form an address is kept in, and the mailbox it reaches.

Two spellings can reach one mailbox. Mail goes out through Django, which writes the domain in
ASCII with Python's IDNA codec: that maps compatibility characters and case, so "exaｍple.org"
(a full-width m), "EXAMPLE.org" and "example。org" (an ideographic full stop) are all delivered
to example.org. Most providers also ignore a `+tag` in the local part ("ana+inis@..." reaches
ana@...). So:

- `canonical_address` is the form an address is *kept* in (accounts, seats, players): the one
  mailbox those mappings reach, in readable Unicode (UTS #46 mapping of the domain, by the `idna`
  package). Mail is sent to it; only what delivery maps anyway is folded, so it reaches the
  mailbox the address typed reaches. A `+tag` is kept: it is where the player wants the mail.
- `mailbox_key` is what per-mailbox limits *count* by: NFKC over the whole address, lower
  case, the `+tag` dropped and the domain in ASCII (IDNA). Folding more than a provider does
  only makes a limit count more, never less.

Neither raises: an address that is no address comes back trimmed and lower-cased (validation is
the caller's: `players.accounts.normalise_email`).
"""

from __future__ import annotations

import contextlib
import re
import unicodedata

import idna


def _split(address: str) -> tuple[str, str]:
    """(local part, domain) of `address` at its last "@"; ("", address) when it has none."""
    local, at, domain = address.rpartition("@")
    return (local, domain) if at else ("", address)


# A local part that needs no quotes: atoms (no space, no specials) joined by single dots.
_DOT_ATOM = re.compile(r'[^\s"(),:;<>@\[\]\\.]+(?:\.[^\s"(),:;<>@\[\]\\.]+)*')


def _unquoted(local: str) -> str:
    """`local` without the quotes that change nothing: '"ana"' and '"ana+x"' are the mailboxes
    ana and ana+x (RFC 5322: a quoted string is the same local part as its content), so that
    a quoted spelling is neither a second account nor a fresh quota (docs/security.md). A quoted
    part its quotes are needed for ('"ana smith"') is kept as written."""
    if len(local) < 2 or not (local.startswith('"') and local.endswith('"')):
        return local
    content = re.sub(r"\\(.)", r"\1", local[1:-1])
    return content if _DOT_ATOM.fullmatch(content) else local


def _mapped_domain(domain: str) -> str:
    """`domain` mapped as UTS #46 maps it (compatibility forms, case, the other full stops), in
    Unicode; `domain` lower-cased when it is no domain name (an address literal "[...]", a "_")."""
    try:
        return idna.uts46_remap(domain, std3_rules=False).rstrip(".")
    except idna.IDNAError:
        return domain.lower()


def canonical_address(email: str) -> str:
    """The form `email` is kept in: trimmed, lower case, its domain mapped by UTS #46 (so
    "Ana@Exaｍple.org" → "ana@example.org"), quotes that change nothing dropped ('"ana"@…' is
    ana@…, `_unquoted`); the local part's `+tag` kept. Never raises."""
    address = (email or "").strip()
    local, domain = _split(address)
    if not local:
        return address.lower()
    return f"{_unquoted(local).lower()}@{_mapped_domain(domain)}"


def mailbox_key(email: str) -> str:
    """The mailbox `email` reaches, for counting: NFKC-normalised, lower case, the local part's
    `+tag` dropped (also inside quotes that change nothing: '"ana+x"@…'), the domain in ASCII
    by IDNA ("Ana+x@Exaｍple.org" → "ana@example.org", "bo@café.fr" → "bo@xn--caf-dma.fr").
    Never raises."""
    address = unicodedata.normalize("NFKC", (email or "").strip()).lower()
    local, domain = _split(address)
    if not local:
        return address
    local = _unquoted(local)  # '"ana+1"@…' reaches ana+1@…, so ana@…
    if not local.startswith('"'):  # a quoted local part is one name, "+" included
        local = local.split("+", 1)[0]
    domain = _mapped_domain(domain)
    # No domain name (an address literal): counted as written.
    with contextlib.suppress(idna.IDNAError):
        domain = idna.encode(domain, uts46=True).decode("ascii")
    return f"{local}@{domain}"
