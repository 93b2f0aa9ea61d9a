"""Builtins hooks seldom run — ``alias``, ``unalias``, ``hash``, ``umask``, ``type``,
``let`` — loaded on the first call of one of them (``builtins._lazy``): a hook that runs
none does not unmarshal them at start-up.
"""

from __future__ import annotations

import os

from hookrun.dispatch import resolve
from hookrun.dispatch.shell.builtins import (
    BUILTINS,
    KEYWORDS,
    _describe,
    _describe_file,
    _err,
    _invalid,
    _letters,
    _out,
    _type_line,
    is_builtin,
)
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.dispatch.shell.interp import IO, Interp


def b_alias(sh: Interp, argv: list[str], io: IO) -> int:
    from hookrun.dispatch.shell.expand import shell_quote

    aliases = sh.state.aliases
    args = [a for a in argv[1:] if a != "-p"]
    if not args:
        for name in sorted(aliases):
            _out(io, f"alias {name}={shell_quote(aliases[name])}\n")
        return 0
    status = 0
    for a in args:
        name, eq, value = a.partition("=")
        if eq:
            aliases[name] = value
        elif name in aliases:
            _out(io, f"alias {name}={shell_quote(aliases[name])}\n")
        else:
            _err(sh, io, "alias", f"{name}: not found")
            status = 1
    return status


def b_unalias(sh: Interp, argv: list[str], io: IO) -> int:
    args = argv[1:]
    if args[:1] == ["-a"]:
        sh.state.aliases.clear()
        return 0
    status = 0
    for name in args:
        if sh.state.aliases.pop(name, None) is None:
            _err(sh, io, "unalias", f"{name}: not found")
            status = 1
    return status


def b_hash(sh: Interp, argv: list[str], io: IO) -> int:
    from hookrun.dispatch.shell.state import hash_order

    st = sh.state
    args = argv[1:]
    delete = show = portable = expunged = False
    set_path: str | None = None
    while args and args[0][:1] == "-" and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        for k, letter in enumerate(flag[1:], 1):
            if letter == "r":
                st.hashed.clear()
                expunged = True
            elif letter == "d":
                delete = True
            elif letter == "t":
                show = True
            elif letter == "l":  # (bash's -l: lines it reads back)
                portable = True
            elif letter == "p" and (flag[k + 1 :] or args):
                set_path = flag[k + 1 :] or args.pop(0)
                break
            elif letter == "p":
                _err(sh, io, "hash", "-p: option requires an argument")
                sh.error_plain("hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]", io)
                return 2
            else:
                return _invalid(sh, io, "hash", f"-{letter}")
    if not args:
        if delete or show:  # (bash's order: -d named first)
            _err(sh, io, "hash", f"-{'d' if delete else 't'}: option requires an argument")
            return 1
        if expunged:
            return 0
        if not st.hashed:
            if not portable:  # (bash 5.2 says nothing for -l)
                _out(io, "hash: hash table empty\n")
            return 0
        if not portable:
            _out(io, "hits\tcommand\n")
        for name in hash_order(list(st.hashed), 256):
            path, hits = st.hashed[name]
            if portable:
                _out(io, f"builtin hash -p {_printable(path)} {_printable(name)}\n")
            else:
                _out(io, f"{hits:4d}\t{path}\n")
        return 0
    status = 0
    for name in args:
        if delete:
            if st.hashed.pop(name, None) is None:
                _err(sh, io, "hash", f"{name}: not found")
                status = 1
        elif show:
            if name not in st.hashed:
                _err(sh, io, "hash", f"{name}: not found")
                status = 1
            else:
                st.hashed[name][1] += 1  # bash counts a lookup by -t as a use
                path = st.hashed[name][0]
                if portable:  # (not quoted here, as bash's)
                    _out(io, f"builtin hash -p {path} {name}\n")
                else:
                    _out(io, f"{name}\t{path}\n" if len(args) > 1 else path + "\n")
        elif set_path is not None:
            st.hashed[name] = [set_path, 0]
        elif name in BUILTINS or name in st.functions:
            continue
        else:
            exe = resolve.find_executable(name, env=st.environ(), cwd=st.cwd, platform=sh.platform)
            if exe is None:
                _err(sh, io, "hash", f"{name}: not found")
                status = 1
            else:
                st.hashed[name] = [exe, 0]
    return status


