"""gunicorn's access log without the secrets some addresses carry (docs/security.md, "Secrets in
logs").

A sign-in link's `?sesame=` token signs its reader in to the whole account for days; a seat's
link, an invitation, an unsubscribe, "my data" and erasure link carry their token in the path.
gunicorn's access log writes the request line as it came, so anybody who reads the journal
would hold them. `TokenlessAccessLog` is gunicorn's own logger (`--logger-class`, gunicorn's
documented option) with those parts masked in every atom a format may use: the request line
(`%(r)s`), the path (`%(U)s`), the query (`%(q)s`) and the referer (`%(f)s`, `%({referer}i)s`).
The rest (address, status, size, time) is logged as gunicorn logs it.
"""

from __future__ import annotations

import re

from gunicorn.glogging import Logger

# The path segments that are a token: /games/<id>/seat/<token>/, /invitation/<token>/,
# /email/my-data/<token>/, /email/erase/<token>/, /email/unsubscribe/<token>/,
# /watch/unsubscribe/<token>/ (the URL maps of web, lobby, notifications and watching).
SECRET_SEGMENT = re.compile(r"(/(?:seat|invitation|my-data|erase|unsubscribe)/)[^/?#\s]+")
HIDDEN = "[hidden]"


def without_secrets(address: str) -> str:
    """`address` (a path with its query, or a whole URL) with its token segments masked and its
    query, which may hold a sign-in token, replaced by HIDDEN: "/games/3/seat/8.xY/?as=green"
    gives "/games/3/seat/[hidden]/?[hidden]"."""
    path, question, query = (address or "").partition("?")
    path = SECRET_SEGMENT.sub(rf"\g<1>{HIDDEN}", path)
    return f"{path}?{HIDDEN}" if question and query else path + question


class TokenlessAccessLog(Logger):
    """gunicorn's logger (`--logger-class inis_pbem.access_log.TokenlessAccessLog`, as the
    guide's web unit and `scripts/serve-production` run it) whose access lines hold no token."""

    def atoms(self, resp, req, environ, request_time):
        """gunicorn's atoms, the address-bearing ones passed through `without_secrets`."""
        atoms = super().atoms(resp, req, environ, request_time)
        atoms["r"] = " ".join(
            (
                str(environ.get("REQUEST_METHOD", "-")),
                without_secrets(str(environ.get("RAW_URI", ""))),
                str(environ.get("SERVER_PROTOCOL", "-")),
            )
        )
        atoms["U"] = without_secrets(str(environ.get("PATH_INFO") or ""))
        atoms["q"] = HIDDEN if environ.get("QUERY_STRING") else ""
        atoms["f"] = without_secrets(str(atoms.get("f", "-")))
        if "{referer}i" in atoms:
            atoms["{referer}i"] = without_secrets(str(atoms["{referer}i"]))
        return atoms
