"""Text given to git as an argument is not run — unless an unknown word may make it code.

A here-document read by ``cat`` inside ``"$(…)"`` is a string: ``git commit $X -m "$(cat
<<'EOF' … EOF)"`` hands git a message. The judgement took any unknown word after ``git``
for one that may make git run its other arguments (an alias, ``bisect run``), and so
found ``rm -rf /`` in a message (``git / $X "$(cat <<'EOF'⏎rm -rf /⏎EOF⏎)"``, found by a
random screen_test run). Now an unknown word counts there only among git's global options
(a quoted place, ``-C "$d"``, aside), as its subcommand, or after a subcommand that runs a
command it is given (``heads.GIT_RUNS_GIVEN``: ``bisect run``, ``rebase -x``, …).

The oracle is bash running real git, in a fresh repository with no user or system config
and a marker program (``redteam.MARK``) in ``rm``'s place: the marker records each run's
arguments, so nothing is deleted and what ran is seen. ``{g}`` is git, ``{r}`` is rm;
``env`` sets the unknown word for the bash run (the guard judges the line as written).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY, engine, where_for

from .redteam import HOME, MARK, PROJECT, judge

GIT = shutil.which("git")
pytestmark = pytest.mark.skipif(GIT is None or shutil.which("bash") is None, reason="no git")

BODY = "$(cat <<'EOF'\n{r} -rf /\nEOF\n)"

# (line, the env of the bash run): bash and git run nothing of the text.
ALLOWED = [
    ('{g} / $X "' + BODY + '"', {}),  # the judge's false finding (git: "/" is no command)
    ('{g} / $X "' + BODY + '"', {"X": "-c alias.x=!sh${IFS}-c"}),
    ('{g} commit $X -m "' + BODY + '"', {}),
    ('{g} commit $X -m "' + BODY + '"', {"X": "--allow-empty -q"}),
    ('{g} -C "$d" commit --allow-empty -q -m "' + BODY + '"', {"d": "."}),
    ('{g} -C "$d" commit --allow-empty -q -m "' + BODY + '"', {"d": ". -c alias.x=!sh${IFS}-c x"}),
    ('{g} status $X "' + BODY + '"', {"X": "--short"}),
    ('{g} log $X --grep "' + BODY + '"', {"X": "--oneline"}),
    ('{g} tag -a v1 $X -m "' + BODY + '"', {}),
    ('{g} commit --amend $X -q -m "' + BODY + '"', {}),
    ('{g} notes add $X -m "' + BODY + '"', {"X": "-f"}),
    ('{g} --no-pager -C "$REPO" log $X -1 --format=%s "' + BODY + '"', {"REPO": "."}),
    # the code words of submodule foreach, bisect run, difftool -x given code that prints
    ('{g} submodule foreach "echo {r} -rf /"', {}),
    ("{g} bisect run echo {r} -rf /", {}),
    ("{g} difftool -y -x 'echo {r} -rf /' HEAD~1", {}),
    ("{g} submodule foreach --recursive '{g} status --short'", {}),
]

# (line, the env that makes bash (and git) run the marker with -rf /, rule)
BLOCKED = [
    ("bash <<'EOF'\n{r} -rf /\nEOF", {}, "delete.catastrophic"),
    ('sh -c "' + BODY + '"', {}, "delete.catastrophic"),
    ('eval "$(cat <<EOF\n{r} -rf /\nEOF\n)"', {}, "delete.catastrophic"),
    ("$(cat <<'EOF'\n{r} -rf /\nEOF\n)", {}, "delete.catastrophic"),
    ('bash -c "' + BODY + '" && echo ok', {}, "delete.catastrophic"),
    # an unknown word before git's subcommand: an inline alias that runs its arguments
    ('{g} $X "' + BODY + '"', {"X": "-c alias.x=!sh${IFS}-c x"}, "delete.catastrophic"),
    ('{g} -c "$C" x "' + BODY + '"', {"C": "alias.x=!sh${IFS}-c"}, "delete.catastrophic"),
    ('{g} -C $d x "' + BODY + '"', {"d": ". -c alias.x=!sh${IFS}-c"}, "delete.catastrophic"),
    # after a subcommand that runs a command it is given
    ('{g} bisect $X "' + BODY + '"', {"X": "run sh -c"}, "delete.catastrophic"),
    ('{g} rebase $X "' + BODY + '" HEAD~1', {"X": "-x"}, "delete.catastrophic"),
    ('{g} difftool $X "' + BODY + '" HEAD~1', {"X": "-y -x"}, "delete.catastrophic"),
    # spelled out: the subcommands' own code words (unwrap._git_runs)
    ("{g} bisect run {r} -rf /", {}, "delete.catastrophic"),
    ("{g} difftool -y -x '{r} -rf /' HEAD~1", {}, "delete.catastrophic"),
    ("{g} difftool -y --extcmd='{r} -rf /' HEAD~1", {}, "delete.catastrophic"),
    ("{g} submodule foreach '{r} -rf /'", {}, "delete.catastrophic"),
    ("{g} submodule foreach --recursive {r} -rf /", {}, "delete.catastrophic"),
    ('{g} submodule foreach -q "{r} -rf / || true"', {}, "delete.catastrophic"),
]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The marker's bin dir (each row makes its own repository)."""
    root = tmp_path_factory.mktemp("gitoracle")
    bin_dir = root / "bin"
    bin_dir.mkdir()
    marker = bin_dir / MARK
    marker.write_text(
        '#!/bin/sh\nprintf \'%s\\037\' "$@" >> "$HK_MARK_LOG"\necho >> "$HK_MARK_LOG"\n'
    )
    marker.chmod(marker.stat().st_mode | stat.S_IXUSR)
    yield root