def _printable(text: str) -> str:
    """A path or name as bash's ``hash -l`` prints it: single-quoted when it holds a
    character the shell would read otherwise (``printable_filename``)."""
    if text and not any(c in _SHELL_METAS for c in text) and text[0] not in "~#":
        return text
    from hookrun.dispatch.shell.expand import shell_quote

    return shell_quote(text)


_SHELL_METAS = frozenset(" \t\n'\"\\|&;()<>!{}*[?]^$`")


def b_umask(sh: Interp, argv: list[str], io: IO) -> int:
    """``umask [-p] [-S] [mode]`` as bash's: ``mode`` octal (up to 07777, kept within
    0777) or symbolic (``u=rwx,g=rx,o=``, ``go-w``, ``+x``); ``-S`` prints the mask as
    the permissions it leaves, ``-p`` in a form the shell reads back."""
    st = sh.state
    args = argv[1:]
    flags = _letters(sh, io, "umask", args, "pS")
    if flags is None:
        return 2
    mask = process_umask() if st.umask is None else st.umask
    if args:
        mode = args[0]
        if mode[:1].isdigit():
            value = int(mode, 8) if all(c in "01234567" for c in mode) else -1
            if not 0 <= value <= 0o7777:
                _err(sh, io, "umask", f"{mode}: octal number out of range")
                return 1
            st.umask = value & 0o777
        else:
            allowed = _symbolic_mode(sh, io, mode, ~mask & 0o777)
            if allowed is None:
                return 1
            st.umask = ~allowed & 0o777
        if "S" in flags:  # (a mode given: -p adds nothing, as in bash)
            _out(io, _symbolic(st.umask) + "\n")
        return 0
    if "S" in flags:
        _out(io, ("umask -S " if "p" in flags else "") + _symbolic(mask) + "\n")
    else:
        _out(io, ("umask " if "p" in flags else "") + f"{mask:04o}\n")
    return 0


def process_umask() -> int:
    """This process's file mode mask, which the shell started with (bash inherits it).

    Linux shows it in /proc/self/status; elsewhere the only way is to set it and set it
    back, a moment in which another thread's new file would get 0o077 — the safe side."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o077)
    os.umask(old)
    return old


def _symbolic(mask: int) -> str:
    """``u=rwx,g=rx,o=rx``: what ``mask`` leaves allowed."""
    return ",".join(
        who
        + "="
        + "".join(c for c, bit in zip("rwx", (4, 2, 1), strict=True) if ~mask >> shift & bit)
        for who, shift in (("u", 6), ("g", 3), ("o", 0))
    )


_WHO = {"u": 0o700, "g": 0o070, "o": 0o007, "a": 0o777}
_PERM = {"r": 0o444, "w": 0o222, "x": 0o111}


def _symbolic_mode(sh: Interp, io: IO, mode: str, allowed: int) -> int | None:
    """The permissions ``allowed`` after bash's parse_symbolic_mode reads ``mode``
    (clauses ``[ugoa]*[-+=][rwx]*`` joined by commas); None after bash's error."""
    i, n = 0, len(mode)
    while True:
        who = 0
        while i < n and mode[i] in _WHO:
            who |= _WHO[mode[i]]
            i += 1
        op = mode[i] if i < n else "\0"  # (bash names the NUL that ends the text)
        i += 1
        if op not in "+-=":
            _err(sh, io, "umask", f"`{op}': invalid symbolic mode operator")
            return None
        perm = 0
        while i < n and mode[i] != ",":
            if mode[i] not in _PERM:
                _err(sh, io, "umask", f"`{mode[i]}': invalid symbolic mode character")
                return None
            perm |= _PERM[mode[i]]
            i += 1
        who = who or 0o777  # no who: everyone (bash does not apply the mask here)
        perm &= who
        if op == "+":
            allowed |= perm
        elif op == "-":
            allowed &= ~perm
        else:
            allowed = allowed & ~who | perm
        if i >= n:
            return allowed
        i += 1  # the comma


