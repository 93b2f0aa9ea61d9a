"""The typer application: every command, its options and its help text.

Each command only reads its options and calls one function of a
:mod:`hookrun.cli.commands` module; what a command *does* lives there. This
module imports typer, so it is loaded only when the fast path of
:mod:`hookrun.cli.main` does not apply (help, any command other than a plain
``hookrun run``, a command line with an error).
Help texts use click's ``\\b`` marker to keep example blocks unwrapped.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from hookrun import __version__
from hookrun.boundedio import STDIN_TIMEOUT
from hookrun.cli import grammar
from hookrun.cli.commands.run import RunOptions, Streams, check_format
from hookrun.cli.payload import PayloadFlags


def _help(text: str, *examples: str) -> str:
    """A command's help: ``text``, then its example command lines in a block click
    keeps unwrapped (``\\b``)."""
    label = "Examples" if len(examples) > 1 else "Example"
    lines = "\n".join(f"  {example}" for example in examples)
    return f"{text}\n\n\b\n{label}:\n{lines}"


app = typer.Typer(
    name="hookrun",
    help=_help(
        "Run the hooks configured for an agent event and answer once.\n\n"
        "hookrun finds the hooks configured for an event (hookrun, Claude Code or Crush "
        "config), runs the matching ones in parallel, and prints one aggregated answer: "
        "allow, deny, halt, context, a rewritten input.",
        'echo \'{"tool_name":"bash","tool_input":{"command":"ls"}}\' \\\n'
        "    | hookrun run PreToolUse --trace",
        "hookrun check",
        "hookrun list PreToolUse --tool bash",
        'hookrun policy shell-guard --tool Bash --input \'{"command":"rm -rf /"}\'',
    ),
    rich_markup_mode=None,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
lockout_app = typer.Typer(
    help=_help(
        "Manage the reviewer-lockout registry of this project "
        "(.hookrun/state/lockout.json, read by the reviewer-lockout policy).",
        "hookrun lockout add src/auth.py coder --reason 'rejected in review'",
        "hookrun lockout list",
        "hookrun lockout clear src/auth.py",
    ),
    rich_markup_mode=None,
    no_args_is_help=True,
)
app.add_typer(lockout_app, name="lockout")


def _option(opt: grammar.Opt) -> Any:
    """The ``typer.Option`` of ``opt``: spellings, metavar and help from the one table."""
    return typer.Option(*opt.names, metavar=opt.metavar, help=opt.help)


ConfigOpt = Annotated[list[str] | None, _option(grammar.CONFIG)]
FormatOpt = Annotated[str, _option(grammar.FORMAT)]
TraceOpt = Annotated[bool, _option(grammar.TRACE)]
ToolOpt = Annotated[str | None, _option(grammar.TOOL)]
InputOpt = Annotated[str | None, _option(grammar.INPUT)]
PromptOpt = Annotated[str | None, _option(grammar.PROMPT)]
SessionOpt = Annotated[str | None, _option(grammar.SESSION)]
CwdOpt = Annotated[str | None, _option(grammar.CWD)]
SubAgentOpt = Annotated[bool, _option(grammar.SUB_AGENT)]
StdinTimeoutOpt = Annotated[str | None, _option(grammar.STDIN_TIMEOUT_OPT)]
FailClosedOpt = Annotated[bool, _option(grammar.FAIL_CLOSED)]
WithOpt = Annotated[list[str] | None, _option(grammar.WITH)]
WithJsonOpt = Annotated[str | None, _option(grammar.WITH_JSON)]
EventOpt = Annotated[str | None, _option(grammar.EVENT)]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hookrun {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Run the hooks configured for an agent event and answer once."""


