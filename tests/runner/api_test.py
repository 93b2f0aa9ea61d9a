"""The Runner end to end, with real hook processes (shebang scripts run by dispatch)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import stat
import sys
import textwrap
import threading
import time
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import psutil
import pytest

from hookrun import Runner, RunResult
from hookrun.config.matchers import compile_matcher
from hookrun.config.spec import Config, HookSpec
from hookrun.dispatch.cancel import CancelToken
from hookrun.hooks import registry
from hookrun.hooks.base import Policy, PolicyContext, Verdict
from hookrun.hooks.options import NoOptions
from hookrun.runner import PayloadError
from tests.timing import soon_after

BASH = {"tool_name": "bash", "tool_input": {"command": "ls"}, "session_id": "s1"}


def script(root: Path, name: str, body: str) -> str:
    """A Python hook script with a shebang; returns the command that runs it."""
    path = root / name
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return f"./{name}"


def hook(
    command: str | None = None,
    *,
    name: str | None = None,
    event: str = "PreToolUse",
    builtin: str | None = None,
    options: Mapping[str, Any] | None = None,
    matcher: str | None = None,
    timeout: float = 30.0,
    on_error: str = "allow",
    env: Mapping[str, str] | None = None,
    subs: bool = False,
    index: int = 0,
) -> HookSpec:
    return HookSpec(
        event=event,
        source=f"hooks.json#{event}[{index}]",
        name=name or (builtin or (command or "").split()[0].rsplit("/", 1)[-1]),
        command=command,
        builtin=builtin,
        options=options or {},
        matcher=matcher,
        compiled_matcher=compile_matcher(matcher) if matcher else None,
        timeout=timeout,
        on_error=on_error,  # type: ignore[arg-type]
        env=env or {},
        include_sub_agents=subs,
    )


def runner(
    root: Path, *hooks: HookSpec, audit_log: str | None = None, env: Mapping[str, str] | None = None
) -> Runner:
    by_event: dict[str, list[HookSpec]] = {}
    for i, spec in enumerate(hooks):
        by_event.setdefault(spec.event, []).append(
            spec._replace(source=f"hooks.json#{spec.event}[{i}]")
        )
    config = Config(hooks={k: tuple(v) for k, v in by_event.items()}, audit_log=audit_log)
    return Runner(config, cwd=root, project_dir=root, env=env)


def all_gone(pid_file: Path) -> bool:
    """Every process whose pid the hooks wrote to ``pid_file`` has ended (zombies count
    as ended: only their parent's wait is missing)."""
    pids = [int(p) for p in pid_file.read_text().split()] if pid_file.exists() else []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            continue
    return True


# -- what a hook receives ------------------------------------------------------------------

DUMP = """
import json, os, sys
data = json.load(sys.stdin)
env = {k: v for k, v in os.environ.items()
       if k.startswith(("HOOKRUN", "CRUSH_", "CLAUDE_", "MY_", "HOST_"))}
json.dump({"stdin": data, "env": env, "cwd": os.getcwd()}, open(sys.argv[1], "w"))
"""


def test_a_hook_gets_the_payload_on_stdin_and_the_event_in_its_env(tmp_path: Path) -> None:
    out = tmp_path / "dump.json"
    cmd = script(tmp_path, "dump.py", DUMP) + f" {out}"
    r = runner(tmp_path, hook(cmd, env={"MY_VAR": "mine"}), env={**os.environ, "HOST_X": "host"})
    payload = {
        "tool_name": "bash",
        "tool_input": {"command": "rm -rf /", "file_path": "a.txt"},
        "session_id": "s1",
        "transcript_path": "/t.jsonl",
    }
    result = r.run("pre_tool_use", payload)
    assert result.hooks[0].error is None
    seen = json.loads(out.read_text())
    assert seen["stdin"] == {
        **payload,
        "event": "PreToolUse",
        "hook_event_name": "PreToolUse",
        "cwd": str(tmp_path),
        "project_dir": str(tmp_path),
        "is_sub_agent": False,
    }
    assert seen["cwd"] == str(tmp_path)
    common = {
        "EVENT": "PreToolUse",
        "TOOL_NAME": "bash",
        "SESSION_ID": "s1",
        "CWD": str(tmp_path),
        "PROJECT_DIR": str(tmp_path),
        "TOOL_INPUT_COMMAND": "rm -rf /",
        "TOOL_INPUT_FILE_PATH": "a.txt",
    }
    expected = {"HOOKRUN": "1", "HOOKRUN_IS_SUB_AGENT": "false", "MY_VAR": "mine"}
    expected |= {"HOST_X": "host", "CLAUDE_PROJECT_DIR": str(tmp_path)}
    for key, value in common.items():
        expected[f"HOOKRUN_{key}"] = value
        expected[f"CRUSH_{key}"] = value
    seen["env"].pop("HOOKRUN_DISPATCH_ID", None)  # dispatch's own tree marker
    assert len(seen["env"].pop("HOOKRUN_RUN_ID")) == 16  # the run's marker (random)
    expected["HOOKRUN_ENV_TRUNCATED"] = ""
    assert seen["env"] == expected


def test_a_hooks_own_env_overrides_the_hosts(tmp_path: Path) -> None:
    out = tmp_path / "dump.json"
    cmd = script(tmp_path, "dump.py", DUMP) + f" {out}"
    r = runner(tmp_path, hook(cmd, env={"HOST_X": "hook"}), env={**os.environ, "HOST_X": "host"})
    r.run("PreToolUse", BASH)
    assert json.loads(out.read_text())["env"]["HOST_X"] == "hook"


# -- answers ---------------------------------------------------------------------------------


def test_deny_by_exit_2_with_stderr_reason_and_exit_code(tmp_path: Path) -> None:
    cmd = script(tmp_path, "no.py", "import sys; sys.stderr.write('no rm\\n'); sys.exit(2)")
    result = runner(tmp_path, hook(cmd, name="no-rm")).run("PreToolUse", BASH)
    assert (result.decision, result.reason, result.exit_code) == ("deny", "no rm", 2)
    entry = result.to_dict()["hooks"][0]
    assert entry["name"] == "no-rm"
    assert entry["source"] == "hooks.json#PreToolUse[0]"
    assert entry["route"].startswith("shebang:")
    assert (entry["exit_code"], entry["decision"], entry["reason"]) == (2, "deny", "no rm")
    assert isinstance(entry["duration_ms"], float)
    assert entry["duration_ms"] == round(entry["duration_ms"], 1)


def test_claude_shaped_output_from_a_real_hook(tmp_path: Path) -> None:
    body = """
    import json
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow", "updatedInput": {"command": "ls -la"},
        "additionalContext": "listing"}}))
    """
    result = runner(tmp_path, hook(script(tmp_path, "c.py", body))).run("PreToolUse", BASH)
    assert result.decision == "allow"
    assert result.updated_input == {"command": "ls -la"}
    assert result.context == ("listing",)


def test_plain_text_is_context_on_user_prompt_submit(tmp_path: Path) -> None:
    cmd = script(tmp_path, "ctx.py", "print('Current branch: main')")
    r = runner(tmp_path, hook(cmd, event="UserPromptSubmit"))
    result = r.run("UserPromptSubmit", {"prompt": "fix it"})
    assert result.context == ("Current branch: main",)
    assert result.decision is None


def test_halt_exit_49(tmp_path: Path) -> None:
    cmd = script(tmp_path, "halt.py", "import sys; sys.stderr.write('stop now'); sys.exit(49)")
    result = runner(tmp_path, hook(cmd)).run("PreToolUse", BASH)
    assert (result.halt, result.reason, result.exit_code) == (True, "stop now", 49)


def test_context_files_are_resolved_confined_and_deduped(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("x")
    body = """
    import json
    print(json.dumps({"context_files": ["README.md", "./README.md", "missing.md", "/etc/passwd"]}))
    """
    r = runner(tmp_path, hook(script(tmp_path, "f.py", body), event="UserPromptSubmit"))
    assert r.run("UserPromptSubmit", {"prompt": "x"}).context_files == ("README.md",)


def test_a_slow_first_hooks_patch_still_loses_to_a_fast_later_one(tmp_path: Path) -> None:
    slow = script(
        tmp_path,
        "slow.py",
        """
        import json, time
        time.sleep(0.4)
        print(json.dumps({"updated_input": {"command": "slow", "slow": True}}))
        """,
    )
    fast = script(
        tmp_path,
        "fast.py",
        'import json; print(json.dumps({"updated_input": {"command": "fast"}}))',
    )
    result = runner(tmp_path, hook(slow), hook(fast)).run("PreToolUse", BASH)
    assert [h.name for h in result.hooks] == ["slow.py", "fast.py"]
    assert result.hooks[0].duration_ms > result.hooks[1].duration_ms
    assert result.updated_input == {"command": "fast", "slow": True}


def test_identical_commands_run_once(tmp_path: Path) -> None:
    counter = tmp_path / "count"
    cmd = script(tmp_path, "count.py", f"open({str(counter)!r}, 'a').write('x')")
    result = runner(tmp_path, hook(cmd), hook(cmd), hook(cmd)).run("PreToolUse", BASH)
    assert len(result.hooks) == 1
    assert counter.read_text() == "x"


def test_sub_agent_calls_run_only_opted_in_hooks(tmp_path: Path) -> None:
    a = script(tmp_path, "a.py", "")
    b = script(tmp_path, "b.py", "")
    r = runner(tmp_path, hook(a), hook(b, subs=True))
    result = r.run("PreToolUse", {**BASH, "is_sub_agent": True})
    assert [h.name for h in result.hooks] == ["b.py"]
    assert [s.name for s in r.select("PreToolUse", {**BASH, "is_sub_agent": True})] == ["b.py"]
    assert [s.name for s in r.select("PreToolUse", BASH)] == ["a.py", "b.py"]


def test_select_applies_the_matcher_for_hookrun_list(tmp_path: Path) -> None:
    r = runner(
        tmp_path, hook("./a.sh", matcher="^bash$"), hook("./b.sh", matcher="^edit$"), hook("./c.sh")
    )
    assert [s.command for s in r.select("PreToolUse", BASH)] == ["./a.sh", "./c.sh"]
    assert [s.command for s in r.select("PreToolUse", {"tool_name": "edit"})] == [
        "./b.sh",
        "./c.sh",
    ]
    assert r.select("Stop") == []


def test_an_event_without_hooks_answers_no_opinion(tmp_path: Path) -> None:
    result = runner(tmp_path).run("SessionEnd", {})
    assert result.to_dict()["hooks"] == []
    assert (result.decision, result.exit_code) == (None, 0)


# -- failing hooks --------------------------------------------------------------------------


def test_crashing_hanging_flooding_and_missing_hooks_still_produce_an_answer(
    tmp_path: Path,
) -> None:
    crash = script(tmp_path, "crash.py", "raise SystemExit('boom')")
    pids = tmp_path / "pids"
    hang = script(
        tmp_path,
        "hang.py",
        f"import os, time; open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n'); time.sleep(60)",
    )
    flood = script(
        tmp_path,
        "flood.py",
        "import sys\nfor _ in range(200): sys.stdout.write('x' * 65536)\nsys.stdout.flush()",
    )
    ok = script(tmp_path, "ok.py", 'print(\'{"decision": "allow", "context": "fine"}\')')
    hooks = [
        hook(crash),
        hook(hang, timeout=2),
        hook(flood),
        hook("./missing.sh"),
        hook(ok),
    ]
    config = Config(hooks={"PreToolUse": tuple(hooks)})
    r = Runner(config, cwd=tmp_path, project_dir=tmp_path, max_output=64 * 1024)
    started = time.monotonic()
    result = r.run("PreToolUse", BASH)
    soon_after(time.monotonic() - started, 2, idle_bound=10)  # the hang alone would take 60 s
    assert (result.decision, result.context, result.exit_code) == ("allow", ("fine",), 0)
    by_name = {h.name: h for h in result.hooks}
    assert by_name["crash.py"].error == "exit 1: boom"
    assert by_name["hang.py"].timed_out and by_name["hang.py"].error == "timed out after 2s"
    assert (by_name["flood.py"].error or "").endswith("(stdout was cut at the capture limit)")
    assert by_name["missing.sh"].error and "missing.sh" in by_name["missing.sh"].error
    assert by_name["ok.py"].error is None
    assert pids.exists() and all_gone(pids)


def test_on_error_deny_turns_a_crash_into_a_deny_naming_the_hook(tmp_path: Path) -> None:
    crash = script(tmp_path, "crash.py", "import sys; sys.exit(3)")
    ok = script(tmp_path, "ok.py", 'print(\'{"decision": "allow"}\')')
    result = runner(tmp_path, hook(crash, name="guard", on_error="deny"), hook(ok)).run(
        "PreToolUse", BASH
    )
    assert result.decision == "deny"
    assert result.reason == "hook guard failed (exit 3) and is set to on_error: deny"
    assert result.exit_code == 2


def test_on_error_deny_covers_a_missing_script(tmp_path: Path) -> None:
    result = runner(tmp_path, hook("./nope.sh", name="nope", on_error="deny")).run(
        "PreToolUse", BASH
    )
    assert result.decision == "deny"
    assert result.reason is not None and result.reason.startswith("hook nope failed (")


def test_a_one_second_timeout_returns_in_under_three_seconds(tmp_path: Path) -> None:
    hang = script(tmp_path, "hang.py", "import time; time.sleep(30)")
    started = time.monotonic()
    result = runner(tmp_path, hook(hang, timeout=1)).run("PreToolUse", BASH)
    soon_after(time.monotonic() - started, 1, idle_bound=3)  # the hook sleeps 30 s
    assert result.hooks[0].timed_out


# -- parallelism and cancellation ------------------------------------------------------------


def test_hooks_run_in_parallel_wall_time_is_the_slowest_not_the_sum(tmp_path: Path) -> None:
    # Inline shell commands (distinct by their index: identical ones would run once).
    # Every hook has started before any has ended: each stamps its start and its end,
    # 2 s apart (an elapsed-time bound, 4 x 0.5 s in < 1.5 s, is what a loaded machine
    # breaks; run one after another, the first ends before the second starts).
    stamp = "$(date +%s.%N)"
    hooks = [
        hook(f"echo {stamp} > {tmp_path}/start.{i}; sleep 2; echo {stamp} > {tmp_path}/end.{i}")
        for i in range(4)
    ]
    result = runner(tmp_path, *hooks).run("PreToolUse", BASH)
    assert [(h.exit_code, h.error) for h in result.hooks] == [(0, None)] * 4
    starts = [float((tmp_path / f"start.{i}").read_text()) for i in range(4)]
    ends = [float((tmp_path / f"end.{i}").read_text()) for i in range(4)]
    assert max(starts) < min(ends), (starts, ends)


def test_cancel_from_another_thread_ends_every_hook_tree(tmp_path: Path) -> None:
    # Each hook starts a grandchild, so "tree" is what is tested.
    pids = tmp_path / "pids"
    body = f"""
    import os, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    open({str(pids)!r}, "a").write(f"{{os.getpid()}}\\n{{child.pid}}\\n")
    time.sleep(60)
    """
    hooks = [hook(script(tmp_path, f"h{i}.py", body), index=i) for i in range(3)]
    r = runner(tmp_path, *hooks)
    token = CancelToken()
    cancelled_at: list[float] = []

    def cancel_once_all_started() -> None:
        for _ in range(1000):
            if pids.exists() and len(pids.read_text().split()) == 6:
                break
            time.sleep(0.02)
        cancelled_at.append(time.monotonic())
        token.cancel()

    threading.Thread(target=cancel_once_all_started).start()
    result = r.run("PreToolUse", BASH, cancel=token)
    soon_after(time.monotonic() - cancelled_at[0], 0, idle_bound=4)  # the hooks sleep 60 s
    assert len(pids.read_text().split()) == 6
    assert result.cancelled and result.exit_code == 130
    assert all(h.error == "cancelled" for h in result.hooks)
    assert all_gone(pids)


def test_cancelling_an_arun_task_kills_the_hooks_and_reraises(tmp_path: Path) -> None:
    marker = tmp_path / "pids"
    body = f"""
    import os, time
    open({str(marker)!r}, "a").write(str(os.getpid()) + "\\n")
    time.sleep(60)
    """
    r = runner(tmp_path, hook(script(tmp_path, "h.py", body)))

    async def main() -> float:
        task = asyncio.create_task(r.arun("PreToolUse", BASH))
        for _ in range(1000):
            await asyncio.sleep(0.02)
            if marker.exists() and marker.read_text().strip():  # created, then written
                break
        cancelled_at = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - cancelled_at

    # The hook sleeps 60 s: re-raising within seconds means it was ended, not awaited.
    assert asyncio.run(main()) < 10
    pid = int(marker.read_text().split()[0])
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_arun_returns_the_same_answer_as_run(tmp_path: Path) -> None:
    cmd = script(tmp_path, "no.py", "import sys; sys.stderr.write('no'); sys.exit(2)")
    r = runner(tmp_path, hook(cmd))
    result = asyncio.run(r.arun("PreToolUse", BASH))
    assert isinstance(result, RunResult)
    assert (result.decision, result.reason) == ("deny", "no")


# -- payload errors ---------------------------------------------------------------------------


@pytest.mark.parametrize("payload", [[1], "x", {"cwd": "/no/such/dir/x"}])
def test_a_broken_payload_raises_payload_error_from_run_and_arun(
    tmp_path: Path, payload: Any
) -> None:
    r = runner(tmp_path, hook("./x.sh"))
    with pytest.raises(PayloadError):
        r.run("PreToolUse", payload)
    with pytest.raises(PayloadError):
        asyncio.run(r.arun("PreToolUse", payload))
    with pytest.raises(PayloadError):
        r.select("PreToolUse", payload)


# -- builtins ---------------------------------------------------------------------------------


class WordOptions(NamedTuple):
    word: str = "rm"


BINDS: list[Mapping[str, Any]] = []


def _decide_word(payload: Mapping[str, Any], options: WordOptions, ctx: PolicyContext) -> Verdict:
    command = str(payload.get("tool_input", {}).get("command", ""))
    if options.word in command:
        return Verdict(decision="deny", reason=f"{options.word} is not allowed", rule="word")
    return Verdict(context=(f"checked in {ctx.project_dir}",), updated_input={"checked": True})


def _decide_boom(payload: Mapping[str, Any], options: NoOptions, ctx: PolicyContext) -> Verdict:
    raise ValueError("policy bug")


HANG = threading.Event()


def _decide_hang(payload: Mapping[str, Any], options: NoOptions, ctx: PolicyContext) -> Verdict:
    HANG.wait(30)
    return Verdict(decision="allow")


class CountingPolicy(Policy[WordOptions]):
    def bind(self, raw: Mapping[str, Any]) -> WordOptions:
        BINDS.append(raw)
        return super().bind(raw)


@pytest.fixture
def policies(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    module = types.ModuleType("hookrun_test_policies")
    module.WORD = CountingPolicy(  # type: ignore[attr-defined]
        name="test-word", options=WordOptions, decide=_decide_word
    )
    module.BOOM = Policy(  # type: ignore[attr-defined]
        name="test-boom", options=NoOptions, decide=_decide_boom
    )
    module.HANG = Policy(  # type: ignore[attr-defined]
        name="test-hang", options=NoOptions, decide=_decide_hang
    )
    monkeypatch.setitem(sys.modules, "hookrun_test_policies", module)
    monkeypatch.setitem(
        registry.ENTRIES,
        "test-word",
        registry.Entry("test-word", "hookrun_test_policies:WORD", "", ""),
    )
    monkeypatch.setitem(
        registry.ENTRIES,
        "test-boom",
        registry.Entry("test-boom", "hookrun_test_policies:BOOM", "", ""),
    )
    monkeypatch.setitem(
        registry.ENTRIES,
        "test-hang",
        registry.Entry("test-hang", "hookrun_test_policies:HANG", "", ""),
    )
    BINDS.clear()
    HANG.clear()
    yield
    HANG.set()


def test_a_builtin_answers_like_a_command_hook(tmp_path: Path, policies: None) -> None:
    r = runner(tmp_path, hook(builtin="test-word", options={"word": "rm"}))
    denied = r.run("PreToolUse", {"tool_name": "bash", "tool_input": {"command": "rm -rf /"}})
    assert (denied.decision, denied.reason, denied.exit_code) == ("deny", "rm is not allowed", 2)
    entry = denied.to_dict()["hooks"][0]
    assert (entry["route"], entry["exit_code"], entry["name"]) == (
        "builtin:test-word",
        2,
        "test-word",
    )
    allowed = r.run("PreToolUse", BASH)
    assert allowed.decision is None
    assert allowed.context == (f"checked in {tmp_path}",)
    assert allowed.updated_input == {"command": "ls", "checked": True}


def test_builtin_options_are_bound_once_not_per_call(tmp_path: Path, policies: None) -> None:
    r = runner(tmp_path, hook(builtin="test-word", options={"word": "x"}))
    for _ in range(5):
        r.run("PreToolUse", BASH)
    assert BINDS == [{"word": "x"}]


def test_a_raising_builtin_is_that_hooks_error_and_on_error_applies(
    tmp_path: Path, policies: None
) -> None:
    r = runner(tmp_path, hook(builtin="test-boom", name="boom", on_error="deny"))
    result = r.run("PreToolUse", BASH)
    assert result.hooks[0].error == "builtin test-boom raised ValueError: policy bug"
    assert result.decision == "deny"


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        (
            hook(builtin="no-such-policy"),
            'unknown builtin "no-such-policy" (known: ',
        ),
        (
            hook(builtin="test-word", options={"wrod": "x"}),
            'builtin "test-word": invalid options: with.wrod: Extra inputs are not permitted',
        ),
    ],
    ids=["unknown", "bad-options"],
)
def test_a_builtin_that_cannot_be_set_up_fails_at_each_run_not_at_construction(
    tmp_path: Path, policies: None, spec: HookSpec, error: str
) -> None:
    r = runner(tmp_path, spec)
    result = r.run("PreToolUse", BASH)
    assert (result.hooks[0].error or "").startswith(error)
    assert result.hooks[0].exit_code == 1


def test_a_hanging_builtin_is_abandoned_at_its_timeout(tmp_path: Path, policies: None) -> None:
    ok = script(tmp_path, "ok.py", 'print(\'{"decision": "allow"}\')')
    r = runner(tmp_path, hook(builtin="test-hang", timeout=0.5), hook(ok))
    started = time.monotonic()
    result = r.run("PreToolUse", BASH)
    soon_after(time.monotonic() - started, 0.5, idle_bound=2.5)  # the builtin never returns
    assert result.hooks[0].timed_out and result.hooks[0].exit_code == 124
    assert result.decision == "allow"


def test_cancel_stops_waiting_for_a_hanging_builtin(tmp_path: Path, policies: None) -> None:
    r = runner(tmp_path, hook(builtin="test-hang", timeout=30))
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    started = time.monotonic()
    result = r.run("PreToolUse", BASH, cancel=token)
    soon_after(time.monotonic() - started, 0.3, idle_bound=2)  # not the 30 s timeout
    assert result.cancelled and result.hooks[0].error == "cancelled"


# -- audit log ----------------------------------------------------------------------------------


def test_each_run_appends_one_audit_line(tmp_path: Path) -> None:
    log = tmp_path / ".hookrun" / "audit.jsonl"
    cmd = script(tmp_path, "no.py", "import sys; sys.stderr.write('no'); sys.exit(2)")
    r = runner(tmp_path, hook(cmd, name="no-rm"), audit_log=str(log))
    r.run("PreToolUse", BASH)
    r.run("PreToolUse", {**BASH, "session_id": "s2"})
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["session"], e["tool"], e["decision"], e["reason"]) for e in lines] == [
        ("s1", "bash", "deny", "no"),
        ("s2", "bash", "deny", "no"),
    ]
    assert lines[0]["hooks"][0]["name"] == "no-rm" and lines[0]["hooks"][0]["exit"] == 2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", lines[0]["time"])


