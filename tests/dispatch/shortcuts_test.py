"""The external route's shortcuts, each against the reference it stands in for.

- ``api._split``: split_simple's answers, remembered per command;
- ``api._plan``: plan_file's commonest answer (a binary by path) reached in fewer steps;
- ``procs._known_env``: the environment as _env_list encodes it, reused while it is the
  same (and a child really gets it, marker included);
- ``cancel.wait_bound``: the main thread's ident, remembered, forgotten in a fork.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hookrun.dispatch import api, procs, run, standin
from hookrun.dispatch.resolve import plan_file
from hookrun.dispatch.sentinel import MARKER
from hookrun.dispatch.split import split_simple

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX files and fork")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the vfork route")

COMMANDS = [
    "/bin/true",
    "./hooks/check.sh --strict",
    "python3 hook.py",
    "  ./a   b\tc  ",
    "'./my hook' x",
    './x "a b" c',
    "./x a\\ b",
    "echo $HOME",
    "a | b",
    "A=1 ./x",
    "if true",
    "'if' x",
    "~/bin/h",
    "~x",
    "# comment",
    "",
    "   ",
    "./x 'unterminated",
    "./x\n./y",
    "C:\\hooks\\h.exe",
    ".\\h.cmd a",
]


@pytest.mark.parametrize("platform", ["linux", "win32"])
def test_split_remembers_split_simples_answers(platform: str) -> None:
    api._SPLITS.clear()
    for _ in range(3):  # first computed, then remembered
        for command in [*COMMANDS, "bash x.sh", "/bin/sh -c 'x'", "BASH.EXE a", "bashful"]:
            argv = split_simple(command, platform)
            shell = bool(argv) and standin.shell_name(argv[0], platform) is not None
            assert api._split(command, platform) == (argv, shell), command


def test_a_remembered_split_is_handed_out_as_a_copy() -> None:
    api._SPLITS.clear()
    first, _ = api._split("./x a b", "linux")
    assert first is not None
    first.append("mutated")
    first[0] = "./y"
    assert api._split("./x a b", "linux") == (["./x", "a", "b"], False)


def test_the_remembered_splits_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "_SPLITS_MAX", 8)
    api._SPLITS.clear()
    for n in range(50):
        assert api._split(f"./h{n} x", "linux") == ([f"./h{n}", "x"], False)
        assert len(api._SPLITS) <= 8


def _files(tmp_path: Path) -> dict[str, str]:
    """Every kind of file a hook's path may name (relative to tmp_path)."""
    elf = shutil.which("true", path="/bin:/usr/bin") or "/bin/true"
    shutil.copy(elf, tmp_path / "elf")
    made = {
        "mz": b"MZ\x90\x00rest",
        "macho": b"\xcf\xfa\xed\xfe" + b"\x00" * 8,
        "universal": b"\xca\xfe\xba\xbe\x00\x00",
        "nul-text": b"echo hi\x00there\n",
        "shebang": b"#!/bin/sh\necho hi\n",
        "shebang-nul": b"#!/bin/sh\x00\n",
        "shebang-env": b"#!/usr/bin/env sh\necho hi\n",
        "shebang-missing": b"#!/no/such/interpreter\n",
        "shebang-long": b"#!/bin/sh " + b"x" * 300 + b"\n",
        "script": b"echo plain\n",
        "empty": b"",
        "unreadable": b"\x7fELF\x02\x01\x01",
    }
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "unreadable").chmod(0)
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "elf").write_bytes(b"\x7fELF")
    os.mkfifo(tmp_path / "fifo")  # read without a writer would block: stat decides first
    (tmp_path / "link").symlink_to(tmp_path / "elf")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    names = [*made, "elf", "dir", "fifo", "link", "dangling", "loop", "missing", "dir/elf"]
    return {name: str(tmp_path / name) for name in names}


def _outcome(fn: Callable[..., object], *args: object, **kwargs: object) -> object:
    """What ``fn`` returns, or the exception it raises (type and text)."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - compared, not hidden
        # (plan_file raises ValueError for a #! line holding a NUL: the shortcut must
        # hand it on alike)
        return (type(exc), str(exc))


@posix_only
def test_plan_gives_plan_files_answer_for_every_kind_of_file(tmp_path: Path) -> None:
    files = _files(tmp_path)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    parent = tmp_path.parent
    binaries = 0
    for name, full in files.items():
        words = [full, f"./{name}", f"../{tmp_path.name}/{name}", f"~/{name}"]
        for word in words:
            for cwd in (str(tmp_path), f"{tmp_path}/", str(parent), "/", ""):
                for args in ((), ("a", "b c")):
                    for platform in ("linux", "darwin", "win32"):
                        ours = _outcome(api._plan, word, args, cwd, env, platform)
                        reference = _outcome(
                            plan_file, word, args, cwd=cwd, env=env, platform=platform
                        )
                        assert ours == reference, (word, cwd, args, platform)
                        binaries += getattr(ours, "kind", "") == "binary"
    assert binaries > 50  # the shortcut's own answer was compared, not only plan_file's


@posix_only
def test_plan_takes_the_shortcut_for_a_binary_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shortcut answers a binary itself and hands everything else to plan_file."""
    files = _files(tmp_path)
    asked: list[str] = []

    def reference(word: str, *args: object, **kwargs: object) -> object:
        asked.append(word)
        return plan_file(word, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "plan_file", reference)
    assert api._plan(files["elf"], (), "/", {}, "linux").kind == "binary"
    assert api._plan(files["macho"], (), "/", {}, "linux").kind == "binary"
    assert asked == []
    for name in ("shebang", "script", "fifo", "missing", "dir"):
        api._plan(files[name], (), "/", {}, "linux")
    assert len(asked) == 5