def _env(root: Path, home: Path, extra: dict[str, str]) -> dict[str, str]:
    return {
        "PATH": f"{root / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "HK_MARK_LOG": str(home / ".marks"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_EDITOR": "true",
        "GIT_PAGER": "cat",
        "LC_ALL": "C",
        **extra,
    }


def _runs(root: Path, n: int, line: str, extra: dict[str, str]) -> list[list[str]]:
    """The marker's runs while bash ran ``line`` in a fresh repo (two commits, HEAD~1
    changed a file; a bisect started between them)."""
    work = root / f"w{n}"
    work.mkdir()
    env = _env(root, work, {})
    for argv in (
        ["init", "-q", "."],
        ["commit", "-q", "--allow-empty", "-m", "one"],
    ):
        subprocess.run([GIT or "git", *argv], cwd=work, env=env, check=True, timeout=30)
    (work / "f.txt").write_text("x\n")
    for argv in (["add", "f.txt"], ["commit", "-q", "-m", "two"]):
        subprocess.run([GIT or "git", *argv], cwd=work, env=env, check=True, timeout=30)
    if "bisect" in line:
        for argv in (["bisect", "start", "HEAD", "HEAD~1"],):
            subprocess.run(
                [GIT or "git", *argv], cwd=work, env=env, check=True, timeout=30,
                stdout=subprocess.DEVNULL,
            )  # fmt: skip
    if "difftool" in line:
        (work / "f.txt").write_text("y\n")
    if "submodule" in line:  # a submodule of one commit, from a repository beside it
        source = root / f"s{n}"
        source.mkdir()
        for argv in (["init", "-q", "."], ["commit", "-q", "--allow-empty", "-m", "s"]):
            subprocess.run([GIT or "git", *argv], cwd=source, env=env, check=True, timeout=30)
        add = ["-c", "protocol.file.allow=always", "submodule", "add", "-q", str(source), "sub"]
        for argv in (add, ["commit", "-q", "-m", "sub"]):
            subprocess.run([GIT or "git", *argv], cwd=work, env=env, check=True, timeout=30)
    subprocess.run(
        ["bash", "-c", line],
        cwd=work,
        env={**env, **extra},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    log = work / ".marks"
    if not log.exists():
        return []
    return [row.split("\037")[:-1] for row in log.read_text().split("\n")[:-1]]


def _line(template: str, rm: str) -> str:
    return template.replace("{g}", "git").replace("{r}", rm)


@pytest.mark.parametrize(("template", "env"), ALLOWED, ids=[f"{r[0]}|{r[1]}" for r in ALLOWED])
def test_text_git_is_given_is_not_run_and_is_allowed(
    sandbox: Path, template: str, env: dict[str, str]
) -> None:
    n = ALLOWED.index((template, env))
    ran = _runs(sandbox, n, _line(template, MARK), env)
    assert not any(run[:2] == ["-rf", "/"] for run in ran), ran
    verdict = judge(_line(template, "rm"))
    assert verdict.decision is None, verdict.reason
    # the full judgement too, not only the screen in front of it (which cleared some)
    assert _findings(_line(template, "rm")) == []


def _findings(line: str) -> list[str]:
    ctx = PolicyContext(PROJECT, PROJECT, "/nonexistent", {"HOME": HOME})
    opts = POLICY.bind({})
    return [f.rule for f in engine.judge(line, where_for({"cwd": PROJECT}, opts, ctx))]


@pytest.mark.parametrize(
    ("template", "env", "rule"), BLOCKED, ids=[f"{r[0]}|{r[1]}" for r in BLOCKED]
)
def test_text_that_runs_is_denied(
    sandbox: Path, template: str, env: dict[str, str], rule: str
) -> None:
    n = 100 + BLOCKED.index((template, env, rule))
    ran = _runs(sandbox, n, _line(template, MARK), env)
    assert any(run[:2] == ["-rf", "/"] for run in ran), ran  # (difftool adds its files)
    verdict = judge(_line(template, "rm"))
    assert verdict.decision == "deny", _line(template, "rm")
    assert f"[{rule}]" in (verdict.reason or ""), verdict.reason


@pytest.mark.parametrize(
    "line", ["git -C", "git -c", "git --git-dir", 'git -C "$d" -c', "git -C $d", "git submodule"]
)
def test_a_git_line_cut_short_is_judged_without_an_error(line: str) -> None:
    """(`git -C` with no value: the unknown-word check read past the arguments, an
    IndexError — found by a random screen_test run)"""
    assert judge(line).decision is None
    assert _findings(line) == []
