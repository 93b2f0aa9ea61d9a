"""Exactly what a cold ``hookrun run`` / ``hookrun policy`` may import, per kind of config.

Hosts start hookrun once per event, so everything imported is paid on every tool
call (issue 8: the bench's ratios, bench/startup_bench.py). The timing is the
bench's job; these tests pin the cause. Each case lists the modules it may load
beyond a bare ``python -c pass`` — an allowlist: a change that needs another
module on one of these paths updates the list here, on purpose, and re-runs
the bench. Third-party and heavy standard-library modules are listed as never
allowed with the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]

INLINE = {
    "hooks": {
        "PreToolUse": [
            {"command": 'echo \'{"decision": "allow"}\''},
            {"command": 'echo \'{"context": "checked"}\''},
            {"matcher": "^edit$", "command": "exit 2"},
        ]
    }
}
GUARD = {
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "builtin": "shell-guard"}],
        "SessionStart": [{"command": "echo hi"}],
    }
}
BASH = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls -la"}}
START = {"hook_event_name": "SessionStart", "source": "startup"}

# Never on these paths, whatever the config (the reason, and its cost in bare starts).
NEVER = {
    "pydantic": "only to explain a bad config or bad options (~10x)",
    "pydantic_core": "with pydantic",
    "typer": "the fast path reads `run`/`policy` (~5x)",
    "click": "with typer",
    "bashlex": "the old shell parser",
    "tree_sitter": "the shell parser: shell-guard's screen and plain inline hooks need none (~1x)",
    "tree_sitter_bash": "with tree_sitter",
    "hookrun.shellsyntax": "the tree-sitter front end",
    "re2": "matchers of this config are plain; re2 loads for a matcher that needs it",
    "psutil": "only to end a process tree after a timeout or a cancel",
    "hookrun.dispatch.sentinel": "forks its watcher only before a hook's first process",
    "yaml": "only the Ralph policies read YAML",
    "subprocess": "no hook here starts a process (with selectors, locale: ~0.3x)",
    "dataclasses": "with inspect, ast, dis, tokenize (~0.5x)",
    "inspect": "with dataclasses",
    "difflib": "only for did-you-mean messages",
    "pathlib": "os.path does; pathlib pulls urllib.parse and ipaddress",
    "urllib": "with pathlib",
    "tempfile": "with platformdirs",
    "queue": "stdin is waited on with select; the worker pool takes _queue's SimpleQueue",
    "heapq": "with queue",
    "platformdirs": "the user dirs are found without it on POSIX (discovery.cheap_user_dir, ~1x)",
    "asyncio": "the sync runner",
    "contextlib": "its context managers are classes on these paths (~0.07x)",
    "concurrent": "the runner's own worker threads",
    "logging": "nothing logs",
    "uuid": "dispatch ids come from a counter",
    "hashlib": "nothing hashes",
    "pickle": "nothing is pickled",
    "typing": "~0.4x a bare start: hookrun.records stands in for NamedTuple and TYPE_CHECKING",
    "hookrun.hooks.option_types": "options are checked against annotations only when given",
    "hookrun.hooks.shell_guard.engine": "the screen allows `ls -la` without parsing",
}

# What each case may import beyond a bare start (exact module names; a trailing ".*"
# allows a package's submodules).
STDLIB = {
    # re: ~1.6x a bare start, the floor of every case (the console script imports it). Not
    # typing (~0.4x more): hookrun.records stands in. Not json's package (~0.13x, its
    # regexes): hookrun.cjson drives the C scanner and encoder of _json, which json uses.
    "re", "re._casefix", "re._compiler",
    "re._constants", "re._parser", "_sre", "_json", "enum", "functools", "_functools",
    "collections", "_collections",
    "operator", "_operator", "keyword", "reprlib", "copyreg", "types", "itertools",
    # the rest of what hookrun uses
    "__future__", "_bisect", "bisect",
    "collections.abc", "errno", "math", "shlex",
    "fcntl", "select",
    # built in (no file to find or read): the collector's pause while hookrun starts
    "gc",
}  # fmt: skip
# A hook run on a worker thread (a built-in policy): the pool, and threading with it. A run
# whose hooks are all answered from their text (hookrun.dispatch.trivial) starts no thread.
THREADS = {"threading", "_weakrefset", "_queue"}

CORE = {
    "hookrun", "hookrun.cli", "hookrun.cli.commands", "hookrun.cli.commands.run",
    "hookrun.cli.configfiles", "hookrun.cli.main",
    "hookrun.cli.payload", "hookrun.cli.signals", "hookrun.cli.grammar", "hookrun.cli.noanswer",
    "hookrun.boundedio",
    "hookrun.config", "hookrun.config.events", "hookrun.config.spec", "hookrun.config.matchers",
    "hookrun.config.discovery", "hookrun.dispatch", "hookrun.dispatch.cancel",
    "hookrun.runner.*",
    "hookrun.exitcodes", "hookrun.fields", "hookrun.cjson", "hookrun.records", "hookrun.surrogates",
    "hookrun.startup_gc",
    # The host machinery, and of the hosts only Claude Code's module: these payloads are
    # Claude Code's shape (detection cannot tell it from Codex's or Copilot's, and that
    # answer is Claude Code's shape restricted), and hookrun.hosts is a static table.
    "hookrun.hosts", "hookrun.hosts.bridge", "hookrun.hosts.detect",
    "hookrun.hosts.base", "hookrun.hosts.kinds", "hookrun.hosts.claude",
}  # fmt: skip
# --host hookrun: the neutral shape knows every host's tool names, so it loads every host.
EVERY_HOST = {"hookrun.hosts.*"}
# A config read from the cache (hookrun.config.cache): no parser, no loader.
CACHED_CONFIG = {"hookrun.config.cache"}
# A config read from its file (the first run, or after it changed), and stored.
CONFIG_FILE = CACHED_CONFIG | {
    "hookrun.config.errors", "hookrun.config.jsonc", "hookrun.config.loader",
    "hookrun.config.plain", "hookrun.config.quote",
    "json", "json.decoder", "json.encoder", "json.scanner",
}  # fmt: skip
# echo of literal words and exit N are answered from their text (hookrun.dispatch.trivial):
# no shell, no process machinery.
TRIVIAL_COMMANDS = {"hookrun.dispatch.trivial", "hookrun.dispatch.result"}
# No typing: the options of a hook without `with` are its defaults, annotations unread
# (hookrun.hooks.options); hookrun.hooks.option_types (typing) loads for options given.
SHELL_GUARD_SCREEN = THREADS | {
    "hookrun.hooks", "hookrun.hooks.registry", "hookrun.hooks.base", "hookrun.hooks.options",
    "hookrun.hooks.shell_guard", "hookrun.hooks.shell_guard.options",
    "hookrun.hooks.shell_guard.screen", "hookrun.hooks.shell_guard.heads",
    "hookrun.hooks.shell_guard.wrappers", "hookrun.hooks.shell_guard.names",
}  # fmt: skip

CASES = {
    "inline hooks only": (
        ["run", "PreToolUse", "--config", "inline.json"],
        BASH,
        STDLIB | CORE | CONFIG_FILE | TRIVIAL_COMMANDS,
    ),
    "shell-guard configured, event without it (SessionStart)": (
        ["run", "SessionStart", "--config", "guard.json"],
        START,
        STDLIB
        | CORE
        | CONFIG_FILE
        | TRIVIAL_COMMANDS
        | {"hookrun.hooks", "hookrun.hooks.registry"},
    ),
    "shell-guard runs on a benign Bash call": (
        ["run", "PreToolUse", "--config", "guard.json"],
        BASH,
        STDLIB | CORE | CONFIG_FILE | SHELL_GUARD_SCREEN | TRIVIAL_COMMANDS,
    ),
    "hookrun policy shell-guard on a benign Bash call": (
        ["policy", "shell-guard"],
        BASH,
        # its answer is hookrun's own shape by default: the neutral host module
        STDLIB
        | CORE
        | SHELL_GUARD_SCREEN
        | TRIVIAL_COMMANDS
        | {"hookrun.cli.commands.policy", "hookrun.hosts.neutral"},
    ),
    "inline hooks only, the config found by discovery": (
        ["run", "PreToolUse"],
        BASH,
        STDLIB | CORE | CONFIG_FILE | TRIVIAL_COMMANDS,
    ),
    "inline hooks only, answered in the neutral shape": (
        ["run", "PreToolUse", "--config", "inline.json", "--host", "hookrun"],
        BASH,
        STDLIB | CORE | CONFIG_FILE | TRIVIAL_COMMANDS | EVERY_HOST,
    ),
}

# What the console script runs, plus a report of the modules it added.
RUN = """
import sys
report = sys.argv.pop()
before = set(sys.modules)
from hookrun.cli.main import main
code = main()
modules = sorted(set(sys.modules) - before)  # before this report's own json
import json
with open(report, "w") as out:
    json.dump({"exit": code, "modules": modules}, out)
