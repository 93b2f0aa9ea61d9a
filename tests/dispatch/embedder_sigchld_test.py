"""A host that embeds the dispatcher with SIGCHLD ignored gets an error, never a status.

With SIGCHLD set to SIG_IGN the system reaps every child at once and discards its exit
status: waitpid answers ECHILD, which Popen (and procs.Spawned) read as 0. The
``hookrun`` command takes the default back at start (tests/cli/hostile_sigchld_test.py);
a Python host calling ``hookrun.dispatch.run`` keeps its own disposition, so dispatch
refuses to start a child there and says why — on both ways of starting one, and from
inside the in-process shell too, where an ``|| true`` must not swallow it. Each case runs
in a child interpreter of its own: the test process keeps its SIGCHLD.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGCHLD"), reason="POSIX")

REPO = Path(__file__).resolve().parents[2]

HOST = """\
import json, os, signal, sys
from hookrun.dispatch import procs, run
if sys.argv[2] == "popen":
    procs._POSIX_SPAWN = False
started = []
for name in ("_posix_spawn", "_popen"):
    real = getattr(procs, name)
    def counted(*args, _real=real, _name=name):
        started.append(_name)
        return _real(*args)
    setattr(procs, name, counted)
if sys.argv[3] == "ignore":
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
done = run(sys.argv[1], cwd=os.getcwd(), env=dict(os.environ), stdin=b"{}", timeout=30)
print(json.dumps({
    "exit_code": done.exit_code, "route": done.route, "error": done.error,
    "stdout": done.stdout.decode(), "stderr": done.stderr.decode(), "started": started,
}))
"""

DENY = "#!/bin/sh\necho 'no way' >&2\nexit 2\n"


def _host(tmp_path: Path, command: str, route: str, sigchld: str) -> dict[str, object]:
    script = tmp_path / "deny.sh"
    script.write_text(DENY)
    script.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", HOST, command, route, sigchld],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


COMMANDS = [
    pytest.param("{dir}/deny.sh", id="script-by-path"),
    pytest.param("/bin/sh -c 'echo nope >&2; exit 2'", id="shell-starts-sh"),
    pytest.param("{dir}/deny.sh || true", id="shell-or-true"),
    pytest.param("echo before; {dir}/deny.sh | cat; echo after", id="shell-pipeline"),
    pytest.param("{dir}/deny.sh & wait $!; echo after $?", id="shell-background-wait"),
    pytest.param("x=$({dir}/deny.sh); echo after $?", id="shell-substitution"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("route", ["posix_spawn", "popen"])
@pytest.mark.parametrize("command", COMMANDS)
def test_no_child_starts_and_the_run_is_an_error(tmp_path: Path, route: str, command: str) -> None:
    found = _host(tmp_path, command.format(dir=tmp_path), route, "ignore")
    assert found["started"] == []
    assert found["route"] == "error"
    assert found["exit_code"] == 70
    error = str(found["error"])
    assert "SIGCHLD is ignored" in error and "SIG_DFL" in error
    assert "after" not in str(found["stdout"])  # the script did not go on


@pytest.mark.timeout(120)
@pytest.mark.parametrize("route", ["posix_spawn", "popen"])
@pytest.mark.parametrize("command", COMMANDS[:2])
def test_with_the_default_the_deny_comes_back(tmp_path: Path, route: str, command: str) -> None:
    """The same hosts with SIGCHLD left alone: status 2 and the reason, by that route."""
    found = _host(tmp_path, command.format(dir=tmp_path), route, "default")
    assert (found["exit_code"], found["error"]) == (2, None)
    started = found["started"]
    assert isinstance(started, list) and started
    if route == "popen":
        assert set(started) == {"_popen"}


@pytest.mark.timeout(120)
def test_code_that_starts_nothing_still_runs(tmp_path: Path) -> None:
    found = _host(tmp_path, "x=1; echo in-process $x; exit 2", "posix_spawn", "ignore")
    assert (found["exit_code"], found["stdout"], found["error"]) == (2, "in-process 1\n", None)


RUNNER = """\
import json, signal, sys
from hookrun import Runner
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
runner = Runner.from_paths([sys.argv[1]], cwd=sys.argv[2])
payload = {"tool_name": "bash", "tool_input": {"command": "ls"}, "session_id": "s1"}
result = runner.run("PreToolUse", payload)
print(json.dumps({"decision": result.decision, "reason": result.reason,
                  "errors": [h.error for h in result.hooks]}))
"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("on_error", ["deny", "allow"])
def test_a_runner_in_such_a_host_reports_the_hook_as_failed(tmp_path: Path, on_error: str) -> None:
    """Through the embedding API: the hook's on_error decides, and the error says why."""
    script = tmp_path / "deny.sh"
    script.write_text(DENY)
    script.chmod(0o755)
    hook = {"name": "guard", "command": str(script), "on_error": on_error}
    config = tmp_path / "hooks.json"
    config.write_text(json.dumps({"hooks": {"PreToolUse": [hook]}}))
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(config), str(tmp_path)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert len(found["errors"]) == 1 and "SIGCHLD is ignored" in found["errors"][0]
    if on_error == "deny":
        assert found["decision"] == "deny"
        assert "hook guard failed" in found["reason"] and "SIGCHLD" in found["reason"]
    else:
        assert found["decision"] is None
