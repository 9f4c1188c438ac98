"""A real mail server for the tests: a Postfix instance of the test's own on loopback, set up with
the lines docs/operations.md gives an operator ("Inbound mail"), for tests/faults/test_real_mail_server.py.

- `PrivatePostfix(directory, wrapper=...)`: Postfix on 127.0.0.1:<free port> with its own
  configuration, queue and log under `directory` (the machine's own Postfix, if any, is left
  alone). main.cf is the guide's lines plus what a test instance needs (its own directories,
  loopback only, retries of a deferred message within seconds instead of minutes); the transport
  map is the guide's (the service's domain to the `inis` pipe, run as `nobody` instead of `inis`)
  plus the players' domain, `players.test`, to a pipe that keeps each message it receives as a
  file (`captured()`): the players' mailboxes.
- `venv_for_nobody(directory)`: a virtual environment that user can run, with this test run's
  packages (the test's own interpreter may sit where only root reads, e.g. under /root).

Needs root (Postfix's master runs as root; `.ci/run` installs Postfix, as it installs Chromium).
"""

from __future__ import annotations

import email
import email.policy
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.faults.processes import children, free_port, wait_until
from tests.operations_guide import block_after

PLAYERS_DOMAIN = "players.test"
PIPE_USER = "nobody"

# The services of a Postfix instance (Debian's master.cf), none chrooted, the SMTP server on
# loopback at {port}.
MASTER_SERVICES = """\
127.0.0.1:{port} inet n - n - - smtpd
pickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
capture unix - n n - - pipe user={user} argv={capture}
"""

# What a test instance needs besides the guide's lines: its own places, loopback only, and a
# deferred message tried again within seconds.
TEST_MAIN_CF = """\
compatibility_level = 3.6
queue_directory = {dir}/queue
data_directory = {dir}/data
maillog_file = {dir}/maillog
maillog_file_prefixes = {dir}
mail_owner = postfix
setgid_group = postdrop
myhostname = mta.inis-test.internal
mydomain = inis-test.internal
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
local_transport = error:no local mailboxes here
minimal_backoff_time = 2s
maximal_backoff_time = 4s
queue_run_delay = 2s
"""


def venv_for_nobody(directory: Path) -> Path:
    """A virtual environment in `directory` of the system's Python of this run's version, which
    reads this run's packages (a .pth file); returns it. Fails when the pipe's user cannot run
    it (this run's packages where only root reads)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    system_python = shutil.which(version, path="/usr/bin:/usr/local/bin")
    assert system_python, f"the mail server test needs /usr/bin/{version} (the pipe's user runs it)"
    subprocess.run([system_python, "-m", "venv", "--without-pip", str(directory)], check=True)
    site = directory / "lib" / version / "site-packages"
    ours = Path(sys.executable).parent.parent / "lib" / version / "site-packages"
    (site / "inis-test-packages.pth").write_text(f"{ours}\n")
    check = subprocess.run(
        ["su", "-s", "/bin/sh", PIPE_USER, "-c", f"{directory}/bin/python -c 'import django, psycopg'"],
        capture_output=True,
    )
    assert check.returncode == 0, (
        f"user {PIPE_USER} cannot run this test run's packages ({ours}): {check.stderr.decode()[-500:]}"
    )
    return directory


class PrivatePostfix:
    """Postfix on 127.0.0.1:`port` with everything under `directory`; `wrapper` is the guide's
    /srv/inis/receive-email for this run."""

    def __init__(self, directory: Path, *, wrapper: Path):
        self.dir = directory
        self.port = free_port()
        self.conf = directory / "conf"
        self.mailboxes = directory / "mailboxes"
        for sub in (self.conf, directory / "queue", directory / "data", self.mailboxes):
            sub.mkdir(parents=True, exist_ok=True)
        shutil.chown(directory / "data", user="postfix")
        self.mailboxes.chmod(0o777)  # the capture pipe runs as PIPE_USER
        capture = directory / "capture"
        capture.write_text(f'#!/bin/sh\ncat > "{self.mailboxes}/$(date +%s%N)-$$.eml"\n')
        capture.chmod(0o755)

        guide_main = block_after("Add to `/etc/postfix/main.cf`", "")
        (self.conf / "main.cf").write_text(
            TEST_MAIN_CF.format(dir=directory)
            + guide_main.replace("hash:/etc/postfix/transport", f"hash:{self.conf}/transport")
        )
        (self.conf / "transport").write_text(
            block_after("to `/etc/postfix/transport`", "") + f"{PLAYERS_DOMAIN}    capture:\n"
        )
        guide_master = block_after("and to `/etc/postfix/master.cf`", "")
        assert "user=inis argv=/srv/inis/receive-email ${recipient}" in guide_master
        (self.conf / "master.cf").write_text(
            MASTER_SERVICES.format(port=self.port, user=PIPE_USER, capture=capture)
            + guide_master.replace("user=inis", f"user={PIPE_USER}").replace(
                "/srv/inis/receive-email", str(wrapper)
            )
        )
        # -c: this run's own configuration; a machine whose Postfix was installed with "No
        # configuration" has no /etc/postfix/main.cf for postmap to read.
        subprocess.run(["postmap", "-c", str(self.conf), str(self.conf / "transport")], check=True)

    def postfix(self, action: str) -> None:
        done = subprocess.run(["postfix", "-c", str(self.conf), action], capture_output=True, timeout=60)
        assert done.returncode == 0, f"postfix {action}: {done.stderr.decode()[-2000:]}"

    def start(self) -> None:
        self.postfix("start")
        wait_until(self.answers, timeout=30, what="Postfix to answer on its port", interval=0.2)

    def pause(self, paused: bool = True) -> None:
        """Stop (SIGSTOP) or continue (SIGCONT) Postfix's processes: while they are stopped, a
        client connects (the kernel takes the connection) and then waits for the greeting,
        in the middle of its delivery."""
        master = int((self.dir / "queue" / "pid" / "master.pid").read_text().strip())
        for pid in [master, *(child for child, _args in children(master))]:
            os.kill(pid, signal.SIGSTOP if paused else signal.SIGCONT)

    def stop(self) -> None:
        if self.running():
            self.pause(False)  # a stopped master could not be told to stop
            self.postfix("stop")
            wait_until(lambda: not self.running(), timeout=30, what="Postfix to stop", interval=0.2)

    def running(self) -> bool:
        pid_file = self.dir / "queue" / "pid" / "master.pid"
        try:
            os.kill(int(pid_file.read_text().strip()), 0)
            return True
        except (FileNotFoundError, ValueError, ProcessLookupError):
            return False

    def answers(self) -> bool:
        import socket

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                return s.recv(3) == b"220"
        except OSError:
            return False

    def log(self) -> str:
        try:
            return (self.dir / "maillog").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def captured(self) -> list[email.message.EmailMessage]:
        """The messages delivered to the players' mailboxes so far, oldest first, each parsed
        under `email.policy.strict` (a message that does not parse fails the test)."""
        messages = []
        for path in sorted(self.mailboxes.glob("*.eml")):
            raw = path.read_bytes()
            messages.append(email.message_from_bytes(raw, policy=email.policy.strict))
        return messages

    def mail_to(self, address: str) -> list[email.message.EmailMessage]:
        return [m for m in self.captured() if address in str(m["To"])]


def settle(seconds: float) -> None:
    """Give the processes `seconds` to do what they would do (for checks that nothing more
    happens, e.g. no second copy)."""
    time.sleep(seconds)
