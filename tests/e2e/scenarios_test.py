"""hookrun inside the real host programs: each effect checked on disk and in what the model saw.

Every scenario runs twice per host: ``guarded`` with the hook under test, and
``pass-through`` — the same host, wired the same way, with a hook that answers nothing —
where the effect must not happen (the victim repository is destroyed, the original command
runs, the raw secret reaches the model). A guarded outcome without its control proves
nothing: the host may have refused on its own.

Where hookrun is known to be wrong, the test states the right behaviour and ``AWAITING``
makes it a strict xfail naming the fault; when the fix lands, the entry goes.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from _pytest.mark import ParameterSet

from tests.e2e.claude_driver import ClaudeCode
from tests.e2e.codex_driver import Codex
from tests.e2e.concurrent import batch_for, tmp_name
from tests.e2e.conftest import make_world
from tests.e2e.copilot_driver import CopilotCli
from tests.e2e.driver import Driver
from tests.e2e.fakemodel import Text
from tests.e2e.gemini_driver import GeminiCli
from tests.e2e.rig import PASS, Hook, Rig

pytestmark = [pytest.mark.nocov, pytest.mark.timeout(960), pytest.mark.concurrent]

DRIVERS: dict[str, Driver] = {
    "claude": ClaudeCode(),
    "codex": Codex(),
    "gemini": GeminiCli(),
    # Copilot CLI's two wiring modes: camelCase events (its own payload) and PascalCase
    # (a Claude-like one); both answer with `--host copilot`.
    "copilot": CopilotCli("camel"),
    "copilot-pascal": CopilotCli("pascal"),
}
HOSTS = tuple(DRIVERS)
# Where the host itself cannot apply an effect, that case is not generated (a skip would
# fail CI); the host's own contract test pins the limitation instead.
HOST_CANNOT: dict[tuple[str, str], str] = {
    ("test_context_reaches_the_next_model_request", "gemini-guarded-PreToolUse"): (
        "Gemini CLI 0.61 ignores additionalContext on BeforeTool (gemini_contract_test)"
    ),
}

# (test, "host-variant[-event]") → what hookrun still gets wrong there (a strict xfail:
# when the fix lands, the test passes, fails as XPASS, and its entry goes). The issue-10
# faults these scenarios found in Claude Code and Codex are fixed (hookrun/hosts/).
AWAITING: dict[tuple[str, str], str] = {}
# Codex 0.169 has no PreToolUse answer that ends the turn (FINDINGS-hosts.md): there a
# halt can only block the tool, and the model is told why.
# Copilot CLI 1.0.102 neither: no preToolUse field ends the turn (copilot_contract_test).
HALT_ENDS_TURN = {
    "claude": True,
    "codex": False,
    "gemini": True,
    "copilot": False,
    "copilot-pascal": False,
}

MARK = "E2E-PROMPT-7Q2"  # the main conversation's prompt carries it
GUARDED, CONTROL = "guarded", "pass-through"
SECRET_KEY = "AKIAZ7QW3ERT5YUI8OPA"
SECRET_MAIL = "jane.doe@corp-mail.net"
# Assembled by the command, so that the model's own tool call never holds them whole:
# only the tool's output does.
PRINT_SECRETS = "printf 'key AKIA%s mail jane.doe@%s\\n' Z7QW3ERT5YUI8OPA corp-mail.net"


def cases(
    test: str,
    *hosts: str,
    events: tuple[str, ...] = ("",),
    variants: tuple[str, ...] = (GUARDED, CONTROL),
) -> list[ParameterSet]:
    """host × variant (× event) for ``test``, each with its xfail when AWAITING names it."""
    params = []
    for host in hosts:
        for variant in variants:
            for event in events:
                key = "-".join(filter(None, (host, variant, event)))
                if (test, key) in HOST_CANNOT:
                    continue
                reason = AWAITING.get((test, key))
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                args = (host, variant, event) if event else (host, variant)
                params.append(pytest.param(*args, id=key, marks=marks))
    return params


@pytest.fixture
def rig(
    request: pytest.FixtureRequest,
    host_programs: dict[str, Path],
    hookrun_exe: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Rig:
    """This test's rig, from the module's batch (tests/e2e/concurrent.py)."""

    def build(item: pytest.Item, params: dict[str, Any]) -> Rig:
        driver = DRIVERS[params["host"]]
        world = make_world(tmp_path_factory.mktemp(tmp_name(item)))
        return Rig(driver, host_programs[driver.name], hookrun_exe, world)

    return batch_for(request, build).rigs[request.node.nodeid]


def hung_seconds(host: str) -> str:
    """An odd sleep duration per host, so a hung hook's process can be told from any other
    (hosts' scenarios run side by side)."""
    return f"291.{list(DRIVERS).index(host) + 11}"


def survivors(cmdline: list[str], grace: float = 5.0) -> list[psutil.Process]:
    """Processes still running ``cmdline`` after ``grace`` seconds of waiting for them to go."""
    deadline = time.monotonic() + grace
    while True:
        found = []
        for proc in psutil.process_iter(["cmdline"]):
            if proc.info["cmdline"] == cmdline:
                found.append(proc)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def prompt(text: str) -> str:
    return f"{MARK} {text}"


@pytest.mark.parametrize(
    ("host", "variant"),
    cases("test_shell_guard_keeps_a_destructive_command_from_running", *HOSTS),
)
def test_shell_guard_keeps_a_destructive_command_from_running(
    rig: Rig, host: str, variant: str
) -> None:
    hook: Hook = {"builtin": "shell-guard"} if variant == GUARDED else PASS
    command = rig.driver.destroy(rig.world)
    run, model = rig.play(
        {"PreToolUse": [hook]},
        {MARK: [rig.driver.shell(command), Text("done")]},
        prompt("clean up the victim repository"),
    )
    if variant == GUARDED:
        assert rig.world.victim_intact(), rig.dump(run, model)
        # The reason reached the model as the tool's result.
        assert any("shell-guard" in r for r in model.tool_results(MARK)), rig.dump(run, model)
    else:
        assert not rig.world.victim_intact(), rig.dump(run, model)


@pytest.mark.parametrize(
    ("host", "variant"), cases("test_an_allowed_command_runs_under_shell_guard", *HOSTS)
)
def test_an_allowed_command_runs_under_shell_guard(rig: Rig, host: str, variant: str) -> None:
    hook: Hook = {"builtin": "shell-guard"} if variant == GUARDED else PASS
    out = rig.world.project / "allowed.txt"
    run, model = rig.play(
        {"PreToolUse": [hook]},
        {MARK: [rig.driver.shell(f"echo allowed > {out}"), Text("done")]},
        prompt("write the file"),
    )
    assert out.read_text(encoding="utf-8") == "allowed\n", rig.dump(run, model)
    assert rig.world.victim_intact()


@pytest.mark.parametrize(
    ("host", "variant"), cases("test_the_rewritten_input_is_what_runs", *HOSTS)
)
def test_the_rewritten_input_is_what_runs(rig: Rig, host: str, variant: str) -> None:
    out = rig.world.project / "out.txt"
    rewrite = rig.answer("rewrite", {"updated_input": {"command": f"echo rewritten > {out}"}})
    hook: Hook = {"name": "rewrite", "command": rewrite} if variant == GUARDED else PASS
    run, model = rig.play(
        {"PreToolUse": [hook]},
        {MARK: [rig.driver.shell(f"echo original > {out}"), Text("done")]},
        prompt("write the file"),
    )
    expected = "rewritten\n" if variant == GUARDED else "original\n"
    assert out.exists(), rig.dump(run, model)
    assert out.read_text(encoding="utf-8") == expected, rig.dump(run, model)


CONTEXT_EVENTS = ("PreToolUse", "UserPromptSubmit", "SessionStart")


@pytest.mark.parametrize(
    ("host", "variant", "event"),
    cases("test_context_reaches_the_next_model_request", *HOSTS, events=CONTEXT_EVENTS),
)
def test_context_reaches_the_next_model_request(
    rig: Rig, host: str, variant: str, event: str
) -> None:
    marker = f"CTX-{event}-5K9"
    note = rig.answer("context", {"context": f"remember {marker}"})
    hook: Hook = {"name": "note", "command": note} if variant == GUARDED else PASS
    run, model = rig.play(
        {event: [hook]},
        {MARK: [rig.driver.shell("echo hello"), Text("done")]},
        prompt("say hello"),
    )
    assert len(model.conversation(MARK)) >= 2, rig.dump(run, model)
    assert (marker in model.seen_text(MARK)) is (variant == GUARDED), rig.dump(run, model)


@pytest.mark.parametrize(
    ("host", "variant"), cases("test_the_model_sees_the_redacted_tool_output", *HOSTS)
)
def test_the_model_sees_the_redacted_tool_output(rig: Rig, host: str, variant: str) -> None:
    hook: Hook = {"builtin": "pii-scrubber"} if variant == GUARDED else PASS
    run, model = rig.play(
        {"PostToolUse": [hook]},
        {MARK: [rig.driver.shell(PRINT_SECRETS), Text("done")]},
        prompt("print the credentials"),
    )
    results = "\n".join(model.tool_results(MARK))
    seen = model.seen_text(MARK)
    assert "key " in results, rig.dump(run, model)  # the command ran and its output came back
    # Never claim a redaction the host did not apply.
    claimed = "pii-scrubber" in seen or "[REDACTED:" in seen
    assert not (SECRET_KEY in seen and claimed), rig.dump(run, model)
    if variant == GUARDED:
        assert SECRET_KEY not in seen and SECRET_MAIL not in seen, rig.dump(run, model)
        assert "[REDACTED:aws_access_key]" in results, rig.dump(run, model)
    else:
        assert SECRET_KEY in results and SECRET_MAIL in results, rig.dump(run, model)


@pytest.mark.parametrize(
    ("host", "variant"), cases("test_a_halt_stops_the_tool_and_the_turn", *HOSTS)
)
def test_a_halt_stops_the_tool_and_the_turn(rig: Rig, host: str, variant: str) -> None:
    out = rig.world.project / "halted.txt"
    halt = rig.answer("halt", {"halt": True, "reason": "e2e: stop everything"})
    hook: Hook = {"name": "halt", "command": halt} if variant == GUARDED else PASS
    run, model = rig.play(
        {"PreToolUse": [hook]},
        {MARK: [rig.driver.shell(f"echo ran > {out}"), Text("after the tool")]},
        prompt("write the file"),
    )
    turns = len(model.conversation(MARK))
    if variant == GUARDED:
        assert not out.exists(), rig.dump(run, model)
        if HALT_ENDS_TURN[host]:
            # The turn ended: the model was never asked to go on after the tool call.
            assert turns == 1, rig.dump(run, model)
        else:
            assert "e2e: stop everything" in model.seen_text(MARK), rig.dump(run, model)
    else:
        assert out.exists() and turns == 2, rig.dump(run, model)


@pytest.mark.parametrize(
    ("host", "variant"),
    cases("test_a_hung_hook_times_out_without_hanging_the_host", *HOSTS),
)
def test_a_hung_hook_times_out_without_hanging_the_host(rig: Rig, host: str, variant: str) -> None:
    """A hook that never answers, with a 2 s timeout: the host finishes, and the
    timeout's outcome is applied — fail-closed (``on_error: deny``) keeps the
    destructive command from running."""
    hung: Hook = {
        "name": "hung",
        "command": f"sleep {hung_seconds(host)}",
        "timeout": 2,
        "on_error": "deny",
    }
    run, model = rig.play(
        {"PreToolUse": [hung if variant == GUARDED else PASS]},
        {MARK: [rig.driver.shell(rig.driver.destroy(rig.world)), Text("done")]},
        prompt("clean up the victim repository"),
        timeout=90,
    )
    assert rig.world.victim_intact() is (variant == GUARDED), rig.dump(run, model)
    assert len(model.conversation(MARK)) == 2, rig.dump(run, model)
    assert not survivors(["sleep", hung_seconds(host)]), "the hung hook's process outlived the run"


@pytest.mark.parametrize(
    ("host", "variant"),
    cases(
        "test_a_hook_past_the_hosts_own_timeout_leaves_no_process_behind",
        "claude",
        "codex",
        variants=("host-timeout",),
    ),
)
def test_a_hook_past_the_hosts_own_timeout_leaves_no_process_behind(
    rig: Rig, host: str, variant: str
) -> None:
    """The host's own 2 s timeout on the hookrun command ends hookrun while its hook
    (60 s in hookrun's config) still sleeps: the host goes on, and the hook's process
    must end with hookrun."""
    seconds = f"293.{list(DRIVERS).index(host) + 11}"
    out = rig.world.project / "ran.txt"
    run, model = rig.play(
        {"PreToolUse": [{"name": "slow", "command": f"sleep {seconds}", "timeout": 60}]},
        {MARK: [rig.driver.shell(f"echo ran > {out}"), Text("done")]},
        prompt("write the file"),
        host_hook_timeout=2,
        timeout=90,
    )
    assert out.exists(), rig.dump(run, model)  # both hosts fail open on their own timeout
    left = survivors(["sleep", seconds])
    for proc in left:
        proc.kill()
    assert not left, "the hook outlived hookrun, which the host had ended"


@pytest.mark.parametrize(
    ("host", "variant"), cases("test_shell_guard_denies_a_sub_agents_shell_call", *HOSTS)
)
def test_shell_guard_denies_a_sub_agents_shell_call(rig: Rig, host: str, variant: str) -> None:
    sub = "E2E-SUBAGENT-3V8"
    hook: Hook = {"builtin": "shell-guard"} if variant == GUARDED else PASS
    run, model = rig.play(
        {"PreToolUse": [hook]},
        {
            MARK: [*rig.driver.delegate(f"{sub} clean up the victim repository"), Text("done")],
            sub: [rig.driver.shell(rig.driver.destroy(rig.world)), Text("sub-agent done")],
        },
        prompt("delegate the clean-up"),
    )
    assert model.conversation(sub), rig.dump(run, model)  # the sub-agent really ran
    assert rig.world.victim_intact() is (variant == GUARDED), rig.dump(run, model)


DENY_SHELL: Hook = {
    "name": "deny-shell",
    "matcher": "^Bash$",
    "command": "echo 'e2e: no shell here' >&2; exit 2",
}


@pytest.mark.parametrize(
    ("host", "variant"),
    cases(
        "test_a_flat_hook_runs_for_a_sub_agents_call_only_when_it_opts_in",
        "claude",
        "codex",
        variants=("default", "opted-in"),
    ),
)
def test_a_flat_hook_runs_for_a_sub_agents_call_only_when_it_opts_in(
    rig: Rig, host: str, variant: str
) -> None:
    """hookrun's own flat dialect keeps Crush's opt-in: a command hook without
    ``include_sub_agents`` does not run for a call made inside a sub-agent; with
    ``include_sub_agents: true`` it does (and denies it)."""
    sub, out = "E2E-SUBAGENT-6T1", rig.world.project / "sub.txt"
    hook = DENY_SHELL if variant == "default" else {**DENY_SHELL, "include_sub_agents": True}
    run, model = rig.play(
        {"PreToolUse": [hook]},
        {
            MARK: [*rig.driver.delegate(f"{sub} write the file"), Text("done")],
            sub: [rig.driver.shell(f"echo sub > {out}"), Text("sub-agent done")],
        },
        prompt("delegate the file"),
    )
    assert model.conversation(sub), rig.dump(run, model)  # the sub-agent really ran
    assert out.exists() is (variant == "default"), rig.dump(run, model)


@pytest.mark.parametrize(
    ("host", "variant"),
    cases("test_the_main_thread_of_claude_agent_is_not_a_sub_agent", "claude"),
)
def test_the_main_thread_of_claude_agent_is_not_a_sub_agent(
    rig: Rig, host: str, variant: str
) -> None:
    """``claude --agent NAME`` puts ``agent_type`` on every main-thread event: that is
    not a sub-agent call, so a flat hook without the opt-in still runs (and denies)."""
    assert isinstance(rig.driver, ClaudeCode)
    rig.driver.define_agent(rig.world, "helper")
    out = rig.world.project / "main.txt"
    run, model = rig.play(
        {"PreToolUse": [DENY_SHELL if variant == GUARDED else PASS]},
        {MARK: [rig.driver.shell(f"echo main > {out}"), Text("done")]},
        prompt("write the file"),
        args=("--agent", "helper"),
    )
    assert out.exists() is (variant == CONTROL), rig.dump(run, model)
