"""Fixtures shared by the notification tests."""

from __future__ import annotations

import pytest

from tests.notifications.test_chat import ChatSink


@pytest.fixture
def sink(settings):
    """A local HTTP sink standing for a chat service (apprise's `json://` targets post to it),
    with chat targets on and a 2-second time-out; shut down after the test."""
    settings.CHAT_TARGETS = True
    settings.CHAT_TIMEOUT = 2
    chat = ChatSink()
    yield chat
    chat.server.shutdown()
    chat.server.server_close()
