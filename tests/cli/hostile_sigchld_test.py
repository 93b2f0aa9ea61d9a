"""A host that starts ``hookrun`` with SIGCHLD ignored must not turn a deny into an allow.

With SIGCHLD set to SIG_IGN (inherited across exec: an orchestrator that ignores it to
avoid zombies) the OS reaps every child at once; waitpid then answers ECHILD, which
Popen and procs.Spawned both read as status 0 — a hook's ``exit 2`` came back as exit 0,
no decision, on both ways of starting a child. Checked end to end on each route; a
probe (a ``sitecustomize`` on PYTHONPATH) forces Popen on one and counts which route
started the hook's child on each.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Project

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGCHLD"), reason="POSIX")

PROBE = """\
import os
from hookrun.dispatch import procs

_count = os.environ["RED_ROUTES"]
if os.environ.get("RED_ROUTE") == "popen":
    procs._POSIX_SPAWN = False
_direct, _popen = procs._posix_spawn, procs._popen


def _note(word):
    with open(_count, "a") as f:
        f.write(word + "\\n")


def _counted_direct(*args):
    _note("posix_spawn")
    return _direct(*args)


def _counted_popen(*args):
    _note("popen")
    return _popen(*args)


procs._posix_spawn, procs._popen = _counted_direct, _counted_popen
"""


def _ignore_sigchld() -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)


@pytest.mark.parametrize("route", ["posix_spawn", "popen"])
@pytest.mark.parametrize(
    "command",
    [
        "./hooks/deny.sh",  # a script, started by path
        "/bin/sh -c 'echo \"no way\" >&2; exit 2'",  # the in-process shell starts sh
    ],
)
def test_a_deny_still_blocks_when_the_host_ignores_sigchld(
    project: Project, repo: Path, tmp_path: Path, route: str, command: str
) -> None:
    project.write("hooks/deny.sh", "#!/bin/sh\necho 'no way' >&2\nexit 2\n", executable=True)
    project.hooks("PreToolUse", {"command": command})
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "sitecustomize.py").write_text(PROBE)
    routes = tmp_path / "routes.txt"
    env = {
        "PYTHONPATH": os.pathsep.join([str(repo), str(probe)]),
        "RED_ROUTE": route,
        "RED_ROUTES": str(routes),
    }
    payload = json.dumps(project.tool("bash", command="ls")).encode()
    proc = project.popen(
        "run",
        "PreToolUse",
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_ignore_sigchld,  # noqa: PLW1509 - the host's disposition, nothing else
    )
    out, err = proc.communicate(payload, timeout=60)
    assert routes.read_text().split() == [route]  # the hook's child went that way
    assert (proc.returncode, json.loads(out)["decision"], err) == (2, "deny", b"no way\n")


def test_the_command_gives_its_hooks_the_default_sigchld(project: Project) -> None:
    """What the hooks inherit: the default, as from a shell (SigIgn bit 17 clear)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc")
    project.write(
        "hooks/mask.sh",
        "#!/bin/sh\ngrep '^SigIgn' /proc/$$/status >&2\nexit 2\n",
        executable=True,
    )
    project.hooks("PreToolUse", {"command": "./hooks/mask.sh"})
    payload = json.dumps(project.tool("bash", command="ls")).encode()
    proc = project.popen(
        "run",
        "PreToolUse",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_ignore_sigchld,  # noqa: PLW1509
    )
    out, err = proc.communicate(payload, timeout=60)
    assert proc.returncode == 2, err
    ignored = int(err.split()[-1], 16)
    assert not ignored & (1 << (signal.SIGCHLD - 1))