def test_a_relative_audit_log_is_taken_against_the_runners_cwd(tmp_path: Path) -> None:
    runner(tmp_path, audit_log="logs/a.jsonl").run("Stop", {})
    assert json.loads((tmp_path / "logs" / "a.jsonl").read_text())["event"] == "Stop"


def test_an_unwritable_audit_log_is_reported_and_the_run_still_answers(tmp_path: Path) -> None:
    (tmp_path / "audit.jsonl").mkdir()
    cmd = script(tmp_path, "no.py", "import sys; sys.exit(2)")
    r = runner(tmp_path, hook(cmd), audit_log=str(tmp_path / "audit.jsonl"))
    result = r.run("PreToolUse", BASH)
    assert result.decision == "deny"
    assert result.audit_error is not None and "audit.jsonl" in result.audit_error


# -- construction from files -----------------------------------------------------------------------


def test_from_paths_and_discover_load_real_config_files(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".hookrun").mkdir()
    cmd = script(tmp_path, "no.py", "import sys; sys.stderr.write('blocked'); sys.exit(2)")
    config = {"hooks": {"PreToolUse": [{"name": "no", "matcher": "^bash$", "command": cmd}]}}
    path = tmp_path / ".hookrun" / "hooks.json"
    path.write_text(json.dumps(config))
    by_path = Runner.from_paths([path], cwd=tmp_path)
    assert by_path.project_dir == str(tmp_path)
    assert by_path.run("PreToolUse", BASH).reason == "blocked"
    assert by_path.run("PreToolUse", {"tool_name": "edit"}).hooks == ()
    found = Runner.discover(cwd=tmp_path)
    assert [s.name for s in found.select("PreToolUse", BASH)] == ["no"]


