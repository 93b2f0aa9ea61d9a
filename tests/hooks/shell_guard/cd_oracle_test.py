"""Following ``cd`` within one line, with bash as the oracle.

A delete rule judges the directory a command runs in after the line's ``cd``,
``pushd`` and ``popd`` steps (``paths.cwds_of``): the one where every step worked,
then those where a step joined by ``;`` or ``||`` failed. Each line below is run by
real bash in a temp tree with a fake ``rm`` first on PATH that only logs ``$PWD``
(nothing is deleted); every directory bash ran ``rm`` in must be one shell-guard
judged, and the first one when every ``cd`` worked.

The labelled table beside it (≥10 blocks, ≥10 look-alikes) is judged from
/home/user/project; its labels follow from where bash runs the ``rm`` (the oracle
test runs the same lines).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY, where_for
from hookrun.hooks.shell_guard.parse import parse_script
from hookrun.hooks.shell_guard.paths import cwds_of

HOME = "/home/user"
PROJECT = "/home/user/project"
TMP_PROJECT = "/tmp/agent-run-1"

# (line, rule or None, cwd) — the delete's path as bash reaches it decides.
CD_TABLE: list[tuple[str, str | None, str]] = [
    # blocks
    ("cd ~ && rm -rf *", "delete.catastrophic", PROJECT),
    ("cd && rm -rf *", "delete.catastrophic", PROJECT),
    ("cd .. && rm -rf project", "delete.catastrophic", PROJECT),
    ("cd .. && rm -rf notes", "delete.catastrophic", PROJECT),
    ("cd - && rm -rf build", "delete.unresolved", PROJECT),  # $OLDPWD: unknown here
    ("cd /tmp && cd - && rm -rf src", "delete.recursive-force", PROJECT),
    ("pushd /tmp && popd && rm -rf src", "delete.recursive-force", PROJECT),
    ("cd /tmp; rm -rf x", "delete.recursive-force", PROJECT),  # if cd fails: ./x
    ("cd /nonexistent-dir || rm -rf src", "delete.recursive-force", PROJECT),
    ("cd /tmp\nrm -rf src", "delete.recursive-force", PROJECT),
    ("cd /tmp a && rm -rf src", "delete.recursive-force", PROJECT),  # bash: too many args
    ("cd /tmp; bash -c 'rm -rf src'", "delete.recursive-force", PROJECT),
    ("cd /tmp && cd .. && rm -rf etc", "delete.catastrophic", PROJECT),
    ("pushd /tmp && pushd ~ && rm -rf .ssh", "delete.catastrophic", PROJECT),
    ("if true; then cd ~; fi; rm -rf build", "delete.catastrophic", PROJECT),
    ("for d in x; do cd ..; done; rm -rf build", "delete.catastrophic", PROJECT),
    ("case a in a) cd ~;; esac\nrm -rf build", "delete.catastrophic", PROJECT),
    ("cd .. && rm -rf *", "delete.catastrophic", TMP_PROJECT),  # the glob matches the project
    ("cd .. && rm -rf build", "delete.recursive-force", TMP_PROJECT),  # its neighbours
    ("cd /tmp && rm -rf agent-run-2", "delete.recursive-force", TMP_PROJECT),
    # look-alikes that pass
    ("cd /tmp && rm -rf scratch", None, PROJECT),
    ('cd "$TMPDIR" && rm -rf x', None, PROJECT),
    ("pushd /tmp && rm -rf x", None, PROJECT),
    ("pushd /tmp >/dev/null && rm -rf x && popd", None, PROJECT),
    ("cd /tmp && mkdir -p x && cd x && rm -rf y", None, PROJECT),
    ("cd /tmp && cd - && rm -rf build", None, PROJECT),
    ("cd /tmp; rm -rf build", None, PROJECT),  # either way: /tmp/build or ./build
    ("cd web && rm -rf node_modules", None, PROJECT),
    ("cd web; rm -rf dist", None, PROJECT),
    ("(cd /tmp && rm -rf x) && rm -rf build", None, PROJECT),
    ("pushd /tmp && pushd /var/tmp && popd && rm -rf x", None, PROJECT),
    ("cd /tmp && pushd ~ && pushd && rm -rf x", None, PROJECT),  # swaps back to /tmp
    ("cd /tmp || exit 1; rm -rf x", None, PROJECT),  # (exit 1 ends the line)
    ("cd sub && rm -rf build", None, TMP_PROJECT),
    ("if true; then (cd ~); fi; rm -rf build", None, PROJECT),  # a subshell's cd ends there
    ("if cd /tmp; then rm -rf x; fi", None, PROJECT),  # the body runs where cd worked
]

_BLOCKS = [(c, r, w) for c, r, w in CD_TABLE if r]
_ALLOWS = [(c, w) for c, r, w in CD_TABLE if not r]


def _judge(command: str, cwd: str) -> tuple[str | None, str]:
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "cwd": cwd,
    }
    ctx = PolicyContext(
        cwd=cwd, project_dir=cwd, state_dir="/nonexistent", env={"HOME": HOME, "TMPDIR": "/tmp"}
    )
    verdict = POLICY.decide(payload, POLICY.bind({}), ctx)
    return verdict.rule if verdict.decision == "deny" else None, verdict.reason or ""


def test_the_table_has_ten_blocks_and_ten_look_alikes() -> None:
    assert len(_BLOCKS) >= 10 and len(_ALLOWS) >= 10


@pytest.mark.parametrize(("command", "rule", "cwd"), _BLOCKS)
def test_cd_block(command: str, rule: str, cwd: str) -> None:
    got, reason = _judge(command, cwd)
    assert got == rule, reason
    assert reason.startswith(f"shell-guard [{rule}]: ")


@pytest.mark.parametrize(("command", "cwd"), _ALLOWS)
def test_cd_look_alike_passes(command: str, cwd: str) -> None:
    assert _judge(command, cwd) == (None, "")


def test_a_failed_cd_is_named_in_the_reason() -> None:
    _, reason = _judge("cd /tmp; rm -rf x", PROJECT)
    assert "/home/user/project/x" in reason and "join them with &&" in reason


# -- bash as the oracle: where each `rm` runs ---------------------------------------


def _tree(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    home = tmp_path / "home" / "user"
    project = home / "project"
    for d in (project / "web", project / "sub", home / "notes"):
        d.mkdir(parents=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "rm"
    # logs where it runs; deletes nothing
    fake.write_text('#!/bin/sh\nprintf "%s\\n" "$PWD" >> "$RM_LOG"\n')
    fake.chmod(0o755)
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "HOME": str(home),
        "TMPDIR": "/tmp",
        "RM_LOG": str(tmp_path / "rm.log"),
    }
    return home, project, env


def _bash_dirs(line: str, project: Path, env: dict[str, str]) -> list[str]:
    log = Path(env["RM_LOG"])
    log.unlink(missing_ok=True)
    # (mkdir -p x: the look-alike makes /tmp/x; made in a temp dir of ours instead)
    subprocess.run(
        ["bash", "-c", line],
        cwd=project,
        env=env,
        capture_output=True,
        timeout=10,
        check=False,
    )
    return log.read_text().split() if log.exists() else []


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize(
    "line",
    [c for c, _, w in CD_TABLE if w == PROJECT and "mkdir" not in c and "bash -c" not in c],
)
def test_bash_runs_rm_where_shell_guard_judges_it(tmp_path: Path, line: str) -> None:
    home, project, env = _tree(tmp_path)
    ran = [os.path.realpath(d) for d in _bash_dirs(line, project, env)]
    ctx = PolicyContext(cwd=str(project), project_dir=str(project), state_dir="/x", env=env)
    where = where_for({"cwd": str(project)}, POLICY.bind({}), ctx)
    judged = [
        cwds_of(cmd.cd, where) if cmd.cd else [where.cwd]
        for cmd in parse_script(line).commands
        if cmd.name == "rm"
    ]
    assert len(ran) <= len(judged)
    for k, real in enumerate(ran):
        places = [os.path.realpath(p) if p else None for p in judged[k]]
        if None in places:  # (only the shell knows it: judged as unresolved)
            continue
        assert real in places, (line, real, places)
        if "nonexistent" not in line and " a " not in line:
            assert real == places[0], (line, real, places)  # every cd worked


def test_the_oracle_fails_on_a_wrong_reading(tmp_path: Path) -> None:
    """The comparison above is not vacuous: bash's directory differs from a reading
    that ignores the `cd`."""
    _, project, env = _tree(tmp_path)
    ran = _bash_dirs("cd .. && rm -rf notes", project, env)
    assert ran and os.path.realpath(ran[0]) != os.path.realpath(project)


# TMPDIR unset (as on most Linux machines): bash expands it to nothing, so `cd
# "$TMPDIR"` is `cd ""` (stays) and `cd $TMPDIR` is `cd` (home).
UNSET_TMPDIR = [
    ('cd "$TMPDIR" && rm -rf x', "delete.recursive-force"),
    ("cd $TMPDIR && rm -rf build", "delete.catastrophic"),
    ('cd "$TMPDIR/x" && rm -rf y', "delete.recursive-force"),
]


@pytest.mark.parametrize(("command", "rule"), UNSET_TMPDIR)
def test_an_unset_tmpdir_is_empty_to_cd(command: str, rule: str) -> None:
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": PROJECT}
    ctx = PolicyContext(cwd=PROJECT, project_dir=PROJECT, state_dir="/x", env={"HOME": HOME})
    assert POLICY.decide(payload, POLICY.bind({}), ctx).rule == rule


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("line", [c for c, _ in UNSET_TMPDIR[:2]])
def test_bash_with_tmpdir_unset_runs_rm_where_shell_guard_judges_it(
    tmp_path: Path, line: str
) -> None:
    _, project, env = _tree(tmp_path)
    del env["TMPDIR"]
    ran = [os.path.realpath(d) for d in _bash_dirs(line, project, env)]
    ctx = PolicyContext(cwd=str(project), project_dir=str(project), state_dir="/x", env=env)
    where = where_for({"cwd": str(project)}, POLICY.bind({}), ctx)
    (cmd,) = [c for c in parse_script(line).commands if c.name == "rm"]
    assert ran == [os.path.realpath(p or "") for p in cwds_of(cmd.cd, where)]
