"""The web room's Celery task: the game page's live parts rendered after each commit
(`web.prerender`), in the worker."""

from __future__ import annotations

from celery import current_app, shared_task
from django.db import transaction

from web import prerender


@shared_task(name="web.tasks.render_live_parts", ignore_result=True)
def render_live_parts(game_id: int) -> int:
    """`prerender.render_live_parts(game_id)`: the live parts of the game's player seats; returns
    how many were built."""
    return prerender.render_live_parts(game_id)


def render_after_commit(game, state, *, play_bots: bool) -> None:
    """After an append (registered with `games.play.commands.register_after_append` in
    WebConfig.ready()): enqueue `render_live_parts` once the transaction commits (robust: a broker
    that is down must not fail a command; the pages then build their live part themselves).
    Only with a worker: without one (tasks run at once, in development and tests) nothing is
    rendered ahead, since the command would wait for it."""
    if current_app.conf.task_always_eager:
        return
    transaction.on_commit(lambda: render_live_parts.delay(game.pk), robust=True)
