"""Builtins: commands that run inside the Python process, on the shell's own state.

Each builtin takes the interpreter, its argv (argv[0] is its name) and the command's
streams, and returns an exit status. They write bytes to the sinks directly (no
buffering to flush, no pipe, no thread). A write to a pipe whose reader is gone raises
BrokenPipeError, which the pipeline turns into status 141.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from hookrun.dispatch import resolve
from hookrun.dispatch.shell.state import (
    DiscardLine,
    ExitShell,
    LoopControl,
    OptionsSnapshot,
    ReturnFromFunction,
    ShellError,
    ShellState,
    is_name,
)
from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING
from hookrun.shellsyntax import ECHO_ESCAPES

if TYPE_CHECKING:
    from typing import Any

    from hookrun.dispatch.shell.interp import IO, Interp

Builtin = Callable[["Interp", list[str], "IO"], int]

# Compiled on first use (hookrun.lazyre): neither compiling nor `re` itself is paid by a
# shell that never needs the pattern.
_OCTAL_ESCAPE = lazy_compile(r"[0-7]{0,3}")
_HEX_ESCAPES = {
    "x": lazy_compile(r"[0-9a-fA-F]{1,2}"),
    "u": lazy_compile(r"[0-9a-fA-F]{1,4}"),
    "U": lazy_compile(r"[0-9a-fA-F]{1,8}"),
}
_INTEGER_ARG = lazy_compile(r"\s*[-+]?\d+\s*")


def _out(io: IO, text: str) -> None:
    io.stdout.write(text.encode("utf-8", "surrogateescape"))


def _err(sh: Interp, io: IO, name: str, message: str) -> None:
    sh.error(f"{name}: {message}", io)


# The usage line bash prints after an option a builtin does not take (bash 5.2's text).
_USAGE = {
    "declare": "declare [-aAfFgiIlnrtux] [name[=value] ...]"
    " or declare -p [-aAfFilnrtux] [name ...]",
    "typeset": "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
    "local": "local [option] name[=value] ...",
    "export": "export [-fn] [name[=value] ...] or export -p",
    "readonly": "readonly [-aAf] [name[=value] ...] or readonly -p",
    "type": "type [-afptP] name [name ...]",
    "jobs": "jobs [-lnprs] [jobspec ...] or jobs -x command [args]",
    "enable": "enable [-a] [-dnps] [-f filename] [name ...]",
    "cd": "cd [-L|[-P [-e]] [-@]] [dir]",
    "hash": "hash [-lr] [-p pathname] [-dt] [name ...]",
    "set": "set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]",
    "shopt": "shopt [-pqsu] [-o] [optname ...]",
    "trap": "trap [-lp] [[arg] signal_spec ...]",
    "umask": "umask [-p] [-S] [mode]",
}


def _invalid(sh: Interp, io: IO, name: str, option: str) -> int:
    """bash's answer to an ``option`` builtin ``name`` does not take: the message, the
    usage line, status 2."""
    _err(sh, io, name, f"{option}: invalid option")
    sh.error_plain(f"{name}: usage: {_USAGE[name]}", io)
    return 2


def _letters(sh: Interp, io: IO, name: str, args: list[str], allowed: str) -> str | None:
    """The option letters of the words leading ``args`` (popped, ``--`` too); None when
    one is not in ``allowed`` (then :func:`_invalid` has answered)."""
    letters = ""
    while args and args[0][:1] == "-" and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        for letter in flag[1:]:
            if letter not in allowed:
                _invalid(sh, io, name, f"-{letter}")
                return None
        letters += flag[1:]
    return letters


# -- echo --------------------------------------------------------------

_ESCAPES = ECHO_ESCAPES


def byte_char(value: int) -> str:
    """The character that encodes back to the single byte ``value`` (a byte past ASCII
    is a surrogate escape: shell text is bytes, as in bash)."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def _code_point(code: int) -> str:
    """``\\u``/``\\U``: the character, UTF-8 encoded on output (bash in a UTF-8 locale)."""
    if code >= 0x110000 or 0xD800 <= code < 0xE000:
        return "\ufffd"
    return chr(code)


