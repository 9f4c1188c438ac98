"""The web's access log holds no token (docs/security.md, "Secrets in logs"; docs/operations.md,
the web unit's `--logger-class`): gunicorn's own line, the secrets of an address masked."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from inis_pbem.access_log import TokenlessAccessLog, without_secrets


@pytest.mark.parametrize(
    "address, logged",
    [
        ("/?sesame=AAAAsecretTOKEN", "/?[hidden]"),
        ("/games/1/seat/5.abc.SEATSECRET/", "/games/1/seat/[hidden]/"),
        ("/games/1/seat/5.abc.SEATSECRET/history/?page=2", "/games/1/seat/[hidden]/history/?[hidden]"),
        ("/invitation/tok3n/", "/invitation/[hidden]/"),
        ("/email/my-data/tok3n/", "/email/my-data/[hidden]/"),
        ("/email/erase/tok3n/", "/email/erase/[hidden]/"),
        ("/watch/unsubscribe/tok3n/", "/watch/unsubscribe/[hidden]/"),
        ("https://inis.example.org/games/2/seat/S3CRET/", "https://inis.example.org/games/2/seat/[hidden]/"),
        ("/games/3/history/", "/games/3/history/"),
    ],
)
def test_an_address_is_logged_without_its_secrets(address, logged):
    assert without_secrets(address) == logged


def test_the_access_line_holds_no_token():
    """gunicorn's default access format (`%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s"
    "%(a)s"`), as the unit's `--access-logfile -` writes it."""
    logger = TokenlessAccessLog(Config())
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/games/1/seat/5.abc.SEATSECRET/?sesame=AAAAsecretTOKEN",
        "PATH_INFO": "/games/1/seat/5.abc.SEATSECRET/",
        "QUERY_STRING": "sesame=AAAAsecretTOKEN",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": "https://inis.example.org/?sesame=OTHERTOKEN",
    }
    response = SimpleNamespace(status="200 OK", headers=[], sent=10)
    request = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    atoms = logger.atoms(response, request, environ, datetime.timedelta(seconds=0.1))
    line = Config().access_log_format % atoms
    assert "SECRET" not in line and "TOKEN" not in line
    assert '"GET /games/1/seat/[hidden]/?[hidden] HTTP/1.1" 200 10' in line
