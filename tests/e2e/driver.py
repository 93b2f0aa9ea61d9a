"""What every host driver offers the scenarios: wire hooks, run one prompt, read the outcome.

A driver knows one host program: where its hook config lives and in what shape, which
model API it speaks (its :class:`~tests.e2e.fakemodel.Dialect`), what its shell tool is
called and takes, and how to run it once, non-interactively, against the fake model.
The scenarios (tests/e2e/scenarios_test.py) are written once against this protocol.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import psutil

from tests.e2e.fakemodel import Dialect, Step, ToolCall

if TYPE_CHECKING:
    from tests.e2e.conftest import World


class Run(NamedTuple):
    """One finished host run."""

    code: int
    out: str
    err: str
    seconds: float

    def describe(self) -> str:
        return (
            f"exit {self.code} after {self.seconds:.1f} s\n"
            f"--- stdout\n{self.out[-4000:]}\n--- stderr\n{self.err[-4000:]}"
        )


class Driver(Protocol):
    name: str
    dialect: Dialect

    def shell(self, command: str) -> ToolCall:
        """The model's call of this host's shell tool running ``command``."""

    def delegate(self, prompt: str) -> list[Step]:
        """The main thread's steps that run a sub-agent on ``prompt`` and wait for it."""

    def event(self, canonical: str) -> str:
        """This host's name for a canonical event (``PreToolUse`` …)."""

    def destroy(self, world: World) -> str:
        """A command that destroys ``world``'s victim and that this host runs by itself
        (Codex refuses ``rm -f``-style commands on its own, so it gets another one)."""

    def wire(self, world: World, hooks: Mapping[str, Sequence[str]], timeout: int = 30) -> None:
        """Write the host's own config so that each canonical event runs those commands."""

    def run(
        self,
        exe: Path,
        world: World,
        model_url: str,
        prompt: str,
        timeout: float,
        args: Sequence[str] = (),
    ) -> Run:
        """Run the host once on ``prompt`` in ``world.project``, with extra command-line
        ``args``; never longer than ``timeout``."""


def hookrun_command(hookrun: Path, event: str, config: Path, host: str) -> str:
    """The hook command a user writes into a host's config to run hookrun for ``event``."""
    return (
        f"{shlex.quote(str(hookrun))} run {event} --host {host} --config {shlex.quote(str(config))}"
    )


def command_groups(
    hooks: Mapping[str, Sequence[str]], timeout: int, tool_events: set[str]
) -> dict[str, Any]:
    """Claude Code's ``hooks`` shape, which Codex reads too: for each event one group of
    command hooks, matching every tool (``"*"``) on the events that match a tool."""
    entries: dict[str, Any] = {}
    for event, commands in hooks.items():
        group: dict[str, Any] = {
            "hooks": [{"type": "command", "command": c, "timeout": timeout} for c in commands]
        }
        if event in tool_events:
            group = {"matcher": "*", **group}
        entries[event] = [group]
    return entries


def run_process(argv: Sequence[str], cwd: Path, env: Mapping[str, str], timeout: float) -> Run:
    """Run a host to completion; a host that outlives ``timeout`` is a failed run, not a hang.

    The host runs in a process group of its own (POSIX): a host is often a launcher
    (Copilot's npm loader runs its native binary as a child), and killing the launcher
    alone left the real host and its hooks running after a timed-out test. On a timeout the
    failure says what every process of the group was doing (state, kernel wait channel,
    CPU seconds), so a real hang can be told from a slow machine."""
    started = time.monotonic()
    posix = os.name == "posix"
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=posix,
    )
    with proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            tree = _tree(proc.pid)
            state = describe(tree)
            _end(proc, tree, posix)
            try:
                out, err = proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:  # an escaped process still holds the pipes
                out, err = "", "(its output pipes stayed open after the kill)"
            note = f"\n(killed: still running after {timeout} s)\n--- its processes then\n{state}"
            return Run(-1, out, err + note, timeout)
    # After a normal exit nothing is killed: what a host or hookrun leaves behind is
    # for the scenarios to find (tests/e2e/scenarios_test.py's survivors()).
    return Run(proc.returncode, out, err, time.monotonic() - started)


def _tree(pid: int) -> list[psutil.Process]:
    """The process and its descendants (hooks may run in sessions of their own)."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def _end(proc: subprocess.Popen[str], tree: list[psutil.Process], posix: bool) -> None:
    if posix:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    for member in tree:
        with contextlib.suppress(psutil.Error):
            member.kill()
    with contextlib.suppress(OSError):
        proc.kill()


def describe(tree: list[psutil.Process]) -> str:
    """One line per process: pid, state, kernel wait channel, CPU seconds, age, command."""
    lines = []
    for member in tree:
        try:
            with member.oneshot():
                cpu = sum(member.cpu_times()[:2])
                age = time.time() - member.create_time()
                line = f"{member.pid} {member.status()} cpu={cpu:.2f}s age={age:.1f}s"
                cmd = " ".join(member.cmdline())[:200]
        except psutil.Error:
            continue
        try:
            wchan = Path(f"/proc/{member.pid}/wchan").read_text() or "-"
        except OSError:
            wchan = "-"
        lines.append(f"{line} wchan={wchan} {cmd}")
    return "\n".join(lines) or "(none left)"
