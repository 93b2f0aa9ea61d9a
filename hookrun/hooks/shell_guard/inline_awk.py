"""See into an awk program (``awk``, ``gawk``, ``mawk``, ``nawk``, ``busybox awk``):
the commands it runs.

awk runs shell code three ways, each through ``sh -c``: ``system(CMD)``,
``print …| CMD`` / ``printf …| CMD`` (and gawk's ``|&``), which also feeds what is
printed to CMD's stdin, and ``CMD | getline``. CMD is an expression: string literals
(escapes decoded as awk does), side by side to join them, variables the program or
``-v NAME=VALUE`` assigns a string, ``ENVIRON["NAME"]``; a field (``$1``) or anything
computed is unknown. ``print … > "/dev/sda"`` writes a device, judged as the shell's
``> /dev/sda``.

A program's ``print "rm -rf /" | "sh"`` is judged as ``printf '%s\\n' 'rm -rf /' | sh``:
the shell line that does the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import product

from hookrun.hooks.shell_guard.inline_args import UNKNOWN, UNKNOWN_NAME, Tok, merged, shell_text
from hookrun.hooks.shell_guard.model import Part, Var
from hookrun.lazyre import compile as lazy_compile

NAMES = frozenset({"awk", "gawk", "mawk", "nawk", "original-awk", "goawk", "bwk-awk"})
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "b": "\b", "a": "\a", "v": "\v"}
_OCTAL = "01234567"
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_OPERAND_P = frozenset({")", "]"})
_STATEMENT_END = frozenset({";", "nl", "}", "{"})
_MAX_VALUES = 8  # values tried per expression (a variable assigned several strings)
_MAX_LINES = 16  # known input lines a program's fields are filled from
_FIELD = "awk_field_"  # $0, $1…: a Var of this name and the field's number
_FIELD_REF = lazy_compile(r"\$\{awk_field_(\d+)\}")
# Options of awk (POSIX, gawk, mawk, busybox) that take the next word when not attached.
_ARG_OPTS = frozenset("FvfEilW")
_LONG_ARG = frozenset(
    {"--field-separator", "--assign", "--file", "--exec", "--include", "--load", "--source"}
)


def program(args: list[str]) -> tuple[str, list[str]] | None:
    """(program text, ``-v``/operand assignments) of an awk command's arguments; None
    when the program comes from a file (``-f``)."""
    got = _parse(args)
    return None if got is None else got[:2]


def reads_stdin(args: list[str]) -> bool:
    """awk reads its standard input: no file operand (``-`` is the input)."""
    got = _parse(args)
    return got is not None and all(f == "-" for f in got[2])


def _parse(args: list[str]) -> tuple[str, list[str], list[str]] | None:
    """(program, assignments, file operands) of awk's arguments."""
    code: list[str] = []
    assigns: list[str] = []
    from_file = False
    i = 0
    while i < len(args):
        text = args[i]
        if text == "--":
            i += 1
            break
        if text.startswith("--") and len(text) > 2:
            name, eq, value = text.partition("=")
            if name in _LONG_ARG and not eq:
                value = args[i + 1] if i + 1 < len(args) else ""
                i += 1
            if name == "--source":
                code.append(value)
            elif name in ("--file", "--exec"):
                from_file = True
            elif name == "--assign":
                assigns.append(value)
            i += 1
            continue
        if text.startswith("-") and len(text) > 1:
            opt = text[1]
            value = text[2:]
            if opt in _ARG_OPTS and not value:
                value = args[i + 1] if i + 1 < len(args) else ""
                i += 1
            if opt == "e":
                code.append(value or (args[i + 1] if i + 1 < len(args) else ""))
                i += 1 if not text[2:] else 0
            elif opt in "fE":
                from_file = True
            elif opt == "v":
                assigns.append(value)
            elif opt == "F":
                assigns.append("FS=" + value)
            i += 1
            continue
        break
    rest = args[i:]
    if not code and not from_file:
        if not rest:
            return None
        code.append(rest[0])
        rest = rest[1:]
    elif from_file and not code:
        return None
    operands = [a for a in rest if "=" in a and a.split("=", 1)[0].isidentifier()]
    assigns.extend(operands)
    return "\n".join(code), assigns, [a for a in rest if a not in operands]


def may_run(code: str) -> bool:
    """False when the program can neither run a command nor write a device."""
    return "system" in code or "|" in code or ">" in code


