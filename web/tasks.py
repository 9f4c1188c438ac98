"""The web room's Celery task: the game page's live parts rendered ahead (`web.prerender`), in the
worker, published by the outbox relay with the game's emails (inis_pbem/relay.py): a command
never talks to the broker."""

from __future__ import annotations

from celery import shared_task

from web import prerender


@shared_task(name="web.tasks.render_live_parts", ignore_result=True)
def render_live_parts(game_id: int) -> int:
    """`prerender.render_live_parts(game_id)`: the live parts of the game's player seats; returns
    how many were built."""
    return prerender.render_live_parts(game_id)