@app.command(
    help=_help(
        "Run the hooks for EVENT and print the aggregated answer.\n\n"
        "EVENT is the host's own event name (PreToolUse, Gemini's BeforeTool, Copilot's "
        "preToolUse, Cursor's beforeShellExecution, …) and the payload is the JSON object on "
        "stdin as the host sent it (when stdin is not a terminal; empty stdin is {}); the "
        "options below override or fill its fields. --host names the host (auto recognises "
        "it; hookrun is the full envelope): the answer is written in its shape and exit "
        "code. hookrun's own exit codes: 0 allow / ask / no opinion, 2 deny (reason on "
        "stderr), 49 halt (reason on stderr), 1 hookrun's own error (bad config or payload, "
        "stdin timeout) — but 2 (deny) on an event that can block when a hook configured for "
        "it fails closed, or with --fail-closed — 130 / 143 / 129 interrupted by SIGINT / "
        "SIGTERM / SIGHUP after every hook was stopped (but a deny or halt a hook gave "
        "before stands, and so does a deny for a fail-closed hook stopped unanswered).",
        'hookrun run PreToolUse --tool bash --input \'{"command":"rm -rf /"}\' --trace',
        'echo \'{"prompt":"hi"}\' | hookrun run UserPromptSubmit',
        "hookrun run BeforeTool --host gemini    # as the hook of .gemini/settings.json",
        "hookrun run pre_tool_use --config crush.json --config extra.json",
    ),
)
def run(
    event: Annotated[
        str,
        typer.Argument(
            metavar="EVENT", help="Event name: PreToolUse, pre_tool_use, … or a custom one."
        ),
    ],
    tool: ToolOpt = None,
    tool_input: InputOpt = None,
    prompt: PromptOpt = None,
    session_id: SessionOpt = None,
    cwd: CwdOpt = None,
    sub_agent: SubAgentOpt = False,
    config: ConfigOpt = None,
    fmt: FormatOpt = "auto",
    trace: TraceOpt = False,
    stdin_timeout: StdinTimeoutOpt = None,
    fail_closed: FailClosedOpt = False,
) -> int:
    from hookrun.cli.commands.run import run_command

    opts = RunOptions(
        event=event,
        flags=PayloadFlags(
            tool=tool,
            tool_input=tool_input,
            prompt=prompt,
            session_id=session_id,
            cwd=cwd,
            sub_agent=sub_agent,
        ),
        configs=tuple(config or ()),
        format=check_format(fmt),
        trace=trace,
        stdin_timeout=_stdin_timeout(stdin_timeout),
        fail_closed=fail_closed,
    )
    return run_command(opts, Streams.system())


def _stdin_timeout(raw: str | None) -> float:
    from hookrun.cli.commands.run import parse_seconds

    return STDIN_TIMEOUT if raw is None else parse_seconds(raw, "--stdin-timeout")


@app.command(
    help=_help(
        "Validate the config: errors and warnings, each with file:line:column.\n\n"
        "Checks syntax, types, regexes, events (with a did-you-mean), missing hook "
        "scripts, interpreters not on PATH, timeouts that look like milliseconds, "
        "built-in names and options. Exit 1 if there is any error, else 0.",
        "hookrun check",
        "hookrun check --config .claude/settings.json",
    ),
)
def check(config: ConfigOpt = None) -> int:
    from hookrun.cli.commands.check import check_command

    return check_command(tuple(config or ()), Streams.system())


@app.command(
    name="list",
    help=_help(
        "List the hooks that would run, in config order, with where each was written.\n\n"
        "Without EVENT, every event. Without --tool/--sub-agent every configured hook is "
        "shown with its matcher; with them, the runner's own selection (matcher, "
        "sub-agent opt-in, dedupe) decides.",
        "hookrun list",
        "hookrun list PreToolUse --tool bash",
        "hookrun list PreToolUse --tool bash --sub-agent",
    ),
)
def list_(
    event: Annotated[
        str | None,
        typer.Argument(metavar="EVENT", help="Only this event."),
    ] = None,
    tool: ToolOpt = None,
    sub_agent: SubAgentOpt = False,
    config: ConfigOpt = None,
) -> int:
    from hookrun.cli.commands.list_hooks import list_command

    return list_command(
        event, tool=tool, sub_agent=sub_agent, configs=tuple(config or ()), streams=Streams.system()
    )


@app.command(
    name="test",
    help=(
        "Run the declarative test cases of a hook config through the real runner.\n\n"
        "Test files (.hookrun/tests/*.yaml, *.yml or *.json, or the PATHs given) hold "
        "cases: an event, a payload (or the tool/input/prompt shorthand) and what is "
        "expected (decision, halt, reason_contains, context_contains, updated_input, "
        "hooks_ran, exit_code, …). Each failure shows the differences and the event's "
        "trace. Policies keep their state in a scratch directory per file and no audit "
        "line is written, so testing changes nothing. Exit 1 if any case fails.\n\n"
        "\b\n"
        "Example test file:\n"
        "  cases:\n"
        "    - name: rm -rf / is denied\n"
        "      event: PreToolUse\n"
        "      tool: Bash\n"
        "      input: {command: rm -rf /}\n"
        "      expect: {decision: deny, reason_contains: rm}\n"
        "\b\n"
        "Examples:\n"
        "  hookrun test\n"
        "  hookrun test .hookrun/tests/guard.yaml --junit report.xml"
    ),
)
def test(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[PATH]...", help="Test files or folders (default: .hookrun/tests)."
        ),
    ] = None,
    config: ConfigOpt = None,
    junit: Annotated[
        str | None,
        typer.Option("--junit", metavar="FILE", help="Also write a JUnit XML report to FILE."),
    ] = None,
) -> int:
    from hookrun.cli.commands.test import test_command

    return test_command(tuple(paths or ()), tuple(config or ()), junit, Streams.system())