def backslash_escapes(text: str) -> tuple[str, bool]:
    """Interpret ``echo -e`` escapes; the flag says ``\\c`` stopped output."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = text[i + 1]
        i += 2
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
        elif e == "c":
            return "".join(out), True
        elif e == "0":
            m = _OCTAL_ESCAPE.match(text, i)
            digits = m.group(0) if m else ""
            i += len(digits)
            out.append(byte_char(int(digits or "0", 8) & 0xFF))
        elif e in "xuU":
            m = _HEX_ESCAPES[e].match(text, i)
            if m is None:
                out.append("\\" + e)
            else:
                i += len(m.group(0))
                code = int(m.group(0), 16)
                out.append(byte_char(code) if e == "x" else _code_point(code))
        else:
            out.append("\\" + e)
    return "".join(out), False


def b_echo(sh: Interp, argv: list[str], io: IO) -> int:
    args = argv[1:]
    newline = True
    escapes = False
    while args and args[0][:1] == "-" and len(args[0]) > 1 and not args[0][1:].strip("neE"):
        for flag in args[0][1:]:
            if flag == "n":
                newline = False
            elif flag == "e":
                escapes = True
            else:
                escapes = False
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stopped = backslash_escapes(text)
        if stopped:
            newline = False
    _out(io, text + "\n" if newline else text)
    return 0


# -- simple builtins ------------------------------------------------------------


def b_true(sh: Interp, argv: list[str], io: IO) -> int:
    return 0


def b_false(sh: Interp, argv: list[str], io: IO) -> int:
    return 1


def _status_arg(sh: Interp, io: IO, argv: list[str]) -> int:
    if len(argv) < 2:
        return sh.state.status
    try:
        code = int(argv[1]) & 0xFF
    except ValueError:
        _err(sh, io, argv[0], f"{argv[1]}: numeric argument required")
        return 2
    if len(argv) > 2:  # status 1, and the rest of the line (of a -c string: all) is left
        _err(sh, io, argv[0], "too many arguments")
        raise ExitShell(1) if sh.state.invoked == "c" else DiscardLine(1)
    return code


def b_exit(sh: Interp, argv: list[str], io: IO) -> int:
    raise ExitShell(_status_arg(sh, io, argv))


def b_return(sh: Interp, argv: list[str], io: IO) -> int:
    code = _status_arg(sh, io, argv)
    if sh.function_depth == 0 and sh.source_depth == 0:
        _err(sh, io, "return", "can only `return' from a function or sourced script")
        return 2
    raise ReturnFromFunction(code)


def _loop_control(sh: Interp, argv: list[str], io: IO) -> int:
    # bash's order: outside a loop nothing else is checked; then the number (fatal),
    # then extra words (the rest of the top-level line is discarded; a `-c` string
    # ends), then the range.
    if sh.loop_depth == 0:
        _err(sh, io, argv[0], "only meaningful in a `for', `while', or `until' loop")
        return 0
    levels = 1
    if len(argv) > 1:
        if not _INTEGER_ARG.fullmatch(argv[1]):
            _err(sh, io, argv[0], f"{argv[1]}: numeric argument required")
            raise ExitShell(128)  # fatal, as in a non-interactive bash
        if len(argv) > 2:
            _err(sh, io, argv[0], "too many arguments")
            raise ExitShell(1) if sh.state.invoked == "c" else DiscardLine(1)
        levels = int(argv[1])
        if levels < 1:
            # bash reports it, then leaves every enclosing loop with status 1.
            _err(sh, io, argv[0], f"{argv[1]}: loop count out of range")
            raise LoopControl("break", sh.loop_depth, 1)
    raise LoopControl(argv[0], min(levels, sh.loop_depth))


def b_cd(sh: Interp, argv: list[str], io: IO) -> int:
    st = sh.state
    args = argv[1:]
    letters = _letters(sh, io, "cd", args, "LPe@")
    if letters is None:
        return 2
    physical = letters.replace("e", "").replace("@", "")[-1:] == "P"  # the last of -L/-P wins
    if len(args) > 1:
        _err(sh, io, "cd", "too many arguments")
        return 1
    show = False
    if not args:
        target = st.vars.get("HOME", "")
        if not target:
            _err(sh, io, "cd", "HOME not set")
            return 1
    elif args[0] == "-":
        target = st.vars.get("OLDPWD", "")
        if not target:
            _err(sh, io, "cd", "OLDPWD not set")
            return 1
        show = True
    else:
        target = args[0]
    written, found_on_cdpath = _cd_target(st.cwd, target, st.vars.get("CDPATH", ""))
    show = show or found_on_cdpath
    path = os.path.realpath(written) if physical else os.path.normpath(written)
    if not os.path.isdir(path) or not os.path.isdir(written):
        reason = "Not a directory" if os.path.exists(path) else "No such file or directory"
        _err(sh, io, "cd", f"{target}: {reason}")
        return 1
    if not os.access(path, os.X_OK):
        _err(sh, io, "cd", f"{target}: Permission denied")
        return 1
    st.set_var("OLDPWD", st.cwd)
    st.cwd = path
    st.set_var("PWD", path)
    # bash exports both once it has changed directory.
    st.exported.update(("OLDPWD", "PWD"))
    if show:
        _out(io, path + "\n")
    return 0


def _cd_target(cwd: str, target: str, cdpath: str) -> tuple[str, bool]:
    """The directory ``cd target`` goes to, not normalised, and whether ``$CDPATH``
    found it. (The path as written is checked too: `cd nosuch/..` fails, as in bash,
    though its logical form, the current directory, exists.)"""
    relative = not (os.path.isabs(target) or target.split("/", 1)[0] in (".", ".."))
    if relative and cdpath:
        for entry in cdpath.split(":"):
            cand = os.path.join(cwd, entry, target) if entry else os.path.join(cwd, target)
            if os.path.isdir(cand):
                return cand, bool(entry)
    return os.path.join(cwd, target), False


def b_pwd(sh: Interp, argv: list[str], io: IO) -> int:
    physical = False
    for flag in argv[1:]:
        if flag[:1] == "-" and flag.strip("LP") == "-":
            physical = flag.endswith("P")
    cwd = sh.state.cwd
    _out(io, (os.path.realpath(cwd) if physical else cwd) + "\n")
    return 0


def _assign_words(
    sh: Interp,
    io: IO,
    name: str,
    words: list[str],
    on_name: Callable[[str, bool], bool | None],
) -> int:
    """``NAME[=VALUE]`` words of export/declare/…; ``on_name(name, has_value)`` comes
    first (False from it: refused, said why, the word is not assigned)."""
    status = 0
    for word in words:
        key, eq, value = word.partition("=")
        append = key.endswith("+") and bool(eq)
        if append:
            key = key[:-1]
        base = key.split("[", 1)[0] if key.endswith("]") else key
        if not is_name(base):
            _err(sh, io, name, f"`{word}': not a valid identifier")
            status = 1
            continue
        if on_name(base, bool(eq)) is False:
            status = 1
            continue
        if eq:
            try:
                if base != key:  # a[k]=v
                    sh.expander.set_element(base, key[len(base) + 1 : -1], value)
                else:
                    if append:
                        value = sh.state.appended(key, sh.state.get_var(key), value)
                    sh.state.set_var(key, value)
            except ShellError as exc:
                _err(sh, io, name, exc.message)
                status = 1
    return status


def b_export(sh: Interp, argv: list[str], io: IO) -> int:
    st = sh.state
    args = argv[1:]
    unexport = False
    functions = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        if (bad := _bad_option(sh, io, "export", flag[1:], "")) is not None:
            return bad
        unexport = unexport or "n" in flag
        functions = functions or "f" in flag
    if not args:
        return _declare_print(sh, io, argv[0], [], "x")
    if functions:  # `export -f f`: a function it knows (the children see none: in-process)
        missing = [fn for fn in args if fn not in st.functions]
        for fn in missing:
            _err(sh, io, "export", f"{fn}: not a function")
        return 1 if missing else 0

    def export(key: str, has_value: bool) -> None:
        if st.refs and key in st.refs:  # `export r`: what the nameref names
            from hookrun.dispatch.shell.namerefs import resolve, split

            key = split(resolve(st, key))[0]
        if unexport:
            st.exported.discard(key)
            return
        st.exported.add(key)
        if not has_value and st.get_var(key) is None:
            st.declared.add(key)

    return _assign_words(sh, io, "export", args, export)


def _flags(argv: list[str]) -> tuple[str, str, list[str]]:
    """Declaration flags: (set with -, unset with +, the other words)."""
    on = off = ""
    words: list[str] = []
    args = argv[1:]
    while args and args[0][:1] in ("-", "+") and len(args[0]) > 1 and not words:
        a = args.pop(0)
        if a == "--":
            break
        if a[0] == "-":
            on += a[1:]
        else:
            off += a[1:]
    words.extend(args)
    return on, off, words


# The option letters each declaration builtin takes, and its usage line (bash's; -c,
# which bash takes without naming it, is not in the line either).
_LETTERS = {
    "declare": "aAcfFgiIlnrtuxp",
    "typeset": "aAcfFgiIlnrtuxp",
    "local": "aAcfFgiIlnrtuxp",
    "export": "fnp",
    "readonly": "aAfp",
}


def _bad_option(sh: Interp, io: IO, name: str, on: str, off: str) -> int | None:
    """bash's status 2 and usage for a letter ``name`` does not take, else None."""
    letters = _LETTERS.get(name, "")
    bad = next((c for c in on + off if c not in letters), None)
    if bad is None:
        return None
    return _invalid(sh, io, name, f"{'-' if bad in on else '+'}{bad}")


