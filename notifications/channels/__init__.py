"""The ways the outbox reaches people (docs/architecture.md, "A new channel"): one module each
(`email`, `web_push`, `chat`), and the registry of their senders (`registry`), which the
delivery (`notifications.outbox.deliver`) hands every written row to."""
