from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hookrun.dispatch.resolve import (
    FilePlan,
    command_argv,
    find_executable,
    get_env,
    is_path_word,
    plan_file,
)


def _exe(path: Path, text: str = "#!/bin/sh\nexit 0\n", mode: int = 0o755) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


@pytest.mark.parametrize(
    ("word", "platform", "expected"),
    [
        ("./hook.sh", "linux", True),
        ("../hooks/x", "linux", True),
        ("/usr/bin/env", "linux", True),
        ("~/hooks/x.sh", "linux", True),
        ("hooks/x.sh", "linux", False),
        ("python3", "linux", False),
        (".", "linux", False),
        ("~", "linux", False),
        ("~user/x", "linux", False),
        (".\\hook.cmd", "linux", False),
        ("C:\\hooks\\x.exe", "linux", False),
        ("./hook.sh", "win32", True),
        ("/c/hooks/x", "win32", True),
        (".\\hook.cmd", "win32", True),
        ("..\\hook.cmd", "win32", True),
        ("~\\hooks\\x.ps1", "win32", True),
        ("C:\\hooks\\x.exe", "win32", True),
        ("c:/hooks/x.exe", "win32", True),
        ("\\\\server\\share\\x.exe", "win32", True),
        ("\\hooks\\x.exe", "win32", True),
        ("C:x.exe", "win32", False),
        ("hooks\\x.exe", "win32", False),
        ("python", "win32", False),
    ],
)
def test_is_path_word_recognises_each_platforms_file_prefixes(
    word: str, platform: str, expected: bool
) -> None:
    assert is_path_word(word, platform) is expected


def test_get_env_is_case_insensitive_only_on_windows() -> None:
    env = {"Path": "a;b"}
    assert get_env(env, "PATH", "win32") == "a;b"
    assert get_env(env, "PATH", "linux") is None


def test_find_executable_searches_path_in_order_and_skips_non_executables(tmp_path: Path) -> None:
    _exe(tmp_path / "a" / "tool", mode=0o644)
    second = _exe(tmp_path / "b" / "tool")
    _exe(tmp_path / "c" / "tool")
    env = {"PATH": os.pathsep.join(str(tmp_path / d) for d in "abc")}
    assert find_executable("tool", env=env, cwd="/", platform="linux") == str(second)


def test_find_executable_returns_none_when_absent_or_a_directory(tmp_path: Path) -> None:
    (tmp_path / "tool").mkdir()
    env = {"PATH": str(tmp_path)}
    assert find_executable("tool", env=env, cwd="/", platform="linux") is None
    assert find_executable("nope", env=env, cwd="/", platform="linux") is None
    assert find_executable("", env=env, cwd="/", platform="linux") is None


def test_find_executable_treats_empty_and_relative_path_entries_as_cwd_relative(
    tmp_path: Path,
) -> None:
    here = _exe(tmp_path / "tool")
    rel = _exe(tmp_path / "bin" / "other")
    env = {"PATH": ":bin"}
    assert find_executable("tool", env=env, cwd=str(tmp_path), platform="linux") == str(here)
    assert find_executable("other", env=env, cwd=str(tmp_path), platform="linux") == str(rel)


def test_find_executable_resolves_a_name_with_a_slash_against_cwd(tmp_path: Path) -> None:
    tool = _exe(tmp_path / "sub" / "tool")
    assert find_executable("sub/tool", env={}, cwd=str(tmp_path), platform="linux") == str(tool)


def test_find_executable_on_windows_tries_pathext_in_order(tmp_path: Path) -> None:
    (tmp_path / "tool.CMD").write_text("@echo off\n")
    (tmp_path / "tool.EXE").write_bytes(b"MZ")
    env = {"Path": f"{tmp_path}", "PATHEXT": ".COM;.EXE;.BAT;.CMD"}
    assert find_executable("tool", env=env, cwd="/", platform="win32") == str(tmp_path / "tool.EXE")


def test_find_executable_on_windows_takes_an_exe_name_directly(tmp_path: Path) -> None:
    (tmp_path / "tool.exe").write_bytes(b"MZ")  # no execute bit: Windows has none
    env = {"PATH": f"C:\\nowhere;{tmp_path}", "PATHEXT": ".EXE"}
    assert find_executable("tool.exe", env=env, cwd="/", platform="win32") == str(
        tmp_path / "tool.exe"
    )


def test_find_executable_on_windows_does_not_search_cwd_first(tmp_path: Path) -> None:
    (tmp_path / "git.EXE").write_bytes(b"MZ")
    env = {"PATH": "", "PATHEXT": ".EXE"}
    assert find_executable("git", env=env, cwd=str(tmp_path), platform="win32") is None