def b_readonly(sh: Interp, argv: list[str], io: IO) -> int:
    on, off, words = _flags(argv)
    if (bad := _bad_option(sh, io, argv[0], on, off)) is not None:
        return bad
    if not words:
        return _declare_print(sh, io, argv[0], [], "r")
    return _declare(sh, io, argv[0], on + "r", "", words, local=False)


def b_local(sh: Interp, argv: list[str], io: IO) -> int:
    if sh.function_depth == 0:
        _err(sh, io, argv[0], "can only be used in a function")
        return 1
    on, off, words = _flags(argv)
    if (bad := _bad_option(sh, io, argv[0], on, off)) is not None:
        return bad
    if "-" in words:
        # `local -`: the `set` options as they are now come back when the function returns
        st = sh.state
        frame = st.locals_stack[-1]
        if "-" not in frame:
            frame["-"] = OptionsSnapshot(frozenset(st.options), st.errexit, st.nounset, st.pipefail)
        words = [w for w in words if w != "-"]
        if not words:
            return 0
    if not words:
        from hookrun.dispatch.shell.listing import declare_line, is_declared

        for key in sorted(sh.state.locals_stack[-1]):
            if is_declared(sh.state, key):
                _out(io, declare_line(sh.state, key))
        return 0
    return _declare(sh, io, argv[0], on, off, words, local=True)


