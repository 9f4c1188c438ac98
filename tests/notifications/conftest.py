"""Fixtures shared by the notification tests."""

from __future__ import annotations

import socket

import pytest

from tests.notifications.test_chat import ChatSink


@pytest.fixture
def sink(settings):
    """A local HTTP sink standing for a chat service (apprise's `ntfy://` targets post to it),
    with chat targets on and a 2-second time-out; shut down after the test. It listens on
    127.0.0.1, which only LOOPBACK_TARGETS_FOR_TESTS lets a chat address lead to."""
    settings.CHAT_TARGETS = True
    settings.CHAT_TIMEOUT = 2
    settings.LOOPBACK_TARGETS_FOR_TESTS = True
    chat = ChatSink()
    yield chat
    chat.server.shutdown()
    chat.server.server_close()


@pytest.fixture
def dns(monkeypatch) -> dict[str, str]:
    """Names the test resolves without the network: fill the dict with name -> IP address
    (socket.getaddrinfo answers that address for the name, and as before for any other)."""
    names: dict[str, str] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if isinstance(name, str) and name.lower().rstrip(".") in names:
            return real(names[name.lower().rstrip(".")], port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return names
