"""`python -m bench.scale`: the scale run (bench/README.md, "Scale"; docs/scaling.md).

Phases, each bounded in time, all traffic to 127.0.0.1:
1. a database of its own (`inis_bench_scale`, BENCH_SCALE_DATABASE_URL), migrated, filled with
   `--games` 4-player games in progress (each waiting on its first decision), and `--finished`
   games of bots played to their end (the bytes a finished game costs);
2. two nodes: node A is `scripts/serve-production` (gunicorn, a Celery worker and beat), node B
   a gunicorn and a Celery worker of its own; both with their own per-process caches, against one
   PostgreSQL and the run's own Redis queue;
3. `--active` more games are created while the nodes run (their prompts go through the nodes'
   workers), and their simulated players (bench.scale.players) reply at a compressed human pace
   while Locust's viewers (bench/scale/locustfile.py) open seat links, game pages and live heads
   of all the games, for `--seconds`;
4. saturation: the players answer at once for `--saturation` seconds: commands per second;
5. drain: the outbox is left to empty; then the figures: p95 latencies, reply to next prompt,
   commands/s, bytes per finished game, outbox and inbound tables, emails lost or doubled.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from bench.scale import mail_log
from bench.scale.players import PLAYER

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
BIN = Path(PYTHON).parent
DATABASE_URL = os.environ.get(
    "BENCH_SCALE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/inis_bench_scale"
)
REDIS_URL = os.environ.get("BENCH_SCALE_REDIS_URL", "redis://127.0.0.1:6379/9")
QUEUE = "inis-scale"
HOST = "inis.scale.test"  # the name the proxy would pass on (Host); the nodes listen on 127.0.0.1
SECRET = "inbound:scale-" + "q7Lx2Vb9Tn4Wm8Rc" * 2


def base_env(tmp: Path) -> dict:
    """The nodes' settings: production settings (DJANGO_DEBUG=0) on the scale database and the
    run's queue, email recorded to files, the inbound webhook on, loopback only."""
    keep = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            ("DJANGO_", "DATABASE_URL", "REDIS_URL", "EMAIL_", "ANYMAIL_", "SITE_URL", "SECRET_KEY", "CI")
        )
    }
    return {
        **keep,
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "inis_pbem.settings",
        "DJANGO_DEBUG": "0",
        "SECRET_KEY": "scale-" + "Hq3Zt8Lm2Xw7Rn5Cv" * 3,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "CELERY_QUEUE": QUEUE,
        "CELERY_TASK_DEFAULT_QUEUE": QUEUE,
        "EMAIL_BACKEND": "bench.scale.mail_log.RecordingBackend",
        "ANYMAIL_WEBHOOK_SECRET": SECRET,
        "DJANGO_ALLOWED_HOSTS": HOST,
        "SITE_URL": f"https://{HOST}",
        "DEFAULT_FROM_EMAIL": "Inis by email <inis@scale.test>",
        "CLIENT_IP_HEADER": "X-Real-IP",
        "DB_CONN_MAX_AGE": "60",
    }


