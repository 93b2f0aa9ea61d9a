"""Builtins hooks seldom run — ``alias``, ``unalias``, ``hash``, ``umask``, ``type``,
``let`` — loaded on the first call of one of them (``builtins._lazy``): a hook that runs
none does not unmarshal them at start-up.
"""

from __future__ import annotations

from hookrun.dispatch import resolve
from hookrun.dispatch.shell.builtins import BUILTINS, _describe, _err, _out, _type_line
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
    delete = show = False
    set_path: str | None = None
    listing = not args or args[0][:1] != "-"
    while args and args[0][:1] == "-" and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        for k, letter in enumerate(flag[1:], 1):
            if letter == "r":
                st.hashed.clear()
            elif letter == "d":
                delete = True
            elif letter == "t":
                show = True
            elif letter == "p" and (flag[k + 1 :] or args):
                set_path = flag[k + 1 :] or args.pop(0)
                break
            else:
                _err(sh, io, "hash", f"-{letter}: invalid option")
                return 2
    if not args:
        if not listing:
            return 0
        if not st.hashed:
            _out(io, "hash: hash table empty\n")
            return 0
        _out(io, "hits\tcommand\n")
        for name in hash_order(list(st.hashed), 256):
            path, hits = st.hashed[name]
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
                _out(io, st.hashed[name][0] + "\n")
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


def b_umask(sh: Interp, argv: list[str], io: IO) -> int:
    st = sh.state
    args = argv[1:]
    symbolic = bool(args) and args[0] == "-S"
    if symbolic:
        args = args[1:]
    if args and args[0] == "-p":
        _out(io, f"umask {st.umask:04o}\n")
        return 0
    if not args:
        if symbolic:
            perms = []
            for who, shift in (("u", 6), ("g", 3), ("o", 0)):
                allowed = ~st.umask >> shift & 7
                perms.append(
                    who
                    + "="
                    + "".join(c for c, bit in zip("rwx", (4, 2, 1), strict=True) if allowed & bit)
                )
            _out(io, ",".join(perms) + "\n")
        else:
            _out(io, f"{st.umask:04o}\n")
        return 0
    try:
        value = int(args[0], 8)
    except ValueError:
        _err(sh, io, "umask", f"{args[0]}: octal number out of range")
        return 1
    if not 0 <= value <= 0o777:
        _err(sh, io, "umask", f"{args[0]}: octal number out of range")
        return 1
    st.umask = value
    return 0


def b_type(sh: Interp, argv: list[str], io: IO) -> int:
    args = argv[1:]
    terse = path_only = False
    while args and args[0].startswith("-"):
        flag = args.pop(0)
        terse = terse or "t" in flag
        path_only = path_only or "p" in flag or "P" in flag
    status = 0
    for name in args:
        found = _describe(sh, name)
        if found is None:
            if not terse and not path_only:
                _err(sh, io, "type", f"{name}: not found")
            status = 1
        elif terse:
            _out(io, found[0] + "\n")
        elif path_only:
            if found[0] == "file":
                _out(io, found[1] + "\n")
        else:
            _out(io, _type_line(sh, name, found))
    return status


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