def test_find_executable_on_windows_uses_default_pathext_when_unset(tmp_path: Path) -> None:
    (tmp_path / "tool.BAT").write_text("@echo off\n")
    env = {"PATH": f'"{tmp_path}"'}
    assert find_executable("tool", env=env, cwd="/", platform="win32") == str(tmp_path / "tool.BAT")


@pytest.mark.parametrize(
    ("exe", "platform", "argv"),
    [
        ("C:\\h\\x.cmd", "win32", ("cmd", "/c", "C:\\h\\x.cmd", "a")),
        ("C:\\h\\x.BAT", "win32", ("cmd", "/c", "C:\\h\\x.BAT", "a")),
        ("C:\\h\\x.exe", "win32", ("C:\\h\\x.exe", "a")),
        ("/h/x.cmd", "linux", ("/h/x.cmd", "a")),
    ],
)
def test_command_argv_wraps_batch_files_in_cmd_on_windows_only(
    exe: str, platform: str, argv: tuple[str, ...]
) -> None:
    assert command_argv(exe, ["a"], platform) == argv


# --- plan_file: real files --------------------------------------------------------------


@pytest.fixture
def bindir(tmp_path: Path) -> Path:
    """A PATH directory with fake interpreters (never executed by these tests)."""
    d = tmp_path / "bin"
    for name in ("python3", "bash", "node"):
        _exe(d / name)
    return d


def _plan(tmp_path: Path, path: str, *args: str, **env: str) -> FilePlan:
    return plan_file(path, list(args), cwd=str(tmp_path), env=env, platform="linux")


@pytest.mark.parametrize(
    ("line", "argv_head", "route"),
    [
        ("#!/usr/bin/env python3", ["{bin}/python3"], "shebang:python3"),
        ("#!env python3", ["{bin}/python3"], "shebang:python3"),
        ("#!/usr/bin/env node --harmony", ["{bin}/node", "--harmony"], "shebang:node"),
        ("#!/usr/bin/env -S node --a --b", ["{bin}/node", "--a", "--b"], "shebang:node"),
        ("#! {bin}/bash -e -x", ["{bin}/bash", "-e -x"], "shebang:bash"),
        # a literal interpreter path that does not exist: its base name on PATH
        ("#!/nonexistent/dir/bash", ["{bin}/bash"], "shebang:bash"),
        ("#!/nonexistent/python3 -u", ["{bin}/python3", "-u"], "shebang:python3"),
    ],
)
def test_plan_file_runs_the_interpreter_of_each_shebang_form(
    tmp_path: Path, bindir: Path, line: str, argv_head: list[str], route: str
) -> None:
    (tmp_path / "hook").write_text(line.format(bin=bindir) + "\r\nprint(1)\n")
    plan = _plan(tmp_path, "./hook", "a 1", "b", PATH=str(bindir))
    expected = [a.format(bin=bindir) for a in argv_head]
    assert plan == FilePlan("shebang", argv=(*expected, "./hook", "a 1", "b"), route=route)


def test_plan_file_does_not_need_the_execute_bit_on_a_script(tmp_path: Path, bindir: Path) -> None:
    _exe(tmp_path / "hook", "#!/usr/bin/env bash\n", mode=0o644)
    assert _plan(tmp_path, "./hook", PATH=str(bindir)).kind == "shebang"


def test_plan_file_reads_a_shebang_line_longer_than_128_bytes(tmp_path: Path, bindir: Path) -> None:
    args = " ".join(f"--flag{i}" for i in range(20))
    (tmp_path / "hook").write_text(f"#!/usr/bin/env -S node {args}\n")
    plan = _plan(tmp_path, "./hook", PATH=str(bindir))
    assert plan.argv[-2] == "--flag19"


@pytest.mark.parametrize(
    ("content", "exit_code", "problem"),
    [
        ("#!/usr/bin/env nosuch-interp\n", 127, "interpreter 'nosuch-interp' not found on PATH"),
        ("#!/nonexistent/nosuch-interp\n", 127, "/nonexistent/nosuch-interp not found"),
        ("#!\n", 126, "empty #! line"),
        ("#!/usr/bin/env\n", 126, "names no command"),
        ("#!/usr/bin/env -S\n", 126, "names no command"),
        ("#!/usr/bin/env -i sh\n", 126, "unsupported env option '-i'"),
        ("#!{tmp}\n", 126, "is a directory"),
        ("#!{tmp}/noexec\n", 126, "permission denied"),
    ],
)
def test_plan_file_reports_bad_shebangs_naming_the_script(
    tmp_path: Path, bindir: Path, content: str, exit_code: int, problem: str
) -> None:
    _exe(tmp_path / "noexec", mode=0o644)
    (tmp_path / "hook").write_text(content.format(tmp=tmp_path))
    plan = _plan(tmp_path, "./hook", PATH=str(bindir))
    assert (plan.kind, plan.route, plan.exit_code) == ("error", "error", exit_code)
    assert plan.message.startswith("./hook: ")
    assert problem in plan.message


