"""The ``hookrun`` command: entry point, fast path, and the one error boundary.

:func:`main` is what ``hookrun`` and ``python -m hookrun`` call. It

* answers a plain ``hookrun run EVENT …`` or ``hookrun policy NAME …`` without
  importing typer (:mod:`hookrun.cli.grammar`): hosts start those once per agent
  tool call, so their start-up time is hookrun's latency;
* hands every other command line to the typer application (:mod:`hookrun.cli.app`);
* turns every failure into one ``hookrun: …`` line per problem on stderr and
  exit 1 — never a traceback, and never exit 2, which hosts read as "deny"
  (click's own usage-error code is 2, hence the translation here).

Set ``HOOKRUN_DEBUG=1`` to get the traceback of an unexpected error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from hookrun import exitcodes, startup_gc
from hookrun.cli import CliError


def _say(message: str) -> None:
    if sys.stderr is None:  # started with stderr closed: the exit code must do
        return
    for line in message.strip().splitlines() or ["error"]:
        sys.stderr.write(f"hookrun: {line}\n")
    sys.stderr.flush()


def _fast(argv: Sequence[str]) -> int | None:
    """Run a plain ``run`` / ``policy`` / ``--version`` line without typer; None if not plain."""
    if list(argv) == ["--version"]:
        from hookrun import __version__

        sys.stdout.write(f"hookrun {__version__}\n")
        return 0
    if not argv or argv[0] not in ("run", "policy"):
        return None
    from hookrun.cli import grammar
    from hookrun.cli.commands.run import Streams

    if argv[0] == "run":
        run_opts = grammar.parse_run(argv[1:])
        if run_opts is None:
            return None
        from hookrun.cli.commands.run import run_command

        return run_command(run_opts, Streams.system())
    policy_opts = grammar.parse_policy(argv[1:])
    if policy_opts is None:
        return None
    from hookrun.cli.commands.policy import policy_command

    return policy_command(policy_opts, Streams.system())


def _typer(argv: Sequence[str]) -> int:
    import typer
    from typer._click import exceptions as click_exc  # typer vendors click

    from hookrun.cli.app import app

    command = typer.main.get_command(app)
    try:
        rv = command.main(args=list(argv), prog_name="hookrun", standalone_mode=False)
    except click_exc.NoArgsIsHelpError as exc:  # `hookrun` / `hookrun lockout` alone
        sys.stdout.write(exc.ctx.get_help() + "\n")
        return 0
    except click_exc.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "hookrun"
        message = exc.format_message().rstrip(".")
        raise CliError(f"{message} — see `{where} --help`") from None
    except click_exc.ClickException as exc:
        raise CliError(exc.format_message()) from None
    except typer.Abort:
        return exitcodes.CANCELLED
    return rv if isinstance(rv, int) else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hookrun`` command line; return the process exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        fast = _fast(args)
        if fast is not None:
            return fast
        # The command's start-up pause (hookrun.__main__) is for run/policy, which end it
        # when their hooks start; the typer application has no such point.
        startup_gc.resume()
        return _typer(args)
    except CliError as exc:
        _say(exc.message)
        return exitcodes.ERROR
    except KeyboardInterrupt:  # before the run installed its own SIGINT handling
        _say("interrupted")
        return exitcodes.CANCELLED
    except BrokenPipeError:
        # The reader went away (e.g. `hookrun list | head`); nothing left to tell it.
        # Point stdout at devnull so the interpreter's final flush stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return exitcodes.ERROR
    except Exception as exc:
        if os.environ.get("HOOKRUN_DEBUG"):
            import traceback

            traceback.print_exc()
        _say(
            f"internal error: {type(exc).__name__}: {exc} — this is a bug in hookrun; "
            "rerun with HOOKRUN_DEBUG=1 for the traceback and report it"
        )
        return exitcodes.ERROR
