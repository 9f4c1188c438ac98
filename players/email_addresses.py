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
import unicodedata

import idna


def _split(address: str) -> tuple[str, str]:
    """(local part, domain) of `address` at its last "@"; ("", address) when it has none."""
    local, at, domain = address.rpartition("@")
    return (local, domain) if at else ("", address)


def _mapped_domain(domain: str) -> str:
    """`domain` mapped as UTS #46 maps it (compatibility forms, case, the other full stops), in
    Unicode; `domain` lower-cased when it is no domain name (an address literal "[...]", a "_")."""
    try:
        return idna.uts46_remap(domain, std3_rules=False).rstrip(".")
    except idna.IDNAError:
        return domain.lower()


def canonical_address(email: str) -> str:
    """The form `email` is kept in: trimmed, lower case, its domain mapped by UTS #46 (so
    "Ana@Exaｍple.org" → "ana@example.org"); the local part's `+tag` kept. Never raises."""
    address = (email or "").strip()
    local, domain = _split(address)
    if not local:
        return address.lower()
    return f"{local.lower()}@{_mapped_domain(domain)}"


def mailbox_key(email: str) -> str:
    """The mailbox `email` reaches, for counting: NFKC-normalised, lower case, the local part's
    `+tag` dropped, the domain in ASCII by IDNA ("Ana+x@Exaｍple.org" → "ana@example.org",
    "bo@café.fr" → "bo@xn--caf-dma.fr"). Never raises."""
    address = unicodedata.normalize("NFKC", (email or "").strip()).lower()
    local, domain = _split(address)
    if not local:
        return address
    if not local.startswith('"'):  # a quoted local part is one name, "+" included
        local = local.split("+", 1)[0]
    domain = _mapped_domain(domain)
    # No domain name (an address literal): counted as written.
    with contextlib.suppress(idna.IDNAError):
        domain = idna.encode(domain, uts46=True).decode("ascii")
    return f"{local}@{domain}"