@pytest.mark.parametrize(
    "head",
    [
        b"\x7fELF\x02\x01\x01",
        b"MZ\x90\x00",
        b"\xcf\xfa\xed\xfe\x07",
        b"\xca\xfe\xba\xbe",
        b"plain text with a \0 byte",
    ],
)
def test_plan_file_executes_binaries_directly(tmp_path: Path, head: bytes) -> None:
    (tmp_path / "prog").write_bytes(head + b"rest")
    plan = _plan(tmp_path, "./prog", "x")
    assert plan == FilePlan("binary", argv=(os.path.join(tmp_path, "./prog"), "x"), route="binary")


def test_plan_file_plans_a_real_binary_copied_by_path(tmp_path: Path) -> None:
    shutil.copy("/bin/true", tmp_path / "true")
    assert _plan(tmp_path, str(tmp_path / "true")).kind == "binary"


@pytest.mark.parametrize(
    ("data", "source"),
    [
        (b"", ""),
        (b"echo hi\n", "echo hi\n"),
        (b"echo a\r\necho b\r\n", "echo a\necho b\n"),
        (b"\xef\xbb\xbfecho bom\n", "echo bom\n"),
        (b"echo caf\xe9\n", "echo caf\ufffd\n"),
        (b"# comment\n" + b"x" * 500 + b"\n", "# comment\n" + "x" * 500 + "\n"),
    ],
)
def test_plan_file_hands_shebang_less_files_to_the_shell_as_source(
    tmp_path: Path, data: bytes, source: str
) -> None:
    (tmp_path / "hook.sh").write_bytes(data)
    assert _plan(tmp_path, "./hook.sh") == FilePlan("script", route="script", source=source)


def test_plan_file_expands_tilde_from_home_in_the_hook_env(tmp_path: Path) -> None:
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "x.sh").write_text("echo home\n")
    plan = plan_file("~/hooks/x.sh", [], cwd="/", env={"HOME": str(tmp_path)}, platform="linux")
    assert plan.source == "echo home\n"


def test_plan_file_reports_tilde_without_home(tmp_path: Path) -> None:
    plan = plan_file("~/x.sh", [], cwd="/", env={}, platform="linux")
    assert (plan.kind, plan.exit_code) == ("error", 127)
    assert "HOME is not set" in plan.message


@pytest.mark.parametrize(
    ("make", "path", "exit_code", "problem"),
    [
        (None, "./missing.sh", 127, "no such file"),
        ("dir", "./adir", 126, "is a directory"),
        ("loop", "./loop", 126, "symbolic links"),
        ("file", "./afile/x", 127, "not a directory"),
        ("fifo", "./fifo", 126, "not a regular file"),
    ],
)
def test_plan_file_reports_unusable_paths_without_a_traceback(
    tmp_path: Path, make: str | None, path: str, exit_code: int, problem: str
) -> None:
    if make == "dir":
        (tmp_path / "adir").mkdir()
    elif make == "loop":
        os.symlink("loop2", tmp_path / "loop")
        os.symlink("loop", tmp_path / "loop2")
    elif make == "file":
        (tmp_path / "afile").write_text("")
    elif make == "fifo":
        os.mkfifo(tmp_path / "fifo")
    plan = _plan(tmp_path, path)
    assert (plan.kind, plan.exit_code) == ("error", exit_code)
    assert plan.message.startswith(f"{path}: ")
    assert problem in plan.message


def test_plan_file_reports_an_unreadable_file_as_126() -> None:
    tmp = tempfile.mkdtemp()
    try:
        os.chmod(tmp, 0o755)
        hook = Path(tmp, "secret.sh")
        hook.write_text("echo hi\n")
        hook.chmod(0o000)
        # Root reads anything: the child drops to "nobody" after importing hookrun.
        drop = "os.setgid(65534); os.setuid(65534)" if os.geteuid() == 0 else "pass"
        code = (
            "import os; from hookrun.dispatch.resolve import plan_file\n"
            f"{drop}\n"
            f"p = plan_file('./secret.sh', [], cwd={tmp!r}, env={{}}, platform='linux')\n"
            "print(p.exit_code, p.message)"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
        ).stdout
    finally:
        shutil.rmtree(tmp)
    assert out.startswith("126 ./secret.sh: permission denied")


# --- plan_file: the Windows rules, with the platform switched ---------------------------