HostArg = Annotated[
    str,
    typer.Argument(metavar="HOST", help="claude, gemini, codex, copilot, cursor or crush."),
]
UserOpt = Annotated[
    bool,
    typer.Option(
        "--user/--project",
        help="The host's user config (~/.claude/settings.json, …) or the project's (default).",
    ),
]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Print the diff of the config file; change nothing.")
]


@app.command(
    help=(
        "Wire hookrun into a host's own config: every event the host has goes through "
        "`hookrun run EVENT --host HOST`, with the absolute path of this hookrun. Other keys "
        "and hooks are kept; a second install changes nothing.\n\n"
        "\b\n"
        "Files: claude .claude/settings.json · codex .codex/hooks.json ($CODEX_HOME with "
        "--user) · gemini .gemini/settings.json · copilot .github/hooks/hookrun.json "
        "(~/.copilot/hooks) · cursor .cursor/hooks.json · crush crush.json "
        "(~/.config/crush/crush.json)\n\n"
        "\b\n"
        "Examples:\n"
        "  hookrun install claude --dry-run\n"
        "  hookrun install gemini --user"
    ),
)
def install(host: HostArg, user: UserOpt = False, dry_run: DryRunOpt = False) -> int:
    from hookrun.cli.commands.install import install_command

    scope = "user" if user else "project"
    return install_command(host, scope, dry_run, os.getcwd(), Streams.system())


@app.command(
    help=_help(
        "Remove what `hookrun install HOST` added. A file not edited since gets its "
        "original bytes back; an edited one loses only hookrun's entries.",
        "hookrun uninstall claude",
    ),
)
def uninstall(host: HostArg, user: UserOpt = False, dry_run: DryRunOpt = False) -> int:
    from hookrun.cli.commands.install import uninstall_command

    scope = "user" if user else "project"
    return uninstall_command(host, scope, dry_run, os.getcwd(), Streams.system())


@app.command(
    help=_help(
        "For each host config found (project and user): is hookrun wired, for which "
        "events, what is missing. Exit 1 when a wired command does not start (a host "
        "reads its exit 127 as a non-blocking error: the guard would be off).",
        "hookrun doctor",
        "hookrun doctor claude",
    ),
)
def doctor(
    host: Annotated[str | None, typer.Argument(metavar="[HOST]", help="Only this host.")] = None,
) -> int:
    from hookrun.cli.commands.doctor import doctor_command

    return doctor_command(host, os.getcwd(), Streams.system())


