"""Where a command word points: path-prefix rules, PATH/PATHEXT lookup, file plans.

Every platform rule of dispatch lives here, behind a ``platform`` argument
(``sys.platform`` by default) so that the Windows branch is tested on Linux by
passing ``"win32"``. ``platform`` selects the *rules* (which prefixes name a
file, PATH separator, PATHEXT, ``.cmd`` via ``cmd /c``); the files themselves are
always opened on the machine we run on.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable, Mapping, Sequence

from hookrun import exitcodes
from hookrun.dispatch.shebang import Shebang, ShebangError, parse_shebang
from hookrun.dispatch.split import split_simple
from hookrun.records import NamedTuple

__all__ = [
    "FilePlan",
    "command_argv",
    "find_executable",
    "get_env",
    "is_path_word",
    "plan_file",
    "read_script",
    "split_simple",
]

# How much of a file decides its kind. 128 is what the issue and the old
# kernel limit use; a #! line that does not end within it is read on up to
# Linux's current limit (256) rather than silently cut.
HEAD_SIZE = 128
SHEBANG_LINE_MAX = 256


_BINARY_MAGIC = (
    b"\x7fELF",
    b"MZ",  # Windows PE
    b"\xfe\xed\xfa\xce",  # Mach-O 32
    b"\xfe\xed\xfa\xcf",  # Mach-O 64
    b"\xce\xfa\xed\xfe",  # Mach-O 32, little-endian
    b"\xcf\xfa\xed\xfe",  # Mach-O 64, little-endian
    b"\xca\xfe\xba\xbe",  # Mach-O universal
)
_DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC"
_WIN_DIRECT = (".exe", ".com")
# Shebang interpreters the bash stand-in runs when they are missing (standin.py).
_SHELL_NAMES = {"bash": "bash", "sh": "sh"}
_WIN_CMD = (".cmd", ".bat")


class FilePlan(NamedTuple):
    """How to run a path-prefixed command word.

    kind: ``"shebang"`` (argv is interpreter + its args + script + args),
    ``"binary"`` (argv is the file + args), ``"script"`` (shebang-less: run
    ``source`` in the in-process shell with ``$0`` = path and ``$1…`` = args),
    ``"error"`` (nothing runs: ``exit_code`` and ``message`` say why).
    ``route`` is the value for Completed.route (``shebang:python3``, ``binary``,
    ``script``).
    """

    kind: str
    argv: tuple[str, ...] = ()
    route: str = ""
    source: str = ""
    exit_code: int = 0
    message: str = ""


def _error(exit_code: int, message: str) -> FilePlan:
    return FilePlan("error", route="error", exit_code=exit_code, message=message)


def is_windows(platform: str) -> bool:
    return platform == "win32"


def is_path_word(word: str, platform: str = sys.platform) -> bool:
    """True when ``word`` names a file rather than a command to look up.

    ``./ ../ / ~/`` everywhere; on Windows also ``.\\ ..\\ ~\\``, ``C:\\``,
    ``C:/``, ``\\\\server\\share`` and a rooted ``\\dir``. A bare ``dir/x`` is not a
    path word, as at a shell prompt.
    """
    if word.startswith(("./", "../", "/", "~/")):
        return True
    if not is_windows(platform):
        return False
    if word.startswith((".\\", "..\\", "~\\", "\\")):
        return True
    return len(word) >= 3 and word[0].isalpha() and word[1] == ":" and word[2] in "\\/"


def get_env(env: Mapping[str, str], name: str, platform: str = sys.platform) -> str | None:
    """``env[name]``; on Windows case-insensitively (``Path`` is ``PATH`` there)."""
    value = env.get(name)
    if value is not None or not is_windows(platform):
        return value
    upper = name.upper()
    for key, val in env.items():
        if key.upper() == upper:
            return val
    return None


def _pathext(env: Mapping[str, str], platform: str) -> list[str]:
    raw = get_env(env, "PATHEXT", platform) or _DEFAULT_PATHEXT
    return [ext.lower() for ext in raw.split(";") if ext.strip()]


def _is_runnable(path: str, platform: str) -> bool:
    if not os.path.isfile(path):
        return False
    # Windows has no execute bit: being a file with a PATHEXT extension is enough.
    return is_windows(platform) or os.access(path, os.X_OK)


def denied(path: str, platform: str = sys.platform) -> bool:
    """Whether the OS would refuse to run ``path``, a file without an execute bit for us
    (never on Windows, which has none). In a script file, bash reports such a file as
    "Permission denied" (126) rather than reading it; a hook's own command is read
    whatever its mode (:func:`plan_file`, ``Interp.run_external``)."""
    return not is_windows(platform) and os.path.isfile(path) and not os.access(path, os.X_OK)


def _candidates(base: str, env: Mapping[str, str], platform: str) -> list[str]:
    if not is_windows(platform):
        return [base]
    exts = _pathext(env, platform)
    if os.path.splitext(base)[1].lower() in exts:
        return [base]
    # Windows tries NAME.EXT for each PATHEXT entry in order, in the spelling
    # PATHEXT gives (the file system there is case-insensitive).
    raw = get_env(env, "PATHEXT", platform) or _DEFAULT_PATHEXT
    return [base + ext for ext in raw.split(";") if ext.strip()]


def find_executable(
    name: str,
    *,
    env: Mapping[str, str],
    cwd: str,
    platform: str = sys.platform,
    runnable: Callable[[str, str], bool] | None = None,
) -> str | None:
    """Find ``name`` as a shell would; None when not found.

    ``runnable`` (path, platform) decides which file is taken (default: one we may run;
    :func:`denied` finds the file bash reports as "Permission denied" when none is).

    A name with a separator is taken relative to ``cwd``. Otherwise PATH from
    ``env`` is searched (``;`` and PATHEXT on Windows). On POSIX an empty PATH
    entry means the current directory, as in every POSIX shell; on Windows the
    current directory is NOT searched first (unlike cmd.exe): a hook run in an
    untrusted checkout must not pick up a planted ``git.exe``.
    """
    if not name:
        return None
    test = _is_runnable if runnable is None else runnable
    seps = "/\\" if is_windows(platform) else "/"
    if any(sep in name for sep in seps):
        base = os.path.join(cwd, name)
        for cand in _candidates(base, env, platform):
            if test(cand, platform):
                return cand
        return None
    path = get_env(env, "PATH", platform)
    if path is None:
        path = os.defpath
    for entry in path.split(";" if is_windows(platform) else ":"):
        entry = entry.strip('"') if is_windows(platform) else entry
        if not entry:
            if is_windows(platform):
                continue
            entry = cwd
        elif not os.path.isabs(entry):
            entry = os.path.join(cwd, entry)
        for cand in _candidates(os.path.join(entry, name), env, platform):
            if test(cand, platform):
                return cand
    return None


def command_argv(exe: str, args: Sequence[str], platform: str = sys.platform) -> tuple[str, ...]:
    """argv that runs ``exe``: ``.cmd``/``.bat`` need ``cmd /c`` on Windows."""
    if is_windows(platform) and exe.lower().endswith(_WIN_CMD):
        return ("cmd", "/c", exe, *args)
    return (exe, *args)


def _expand_home(path: str, env: Mapping[str, str], platform: str) -> str | FilePlan:
    if not path.startswith(("~/", "~\\")):
        return path
    var = "USERPROFILE" if is_windows(platform) else "HOME"
    home = get_env(env, var, platform)
    if not home:
        return _error(
            exitcodes.NOT_FOUND, f"{path}: cannot expand ~: {var} is not set in the hook's env"
        )
    return os.path.join(home, path[2:])


def _read_head(full: str, display: str) -> bytes | FilePlan:
    """The first bytes of a regular file, or an error plan naming ``display``."""
    try:
        st = os.stat(full)
    except FileNotFoundError:
        return _error(exitcodes.NOT_FOUND, f"{display}: no such file (looked for {full})")
    except OSError as exc:
        return _os_error(exc, display)
    if stat.S_ISDIR(st.st_mode):
        return _error(exitcodes.NOT_EXECUTABLE, f"{display}: is a directory, not a script")
    if not stat.S_ISREG(st.st_mode):
        return _error(exitcodes.NOT_EXECUTABLE, f"{display}: not a regular file")
    # os.open/os.read rather than open(): no buffered file object for 128 bytes,
    # on the path of every file hook.
    try:
        fd = os.open(full, os.O_RDONLY)
    except OSError as exc:
        return _os_error(exc, display)
    try:
        head = os.read(fd, HEAD_SIZE)
        if head.startswith(b"#!") and b"\n" not in head and len(head) == HEAD_SIZE:
            head += os.read(fd, SHEBANG_LINE_MAX - HEAD_SIZE)
    except OSError as exc:
        return _os_error(exc, display)
    finally:
        os.close(fd)
    return head


def _os_error(exc: OSError, display: str) -> FilePlan:
    if exc.errno == errno.ELOOP:
        return _error(
            exitcodes.NOT_EXECUTABLE, f"{display}: too many levels of symbolic links (a loop?)"
        )
    if exc.errno == errno.ENOTDIR:
        return _error(exitcodes.NOT_FOUND, f"{display}: a component of the path is not a directory")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return _error(
            exitcodes.NOT_EXECUTABLE,
            f"{display}: permission denied: the hook file must be readable",
        )
    return _error(exitcodes.NOT_EXECUTABLE, f"{display}: cannot read: {exc.strerror or exc}")


def _read_source(full: str, display: str) -> str | FilePlan:
    try:
        with open(full, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return _os_error(exc, display)
    # Invalid bytes become U+FFFD rather than an exception: a stray Latin-1 byte
    # in a comment must not stop a hook from running.
    text = data.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n")


def read_script(
    path: str, *, cwd: str, env: Mapping[str, str], platform: str = sys.platform
) -> str | FilePlan:
    """The text of the script ``bash PATH`` would run, or an error plan naming ``path``.

    As bash does, a name without a slash is taken from ``cwd`` (bash then tries
    PATH; a hook never relies on that).
    """
    expanded = _expand_home(path, env, platform)
    if isinstance(expanded, FilePlan):
        return expanded
    if is_windows(platform):
        expanded = expanded.replace("\\", os.sep)
    full = os.path.join(cwd, expanded)
    head = _read_head(full, path)
    if isinstance(head, FilePlan):
        return head
    return _read_source(full, path)


def _is_binary(head: bytes) -> bool:
    return b"\0" in head or head.startswith(_BINARY_MAGIC)


def plan_file(
    path: str,
    args: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    platform: str = sys.platform,
) -> FilePlan:
    """Read at most 128 bytes of ``path`` and decide how to run it.

    The file does not need the execute bit when it is a script (shebang or
    shell source): hookrun reads it and runs the interpreter itself, which is
    what makes the same hook work on Windows and in checkouts that lost their
    modes. A binary is executed by the OS, which applies its own checks.
    """
    expanded = _expand_home(path, env, platform)
    if isinstance(expanded, FilePlan):
        return expanded
    if is_windows(platform):
        # Backslash separates under Windows rules; a no-op on Windows itself, and
        # what lets these rules be exercised on a POSIX test machine.
        expanded = expanded.replace("\\", os.sep)
    full = os.path.join(cwd, expanded)
    if is_windows(platform):
        win = _plan_windows(full, path, args, env)
        if win is not None:
            return win
    head = _read_head(full, path)
    if isinstance(head, FilePlan):
        return head
    if head.startswith(b"#!"):
        parsed = parse_shebang(head, script=path)
        assert parsed is not None
        if isinstance(parsed, ShebangError):
            return _error(parsed.exit_code, parsed.message)
        return _plan_shebang(parsed, expanded, args, cwd=cwd, env=env, platform=platform)
    if _is_binary(head):
        return FilePlan("binary", argv=(full, *args), route="binary")
    if not head:
        return FilePlan("script", route="script", source="")
    source = _read_source(full, path)
    if isinstance(source, FilePlan):
        return source
    return FilePlan("script", route="script", source=source)


def _plan_windows(
    full: str, display: str, args: Sequence[str], env: Mapping[str, str]
) -> FilePlan | None:
    """Extension rules Windows applies before looking inside the file."""
    if not os.path.exists(full) and not os.path.splitext(full)[1]:
        # .\hook names hook.exe / hook.cmd on Windows, as at a cmd prompt.
        for cand in _candidates(full, env, "win32"):
            if os.path.isfile(cand):
                full = cand
                break
    ext = os.path.splitext(full)[1].lower()
    if ext == ".ps1":
        return _error(
            exitcodes.NOT_EXECUTABLE,
            f"{display}: PowerShell scripts are not run automatically: "
            f"write the command as: powershell -File {display}",
        )
    if not os.path.isfile(full):
        return None  # the common checks report it
    if ext in _WIN_DIRECT:
        return FilePlan("binary", argv=(full, *args), route="binary")
    if ext in _WIN_CMD:
        return FilePlan("binary", argv=command_argv(full, args, "win32"), route="cmd")
    return None


def _plan_shebang(
    shebang: Shebang,
    script: str,
    args: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    platform: str,
) -> FilePlan:
    route = f"shebang:{shebang.name}"
    if shebang.lookup:
        exe = find_executable(shebang.interpreter, env=env, cwd=cwd, platform=platform)
        if exe is None:
            return _standin_plan(shebang, script, args) or _error(
                exitcodes.NOT_FOUND,
                f"{script}: interpreter {shebang.interpreter!r} not found on PATH "
                "(named by the script's #! line): install it or fix the #! line",
            )
    else:
        literal = _literal_interpreter(
            shebang.interpreter, script, cwd=cwd, env=env, platform=platform
        )
        if isinstance(literal, FilePlan):
            if literal.exit_code == exitcodes.NOT_FOUND:
                return _standin_plan(shebang, script, args) or literal
            return literal
        exe = literal
    argv = command_argv(exe, (*shebang.args, script, *args), platform)
    return FilePlan("shebang", argv=argv, route=route)


def _standin_plan(shebang: Shebang, script: str, args: Sequence[str]) -> FilePlan | None:
    """A bash/sh script whose shell is nowhere: ``bash SCRIPT ARGS`` for the stand-in.

    argv[0] is the bare name, which is not on PATH: whoever runs the plan (dispatch's
    api, the in-process shell's exec handler) sees that and runs it in-process
    (:mod:`hookrun.dispatch.standin`).
    """
    name = _SHELL_NAMES.get(shebang.name.lower().removesuffix(".exe"))
    if name is None:
        return None
    return FilePlan("shebang", argv=(name, *shebang.args, script, *args), route=f"inprocess:{name}")


def _literal_interpreter(
    interp: str, script: str, *, cwd: str, env: Mapping[str, str], platform: str
) -> str | FilePlan:
    """A literal ``#!/path``: that file, or (when absent) its base name on PATH."""
    full = os.path.join(cwd, interp)
    try:
        st = os.stat(full)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        return _error(
            exitcodes.NOT_EXECUTABLE, f"{script}: interpreter {interp}: {exc.strerror or exc}"
        )
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            return _error(
                exitcodes.NOT_EXECUTABLE, f"{script}: interpreter {interp} is a directory"
            )
        if not is_windows(platform) and not os.access(full, os.X_OK):
            # Reported, not papered over with a PATH lookup: a present but
            # unusable interpreter is a setup error the user must see.
            return _error(
                exitcodes.NOT_EXECUTABLE, f"{script}: interpreter {interp}: permission denied"
            )
        return full
    # Absent (e.g. #!/bin/bash on Windows): the same name on PATH is what the
    # author meant — Git for Windows' bash.exe, a venv's python3.
    base = interp.replace("\\", "/").rsplit("/", 1)[-1]
    found = find_executable(base, env=env, cwd=cwd, platform=platform) if base else None
    if found is None:
        return _error(
            exitcodes.NOT_FOUND,
            f"{script}: interpreter {interp} not found (nor {base!r} on PATH): "
            "install it or fix the script's #! line",
        )
    return found