def reads(code: str, assigns: Sequence[str] = (), stdin: str | None = None) -> list[str]:
    """The shell lines an awk program runs (each as ``sh -c`` gets it). ``stdin``: the
    text awk reads, when the line gives it (``echo 'rm -rf /' | awk '{system($0)}'``):
    ``$0`` and ``$1``… are each of its lines and their fields (else unknown)."""
    if not may_run(code):
        return []
    toks = lex(code)
    values: dict[str, list[tuple[Part, ...]]] = {}
    for a in assigns:
        name, _, raw = a.partition("=")
        values.setdefault(name, []).append(_decode(raw))
    _assignments(toks, values)
    out = _commands(toks, values)
    if not any("${" + _FIELD in text for text in out):
        return out
    lines = [] if stdin is None else stdin.splitlines()[:_MAX_LINES]
    separators = values.get("FS", [(" ",)])
    fs = separators[-1][0] if len(separators[-1]) == 1 else None
    filled: list[str] = []
    for text in out:
        if "${" + _FIELD not in text:
            filled.append(text)
            continue
        if not lines or not isinstance(fs, str) or (len(fs) != 1 and fs != " "):
            filled.append(_FIELD_REF.sub("${" + UNKNOWN_NAME + "}", text))
            continue
        for line in lines:
            fields = [line, *(line.split() if fs == " " else line.split(fs))]
            filled.append(_FIELD_REF.sub(lambda m, f=fields: _field(f, m), text))  # type: ignore[misc]
    return filled


def _field(fields: list[str], m: re.Match[str]) -> str:
    k = int(m.group(1))
    return fields[k] if k < len(fields) else ""


def _assignments(toks: list[Tok], values: dict[str, list[tuple[Part, ...]]]) -> None:
    """``name = EXPR`` of known strings: the values ``name`` may hold."""
    n = len(toks)
    for i in range(n - 2):
        if toks[i][0] == "w" and toks[i + 1][:2] == ("p", "="):
            end = i + 2
            while end < n and not (toks[end][0] == "p" and toks[end][1] in _STATEMENT_END):
                end += 1
            for parts in _expr(toks[i + 2 : end], values):
                if UNKNOWN not in parts:
                    values.setdefault(toks[i][1], []).append(parts)


def _expr(toks: list[Tok], values: dict[str, list[tuple[Part, ...]]]) -> list[tuple[Part, ...]]:
    """The values of a concatenation of strings, variables and parenthesised ones."""
    choices: list[list[tuple[Part, ...]]] = []
    for kind, text, parts in toks:
        if kind in ("s", "v"):
            choices.append([parts])
        elif kind == "n":
            choices.append([(text,)])
        elif kind == "w" and text in values:
            choices.append(values[text][:_MAX_VALUES])
        elif kind == "p" and text in ("(", ")"):
            continue
        else:
            choices.append([(UNKNOWN,)])
    if not choices:
        return []
    out: list[tuple[Part, ...]] = []
    for combo in product(*choices):
        out.append(merged([p for parts in combo for p in parts]))
        if len(out) >= _MAX_VALUES:
            break
    return out


def _commands(toks: list[Tok], values: dict[str, list[tuple[Part, ...]]]) -> list[str]:
    out: list[str] = []
    n = len(toks)
    i = 0
    while i < n:
        kind, text, _ = toks[i]
        if kind == "w" and text == "system" and i + 1 < n and toks[i + 1][:2] == ("p", "("):
            end = _close(toks, i + 1)
            out.extend(shell_text(v) for v in _expr(toks[i + 2 : end], values))
            i = end + 1
            continue
        if kind == "w" and text in ("print", "printf"):
            end = i + 1
            depth = 0
            while end < n:
                k2, t2, _ = toks[end]
                if k2 == "p" and t2 in ("(", "["):
                    depth += 1
                elif k2 == "p" and t2 in (")", "]"):
                    depth -= 1
                elif (
                    k2 == "p"
                    and depth == 0
                    and (t2 in _STATEMENT_END or t2 in ("|", "|&", ">", ">>"))
                ):
                    break
                end += 1
            if end < n and toks[end][1] in ("|", "|&", ">", ">>"):
                op = toks[end][1]
                stop = end + 1
                while stop < n and not (toks[stop][0] == "p" and toks[stop][1] in _STATEMENT_END):
                    stop += 1
                printed = _printed(text, toks[i + 1 : end], values)
                for target in _expr(toks[end + 1 : stop], values):
                    shown = shell_text(target)
                    if op in (">", ">>"):
                        out.append(f": {op} {_quoted(shown)}")
                    elif printed is not None:
                        out.append(f"printf %s {_quoted(printed)} | {shown}")
                    else:
                        out.append(shown)
                i = stop
                continue
            i = end
            continue
        if (
            kind == "p"
            and text in ("|", "|&")
            and i + 1 < n
            and toks[i + 1][:2] == ("w", "getline")
        ):
            start = i
            while start > 0 and (
                toks[start - 1][0] in ("s", "v")
                or toks[start - 1][0] == "w"
                and toks[start - 1][1] in values
            ):
                start -= 1
            if start < i:
                out.extend(shell_text(v) for v in _expr(toks[start:i], values))
        i += 1
    return out