"""


def _bare_modules() -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", "import sys; print('\\n'.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(done.stdout.split())


def _allowed(name: str, allow: set[str]) -> bool:
    return name in allow or any(
        a.endswith(".*") and (name == a[:-2] or name.startswith(a[:-1])) for a in allow
    )


# The same runs again, their config now in the cache.
CACHED = {
    "inline hooks only": STDLIB | CORE | CACHED_CONFIG | TRIVIAL_COMMANDS,
    "shell-guard configured, event without it (SessionStart)": STDLIB
    | CORE
    | CACHED_CONFIG
    | TRIVIAL_COMMANDS
    | {"hookrun.hooks", "hookrun.hooks.registry"},
}


@pytest.mark.parametrize("case", list(CACHED))
def test_a_run_with_its_config_cached_reads_no_config_file_machinery(
    case: str, tmp_path: Path
) -> None:
    argv, payload, _ = CASES[case]
    _check_run(tmp_path, argv, payload, CACHED[case], runs=2)


@pytest.mark.parametrize("case", list(CASES))
def test_a_cold_run_imports_only_its_allowlist(case: str, tmp_path: Path) -> None:
    argv, payload, allow = CASES[case]
    _check_run(tmp_path, argv, payload, allow, runs=1)


def _reporting_run(
    argv: list[str], payload: Mapping[str, object], env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[bytes], dict[str, Any]]:
    """``hookrun ARGV… REPORT`` through :data:`RUN`, in the payload's cwd: the process,
    and what it wrote to REPORT (its exit code and the modules it loaded)."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, *argv],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        cwd=str(payload["cwd"]),
        check=False,
        timeout=60,
    )
    report = Path(argv[-1])
    seen: dict[str, Any] = json.loads(report.read_text()) if report.exists() else {}
    return done, seen