def b_declare(sh: Interp, argv: list[str], io: IO) -> int:
    on, off, words = _flags(argv)
    if (bad := _bad_option(sh, io, argv[0], on, off)) is not None:
        return bad
    if "f" in on or "F" in on:
        return _declare_functions(sh, io, words, names_only="F" in on)
    if not words and not on and not off:  # `declare` alone: as `set` lists them
        from hookrun.dispatch.shell.listing import set_listing

        _out(io, set_listing(sh.state))
        return 0
    if "p" in on or not words:
        return _declare_print(sh, io, argv[0], words, on.replace("p", ""))
    local = sh.function_depth > 0 and "g" not in on
    return _declare(sh, io, argv[0], on, off, words, local=local)


# Attributes kept in ShellState.attrs (readonly, export and the array kinds live apart;
# "n" is set and cleared with the nameref itself, in namerefs.py).
_ATTR_LETTERS = "ilutc"


def _declare(
    sh: Interp, io: IO, name: str, on: str, off: str, words: list[str], *, local: bool
) -> int:
    from hookrun.dispatch.shell.state import Array

    st = sh.state
    if "n" in on:
        if "a" not in on and "A" not in on:
            return _declare_refs(sh, io, name, on, words, local=local)
        on = on.replace("n", "")  # bash makes the array and ignores -n

    def declare(key: str, has_value: bool) -> bool:
        if local:
            st.make_local(key)
        elif st.refs and key in st.refs:  # `declare r=v`, `export r`: what r names
            if "n" in off:
                from hookrun.dispatch.shell.namerefs import drop_ref

                drop_ref(st, key)
            else:
                from hookrun.dispatch.shell.namerefs import resolve, split

                key = split(resolve(st, key))[0]
        # `readonly -a x` with no value declares x readonly; it makes no array.
        arrays = on if (has_value or name != "readonly") else ""
        arr = st.arrays.get(key)
        if arr is not None and (("a" in arrays and arr.assoc) or ("A" in arrays and not arr.assoc)):
            kinds = ("associative", "indexed") if arr.assoc else ("indexed", "associative")
            _err(sh, io, name, f"{key}: cannot convert {kinds[0]} to {kinds[1]} array")
            return False
        if off and key in st.readonly and ("r" in off or "x" in off or "i" in off):
            _err(sh, io, name, f"{key}: readonly variable")
            return False
        if "a" in arrays and key not in st.arrays:
            old = st.vars.pop(key, None)
            st.arrays[key] = Array(False, {} if old is None else {0: old}, bare=old is None)
        if "A" in arrays and (key not in st.arrays or not st.arrays[key].assoc):
            st.vars.pop(key, None)
            st.arrays[key] = Array(True, bare=True)
        attrs = st.attrs.get(key, "")
        attrs = "".join(c for c in attrs if c not in off)
        attrs += "".join(c for c in _ATTR_LETTERS if c in on and c not in attrs)
        if "u" in on and "l" in on:  # as bash: the two cancel
            attrs = attrs.replace("l", "").replace("u", "")
        elif "u" in on:
            attrs = attrs.replace("l", "")
        elif "l" in on:
            attrs = attrs.replace("u", "")
        if attrs:
            st.attrs[key] = attrs
        else:
            st.attrs.pop(key, None)
        if "x" in on:
            st.exported.add(key)
        if "x" in off:
            st.exported.discard(key)
        if not has_value and key not in st.vars and key not in st.arrays:
            st.declared.add(key)
        return True

    status = _assign_words(sh, io, name, words, declare)
    if "r" in on:
        for word in words:
            key = word.partition("=")[0].rstrip("+").split("[", 1)[0]
            if st.refs and key in st.refs:
                from hookrun.dispatch.shell.namerefs import deref, split

                key = split(deref(st, key) or key)[0]
            st.readonly.add(key)
    return status