def _equal_envs() -> list[dict[str, str]]:
    return [
        {"PATH": "/bin", "HOME": "/root"},
        {"PATH": "/bin", "HOME": "/root"},  # equal, another dict: reused
        {"PATH": "/bin", "HOME": "/home/x"},  # one value changed
        {"HOME": "/root", "PATH": "/bin"},  # same items, another order
        {"LANG": "é\udcff", "X": ""},  # surrogateescape, as os.fsencode
        {},
    ]


@pytest.mark.parametrize("dispatch_id", ["abc-1-2", "é-run"])
def test_known_env_is_env_list_of_the_same_environment(dispatch_id: str) -> None:
    procs._ENV_KNOWN = None
    for env in _equal_envs():
        for _ in range(2):
            known = procs._known_env(env)
            assert known is not None
            marker = procs._MARKER_EQ + dispatch_id.encode(*procs._FS_CODEC)
            assert [*known, marker] == procs._env_list({**env, MARKER: dispatch_id})
        assert procs._known_env(dict(env)) is known  # an equal environment: reused whole


def test_known_env_sees_a_change_made_to_the_same_dict() -> None:
    procs._ENV_KNOWN = None
    env = {"PATH": "/bin", "HOME": "/root"}
    assert procs._known_env(env) == [b"PATH=/bin", b"HOME=/root"]
    env["HOME"] = "/home/x"
    assert procs._known_env(env) == [b"PATH=/bin", b"HOME=/home/x"]
    env["NEW"] = "1"
    assert procs._known_env(env) == [b"PATH=/bin", b"HOME=/home/x", b"NEW=1"]
    del env["PATH"]
    assert procs._known_env(env) == [b"HOME=/home/x", b"NEW=1"]


class _Env(dict):  # type: ignore[type-arg]
    pass


@pytest.mark.parametrize(
    "env",
    [
        {"": "x"},  # Popen and posix_spawn refuse it differently: the general route
        {"A=B": "x"},
        {MARKER: "outer-run"},  # a hook run by a hook: the marker keeps its place
        {"X": b"raw"},
        {"X": ["not", "a", "string"]},
        {"X": "\ud800"},  # no surrogateescape byte: os.fsencode raises
        _Env(PATH="/bin"),  # not a plain dict
    ],
)
def test_known_env_leaves_anything_unusual_to_the_general_route(env: dict[str, object]) -> None:
    procs._ENV_KNOWN = None
    assert procs._known_env(env) is None  # type: ignore[arg-type]


@linux_only
def test_a_child_gets_the_environment_given_run_after_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Real children, through the shortcut and without it: the same variables, the
    marker last; a change to the host's dict between runs reaches the next child."""
    envprog = shutil.which("env", path="/usr/bin:/bin")
    if envprog is None:  # pragma: no cover
        pytest.skip("no env(1)")
    procs._ENV_KNOWN = None
    env = {"PATH": "/usr/bin:/bin", "A": "1", "LANG": "C"}

    def child_env() -> list[str]:
        done = run(f"{envprog} -0", cwd=str(tmp_path), env=env, timeout=30)
        assert done.exit_code == 0, done
        return done.stdout.decode().split("\0")[:-1]

    for vfork in (True, False):
        monkeypatch.setattr(procs, "_VFORK", vfork and procs._vfork_usable())
        for value in ("1", "1", "2"):
            env["A"] = value
            got = child_env()
            assert got[:-1] == [f"{k}={v}" for k, v in env.items()]
            assert got[-1].startswith(f"{MARKER}=")
        env.pop("LANG")
        assert "LANG=C" not in child_env()
        env["LANG"] = "C"


_FORKED = """
import os, sys, threading
from hookrun.dispatch.cancel import MAIN_WAIT, wait_bound
assert wait_bound(None) == MAIN_WAIT  # remembered: this is the main thread
answers = []
def worker():
    answers.append(wait_bound(None))  # a worker: no bound
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the forking thread is the child's main thread
        os.write(w, repr(wait_bound(None)).encode())
        os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    answers.append(os.read(r, 100).decode())
t = threading.Thread(target=worker)
t.start()
t.join()
print(answers, wait_bound(2.0))
"""


@posix_only
def test_wait_bound_knows_the_main_thread_again_in_a_forked_child() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _FORKED],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[None, '0.1'] 0.1"


def test_unusual_file_modes_are_left_alone(tmp_path: Path) -> None:
    # (the unreadable corpus file: a mode nobody may read; root reads it anyway)
    f = tmp_path / "f"
    f.write_bytes(b"\x7fELF")
    f.chmod(0)
    assert stat.S_IMODE(f.stat().st_mode) == 0
    assert api._plan(str(f), (), "/", {}, "linux") == plan_file(
        str(f), (), cwd="/", env={}, platform="linux"
    )
