"""The servers under test: Google's emulator, a command to spawn, or one already running.

Every script in Tools/Wire takes its servers the same way, so that what runs against
Google's emulator today runs against `hearth serve` later unchanged:

- `emulator` — Google's Firestore emulator, started here on a free port and stopped
  by its PID (the default for server A);
- a command with `{port}` in it, e.g. `hearth serve --ephemeral --port {port}`, started
  here on a free port (`--server-command`);
- `host:port` of a server that is already running (`--server-host`), left alone.

A spawned server runs in a session of its own, so that stopping it by its PID (the
process group's ID) also stops what its command started: the emulator's launcher is a
shell script whose child is the Java process.
"""

from __future__ import annotations

import atexit
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time

EMULATOR = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator"
EMULATOR_COMMAND = EMULATOR + " start --host 127.0.0.1 --port {port}"

_running: list["Server"] = []


def free_port() -> int:
    """A port no one listens on now: the kernel's choice for a socket bound to port 0."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def forget_pid(pid: int) -> None:
    """Takes a stopped process's PID off WIRE_PID_FILE, so that the calling shell's trap
    never signals a process group that has since gone (its number may be reused)."""
    path = os.environ.get("WIRE_PID_FILE")
    if not path or not os.path.exists(path):
        return
    with open(path) as f:
        pids = [line.strip() for line in f if line.strip() and line.strip() != str(pid)]
    with open(path, "w") as f:
        f.write("".join(p + "\n" for p in pids))


def _stop_all() -> None:
    for server in list(_running):
        server.stop()


def _on_signal(signum, _frame):
    # SIGTERM and SIGHUP end the script as SIGINT does, so that `finally` blocks and
    # atexit stop the servers that were started here.
    raise SystemExit(128 + signum)


atexit.register(_stop_all)
for _sig in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(_sig, _on_signal)


class _ExitedWhileStarting(Exception):
    """A spawned server ended before it served (see `Server.start`)."""


class Server:
    """One server under test; `host` is its `host:port` once started."""

    def __init__(self, label: str, command: str | None = None, host: str | None = None):
        self.label = label
        self.command = command
        self.host = host
        self.process: subprocess.Popen | None = None
        self.log_path: str | None = None
        self.started_at: float | None = None

    @classmethod
    def from_args(cls, label: str, command: str | None, host: str | None) -> "Server":
        if command and host:
            raise SystemExit(f"server {label}: give a command or a host, not both")
        if host:
            return cls(label, host=host)
        if not command or command == "emulator":
            command = EMULATOR_COMMAND
        if "{port}" not in command:
            raise SystemExit(f"server {label}: the command needs {{port}}: {command}")
        return cls(label, command=command)

    @property
    def spawned(self) -> bool:
        return self.command is not None

    def describe(self) -> str:
        if self.command:
            return f"{self.label}: {self.command}"
        return f"{self.label}: {self.host} (already running)"

    # What Google's emulator prints once every port it opens is bound: besides the one
    # given, it binds three more of its own choosing (WebSocket, WebChannel, ...), after
    # the given one takes connections.
    EMULATOR_READY = "Dev App Server is now running"
    # Starts tried before a failure counts: a port chosen free can be taken before the
    # server binds it (the emulator's own choices too), and the server then exits.
    START_ATTEMPTS = 3

    def start(self, timeout: float = 60.0) -> "Server":
        """Starts the command on a free port and waits until it serves: the port takes
        connections (and, for Google's emulator, it says that all its ports are bound).
        A server that exits while starting is started again on another port, twice."""
        if not self.command:
            return self
        attempt = 1
        while True:
            try:
                return self._start_once(timeout)
            except _ExitedWhileStarting as exited:
                if attempt == self.START_ATTEMPTS:
                    raise RuntimeError(str(exited)) from None
                attempt += 1
                print(f"wire: {exited}\nwire: starting it again ({attempt} of {self.START_ATTEMPTS})",
                      file=sys.stderr, flush=True)

    def _start_once(self, timeout: float) -> "Server":
        port = free_port()
        argv = shlex.split(self.command.replace("{port}", str(port)))
        is_emulator = argv[0] == EMULATOR
        if is_emulator and not os.path.exists(EMULATOR):
            raise SystemExit(
                f"server {self.label}: Google's emulator is not installed ({EMULATOR}; Debian "
                "package google-cloud-cli-firestore-emulator and a Java runtime)"
            )
        log = tempfile.NamedTemporaryFile(
            prefix=f"wire-server-{self.label}-", suffix=".log", delete=False
        )
        self.log_path = log.name
        self.started_at = time.monotonic()
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        _running.append(self)
        pid_file = os.environ.get("WIRE_PID_FILE")
        if pid_file:  # for the calling shell's trap, should this process die unawares
            with open(pid_file, "a") as f:
                f.write(f"{self.process.pid}\n")
        self.host = f"127.0.0.1:{port}"
        deadline = time.monotonic() + timeout
        listening = False
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code, tail = self.process.returncode, self.log_tail()
                self.stop()
                raise _ExitedWhileStarting(f"server {self.label} exited with {code}:\n{tail}")
            if not listening:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        listening = True
                except OSError:
                    time.sleep(0.02)
                    continue
            if not is_emulator or self.EMULATOR_READY in self.log_tail(200):
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"server {self.label} did not listen within {timeout}s")

    def log_tail(self, lines: int = 20) -> str:
        if not self.log_path or not os.path.exists(self.log_path):
            return ""
        with open(self.log_path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def pids(self) -> list[int]:
        """The spawned process and all its descendants (from /proc)."""
        if not self.process:
            return []
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
        found, todo = [], [self.process.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo.extend(children.get(pid, []))
        return found

    def rss_bytes(self) -> int | None:
        """Resident memory of the server's processes, summed (VmRSS from /proc)."""
        total = 0
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/status") as f:
                    for line in f:
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1]) * 1024
            except OSError:
                pass
        return total or None

    def stop(self) -> None:
        """Stops the spawned server by its PID: its process group, TERM then KILL."""
        if self in _running:
            _running.remove(self)
        process, self.process = self.process, None
        if not process:
            return
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()
        else:
            # The launcher is gone, a child of it may not be.
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        forget_pid(process.pid)
        if self.log_path and os.path.exists(self.log_path):
            os.unlink(self.log_path)

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def add_server_args(parser, name: str, default_command: str | None) -> None:
    """`--NAME-command` and `--NAME-host` (`--NAME` alone is a host:port or a command)."""
    parser.add_argument(
        f"--{name}",
        dest=f"{name}_spec",
        metavar="HOST:PORT|COMMAND",
        help=f"server {name.upper()}: `emulator`, a command with {{port}}, or host:port",
    )
    parser.add_argument(f"--{name}-command", help="a command to spawn; {port} is replaced")
    parser.add_argument(f"--{name}-host", help="host:port of a server already running")
    parser.set_defaults(**{f"{name}_default": default_command})


def server_from(args, name: str) -> Server | None:
    spec = getattr(args, f"{name}_spec")
    command = getattr(args, f"{name}_command")
    host = getattr(args, f"{name}_host")
    if spec:
        if spec == "emulator" or "{port}" in spec or " " in spec:
            command = command or spec
        else:
            host = host or spec
    if not command and not host:
        command = getattr(args, f"{name}_default")
        if command is None:
            return None
    return Server.from_args(name.upper(), command, host)


def python_exe() -> str:
    return sys.executable
