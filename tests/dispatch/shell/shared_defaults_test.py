"""A shell's empty start values read from its class (jobs, inherited traps, files of
``exec >file``) are never changed in place: what one shell does shows in no other."""

from __future__ import annotations

from pathlib import Path

from hookrun.dispatch.shell.interp import Interp
from hookrun.dispatch.shell.state import ShellState
from tests.dispatch.shell.shellrun import Runner


def test_what_a_shell_starts_or_opens_is_its_own(run: Runner, tmp_path: Path) -> None:
    ran = run(
        "exec 3>f3; echo held >&3; sleep 0 & trap 'echo bye' EXIT;"
        " ( trap - EXIT; trap -p ); echo $?"
    )
    assert ran.code == 0, ran.err
    assert ran.out == "0\nbye\n"
    assert (tmp_path / "f3").read_text() == "held\n"
    assert Interp.jobs == [] and Interp.inherited_traps == {} and Interp.exec_owned == []
    again = run("jobs; trap -p; echo ok")
    assert again.out == "ok\n"


def test_the_exported_names_are_made_on_first_use() -> None:
    # (SHLVL too: bash exports it even when the environment had none)
    state = ShellState.create({"A": "1", "IFS": ":", "PWD": "/nonexistent"}, "/")
    assert state.exported == {"A", "PWD", "SHLVL"}
    state.exported.add("B")
    assert state.exported == {"A", "B", "PWD", "SHLVL"}
    sub = ShellState.create({"A": "1"}, "/").copy()
    assert sub.exported == {"A", "PWD", "SHLVL"}
    assert ShellState({}, None, "/").exported == set()
