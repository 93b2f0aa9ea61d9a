"""What every host driver offers the scenarios: wire hooks, run one prompt, read the outcome.

A driver knows one host program: where its hook config lives and in what shape, which
model API it speaks (its :class:`~tests.e2e.fakemodel.Dialect`), what its shell tool is
called and takes, and how to run it once, non-interactively, against the fake model.
The scenarios (tests/e2e/scenarios_test.py) are written once against this protocol.
"""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

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
    """Run a host to completion; a host that outlives ``timeout`` is a failed run, not a hang."""
    started = time.monotonic()
    try:
        done = subprocess.run(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as err:
        out = err.stdout.decode(errors="replace") if isinstance(err.stdout, bytes) else ""
        errtext = err.stderr.decode(errors="replace") if isinstance(err.stderr, bytes) else ""
        return Run(-1, out, errtext + f"\n(killed: still running after {timeout} s)", timeout)
    return Run(done.returncode, done.stdout, done.stderr, time.monotonic() - started)