def b_type(sh: Interp, argv: list[str], io: IO) -> int:
    """``type [-afptP] name…`` as bash's describe_command: alias, keyword, function,
    builtin, then the file (hashed first); ``-a`` every one of those and every file on
    PATH, ``-f`` no functions, ``-t`` the kind's word, ``-p`` a file's path only (another
    kind prints nothing and is found), ``-P`` the path searched on PATH whatever else
    the name is."""
    args = argv[1:]
    flags = _letters(sh, io, "type", args, "afptP")
    if flags is None:
        return 2
    status = 0
    for name in args:
        found = _type_entries(sh, name, flags)
        if not found:
            if not any(f in flags for f in "tpP"):
                _err(sh, io, "type", f"{name}: not found")
            status = 1
            continue
        for kind, text in found:
            if "P" in flags or ("p" in flags and kind in ("file", "hashed")):
                _out(io, text + "\n")
            elif "p" in flags:
                continue  # found, not a file: nothing printed (bash)
            elif "t" in flags:
                _out(io, ("file" if kind == "hashed" else kind) + "\n")
            else:
                _out(io, _type_line(sh, name, (kind, text)))
    return status


def _type_entries(sh: Interp, name: str, flags: str) -> list[tuple[str, str]]:
    """What ``type`` reports for ``name``: the first meaning, or with -a all of them."""
    st = sh.state
    every = "a" in flags
    if "P" in flags:
        if not every and "/" not in name and name in st.hashed:
            return [("hashed", st.hashed[name][0])]
    elif not every:
        if "f" not in flags:
            one = _describe(sh, name)
        else:
            saved, st.functions = st.functions, {}
            try:
                one = _describe(sh, name)
            finally:
                st.functions = saved
        return [] if one is None else [one]
    out: list[tuple[str, str]] = []
    if "P" not in flags:
        if st.aliases and name in st.aliases and "expand_aliases" in st.options:
            out.append(("alias", st.aliases[name]))
        if name in KEYWORDS:
            out.append(("keyword", name))
        if "f" not in flags and name in st.functions:
            out.append(("function", name))
        if is_builtin(st, name):
            out.append(("builtin", name))
    if "/" in name or resolve.is_windows(sh.platform):
        one = _describe_file(sh, name)
        if one is not None:
            out.append(("file", one[1]))
        return out if every else out[:1]
    path = st.get_var("PATH")
    for entry in (os.defpath if path is None else path).split(":"):
        folder = entry or st.cwd
        if not os.path.isabs(folder):
            folder = os.path.join(st.cwd, folder)
        exe = resolve.find_executable(name, env={"PATH": folder}, cwd=st.cwd, platform=sh.platform)
        if exe is not None:
            out.append(("file", os.path.join(entry, name) if entry else exe))
            if not every:
                break
    return out


def b_let(sh: Interp, argv: list[str], io: IO) -> int:
    if len(argv) < 2:
        _err(sh, io, "let", "expression expected")
        return 1

    def last() -> int:
        value = 0
        for expr in argv[1:]:
            value = sh.expander.arith_text(expr)
        return value

    return sh.arith_command(last, io, "let")


# POSIX's special builtins among this shell's (`enable -s` lists them).
_SPECIAL = frozenset(
    [
        ".",
        ":",
        "break",
        "continue",
        "eval",
        "exec",
        "exit",
        "export",
        "readonly",
        "return",
        "set",
        "shift",
        "times",
        "trap",
        "unset",
    ]
)