def _printed(verb: str, toks: list[Tok], values: dict[str, list[tuple[Part, ...]]]) -> str | None:
    """What ``print``/``printf`` of these tokens writes, when it is known text."""
    if toks and toks[0][:2] == ("p", "(") and _close(toks, 0) == len(toks) - 1:
        toks = toks[1:-1]
    if not toks:
        return None
    pieces: list[list[Tok]] = [[]]
    for t in toks:
        if t[:2] == ("p", ","):
            pieces.append([])
        else:
            pieces[-1].append(t)
    texts: list[str] = []
    for piece in pieces:
        got = _expr(piece, values)
        if len(got) != 1 or any(not isinstance(p, str) for p in got[0]):
            return None
        texts.append("".join(p for p in got[0] if isinstance(p, str)))
    if verb == "printf":
        return (
            texts[0].replace("%%", "%")
            if len(texts) == 1 and "%" not in texts[0].replace("%%", "")
            else None
        )
    return " ".join(texts) + "\n"


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _close(toks: list[Tok], i: int) -> int:
    depth = 0
    for k in range(i, len(toks)):
        if toks[k][0] != "p":
            continue
        if toks[k][1] == "(":
            depth += 1
        elif toks[k][1] == ")":
            depth -= 1
            if depth == 0:
                return k
    return len(toks)


# ------------------------------------------------------------------ tokens


def lex(code: str) -> list[Tok]:
    """An awk program as tokens (see :data:`~inline_args.Tok`)."""
    toks: list[Tok] = []
    n = len(code)
    i = 0
    while i < n:
        c = code[i]
        if c == "\n":
            toks.append(("p", "nl", ()))
            i += 1
            continue
        if c in " \t\r\f":
            i += 1
            continue
        if c == "\\" and code.startswith("\\\n", i):
            i += 2
            continue
        if c == "#":
            end = code.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == '"':
            k = i + 1
            while k < n and code[k] != '"':
                k += 2 if code[k] == "\\" else 1
            toks.append(("s", code[i : k + 1], _decode(code[i + 1 : k])))
            i = k + 1
            continue
        if c == "/" and not _operand(toks):
            k = i + 1
            while k < n and code[k] not in "/\n":
                k += 2 if code[k] == "\\" else 1
            toks.append(("r", code[i : k + 1], ()))
            i = k + 1
            continue
        if c == "$":
            k = i + 1
            while k < n and code[k] in _WORD:
                k += 1
            field = code[i + 1 : k]
            known = field.isdigit() and len(field) < 4  # $0, $1…: filled from known input
            toks.append(("v", code[i:k], (Var(_FIELD + field) if known else UNKNOWN,)))
            i = k
            continue
        if c.isdigit() or (c == "." and i + 1 < n and code[i + 1].isdigit()):
            k = i + 1
            while k < n and (code[k] in _WORD or code[k] == "."):
                k += 1
            toks.append(("n", code[i:k], ()))
            i = k
            continue
        if c in _WORD:
            k = i + 1
            while k < n and code[k] in _WORD:
                k += 1
            name = code[i:k]
            env = code.startswith('["', k) and code.find('"]', k + 2)
            if name == "ENVIRON" and env and env > 0 and code[k + 2 : env].isidentifier():
                toks.append(("v", code[i : env + 2], (Var(code[k + 2 : env]),)))
                i = env + 2
                continue
            toks.append(("w", name, ()))
            i = k
            continue
        two = code[i : i + 2]
        if two in (
            "|&",
            ">>",
            "||",
            "&&",
            "==",
            "!=",
            "<=",
            ">=",
            "++",
            "--",
            "+=",
            "-=",
            "*=",
            "/=",
            "%=",
            "^=",
        ):
            toks.append(("p", two, ()))
            i += 2
            continue
        toks.append(("p", c, ()))
        i += 1
    return toks


def _operand(toks: list[Tok]) -> bool:
    if not toks:
        return False
    kind, text, _ = toks[-1]
    if kind == "w":
        return text not in (
            "print",
            "printf",
            "return",
            "in",
            "case",
            "split",
            "match",
            "sub",
            "gsub",
        )
    return kind in ("s", "v", "n", "r") or (kind == "p" and text in _OPERAND_P)


def _decode(body: str) -> tuple[Part, ...]:
    """An awk string's value (``\\n``, ``\\"``, ``\\/``, ``\\162`` octal; another
    escaped character is that character, as gawk and the one true awk read it)."""
    if "\\" not in body:
        return (body,)
    out: list[str] = []
    n = len(body)
    i = 0
    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n:
            e = body[i + 1]
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
                i += 2
            elif e in _OCTAL:
                k = i + 1
                while k < n and k < i + 4 and body[k] in _OCTAL:
                    k += 1
                out.append(chr(int(body[i + 1 : k], 8) & 0xFF))
                i = k
            else:
                out.append(e)
                i += 2
            continue
        out.append(c)
        i += 1
    return ("".join(out),)