@app.command(
    help=_help(
        "Re-decide past events with the current (or a changed) config; show what changes.\n\n"
        'SOURCE is a hookrun audit log written with "audit_payload": true, a Claude Code '
        "session transcript (~/.claude/projects/…/*.jsonl), a Codex CLI session "
        "(~/.codex/sessions/…/rollout-*.jsonl), a Gemini CLI chat "
        "(~/.gemini/tmp/…/chats/session-*.jsonl) or a Copilot CLI session "
        "(~/.copilot/session-state/…/events.jsonl); its tool calls become the host's "
        "PreToolUse events (BeforeTool, preToolUse). Nothing changes: policies work on a "
        "scratch copy of .hookrun/state, no audit line is written, and no process is "
        "started (hooks' external commands fail with exit 126) unless --allow-commands. "
        "Prints the events whose outcome changes (allowed → denied, denied → allowed, "
        "context added, …) and a summary.",
        "hookrun replay .hookrun/audit.jsonl --config new-hooks.json",
        "hookrun replay ~/.claude/projects/-home-me-app/3f2c….jsonl --json",
    ),
)
def replay(
    source: Annotated[str, typer.Argument(metavar="SOURCE", help="Audit log or transcript.")],
    config: ConfigOpt = None,
    source_kind: Annotated[
        str | None,
        typer.Option(
            "--source-kind",
            metavar="audit|claude|codex|gemini|copilot",
            help="What SOURCE is (default: detect).",
        ),
    ] = None,
    allow_commands: Annotated[
        bool,
        typer.Option("--allow-commands", help="Let hooks start processes (they run for real)."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object for machines.")] = False,
    show_all: Annotated[bool, typer.Option("--all", help="List unchanged events too.")] = False,
) -> int:
    from hookrun.cli.commands.replay import replay_command

    if source_kind not in (None, "audit", "claude", "codex", "gemini", "copilot"):
        raise typer.BadParameter(
            "use audit, claude, codex, gemini or copilot", param_hint="--source-kind"
        )
    return replay_command(
        source,
        tuple(config or ()),
        kind=source_kind,  # type: ignore[arg-type]
        allow_commands=allow_commands,
        as_json=as_json,
        show_all=show_all,
        streams=Streams.system(),
    )


@app.command(
    help=_help(
        "Print the JSON Schema of the hookrun config dialect (for editors).",
        "hookrun schema > hookrun.schema.json",
    ),
)
def schema() -> int:
    from hookrun.cli.commands.schema import schema_command

    return schema_command(Streams.system())


@app.command(
    help=_help(
        "Run one built-in policy on the payload from stdin, standalone.\n\n"
        "Output and exit codes are `hookrun run`'s for the same --host (here the default "
        "is hookrun's own envelope, not auto), so any host's config can call it as a "
        "hook. The event is --event, else the payload's "
        "hook_event_name / event, else the policy's first event. A --with VALUE that "
        'parses as JSON is that value (3, true, ["src/**"]); otherwise a string. '
        "`hookrun policies` lists the policies; docs/policies.md has their options.",
        'hookrun policy shell-guard --tool Bash --input \'{"command":"git push -f"}\'',
        "hookrun policy write-guard --with 'allow=[\"src/**\"]' < payload.json",
        "hookrun policy ask-user-limit --with max_per_session=3 --format claude",
    ),
)
def policy(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="Policy name or alias (`hookrun policies`).")
    ],
    with_: WithOpt = None,
    with_json: WithJsonOpt = None,
    event: EventOpt = None,
    tool: ToolOpt = None,
    tool_input: InputOpt = None,
    prompt: PromptOpt = None,
    session_id: SessionOpt = None,
    cwd: CwdOpt = None,
    sub_agent: SubAgentOpt = False,
    fmt: FormatOpt = "hookrun",
    trace: TraceOpt = False,
    stdin_timeout: StdinTimeoutOpt = None,
    fail_closed: FailClosedOpt = False,
) -> int:
    from hookrun.cli.commands.policy import PolicyOptions, policy_command

    opts = PolicyOptions(
        name=name,
        with_pairs=tuple(with_ or ()),
        with_json=with_json,
        event=event,
        flags=PayloadFlags(
            tool=tool,
            tool_input=tool_input,
            prompt=prompt,
            session_id=session_id,
            cwd=cwd,
            sub_agent=sub_agent,
        ),
        format=check_format(fmt),
        trace=trace,
        stdin_timeout=_stdin_timeout(stdin_timeout),
        fail_closed=fail_closed,
    )
    return policy_command(opts, Streams.system())


@app.command(
    help=_help(
        "List the built-in policies, one line each (name, aliases, events, summary).\n\n"
        "With --prompt, print instead the reminder lines of the policies the config "
        "uses, for a host to append to its system prompt.",
        "hookrun policies",
        "hookrun policies --prompt >> system-prompt.txt",
    ),
)
def policies(
    prompt: Annotated[
        bool,
        typer.Option("--prompt", help="Print the reminder lines of the active policies."),
    ] = False,
    config: ConfigOpt = None,
) -> int:
    from hookrun.cli.commands.policies import policies_command

    return policies_command(prompt=prompt, configs=tuple(config or ()), streams=Streams.system())


@lockout_app.command(
    "add",
    help=_help(
        "Lock AGENT out of ARTIFACT: its writes to it are denied.",
        "hookrun lockout add src/auth.py coder --reason 'rejected in review'",
    ),
)
def lockout_add(
    artifact: Annotated[
        str, typer.Argument(metavar="ARTIFACT", help="Path (or glob) relative to the project root.")
    ],
    agent: Annotated[
        str, typer.Argument(metavar="AGENT", help="Agent name (the payload's agent_name).")
    ],
    reason: Annotated[
        str | None,
        typer.Option("--reason", metavar="TEXT", help="Shown in the denial."),
    ] = None,
) -> int:
    from hookrun.cli.commands.lockout import add_command

    return add_command(artifact, agent, reason, Streams.system())


@lockout_app.command(
    "clear",
    help=_help(
        "Remove lockouts: of ARTIFACT, of --agent, of both, or all of them.",
        "hookrun lockout clear src/auth.py",
        "hookrun lockout clear --agent coder",
        "hookrun lockout clear",
    ),
)
def lockout_clear(
    artifact: Annotated[
        str | None,
        typer.Argument(metavar="ARTIFACT", help="Only this artifact."),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", metavar="NAME", help="Only this agent."),
    ] = None,
) -> int:
    from hookrun.cli.commands.lockout import clear_command

    return clear_command(artifact, agent, Streams.system())


@lockout_app.command(
    "list",
    help=_help(
        "List the lockouts: artifact, agent, since, denials so far, reason.",
        "hookrun lockout list",
    ),
)
def lockout_list() -> int:
    from hookrun.cli.commands.lockout import list_command

    return list_command(Streams.system())