def b_enable(sh: Interp, argv: list[str], io: IO) -> int:
    """``enable [-a] [-dnps] [name…]``: list builtins, turn them off (``-n``: the name
    then runs a function or a program, as in bash) and on again. No loadable builtins:
    ``-f`` fails as bash's does when the object cannot be opened."""
    st = sh.state
    args = argv[1:]
    flags = ""
    while args and args[0][:1] == "-" and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        for k, letter in enumerate(flag[1:], 1):
            if letter == "f":
                target = flag[k + 1 :] or (args.pop(0) if args else "")
                if not target:
                    _err(sh, io, "enable", "-f: option requires an argument")
                    return 2
                _err(
                    sh,
                    io,
                    "enable",
                    f"cannot open shared object {target}: {target}: cannot open shared"
                    " object file: No such file or directory",
                )
                return 1
            if letter not in "adnps":
                return _invalid(sh, io, "enable", f"-{letter}")
            flags += letter
    if not args:
        for name in sorted(n for n in BUILTINS if not n.startswith("__hookrun")):
            off = name in st.disabled
            if "s" in flags and name not in _SPECIAL:
                continue
            if "a" in flags or ("n" in flags) == off:
                _out(io, f"enable {'-n ' if off else ''}{name}\n")
        return 0
    status = 0
    for name in args:
        if name not in BUILTINS or name.startswith("__hookrun") or "d" in flags:
            _err(sh, io, "enable", f"{name}: not a shell builtin")
            status = 1
        elif "n" in flags:
            st.disabled = st.disabled | {name}
        elif name in st.disabled:
            st.disabled = st.disabled - {name}
    return status


def b_times(sh: Interp, argv: list[str], io: IO) -> int:
    """``times``: the user and system CPU time of the shell (here: hookrun's process),
    then of the children it waited for."""
    t = os.times()

    def pair(user: float, system: float) -> str:
        return f"{_minutes(user)} {_minutes(system)}\n"

    _out(io, pair(t.user, t.system) + pair(t.children_user, t.children_system))
    return 0


def _minutes(seconds: float) -> str:
    whole = int(seconds // 60)
    return f"{whole}m{seconds - whole * 60:.3f}s"


def b_jobs(sh: Interp, argv: list[str], io: IO) -> int:
    """``jobs [-lnprs] [%job…]``: the background jobs, as bash lists them (``+`` the
    current one, ``-`` the one before; ``-p`` their pids)."""
    from hookrun.dispatch.shell.funcprint import job_text

    args = argv[1:]
    flags = _letters(sh, io, "jobs", args, "lnprsx")
    if flags is None:
        return 2
    jobs = list(sh.jobs or sh.parent_jobs)
    status = 0
    if args:
        chosen = []
        for spec in args:
            job = sh.job_by_spec(spec) if spec.startswith("%") else None
            if job is None:
                _err(sh, io, "jobs", f"{spec}: no such job")
                status = 1
            else:
                chosen.append(job)
    else:
        chosen = jobs
    shown = []
    for job in chosen:
        running = job.thread is not None and job.thread.is_alive()
        if ("r" in flags and not running) or "s" in flags:
            continue
        if "p" in flags:
            _out(io, f"{job.pid}\n")
            continue
        shown.append(job)
        k = jobs.index(job)
        mark = "+" if k == len(jobs) - 1 else "-" if k == len(jobs) - 2 else " "
        state = "Running" if running else "Done" if job.status == 0 else f"Exit {job.status}"
        text = job_text(*job.command) if job.command is not None else ""
        pid = f"{job.pid} " if "l" in flags else " "
        _out(io, f"[{job.number}]{mark} {pid}{state:<24}{text}{' &' if running else ''}\n")
    if shown and sh.jobs:
        sh.forget_done_jobs(shown)  # (a finished job is listed once, as in bash)
    return status