def _check_run(
    tmp_path: Path, argv: list[str], payload: dict[str, object], allow: set[str], *, runs: int
) -> None:
    (tmp_path / "inline.json").write_text(json.dumps(INLINE))
    (tmp_path / "guard.json").write_text(json.dumps(GUARD))
    report = tmp_path / "modules.json"
    (tmp_path / ".hookrun").mkdir()
    (tmp_path / ".hookrun" / "hooks.json").write_text(json.dumps(INLINE))  # for discovery
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),  # no user config file
    }
    for _ in range(runs):  # the last run is the one reported
        done, seen = _reporting_run([*argv, str(report)], {**payload, "cwd": str(tmp_path)}, env)
    assert done.stderr == b""
    assert seen["exit"] == 0
    assert b"deny" not in done.stdout
    modules = set(seen["modules"]) - _bare_modules()
    never = sorted(m for m in modules if m.split(".")[0] in NEVER or m in NEVER)
    assert never == [], [f"{m}: {NEVER.get(m, NEVER.get(m.split('.')[0]))}" for m in never]
    assert sorted(m for m in modules if not _allowed(m, allow)) == []


def test_the_runs_really_ran_their_hooks(tmp_path: Path) -> None:
    """The allowlists above are of runs that answered, not of early exits."""
    (tmp_path / "inline.json").write_text(json.dumps(INLINE))
    (tmp_path / "guard.json").write_text(json.dumps(GUARD))
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(tmp_path / "cache")}

    def run(*argv: str, payload: dict[str, object]) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-m", "hookrun", *argv],
            input=json.dumps({**payload, "cwd": str(tmp_path)}).encode(),
            capture_output=True,
            env=env,
            cwd=tmp_path,
            check=False,
            timeout=60,
        )
        answer: dict[str, object] = json.loads(done.stdout)
        return answer

    inline = run("run", "PreToolUse", "--config", "inline.json", "--host", "hookrun", payload=BASH)
    assert inline["context"] == ["checked"]
    assert [h["route"] for h in inline["hooks"]] == ["inprocess", "inprocess"]  # type: ignore[index]
    guard = run("run", "PreToolUse", "--config", "guard.json", "--host", "hookrun", payload=BASH)
    assert [h["route"] for h in guard["hooks"]] == ["builtin:shell-guard"]  # type: ignore[index]
    start = run("run", "SessionStart", "--config", "guard.json", "--host", "hookrun", payload=START)
    assert start["context"] == ["hi"]
    denied = run("policy", "shell-guard", payload={**BASH, "tool_input": {"command": "rm -rf /"}})
    assert denied["decision"] == "deny"


