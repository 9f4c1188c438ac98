"""The signed-in user read with another query: a page that reads a row anyway (the game page's
one query, `web.live.game_for_page`) reads the session's user in it, instead of the query of its
own that Django's authentication makes when `request.user` is first used.

`session_user_id` gives the id the session names (no query beyond the session's own read);
`adopt` makes the row read by that id `request.user`, only where Django itself would have given
that user: the session names an authentication backend of `AUTHENTICATION_BACKENDS` that reads
users by primary key (Django's `ModelBackend` and its subclasses, django-sesame's included, whose
SESAME_PRIMARY_KEY_FIELD is left at the primary key), the
user may sign in (`user_can_authenticate`: active), and the session's hash of the user's password
matches the current secret's (`django.contrib.auth.get_user`). In every other case nothing is
adopted and `request.user` is read as Django reads it (a hash made with a fallback secret is
renewed, a session that no longer matches is flushed, the visitor is anonymous).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare


def session_user_id(request: HttpRequest) -> int | None:
    """The primary key of the user `request`'s session says is signed in, or None (no session,
    nobody signed in, a value that is no key). Reads the session (its one read), not the user."""
    session = getattr(request, "session", None)
    if session is None:
        return None
    raw = session.get(SESSION_KEY)
    if raw is None:
        return None
    try:
        return get_user_model()._meta.pk.to_python(raw)
    except Exception:  # noqa: BLE001  # a malformed session value: left to Django to refuse
        return None


def adopt(request: HttpRequest, user_id: int, user) -> bool:
    """Make `user` (the row of primary key `user_id`, read with another query; None when there is
    none) `request.user` when Django's `get_user` would give that same user for this session;
    returns whether it did. When it does not, `request.user` is left as Django reads it."""
    session = request.session
    if user is None or user.pk != user_id or session_user_id(request) != user_id:
        return False
    backend_path = session.get(BACKEND_SESSION_KEY)
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    backend = load_backend(backend_path)
    if not isinstance(backend, ModelBackend) or not backend.user_can_authenticate(user):
        return False
    session_hash = session.get(HASH_SESSION_KEY)
    if not session_hash or not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return False
    request.user = user
    return True
