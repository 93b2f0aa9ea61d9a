"""``hookrun test``: run a config's declarative test cases through the real runner.

Each test file's cases run in order against the config (the file's own ``config``,
else ``--config``, else discovery), with a scratch state directory per file — so a
file can test a sequence (the third ask in a session is refused) and nothing in the
project's ``.hookrun/state`` changes — and with the config's audit log switched off.
Hooks run for real: a command hook runs its script, as it would for the host.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hookrun.cli import CliError
from hookrun.cli.configfiles import load_config, project_dir, resolve_cwd
from hookrun.cli.signals import RemovedOnSignals
from hookrun.cli.trace import render as render_trace
from hookrun.configtests.cases import Case, CaseFileError, find_files, load_file
from hookrun.configtests.expect import differences
from hookrun.configtests.junit import CaseOutcome, to_xml
from hookrun.runner import PayloadError, Runner

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams
    from hookrun.config.spec import Config


def run_case(runner: Runner, case: Case, cwd: str) -> CaseOutcome:
    """One case through ``runner``; the trace is kept for a failure's report."""
    payload = dict(case.payload)
    payload.setdefault("cwd", cwd)
    started = time.monotonic()
    try:
        result = runner.run(case.event, payload)
    except PayloadError as exc:
        return CaseOutcome(case.file, case.name, 0.0, (), error=f"bad payload: {exc}")
    seconds = time.monotonic() - started
    diffs = differences(case.expect, result)
    trace = render_trace(result.to_dict(), exit_code=result.exit_code) if diffs else ""
    return CaseOutcome(case.file, case.name, seconds, tuple(diffs), trace=trace)


def test_command(
    paths: Sequence[str], configs: Sequence[str], junit: str | None, streams: Streams
) -> int:
    """Print a pass/fail line per case (with differences and trace for failures); exit 1
    if any case failed or could not run, else 0."""
    cwd = resolve_cwd()
    root = project_dir(cwd)
    try:
        files = find_files(paths, root)
    except CaseFileError as exc:
        raise CliError(str(exc)) from None
    outcomes: list[CaseOutcome] = []
    loaded: dict[tuple[str, ...], Config] = {}
    for path in files:
        try:
            cases = load_file(path)
        except CaseFileError as exc:
            outcomes.append(CaseOutcome(path, "(test file)", 0.0, (), error=str(exc)))
            _print(outcomes[-1], streams)
            continue
        scratch = tempfile.mkdtemp(prefix="hookrun-test-state-")
        try:
            with RemovedOnSignals(scratch):
                for case in cases:
                    outcome = _run_one(case, configs, root, loaded, scratch)
                    outcomes.append(outcome)
                    _print(outcome, streams)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    failed = sum(1 for o in outcomes if not o.passed)
    streams.stdout.write(
        f"{len(outcomes)} case{'' if len(outcomes) == 1 else 's'}: "
        f"{len(outcomes) - failed} passed, {failed} failed\n"
    )
    if junit:
        try:
            with open(junit, "w", encoding="utf-8") as handle:
                handle.write(to_xml(outcomes))
        except OSError as exc:
            raise CliError(
                f"cannot write the JUnit report {junit}: {exc.strerror or exc}"
            ) from None
    return 1 if failed else 0


def _run_one(
    case: Case,
    configs: Sequence[str],
    root: str,
    loaded: dict[tuple[str, ...], Config],
    scratch: str,
) -> CaseOutcome:
    key = case.config or tuple(configs)
    try:
        if key not in loaded:
            # No audit trail: a test run is not an event the team should find in it.
            loaded[key] = load_config(key, root)._replace(audit_log=None)
        config = loaded[key]
    except CliError as exc:
        return CaseOutcome(case.file, case.name, 0.0, (), error=exc.message)
    cwd = case.payload.get("cwd")
    cwd = cwd if isinstance(cwd, str) and os.path.isdir(cwd) else root
    with Runner(config, cwd=cwd, project_dir=root, state_dir=scratch) as runner:
        return run_case(runner, case, cwd)


def _print(outcome: CaseOutcome, streams: Streams) -> None:
    label = f"{os.path.basename(outcome.file)}: {outcome.name}"
    if outcome.passed:
        streams.stdout.write(f"PASS  {label}  ({outcome.seconds * 1000:.1f} ms)\n")
        return
    streams.stdout.write(f"FAIL  {label}\n")
    for line in [outcome.error] if outcome.error else list(outcome.differences):
        streams.stdout.write(f"      {line}\n")
    if outcome.trace:
        for line in outcome.trace.rstrip("\n").splitlines():
            streams.stdout.write(f"      | {line}\n")