# A line the screen cannot clear, judged: the front end's plain-line reader and the
# judgement, with no dataclasses, typing or inspect (NEVER), no compiled regex of a
# check the line does not reach (hookrun.lazyre), and of the rules only the module of
# the program the line names (not inline_code, printed, fnmatch, shapes, fallback: they
# load for node/perl code, echo/printf text, artifact globs, deny shapes, a refused line).
SHELL_GUARD_JUDGE = SHELL_GUARD_SCREEN | {
    "hookrun.hooks.shell_guard.screen_read", "hookrun.hooks.shell_guard.engine",
    "hookrun.hooks.shell_guard.indirect", "hookrun.hooks.shell_guard.judging",
    "hookrun.hooks.shell_guard.model", "hookrun.hooks.shell_guard.parse",
    "hookrun.hooks.shell_guard.paths", "hookrun.hooks.shell_guard.treewords",
    "hookrun.hooks.shell_guard.unwrap", "hookrun.hooks.shell_guard.rules", "hookrun.lazyre",
    "hookrun.shellsyntax", "hookrun.shellsyntax.nodes", "hookrun.shellsyntax.plain",
    "hookrun.shellsyntax.walk",
}  # fmt: skip
POLICY_RUN = (
    STDLIB | CORE | TRIVIAL_COMMANDS | {"hookrun.cli.commands.policy", "hookrun.hosts.neutral"}
)


@pytest.mark.parametrize(
    ("command", "rules"),
    [
        ("git push --force origin main", {"hookrun.hooks.shell_guard.rules.git"}),
        ("rm -rf /", {"hookrun.hooks.shell_guard.rules.delete"}),
    ],
)
def test_a_deny_imports_only_the_judgement_and_its_rules_module(
    command: str, rules: set[str], tmp_path: Path
) -> None:
    report = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    payload = {**BASH, "tool_input": {"command": command}, "cwd": str(tmp_path)}
    done, seen = _reporting_run(["policy", "shell-guard", str(report)], payload, env)
    assert done.stderr.startswith(b"shell-guard [")  # the reason, no traceback
    assert seen["exit"] == 2
    assert json.loads(done.stdout)["decision"] == "deny"
    modules = set(seen["modules"]) - _bare_modules()
    allow = POLICY_RUN | SHELL_GUARD_JUDGE | rules
    # (the engine and the front end are never on a cleared line's path, but are here)
    never = sorted(
        m for m in modules if (m.split(".")[0] in NEVER or m in NEVER) and not _allowed(m, allow)
    )
    assert never == [], [f"{m}: {NEVER.get(m, NEVER.get(m.split('.')[0]))}" for m in never]
    assert sorted(m for m in modules if not _allowed(m, allow)) == []


# The shell parser and the judgement, loaded only for a line the screen cannot clear.
# (tree_sitter's binding may load without its package: any module named tree_sitter*)
PARSER = ("tree_sitter", "hookrun.shellsyntax", "hookrun.hooks.shell_guard.engine")
# A line of plain simple commands is judged without tree-sitter: the front end's fast
# path reads it (hookrun/shellsyntax/plain.py).
READ = ("hookrun.shellsyntax", "hookrun.hooks.shell_guard.engine")


@pytest.mark.parametrize(
    ("command", "loads"),
    [
        ("ls -la", ()),
        ("cd src && pytest -x tests", ()),
        ("make build; echo done", ()),
        ("git status", ()),  # a git subcommand no rule reads
        ('ls "$HOME"', ()),  # an expansion in an argument
        ("git rebase --continue", READ),  # a subcommand a rule reads: judged, then allowed
        ('ls "${HOME/x/y}" && git rebase --continue', PARSER),  # `${…}`: parsed, allowed
        ('ls "${HOME/x/y}"', PARSER),  # an expansion the screen does not read: parsed, allowed
        # (`${HOME}`, `${HOME:-x}`: read by the front end's fast path, no tree-sitter)
        ('ls "${HOME}" && git rebase --continue', READ),
        ('ls "${HOME:-x}"', READ),
    ],
)
def test_a_line_the_screen_clears_loads_no_parser(
    command: str, loads: tuple[str, ...], tmp_path: Path
) -> None:
    report = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(REPO), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    payload = {**BASH, "tool_input": {"command": command}, "cwd": str(tmp_path)}
    done, seen = _reporting_run(["policy", "shell-guard", str(report)], payload, env)
    assert done.stderr == b""
    assert seen["exit"] == 0
    assert json.loads(done.stdout)["decision"] is None
    loaded = [p for p in PARSER if any(m.startswith(p) for m in seen["modules"])]
    assert loaded == list(loads)
