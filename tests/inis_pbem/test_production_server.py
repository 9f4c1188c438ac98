"""gunicorn, started as production starts it (`gunicorn inis_pbem.wsgi`, DEBUG off), refuses the
settings that `manage.py check` refuses, and serves with safe ones: no sign-in links in a public
mailbox, no webhook acting on anybody's posts.

Each case starts a real gunicorn on 127.0.0.1 (a free port, tests/live_server.py), bounded in
time, and stops it.
"""

from __future__ import annotations

import pytest

from tests.live_server import Gunicorn

pytestmark = pytest.mark.slow  # each case starts gunicorn


@pytest.mark.parametrize(
    "env, error",
    [
        ({"ANYMAIL_WEBHOOK_SECRET": None}, "inis_pbem.E007"),
        ({"EMAIL_BACKEND": None}, "inis_pbem.E004"),
        ({"SECRET_KEY": None}, "inis_pbem.E001"),
        ({"DATABASE_URL": None}, "inis_pbem.E002"),
        ({"REDIS_URL": None}, "inis_pbem.E003"),
        ({"SITE_URL": "http://inis.example.org"}, "inis_pbem.E006"),
        ({"DJANGO_ALLOWED_HOSTS": "*"}, "inis_pbem.E008"),
        ({"SECURE_HSTS_SECONDS": "0"}, "inis_pbem.E009"),
        ({"SECURE_SSL_REDIRECT": "0"}, "inis_pbem.E010"),
    ],
)
def test_gunicorn_refuses_to_start_with_a_refused_setting(tmp_path, env, error):
    with Gunicorn(tmp_path, **env) as server:
        code = server.exit_code(timeout=60)
        assert code is not None and code != 0, f"gunicorn kept serving: {server.output()}"
        assert error in server.output()


def test_gunicorn_serves_with_safe_settings_and_no_development_mailbox(tmp_path):
    with Gunicorn(tmp_path) as server:
        status, body = server.get("/signin/")
        assert status == 200 and "email" in body.lower(), server.output()
        assert server.get("/dev/mailbox/")[0] == 404
        assert server.process.poll() is None