def _declare_refs(sh: Interp, io: IO, name: str, on: str, words: list[str], *, local: bool) -> int:
    """``declare -n``/``local -n``/``typeset -n`` (with other letters as bash takes
    them: ``-r`` and ``-x`` apply to the nameref itself; ``-a``/``-A`` are refused)."""
    from hookrun.dispatch.shell.namerefs import make_ref

    st = sh.state
    status = 0
    for word in words:
        key, eq, value = word.partition("=")
        if not is_name(key):
            _err(sh, io, name, f"`{word}': not a valid identifier")
            status = 1
            continue
        if local:
            st.make_local(key)
        error = make_ref(st, key, value if eq else None)
        if error is not None:
            _err(sh, io, name, error)
            status = 1
            continue
        if ("$" in value or "`" in value) and st.subscripts is None:
            import weakref

            st.subscripts = weakref.WeakMethod(sh.subscript_value)
        if "r" in on:
            st.readonly.add(key)
        if "x" in on:
            st.exported.add(key)
    return status


def _declare_functions(sh: Interp, io: IO, words: list[str], *, names_only: bool) -> int:
    """``declare -F [NAME…]``: the names; ``declare -f [NAME…]``: the definitions."""
    st = sh.state
    status = 0
    for fn in words or sorted(st.functions):
        if fn not in st.functions:
            status = 1
            continue
        if names_only:  # `declare -F`: names only, as `declare -f NAME` in a listing
            _out(io, f"{fn}\n" if words else f"declare -f {fn}\n")
        else:
            _out(io, _function_listing(sh, fn) + "\n")
    return status


def _function_listing(sh: Interp, name: str) -> str:
    """Function ``name``'s definition as bash prints it back."""
    from hookrun.dispatch.shell.funcprint import definition_or_source  # rare: loaded here

    fn = sh.state.functions[name]
    return definition_or_source(name, fn.body, fn.source)


def _declare_print(sh: Interp, io: IO, name: str, words: list[str], only: str) -> int:
    """``declare -p [NAME…]``; with no names every variable whose attributes include
    ``only`` (``export -p`` is ``only="x"``, ``readonly -p`` ``"r"``)."""
    from hookrun.dispatch.shell.listing import attributes, declare_line, is_declared

    st = sh.state
    status = 0
    if words:
        for key in words:
            if not is_declared(st, key):
                _err(sh, io, name, f"{key}: not found")
                status = 1
                continue
            _out(io, declare_line(st, key))
        return status
    wanted = [c for c in only if c in "aAinrtxclu"]
    for key in sorted({*st.vars, *st.arrays, *st.declared, *st.refs}):
        if all(c in attributes(st, key) for c in wanted):
            _out(io, declare_line(st, key))
    return status


def unset_element(st: ShellState, base: str, key: str, index: Callable[[str], int]) -> bool:
    """``unset 'base[key]'`` as bash 5.2 does it (``index``: a subscript's number); False
    when ``base`` is a set scalar and ``key`` is not 0 (bash: "not an array variable").

    An indexed array's ``[@]``/``[*]`` empties it and keeps it declared; an associative
    array's is the key ``@``/``*`` itself; a negative index counts from the end."""
    arr = st.arrays.get(base)
    if arr is None:
        if key == "0":
            st.vars.pop(base, None)
            return True
        return base not in st.vars
    if arr.assoc:
        arr.items.pop(key, None)
    elif key in ("@", "*"):
        arr.items.clear()
    else:
        k = index(key)
        if k < 0:
            k += max(arr.items, default=-1) + 1
        arr.items.pop(k, None)
    return True


def b_unset(sh: Interp, argv: list[str], io: IO) -> int:
    functions = False
    variables = False  # -v given: never a function
    ref = False
    status = 0
    for arg in argv[1:]:
        if arg == "-f":
            functions = True
        elif arg == "-v":
            functions = False
            variables = True
        elif arg == "-n":  # the nameref itself, not what it names
            ref = True
        elif functions:
            sh.state.functions.pop(arg, None)
        elif arg.endswith("]") and "[" in arg:
            base, _, key = arg[:-1].partition("[")
            if sh.state.refs and base in sh.state.refs:
                from hookrun.dispatch.shell.namerefs import resolve, split

                base = split(resolve(sh.state, base))[0]
            try:
                if not unset_element(sh.state, base, key, sh.expander.arith_text):
                    _err(sh, io, "unset", f"{base}: not an array variable")
                    status = 1
            except ShellError as exc:
                _err(sh, io, "unset", exc.message)
                status = 1
        elif (
            not variables
            and arg in sh.state.functions
            and sh.state.get_var(arg) is None
            and arg not in sh.state.arrays
            and arg not in sh.state.declared
        ):  # as bash: a name that is no variable but a function unsets the function
            del sh.state.functions[arg]
        else:
            try:
                sh.state.unset_var(arg, ref=ref)
            except ShellError as exc:
                _err(sh, io, "unset", exc.message.removeprefix("unset: "))
                status = 1
    return status