def _win(tmp_path: Path, path: str, *args: str, **env: str) -> FilePlan:
    return plan_file(path, list(args), cwd=str(tmp_path), env=env, platform="win32")


def test_windows_runs_an_exe_directly(tmp_path: Path) -> None:
    (tmp_path / "x.exe").write_bytes(b"MZ")
    plan = _win(tmp_path, ".\\x.exe", "a")
    assert plan == FilePlan("binary", argv=(os.path.join(tmp_path, "./x.exe"), "a"), route="binary")


def test_windows_runs_a_cmd_file_through_cmd_c(tmp_path: Path) -> None:
    (tmp_path / "x.cmd").write_text("@echo off\r\n")
    plan = _win(tmp_path, "./x.cmd", "a")
    assert plan.argv == ("cmd", "/c", os.path.join(tmp_path, "./x.cmd"), "a")
    assert (plan.kind, plan.route) == ("binary", "cmd")


def test_windows_finds_an_extensionless_path_via_pathext(tmp_path: Path) -> None:
    (tmp_path / "x.EXE").write_bytes(b"MZ")
    plan = _win(tmp_path, "./x", PATHEXT=".COM;.EXE")
    assert plan.argv == (os.path.join(tmp_path, "./x.EXE"),)


def test_windows_refuses_to_auto_run_powershell_and_says_how(tmp_path: Path) -> None:
    (tmp_path / "x.ps1").write_text("Write-Host hi\n")
    plan = _win(tmp_path, "./x.ps1")
    assert (plan.kind, plan.exit_code) == ("error", 126)
    assert "powershell -File ./x.ps1" in plan.message


def test_windows_falls_back_to_bash_exe_on_path_for_a_bin_bash_shebang(tmp_path: Path) -> None:
    gitbin = tmp_path / "Git" / "bin"
    gitbin.mkdir(parents=True)
    (gitbin / "bash.EXE").write_bytes(b"MZ")
    (tmp_path / "hook.sh").write_text("#!/nonexistent/bin/bash\r\necho hi\r\n")
    plan = _win(tmp_path, ".\\hook.sh", Path=str(gitbin), PATHEXT=".EXE")
    assert plan == FilePlan(
        "shebang", argv=(str(gitbin / "bash.EXE"), "./hook.sh"), route="shebang:bash"
    )


def test_windows_env_shebang_uses_pathext(tmp_path: Path) -> None:
    (tmp_path / "python3.EXE").write_bytes(b"MZ")
    (tmp_path / "hook.py").write_text("#!/usr/bin/env python3\n")
    plan = _win(tmp_path, "./hook.py", PATH=str(tmp_path), PATHEXT=".EXE")
    assert plan.argv == (str(tmp_path / "python3.EXE"), "./hook.py")


def test_windows_reports_a_missing_interpreter_as_127(tmp_path: Path) -> None:
    (tmp_path / "hook.py").write_text("#!/nonexistent/bin/python3\n")
    plan = _win(tmp_path, "./hook.py", PATH=str(tmp_path), PATHEXT=".EXE")
    assert (plan.exit_code, plan.kind) == (127, "error")
    assert "not found" in plan.message


@pytest.mark.parametrize(
    ("line", "argv", "route"),
    [
        ("#!/nonexistent/bin/bash", ("bash", "./hook.sh", "a"), "inprocess:bash"),
        ("#!/usr/bin/env bash", ("bash", "./hook.sh", "a"), "inprocess:bash"),
        ("#!/nonexistent/sh -e", ("sh", "-e", "./hook.sh", "a"), "inprocess:sh"),
        ("#!/usr/bin/env -S bash -eu", ("bash", "-eu", "./hook.sh", "a"), "inprocess:bash"),
    ],
)
@pytest.mark.parametrize("platform", ["win32", "linux"])
def test_a_bash_or_sh_script_whose_shell_is_nowhere_is_planned_for_the_standin(
    tmp_path: Path, line: str, argv: tuple[str, ...], route: str, platform: str
) -> None:
    # The bare name, absent from PATH, is what tells dispatch to run it in-process.
    (tmp_path / "hook.sh").write_text(f"{line}\necho hi\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    plan = plan_file(
        "./hook.sh", ["a"], cwd=str(tmp_path), env={"PATH": str(empty)}, platform=platform
    )
    assert (plan.kind, plan.argv, plan.route) == ("shebang", argv, route)


def test_windows_expands_tilde_backslash_from_userprofile(tmp_path: Path) -> None:
    (tmp_path / "x.sh").write_text("echo hi\n")
    plan = plan_file("~\\x.sh", [], cwd="/", env={"USERPROFILE": f"{tmp_path}/"}, platform="win32")
    assert plan == FilePlan("script", route="script", source="echo hi\n")