@pytest.mark.parametrize("event", ["", "  "])
def test_an_empty_event_name_is_a_payload_error(tmp_path: Path, event: str) -> None:
    with pytest.raises(PayloadError, match="empty"):
        runner(tmp_path).run(event, {})


def test_event_names_are_normalised_and_custom_events_run_their_hooks(tmp_path: Path) -> None:
    out = tmp_path / "dump.json"
    cmd = script(tmp_path, "dump.py", DUMP) + f" {out}"
    r = runner(tmp_path, hook(cmd, event="MyEvent"))
    assert r.run("MyEvent", {"anything": 1}).event == "MyEvent"
    assert json.loads(out.read_text())["stdin"]["anything"] == 1
    assert runner(tmp_path).run("pre-tool-use", {}).event == "PreToolUse"


EMBEDDED_HOST = r"""
import sys
from hookrun import Runner
from hookrun.config.spec import Config, HookSpec
cwd, pids = sys.argv[1], sys.argv[2]
hooks = tuple(
    HookSpec(event="PreToolUse", source=f"x#PreToolUse[{i}]", name=f"h{i}",
             command=f"./h.py {pids} {i}", builtin=None)
    for i in range(3)
)
Runner(Config(hooks={"PreToolUse": hooks}), cwd=cwd, project_dir=cwd).run("PreToolUse", {})
"""