# hookrun.dispatch.shell.testexpr once a test ran (an import statement in b_test would
# cost a few thousand instructions on every `[`).
_testexpr: Any = None


def b_test(sh: Interp, argv: list[str], io: IO) -> int:
    global _testexpr
    if _testexpr is None:
        from hookrun.dispatch.shell import testexpr

        _testexpr = testexpr
    if argv[0] == "[":
        if len(argv) < 2 or argv[-1] != "]":
            _err(sh, io, "[", "missing `]'")
            return 2
        args = argv[1:-1]
    else:
        args = argv[1:]
    try:
        return 0 if _testexpr.run_test(args, sh.state.cwd, sh.is_set, io.test_fd) else 1
    except _testexpr.ConditionError as exc:
        _err(sh, io, argv[0], str(exc))
        return 2


def b_shift(sh: Interp, argv: list[str], io: IO) -> int:
    try:
        n = int(argv[1]) if len(argv) > 1 else 1
    except ValueError:
        _err(sh, io, "shift", f"{argv[1]}: numeric argument required")
        return 1
    params = sh.state.params
    if len(argv) > 2:  # as exit's: the rest of the line (of a -c string: all) is left
        _err(sh, io, "shift", "too many arguments")
        raise ExitShell(1) if sh.state.invoked == "c" else DiscardLine(1)
    if n < 0 or (n > len(params) and "shift_verbose" in sh.state.options):
        _err(sh, io, "shift", f"{argv[1]}: shift count out of range")
        return 1
    if n > len(params):
        return 1
    sh.state.params = params[n:]
    return 0


def b_wait(sh: Interp, argv: list[str], io: IO) -> int:
    pids: list[int] = []
    args = argv[1:]
    first = bool(args) and args[0] == "-n"  # `wait -n`: the next job to end
    if first:
        args = args[1:]
    for a in args:
        if a.startswith("%"):
            job = sh.job_by_spec(a)
            if job is None:
                _err(sh, io, "wait", f"{a}: no such job")
                return 127
            pids.append(job.pid)
            continue
        try:
            pids.append(int(a))
        except ValueError:
            _err(sh, io, "wait", f"`{a}': not a pid or valid job spec")
            return 1
    if first:
        return _wait_next(sh, pids)
    return sh.wait_jobs(pids or None)


def _wait_next(sh: Interp, pids: list[int]) -> int:
    """``wait -n [PID…]``: the status of the first of those jobs (any job) to end;
    127 when there is none, as in bash."""
    import time

    while True:
        jobs = [j for j in sh.jobs if not pids or j.pid in pids]
        if not jobs:
            return 127
        done = next((j for j in jobs if j.thread is None or not j.thread.is_alive()), None)
        if done is not None:
            return sh.wait_jobs([done.pid])
        sh.guard.check()
        time.sleep(0.02)


def b_eval(sh: Interp, argv: list[str], io: IO) -> int:
    source = " ".join(argv[1:])
    if not source.strip():
        return 0
    return sh.run_source(source, io)


def b_source(sh: Interp, argv: list[str], io: IO) -> int:
    if len(argv) < 2:
        _err(sh, io, argv[0], "filename argument required")
        return 2
    name = argv[1]
    st = sh.state
    if sh.psubs:  # `source <(cmd)`: read from its pipe (procsub), no file opened
        from hookrun.dispatch.shell.procsub import read_all

        text = read_all(sh, name)
        if text is not None:
            return _source_text(sh, argv, text, name, io)
    candidates = [name if os.path.isabs(name) else os.path.join(st.cwd, name)]
    if "/" not in name:
        for d in st.vars.get("PATH", "").split(os.pathsep):
            if d:
                candidates.append(os.path.join(d, name))
    path: str | None
    if name in _STD_STREAMS or name.startswith("/dev/fd/"):
        # The shell's own descriptors (the hook's input), never the host process's.
        path = name
    else:
        # As bash: the name itself may be any file but a directory (a device, a FIFO);
        # what PATH finds must be a regular file.
        path = next(
            (
                c
                for k, c in enumerate(candidates)
                if (os.path.exists(c) if k == 0 else os.path.isfile(c))
            ),
            None,
        )
    if path is None:
        _err(sh, io, argv[0], f"{name}: No such file or directory")
        return 1
    if os.path.isdir(path):
        # (bash says "is a directory"; builtin_edges_test pins this older wording)
        _err(sh, io, argv[0], f"{name}: No such file or directory")
        return 1
    try:
        source = _read_sourced(sh, io, name, path)
    except ShellError as exc:
        _err(sh, io, argv[0], exc.message)
        return 1
    except (OSError, ValueError) as exc:
        _err(sh, io, argv[0], f"{name}: {getattr(exc, 'strerror', None) or exc}")
        return 1
    return _source_text(sh, argv, source, name if path == candidates[0] else path, io)