def run_json(args: list[str], env: dict) -> dict:
    done = subprocess.run([PYTHON, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def psql(sql: str) -> str:
    url = urlparse(DATABASE_URL)
    return subprocess.run(
        [
            "psql",
            "-h",
            url.hostname or "127.0.0.1",
            "-p",
            str(url.port or 5432),
            "-U",
            url.username or "postgres",
            "-d",
            url.path.lstrip("/"),
            "-tAc",
            sql,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def fresh_database(env: dict) -> None:
    url = urlparse(DATABASE_URL)
    name = url.path.lstrip("/")
    assert "bench" in name, "the scale run drops its database: its name must contain 'bench'"
    connect = [
        "-h",
        url.hostname or "127.0.0.1",
        "-p",
        str(url.port or 5432),
        "-U",
        url.username or "postgres",
    ]
    subprocess.run(["dropdb", *connect, "--if-exists", name], check=True)
    subprocess.run(["createdb", *connect, name], check=True)
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, processes: list[subprocess.Popen], timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        for process in processes:
            if process.poll() is not None:
                raise SystemExit(f"a node process stopped at start (status {process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"nothing listens on {port} after {timeout} s")


class Node:
    """One node's processes, in a process group of their own."""

    def __init__(self, name: str, env: dict, tmp: Path, *, with_beat: bool):
        self.name, self.port = name, free_port()
        self.mail = tmp / f"mail-{name}.jsonl"
        self.env = {
            **env,
            "SCALE_MAIL_LOG": str(self.mail),
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": "2",
            "WORKER_CONCURRENCY": "2",
            "BEAT_SCHEDULE": str(tmp / f"beat-{name}"),
            "VENV": str(BIN.parent),
        }
        log = (tmp / f"node-{name}.log").open("w")
        if with_beat:
            commands = [[str(ROOT / "scripts" / "serve-production")]]
        else:
            commands = [
                [
                    str(BIN / "gunicorn"),
                    "inis_pbem.wsgi",
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "--workers",
                    "2",
                    "--timeout",
                    "30",
                    "--no-control-socket",
                ],
                [
                    str(BIN / "celery"),
                    "-A",
                    "inis_pbem",
                    "worker",
                    "-Q",
                    QUEUE,
                    "--concurrency",
                    "2",
                    "--loglevel",
                    "WARNING",
                    "--without-gossip",
                    "--without-mingle",
                ],
            ]
        self.processes = [
            subprocess.Popen(
                c, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
            for c in commands
        ]
        wait_for_port(self.port, self.processes)

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def locust_stats(prefix: Path) -> dict[str, dict]:
    with open(f"{prefix}_stats.csv") as stats:
        return {row["Name"]: row for row in csv.DictReader(stats)}


def reply_to_next_prompt(replies: list[dict], mails: list[dict]) -> list[float]:
    """Seconds from each accepted reply to the next prompt sent to any player of its game."""
    prompts: dict[int, list[float]] = {}
    for mail in mails:
        match = PLAYER.match(mail["to"][0]) if mail["to"] else None
        if match and mail["reply_to"]:
            prompts.setdefault(int(match.group(1)), []).append(mail["at"])
    for times in prompts.values():
        times.sort()
    out = []
    for reply in replies:
        if reply["status"] not in (0, 200):
            continue
        later = [t for t in prompts.get(reply["game"], []) if t > reply["at"]]
        if later:
            out.append(later[0] - reply["at"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in progress before the load")
    parser.add_argument("--active", type=int, default=300, help="games whose players reply during the load")
    parser.add_argument("--finished", type=int, default=4, help="bot games played to the end (bytes a game)")
    parser.add_argument("--viewers", type=int, default=150, help="Locust users viewing pages and heads")
    parser.add_argument("--seconds", type=int, default=300, help="the load at a human pace")
    parser.add_argument("--saturation", type=int, default=60, help="the load with instant replies")
    parser.add_argument("--median-delay", type=float, default=20.0, help="seconds a player takes (median)")
    parser.add_argument("--quick", action="store_true", help="500 games, 50 active, 60 s + 30 s")
    parser.add_argument("--write", help="write the figures (JSON) to this file")
    args = parser.parse_args()
    if args.quick:
        args.games, args.active, args.finished, args.viewers, args.seconds, args.saturation = (
            500,
            50,
            2,
            40,
            60,
            30,
        )
    tmp = Path(tempfile.mkdtemp(prefix="inis-scale-"))
    env = base_env(tmp)
    populate_env = {k: v for k, v in env.items() if k != "REDIS_URL"}
    populate_env["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
    populate_env["DJANGO_DEBUG"] = "1"
    figures: dict = {"games_in_progress": args.games, "active_games": args.active}
    started = time.time()

    print(f"scale: database, {args.games} games", flush=True)
    fresh_database(populate_env)
    half = args.games // 2
    t0 = time.time()
    workers = [
        subprocess.Popen(
            [PYTHON, "-m", "bench.scale.populate", "--first", str(first), "--count", str(count)],
            cwd=ROOT,
            env=populate_env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for first, count in ((0, half), (half, args.games - half))
    ]
    cpu = [json.loads(w.communicate()[0].strip().splitlines()[-1])["cpu_seconds_a_game"] for w in workers]
    figures["populate_seconds"] = round(time.time() - t0, 1)
    figures["cpu_ms_to_create_a_game"] = round(1000 * statistics.mean(cpu), 1)
    size_before = int(psql("SELECT pg_database_size(current_database())"))
    finished = run_json(["-m", "bench.scale.populate", "--finished", str(args.finished)], populate_env)[
        "finished"
    ]
    figures["bytes_a_finished_game"] = round(sum(finished["bytes_by_table"].values()) / finished["games"])
    figures["events_a_finished_game"] = round(finished["events"] / finished["games"])
    figures["bytes_a_finished_game_by_table"] = {
        t: round(b / finished["games"])
        for t, b in sorted(finished["bytes_by_table"].items(), key=lambda x: -x[1])
    }
    figures["bytes_a_game_in_progress"] = round(size_before / args.games)

    print("scale: two nodes", flush=True)
    subprocess.run([PYTHON, "-c", f"import redis; redis.Redis.from_url('{REDIS_URL}').flushdb()"], check=True)
    nodes = [Node("a", env, tmp, with_beat=True), Node("b", env, tmp, with_beat=False)]
    ports = ",".join(str(n.port) for n in nodes)
    logs = ",".join(str(n.mail) for n in nodes)
    player_env = {**env, "SCALE_MAIL_LOG": str(nodes[0].mail)}
    try:
        print(
            f"scale: {args.active} active games, players and {args.viewers} viewers for {args.seconds} s",
            flush=True,
        )
        run_json(
            [
                "-m",
                "bench.scale.populate",
                "--first",
                str(args.games),
                "--count",
                str(args.active),
                "--links",
                str(tmp / "links.json"),
            ],
            player_env,
        )
        replies = tmp / "replies.jsonl"
        until = time.time() + args.seconds
        players = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "bench.scale.players",
                "--logs",
                logs,
                "--ports",
                ports,
                "--until",
                str(until),
                "--median-delay",
                str(args.median_delay),
                "--out",
                str(replies),
            ],
            cwd=ROOT,
            env=player_env,
        )
        viewers = subprocess.run(
            [
                str(BIN / "locust"),
                "-f",
                str(ROOT / "bench" / "scale" / "locustfile.py"),
                "--headless",
                "-u",
                str(args.viewers),
                "-r",
                str(max(1, args.viewers // 20)),
                "--run-time",
                f"{args.seconds}s",
                "--csv",
                str(tmp / "locust"),
                "--only-summary",
                "--stop-timeout",
                "10",
            ],
            cwd=ROOT,
            env={
                **env,
                "SCALE_LINKS": str(tmp / "links.json"),
                "SCALE_NODES": ",".join(f"http://127.0.0.1:{n.port}" for n in nodes),
            },
            capture_output=True,
            text=True,
            timeout=args.seconds + 120,
        )
        players.wait(timeout=180)
        stats = locust_stats(tmp / "locust")
        for name, key in (
            ("game page", "page"),
            ("live head", "head"),
            ("minimal view (/healthz)", "minimal"),
        ):
            row = stats.get(name)
            if row:
                figures[f"p95_ms_{key}"] = float(row["95%"])
                figures[f"p50_ms_{key}"] = float(row["50%"])
                figures[f"requests_{key}"] = int(row["Request Count"])
                figures[f"failures_{key}"] = int(row["Failure Count"])

        print(f"scale: saturation for {args.saturation} s", flush=True)
        commands_before = int(psql("SELECT count(*) FROM games_command"))
        t0 = time.time()
        subprocess.run(
            [
                PYTHON,
                "-m",
                "bench.scale.players",
                "--logs",
                logs,
                "--ports",
                ports,
                "--until",
                str(time.time() + args.saturation),
                "--median-delay",
                "0",
                "--cap",
                "0",
                "--pipe-share",
                "0",
                "--out",
                str(tmp / "saturation.jsonl"),
                "--seed",
                "2",
            ],
            cwd=ROOT,
            env=player_env,
            timeout=args.saturation + 180,
        )
        figures["commands_a_second_at_saturation"] = round(
            (int(psql("SELECT count(*) FROM games_command")) - commands_before) / (time.time() - t0), 1
        )

        print("scale: drain", flush=True)
        end = time.time() + 120
        while time.time() < end and int(
            psql("SELECT count(*) FROM notifications_outbox WHERE status = 'pending'")
        ):
            time.sleep(2)
    finally:
        for node in nodes:
            node.stop()

    mails = []
    for node in nodes:
        mails += mail_log.read(str(node.mail))[0]
    ids = [m["message_id"] for m in mails if m["message_id"]]
    reply_rows = mail_log.read(str(replies))[0]
    latencies = reply_to_next_prompt(reply_rows, mails)
    figures.update(
        {
            "replies": len(reply_rows),
            "replies_refused_by_http": sum(1 for r in reply_rows if r["status"] not in (0, 200)),
            "replies_by_receive_email": sum(1 for r in reply_rows if r["via"] == "receive_email"),
            "p50_s_reply_to_next_prompt": percentile(latencies, 0.5),
            "p95_s_reply_to_next_prompt": percentile(latencies, 0.95),
            "emails_sent": len(mails),
            "emails_doubled": len(ids) - len(set(ids)),
            "emails_by_node": {n.name: len(mail_log.read(str(n.mail))[0]) for n in nodes},
            "outbox_left_pending_or_failed": int(
                psql("SELECT count(*) FROM notifications_outbox WHERE status IN ('pending', 'failed')")
            ),
            "inbound_rows": int(psql("SELECT count(*) FROM notifications_inboundemail")),
            "outbox_rows": int(psql("SELECT count(*) FROM notifications_outbox")),
            "outbox_bytes": int(psql("SELECT pg_total_relation_size('notifications_outbox')")),
            "inbound_bytes": int(psql("SELECT pg_total_relation_size('notifications_inboundemail')")),
            "database_bytes": int(psql("SELECT pg_database_size(current_database())")),
            "seconds": round(time.time() - started),
        }
    )
    if viewers.returncode not in (0, 1):
        figures["locust_error"] = viewers.stderr[-2000:]
    print(json.dumps(figures, indent=2))
    if args.write:
        Path(args.write).write_text(json.dumps(figures, indent=2) + "\n")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
