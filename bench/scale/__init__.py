"""The scale run (issue "An outbox relay, a cheaper command, and a service that scales past one
box"): two service "nodes" on this machine, each its own gunicorn and Celery worker processes,
against one PostgreSQL and one Redis, serving thousands of games in progress while simulated
players reply by email (the inbound webhook and `manage.py receive_email`) and view their pages
and live heads (Locust). Run with `python -m bench.scale` (bench/README.md, "Scale"); the figures
and what they mean for a deployment are in docs/scaling.md.
"""