def _source_text(sh: Interp, argv: list[str], source: str, here: str, io: IO) -> int:
    """Run what ``source``/``.`` read, ``here`` in front of BASH_SOURCE while it runs."""
    st = sh.state
    saved = st.params
    if len(argv) > 2:
        st.params = argv[2:]
    # A frame of the call stack while it runs, as bash makes one: "source" in FUNCNAME,
    # the line of this command in BASH_LINENO, the sourced file in front of BASH_SOURCE
    # (named as given, or by the PATH entry it was found through) —
    # `$(dirname "${BASH_SOURCE[0]}")` finds the lib next to it, and a function defined
    # in it names it as its file.
    frame = st.funcnames, st.callsites, st.sources
    st.funcnames = ("source", *st.funcnames)
    st.callsites = ((sh.src, sh.stmt), *st.callsites)
    st.sources = (here, *st.sources)
    sh.source_depth += 1
    try:
        try:
            status = sh.run_source(source, io)
        except ReturnFromFunction as ret:
            status = ret.code
        if sh.traps and "RETURN" in sh.traps:  # bash runs it as a sourced file ends too
            sh.run_trap(sh.traps["RETURN"], io)
        return status
    finally:
        sh.source_depth -= 1
        if len(argv) > 2:
            st.params = saved
        st.funcnames, st.callsites, st.sources = frame


_STD_STREAMS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def _read_sourced(sh: Interp, io: IO, name: str, path: str) -> str:
    """The text ``source NAME`` runs: the shell's own streams for /dev/stdin and
    /dev/fd/N (the hook's input, not the host process's), the file otherwise."""
    if name in _STD_STREAMS or name.startswith("/dev/fd/"):
        fd = _STD_STREAMS.get(name)
        if fd is None:
            number = name[len("/dev/fd/") :]
            fd = int(number) if number.isdigit() else -1
        if io.get(fd) is None:
            raise ShellError(f"{name}: No such file or directory", 1)
        owned: list[Any] = []
        stream = sh.open_file(name, "<", owned, io, reader=True)
        try:
            data = b"".join(iter(lambda: stream.read(65536), b""))
        finally:
            for f in owned:
                f.close()
        return data.decode("utf-8", "surrogateescape")
    from hookrun.dispatch.streams import read_waiting

    text = read_waiting(path, -1, sh.guard).decode("utf-8", "surrogateescape")
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as open()'s text mode read it


# bash's reserved words: `type` and `command -v` name them before any function.
KEYWORDS = frozenset(
    [
        "!",
        "case",
        "coproc",
        "do",
        "done",
        "elif",
        "else",
        "esac",
        "fi",
        "for",
        "function",
        "if",
        "in",
        "select",
        "then",
        "time",
        "until",
        "while",
        "{",
        "}",
        "[[",
        "]]",
    ]
)


def _describe(sh: Interp, name: str) -> tuple[str, str] | None:
    """(kind, text) for ``command -v``/``type``, in bash's order: alias (when aliases
    expand), keyword, function, builtin, hashed (the remembered path), file, or None."""
    st = sh.state
    if st.aliases and name in st.aliases and "expand_aliases" in st.options:
        return "alias", st.aliases[name]
    if name in KEYWORDS:
        return "keyword", name
    if name in st.functions:
        return "function", name
    if is_builtin(st, name):
        return "builtin", name
    return _describe_file(sh, name)


def is_builtin(st: ShellState, name: str) -> bool:
    """Whether ``name`` is a builtin this shell runs (not one `enable -n` turned off)."""
    return name in BUILTINS and not name.startswith("__hookrun") and name not in st.disabled


def _describe_file(sh: Interp, name: str) -> tuple[str, str] | None:
    st = sh.state
    if "/" in name:
        path = name if os.path.isabs(name) else os.path.join(st.cwd, name)
        return ("file", name) if os.path.isfile(path) and os.access(path, os.X_OK) else None
    if name in st.hashed:
        return "hashed", st.hashed[name][0]
    exe = resolve.find_executable(name, env=st.environ(), cwd=st.cwd, platform=sh.platform)
    return None if exe is None else ("file", exe)


def b_command(sh: Interp, argv: list[str], io: IO) -> int:
    args = argv[1:]
    mode = ""
    while args and args[0].startswith("-") and args[0] != "-":
        flag = args.pop(0)
        if flag == "--":
            break
        if "v" in flag:
            mode = "v"
        elif "V" in flag:
            mode = "V"
    if not args:
        return 0
    if mode:
        # bash: 0 when any name was found, 1 when none was.
        status = 1
        for name in args:
            found = _describe(sh, name)
            if found is None:
                if mode == "V":
                    _err(sh, io, "command", f"{name}: not found")
                continue
            status = 0
            if mode == "v":
                if found[0] == "alias":
                    from hookrun.dispatch.shell.expand import shell_quote

                    _out(io, f"alias {name}={shell_quote(found[1])}\n")
                else:
                    _out(io, (name if found[0] == "keyword" else found[1]) + "\n")
            else:
                _out(io, _type_line(sh, name, found))
        return status
    builtin = BUILTINS.get(args[0])
    if builtin is not None and args[0] not in sh.state.disabled:
        return builtin(sh, args, io)
    return sh.run_external(args, io)


