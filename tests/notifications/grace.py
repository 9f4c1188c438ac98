"""Time passing beyond ACCEPTANCE_GRACE, for tests that read the acceptance of a reply."""

from __future__ import annotations

from notifications import acceptances, tasks


def after_the_grace() -> None:
    """The sweep's step once ACCEPTANCE_GRACE has passed: the acceptances no prompt carried are
    released (to players who take them), then every pending row is delivered (in tests the
    on-commit enqueue does not fire)."""
    acceptances.release_due(grace_seconds=-1)
    tasks.deliver_pending.apply(kwargs={"older_than_seconds": -1})
