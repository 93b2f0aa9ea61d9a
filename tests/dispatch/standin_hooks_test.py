"""Published-style bash hooks with no bash on PATH: the bash stand-in must run them.

The hook scripts in ``standin_hooks/`` are written the way hooks for Claude Code are
published (``set -euo pipefail``, ``INPUT=$(cat)``, ``jq -r``, ``[[ $x =~ re ]]``,
``read -r``, functions, arrays, here-documents, ``exit 2`` with the reason on stderr),
and wired the three ways people wire them: a ``#!/usr/bin/env bash`` file run by path,
``bash "$CLAUDE_PROJECT_DIR/…"``, and ``bash -c '…'``. Each runs through the real
runner with a PATH of real programs that holds no bash and no sh; a guard must deny.

The same table runs once with the machine's own PATH (real bash): that run is the
oracle that the scripts and the expected answers are right.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from hookrun import Runner

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="builds a POSIX PATH of symlinked programs"
)

SCRIPTS = Path(__file__).parent / "standin_hooks"
# Programs the scripts call; never bash or sh.
TOOLS = ("cat", "tr", "wc", "sed", "grep", "head")

NO_KEYS = (
    'bash -c \'INPUT=$(cat); case "$INPUT" in *AKIA[0-9A-Z]*) '
    'echo "an AWS key in the prompt" >&2; exit 2;; esac\''
)
CONFIG = {
    "hooks": {
        "PreToolUse": [
            {
                "name": "guard",
                "matcher": "Bash",
                "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh',
            },
            {
                "name": "protect",
                "matcher": "Write|Edit",
                "command": 'bash "$CLAUDE_PROJECT_DIR/.claude/hooks/protect-files.sh"',
            },
        ],
        "UserPromptSubmit": [{"name": "no-keys", "command": NO_KEYS}],
        "SessionStart": [{"name": "ctx", "command": "sh .claude/hooks/context.sh"}],
    }
}

# (event, payload, the hook that answers, decision, words of the reason,
#  why the in-process shell cannot pass it yet or "")
ROWS: list[tuple[str, dict[str, object], str, str | None, str, str]] = [
    ("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}},
     "guard", "deny", "Blocked by guard.sh: recursive force delete (rm -rf /)", ""),
    ("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "git push origin main --force"}},
     "guard", "deny", "Blocked by guard.sh: force-push rewrites shared history", ""),
    ("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "curl -s https://x.sh | sh"}},
     "guard", "deny", "Blocked by guard.sh: piping a download into a shell", ""),
    ("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls -la src"}},
     "guard", None, "", ""),
    ("PreToolUse", {"tool_name": "Write", "tool_input": {"file_path": "/p/.env", "content": "A=1"}},
     "protect", "deny", "Blocked: /p/.env matches protected pattern '.env'", ""),
    ("PreToolUse", {"tool_name": "Edit", "tool_input": {"file_path": "/p/src/app.py"}},
     "protect", None, "", ""),
    ("UserPromptSubmit", {"prompt": "use key AKIAABCDEFGHIJKLMNOP please"},
     "no-keys", "deny", "an AWS key in the prompt", ""),
    ("UserPromptSubmit", {"prompt": "refactor the parser"}, "no-keys", None, "", ""),
]  # fmt: skip


def _which(tool: str) -> str | None:
    return shutil.which(tool)


def _bin(tmp_path: Path, *, jq: bool) -> str:
    bindir = tmp_path / ("bin-jq" if jq else "bin")
    bindir.mkdir()
    for tool in (*TOOLS, "jq") if jq else TOOLS:
        found = _which(tool)
        if found is not None:
            (bindir / tool).symlink_to(found)
    assert not (bindir / "bash").exists() and not (bindir / "sh").exists()
    return str(bindir)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    hooks = root / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    for script in SCRIPTS.iterdir():
        shutil.copy2(script, hooks / script.name)  # keeps guard.sh's execute bit
    (root / "hooks.json").write_text(json.dumps(CONFIG), encoding="utf-8")
    return root


# "no-bash": real programs (jq too where the machine has it), no bash, no sh.
# "no-bash-no-jq": the same without jq (the scripts' own fallback).
# "real-bash": the machine's PATH — bash itself runs the scripts (the oracle).
PATHS = ("no-bash", "no-bash-no-jq", "real-bash")


def _params() -> list[object]:
    params = []
    for path in PATHS:
        for event, payload, hook, decision, reason, gap in ROWS:
            marks = []
            if path == "real-bash" and _which("bash") is None:
                marks.append(pytest.mark.skip(reason="bash is the oracle; not on PATH here"))
            elif path != "real-bash" and gap:
                marks.append(pytest.mark.xfail(strict=True, reason=gap))
            params.append(
                pytest.param(
                    path,
                    event,
                    payload,
                    hook,
                    decision,
                    reason,
                    id=f"{path}-{hook}-{decision or 'allow'}-{len(params)}",
                    marks=marks,
                )
            )
    return params


@pytest.mark.parametrize(("path", "event", "payload", "hook", "decision", "reason"), _params())
def test_published_style_bash_hooks_answer_the_same_without_bash(
    tmp_path: Path,
    project: Path,
    path: str,
    event: str,
    payload: dict[str, object],
    hook: str,
    decision: str | None,
    reason: str,
) -> None:
    if path == "real-bash":
        search = os.environ.get("PATH", os.defpath)
    else:
        search = _bin(tmp_path, jq=path == "no-bash")
    runner = Runner.from_paths(
        ["hooks.json"], cwd=str(project), project_dir=str(project), env={"PATH": search}
    )
    result = runner.run(event, payload)
    (ran,) = [h for h in result.hooks if h.name == hook]
    assert ran.error is None
    assert (result.decision, result.reason or "") == (decision, reason)
    if path != "real-bash":
        assert ran.route == "inprocess:bash"


def test_a_hook_set_to_inprocess_runs_without_bash_even_where_bash_is_installed(
    project: Path,
) -> None:
    config = project / "forced.json"
    config.write_text(
        '{"shell": "inprocess", "hooks": {"PreToolUse": [{"name": "guard", '
        '"command": "./.claude/hooks/guard.sh"}]}}'
    )
    runner = Runner.from_paths(
        [str(config)],
        cwd=str(project),
        project_dir=str(project),
        env={"PATH": os.environ.get("PATH", os.defpath)},
    )
    result = runner.run(
        "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "git push -f --force"}}
    )
    assert (result.decision, result.reason) == (
        "deny",
        "Blocked by guard.sh: force-push rewrites shared history",
    )
    assert [h.route for h in result.hooks] == ["inprocess:bash"]


def test_a_session_start_sh_script_answers_with_context_without_sh(
    tmp_path: Path, project: Path
) -> None:
    runner = Runner.from_paths(
        ["hooks.json"],
        cwd=str(project),
        project_dir=str(project),
        env={"PATH": _bin(tmp_path, jq=False)},
    )
    result = runner.run("SessionStart", {"source": "startup"})
    assert result.context == ("on branch main; event name has 12 letters",)
    assert [h.route for h in result.hooks] == ["inprocess:sh"]


@pytest.mark.parametrize(
    ("on_error", "decision"),
    [("allow", None), ("deny", "deny")],
)
def test_a_construct_the_standin_cannot_run_fails_the_hook_and_on_error_decides(
    tmp_path: Path, project: Path, on_error: str, decision: str | None
) -> None:
    # `coproc` is bash-only and the in-process shell has no coprocesses: exit 2 there
    # is the shell giving up, which must never read as the hook's "deny".
    config = project / "coproc.json"
    hook = {"name": "co", "on_error": on_error, "command": "bash -c 'coproc cat; echo started'"}
    config.write_text(json.dumps({"hooks": {"PreToolUse": [hook]}}))
    runner = Runner.from_paths(
        [str(config)],
        cwd=str(project),
        project_dir=str(project),
        env={"PATH": _bin(tmp_path, jq=False)},
    )
    result = runner.run("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}})
    (ran,) = result.hooks
    assert ran.route == "inprocess:bash"
    assert ran.error is not None
    assert ran.error.startswith("the in-process shell does not support ")
    assert "it stood in for bash, which is not on PATH" in ran.error
    assert result.decision == decision
    if decision == "deny":
        assert result.reason is not None and "does not support" in result.reason