def test_ctrl_c_in_an_embedding_host_ends_every_hook_before_the_exception_goes_on(
    tmp_path: Path,
) -> None:
    import signal
    import subprocess

    pids = tmp_path / "pids"
    script(
        tmp_path,
        "h.py",
        """
        import os, sys, time
        open(sys.argv[1], "a").write(f"{os.getpid()}\\n")
        time.sleep(60)
        """,
    )
    host = subprocess.Popen(
        [sys.executable, "-c", EMBEDDED_HOST, str(tmp_path), str(pids)],
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(500):
            if pids.exists() and len(pids.read_text().split()) == 3:
                break
            time.sleep(0.02)
        host.send_signal(signal.SIGINT)
        _, err = host.communicate(timeout=10)
        assert b"KeyboardInterrupt" in err
        for pid in map(int, pids.read_text().split()):
            alive = psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
            assert not alive, f"hook process {pid} survived the host's Ctrl-C"
    finally:
        # A failure must not leave the host (or its hooks) running for the rest of
        # the suite and beyond.
        if host.poll() is None:
            host.kill()
            host.communicate()
        for pid in map(int, pids.read_text().split()) if pids.exists() else ():
            with contextlib.suppress(psutil.Error):
                proc = psutil.Process(pid)
                if str(pids) in proc.cmdline():  # still our hook, not a reused pid
                    proc.kill()


def test_inline_shell_hooks_answer_through_the_in_process_shell(tmp_path: Path) -> None:
    r = runner(
        tmp_path,
        hook("""echo '{"decision": "allow", "updated_input": {"command": "ls -la"}}'"""),
        hook('[ "$HOOKRUN_TOOL_NAME" = bash ] && echo "bash is watched" >&2 && exit 2'),
    )
    result = r.run("PreToolUse", BASH)
    assert [(h.route, h.exit_code) for h in result.hooks] == [("inprocess", 0), ("inprocess", 2)]
    assert (result.decision, result.reason) == ("deny", "bash is watched")
    edit = r.run("PreToolUse", {"tool_name": "edit", "tool_input": {"file_path": "a"}})
    assert (edit.decision, edit.updated_input) == ("allow", {"file_path": "a", "command": "ls -la"})


def test_a_builtin_is_bound_only_once_it_is_first_selected(tmp_path: Path, policies: None) -> None:
    r = runner(tmp_path, hook(builtin="test-word", options={"word": "x"}, matcher="^edit$"))
    r.run("PreToolUse", BASH)
    r.select("PreToolUse", {"tool_name": "edit"})
    assert BINDS == []
    r.run("PreToolUse", {"tool_name": "edit"})
    r.run("PreToolUse", {"tool_name": "edit"})
    assert BINDS == [{"word": "x"}]


def test_arun_honours_the_callers_token_and_never_sets_it(tmp_path: Path) -> None:
    hang = script(tmp_path, "hang.py", "import time; time.sleep(60)")
    r = runner(tmp_path, hook(hang))
    shared = CancelToken()

    async def main() -> RunResult:
        asyncio.get_running_loop().call_later(0.5, shared.cancel)
        return await r.arun("PreToolUse", BASH, cancel=shared)

    result = asyncio.run(main())
    assert result.cancelled and result.exit_code == 130

    other = CancelToken()

    async def cancelled_task() -> None:
        task = asyncio.create_task(r.arun("PreToolUse", BASH, cancel=other))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancelled_task())
    assert not other.cancelled


def test_a_hand_built_config_may_spell_events_any_way(tmp_path: Path) -> None:
    no = script(tmp_path, "no.py", "import sys; sys.exit(2)")
    config = Config(hooks={"pre_tool_use": (hook(no),)})
    r = Runner(config, cwd=tmp_path, project_dir=tmp_path)
    assert r.run("PreToolUse", BASH).decision == "deny"


def test_one_runner_serves_concurrent_calls_without_mixing_them(tmp_path: Path) -> None:
    echo = script(
        tmp_path,
        "echo.py",
        """
        import json, sys
        print(json.dumps({"context": json.load(sys.stdin)["session_id"]}))
        """,
    )
    r = runner(tmp_path, hook(echo))
    results: dict[str, RunResult] = {}

    def call(session: str) -> None:
        results[session] = r.run("PreToolUse", {**BASH, "session_id": session})

    threads = [threading.Thread(target=call, args=(f"s{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert {s: res.context for s, res in results.items()} == {f"s{i}": (f"s{i}",) for i in range(8)}
