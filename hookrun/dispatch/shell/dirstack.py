"""``pushd``, ``popd``, ``dirs``: the directory stack (bash's, its output and errors)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.shell.interp import IO, Interp


def _tilde(sh: Interp, path: str) -> str:
    home = sh.state.get_var("HOME")
    if home and (path == home or path.startswith(home.rstrip("/") + "/")):
        return "~" + path[len(home.rstrip("/")) :]
    return path


def _stack(sh: Interp) -> list[str]:
    return [sh.state.cwd, *sh.state.dirstack]


def _print(
    sh: Interp, io: IO, *, long: bool = False, lines: bool = False, verbose: bool = False
) -> None:
    entries = [p if long else _tilde(sh, p) for p in _stack(sh)]
    if verbose:
        text = "".join(f"{k:2d}  {p}\n" for k, p in enumerate(entries))
    elif lines:
        text = "".join(p + "\n" for p in entries)
    else:
        text = " ".join(entries) + "\n"
    io.stdout.write(text.encode("utf-8", "surrogateescape"))


def _cd(sh: Interp, io: IO, target: str, name: str) -> bool:
    st = sh.state
    path = os.path.normpath(target if os.path.isabs(target) else os.path.join(st.cwd, target))
    if not os.path.isdir(path):
        reason = "Not a directory" if os.path.exists(path) else "No such file or directory"
        sh.error(f"{name}: {target}: {reason}", io)
        return False
    st.set_var("OLDPWD", st.cwd)
    st.cwd = path
    st.set_var("PWD", path)
    return True


def b_dirs(sh: Interp, argv: list[str], io: IO) -> int:
    long = lines = verbose = False
    for a in argv[1:]:
        if a == "-c":
            sh.state.dirstack.clear()
            return 0
        if a.startswith("-") and len(a) > 1 and not a[1:].isdigit():
            for f in a[1:]:
                if f == "l":
                    long = True
                elif f == "p":
                    lines = True
                elif f == "v":
                    verbose = lines = True
                else:
                    sh.error(f"dirs: {a}: invalid option", io)
                    return 2
        else:
            stack = _stack(sh)
            if a[:1] not in "+-":  # as bash: only +N and -N are arguments
                sh.error(f"dirs: {a}: invalid option", io)
                return 2
            try:
                k = int(a)
            except ValueError:
                sh.error(f"dirs: {a}: invalid number", io)
                return 2
            idx = k if a.startswith("+") or k >= 0 else len(stack) + k
            if a.startswith("-"):
                idx = len(stack) - 1 - abs(k)
            if not 0 <= idx < len(stack):
                sh.error(f"dirs: {a}: directory stack index out of range", io)
                return 1
            entry = stack[idx]
            io.stdout.write(((entry if long else _tilde(sh, entry)) + "\n").encode())
            return 0
    _print(sh, io, long=long, lines=lines, verbose=verbose)
    return 0


_USAGE = {"pushd": "pushd [-n] [+N | -N | dir]", "popd": "popd [-n] [+N | -N]"}


def _is_index(word: str) -> bool:
    return len(word) > 1 and word[0] in "+-" and word[1:].isdigit()


def _operands(sh: Interp, io: IO, argv: list[str]) -> tuple[bool, list[str]] | int:
    """(-n given, the operands) as bash reads pushd/popd's line, or the usage status.

    ``-n`` and ``+N``/``-N`` are recognised until ``--``; after it pushd's ``-1`` is a
    directory (``./-1``); any other ``-x`` is bash's "invalid number" (status 2).
    """
    no_cd = False
    operands: list[str] = []
    for k, word in enumerate(argv[1:], start=1):
        if word == "--":
            rest = argv[k + 1 :]
            if argv[0] == "pushd":  # a directory named like an index
                rest = ["./" + w if _is_index(w) else w for w in rest]
            operands += rest
            break
        if word == "-n":
            no_cd = True
        elif word.startswith("-") and len(word) > 1 and not _is_index(word):
            sh.error(f"{argv[0]}: {word}: invalid number", io)
            sh.error_plain(f"{argv[0]}: usage: {_USAGE[argv[0]]}", io)
            return 2
        else:
            operands.append(word)
    return no_cd, operands


def b_pushd(sh: Interp, argv: list[str], io: IO) -> int:
    st = sh.state
    parsed = _operands(sh, io, argv)
    if isinstance(parsed, int):
        return parsed
    no_cd, args = parsed  # -n: change the stack, not the directory
    if len(args) > 1:
        sh.error("pushd: too many arguments", io)
        return 1
    if no_cd and not args:
        return 0
    if no_cd and args[0][:1] not in "+-":
        st.dirstack.insert(0, args[0])  # as bash, not checked: it is not entered
        _print(sh, io)
        return 0
    if not args:
        if not st.dirstack:
            sh.error("pushd: no other directory", io)
            return 1
        top = st.dirstack[0]
        old = st.cwd
        if not _cd(sh, io, top, "pushd"):
            return 1
        st.dirstack[0] = old
        _print(sh, io)
        return 0
    target = args[0]
    if target[:1] in "+-" and target[1:].isdigit():
        stack = _stack(sh)
        k = int(target[1:])
        if k >= len(stack):
            sh.error(f"pushd: {target}: directory stack index out of range", io)
            return 1
        n = k if target[0] == "+" else len(stack) - 1 - k
        rotated = stack[n:] + stack[:n]
        if not _cd(sh, io, rotated[0], "pushd"):
            return 1
        st.dirstack[:] = rotated[1:]
        _print(sh, io)
        return 0
    old = st.cwd
    if not _cd(sh, io, target, "pushd"):
        return 1
    st.dirstack.insert(0, old)
    _print(sh, io)
    return 0


def b_popd(sh: Interp, argv: list[str], io: IO) -> int:
    st = sh.state
    parsed = _operands(sh, io, argv)
    if isinstance(parsed, int):
        return parsed
    no_cd, args = parsed
    if not st.dirstack:
        sh.error("popd: directory stack empty", io)
        return 1
    if args and args[0][:1] in "+-" and args[0][1:].isdigit():
        stack = _stack(sh)
        k = int(args[0][1:])
        n = k if args[0][0] == "+" else len(stack) - 1 - k
        if not 0 <= n < len(stack):
            sh.error(f"popd: {args[0]}: directory stack index out of range", io)
            return 1
        if n == 0:
            if not _cd(sh, io, st.dirstack[0], "popd"):
                return 1
            st.dirstack.pop(0)
        else:
            st.dirstack.pop(n - 1)
        _print(sh, io)
        return 0
    if args:
        sh.error(f"popd: {args[0]}: invalid argument", io)
        sh.error_plain(f"popd: usage: {_USAGE['popd']}", io)
        return 2
    if no_cd:  # -n: drop the entry after the current directory, stay here
        st.dirstack.pop(0)
        _print(sh, io)
        return 0
    if not _cd(sh, io, st.dirstack[0], "popd"):
        return 1
    st.dirstack.pop(0)
    _print(sh, io)
    return 0