def b_builtin(sh: Interp, argv: list[str], io: IO) -> int:
    """``builtin NAME ARGS``: run the builtin NAME, never a function or program."""
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        return 0
    builtin = BUILTINS.get(args[0])
    if builtin is None:
        _err(sh, io, "builtin", f"{args[0]}: not a shell builtin")
        return 1
    return builtin(sh, args, io)


def _type_line(sh: Interp, name: str, found: tuple[str, str]) -> str:
    kind, text = found
    if kind == "function":
        return f"{name} is a function\n{_function_listing(sh, name)}\n"
    if kind == "builtin":
        return f"{name} is a shell builtin\n"
    if kind == "keyword":
        return f"{name} is a shell keyword\n"
    if kind == "alias":
        return f"{name} is aliased to `{text}'\n"
    if kind == "hashed":
        return f"{name} is hashed ({text})\n"
    return f"{name} is {text}\n"


def b_exec(sh: Interp, argv: list[str], io: IO) -> int:
    if len(argv) < 2:
        return 0
    # No process replacement in-process: run it, then end the shell with its status.
    raise ExitShell(sh.run_argv(argv[1:], io))


def _lazy(module: str, name: str) -> Builtin:
    """A builtin whose module loads on its first call: a hook of plain commands does not
    pay for getopts, the directory stack or the option tables at start-up."""

    def call(sh: Interp, argv: list[str], io: IO) -> int:
        import sys

        # __import__, not importlib.import_module: the importlib package (with warnings)
        # is ~0.6 ms of the hook's first printf, and nothing else on the shell path needs it.
        path = f"hookrun.dispatch.shell.{module}"
        __import__(path)
        fn: Builtin = getattr(sys.modules[path], name)
        BUILTINS[argv[0]] = fn
        return fn(sh, argv, io)

    return call


b_printf = _lazy("printf", "b_printf")
b_set = _lazy("options", "b_set")
b_shopt = _lazy("options", "b_shopt")
b_getopts = _lazy("getopts", "b_getopts")
b_pushd = _lazy("dirstack", "b_pushd")
b_popd = _lazy("dirstack", "b_popd")
b_dirs = _lazy("dirstack", "b_dirs")
b_read = _lazy("read", "b_read")
b_kill = _lazy("signals", "b_kill")
b_mapfile = _lazy("read", "b_mapfile")
b_alias = _lazy("seldom", "b_alias")
b_unalias = _lazy("seldom", "b_unalias")
b_hash = _lazy("seldom", "b_hash")
b_umask = _lazy("seldom", "b_umask")
b_type = _lazy("seldom", "b_type")
b_let = _lazy("seldom", "b_let")
b_trap = _lazy("traps", "b_trap")
b_ulimit = _lazy("ulimit", "b_ulimit")
b_enable = _lazy("seldom", "b_enable")
b_times = _lazy("seldom", "b_times")
b_jobs = _lazy("seldom", "b_jobs")

BUILTINS: dict[str, Builtin] = {
    "echo": b_echo,
    "printf": b_printf,
    "true": b_true,
    "false": b_false,
    ":": b_true,
    "exit": b_exit,
    "return": b_return,
    "break": _loop_control,
    "continue": _loop_control,
    "cd": b_cd,
    "pwd": b_pwd,
    "export": b_export,
    "readonly": b_readonly,
    "local": b_local,
    "declare": b_declare,
    "typeset": b_declare,
    "unset": b_unset,
    "test": b_test,
    "[": b_test,
    "read": b_read,
    "kill": b_kill,
    "mapfile": b_mapfile,
    "readarray": b_mapfile,
    "shift": b_shift,
    "set": b_set,
    "wait": b_wait,
    "eval": b_eval,
    ".": b_source,
    "source": b_source,
    "command": b_command,
    "builtin": b_builtin,
    "type": b_type,
    "exec": b_exec,
    "let": b_let,
    "trap": b_trap,
    "getopts": b_getopts,
    "pushd": b_pushd,
    "popd": b_popd,
    "dirs": b_dirs,
    "shopt": b_shopt,
    "alias": b_alias,
    "unalias": b_unalias,
    "hash": b_hash,
    "umask": b_umask,
    "ulimit": b_ulimit,
    "enable": b_enable,
    "times": b_times,
    "jobs": b_jobs,
}
