"""``Expander.lookup``'s shortcut (a set variable under an ordinary name is its value)
against ``lookup_general``, which tests for the special parameters first."""

from __future__ import annotations

from hookrun.dispatch.shell.expand import FS, Expander
from hookrun.dispatch.shell.state import Array, ShellState
from tests.dispatch.shell.shellrun import Runner

# Names an environment may hold that are special parameters in the shell, ordinary
# names, an array's, and names nothing sets.
SPECIAL = ["0", "1", "2", "10", "@", "*", "#", "?", "$", "!", "-"]
ORDINARY = ["x", "HOME", "IFS", "PWD", "OPTIND", "_", "a1", "arr", "assoc", "unset_name"]


def test_lookup_gives_what_the_general_path_gives() -> None:
    env = {name: f"env-{name}" for name in SPECIAL + ORDINARY if name != "unset_name"}
    state = ShellState.create(env, "/")
    state.argv0, state.params, state.status, state.last_bg_pid = "sh", ["p1", "p2"], 3, 42
    state.arrays["arr"] = Array(False, {0: "zero", 1: "one"})
    del state.vars["arr"]
    state.arrays["assoc"] = Array(True, {"0": "k0"})
    del state.vars["assoc"]
    ex = Expander(state, FS)
    for name in SPECIAL + ORDINARY:
        assert ex.lookup(name) == ex.lookup_general(name), name
    # (the environment's value never stands for a special parameter)
    assert [ex.lookup(n) for n in ("0", "1", "10", "#", "?", "!")] == [
        "sh",
        "p1",
        None,
        "2",
        "3",
        "42",
    ]


def test_special_parameters_over_an_environment_that_names_them(run: Runner) -> None:
    env = {"PATH": "/usr/bin:/bin", "1": "env-one", "?": "env-status", "#": "env-count"}
    ran = run('echo "$1 $? $# $x"', env={**env, "x": "ex"}, args=("a",))
    assert ran.out == "a 0 1 ex\n"
