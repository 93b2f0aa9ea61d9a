"""What ``read`` assigns from text the line gives it (``read -r c a <<< 'rm -rf'``).

Bash's reading of one line into names: the line ends at the delimiter (``-d``, else a
newline); without ``-r`` a backslash quotes the next character and a backslash-newline
joins lines; the fields split at ``IFS`` (runs of its blanks are one separator, each of
its other characters one), and the last name takes the rest of the line, its outer
``IFS`` blanks removed.
"""

from __future__ import annotations

from collections.abc import Sequence

_WITH_VALUE = frozenset("dinNptu")  # options that take an argument (`-d :`, `-p x`)
_DEFAULT_IFS = " \t\n"


def set_by(argv: Sequence[str], text: str | None, ifs: str | None) -> list[tuple[str, str, bool]]:
    """``(name, value, scalar)`` for what ``read``/``mapfile``/``readarray`` given ``text``
    and ``printf -v`` set (an array's value: its elements joined by a blank)."""
    head, args = argv[0], argv[1:]
    if head == "printf":
        if len(args) < 2 or args[0] != "-v":
            return []
        from hookrun.hooks.shell_guard.printed import printed

        return [(args[1], printed("printf", list(args[2:])), True)] if args[2:] else []
    if text is None:
        return []
    if head == "read":
        array = _array_name(args)
        if array is not None:  # `read -a a <<< '-rf /'`: the line's fields, all of them
            opts = [a.replace("a" + array, "").replace("a", "") for a in args if a != array]
            line = read_fields([o for o in opts if o != "-"] + ["v"], text, ifs)
            value = line[0][1] if line else ""
            fields = _split(value, frozenset(), _DEFAULT_IFS if ifs is None else ifs, 1 << 16)
            return [(array, " ".join(f for f in fields if f), False)]
        return [(name, value, True) for name, value in read_fields(args, text, ifs)]
    # mapfile / readarray: each line an element (`-t` drops its newline)
    names = [a for a in args if not a.startswith("-")]
    if any(a.startswith("-") and a not in ("-t", "--") for a in args):
        return []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [(names[-1] if names else "MAPFILE", " ".join(lines), False)]


def _array_name(args: Sequence[str]) -> str | None:
    """The name ``read -a NAME`` (``-ra NAME``, ``-aNAME``) fills, or None."""
    for k, a in enumerate(args):
        if not a.startswith("-") or a == "--":
            return None
        if "a" in a[1:]:
            rest = a[a.index("a", 1) + 1 :]
            if rest:
                return rest
            return args[k + 1] if k + 1 < len(args) else None
    return None


def read_fields(args: Sequence[str], text: str, ifs: str | None) -> list[tuple[str, str]]:
    """``(name, value)`` for each name ``read ARGS`` assigns from ``text`` (none for
    ``-a``: the array is read elsewhere, and none for an option it cannot follow)."""
    raw = False
    delim = "\n"
    k = 0
    while k < len(args) and args[k].startswith("-") and args[k] != "-":
        if args[k] == "--":
            k += 1
            break
        opt = args[k][1:]
        for j, ch in enumerate(opt):
            if ch == "r":
                raw = True
            elif ch == "a":
                return []
            elif ch in _WITH_VALUE:
                value = opt[j + 1 :]
                if not value:
                    k += 1
                    if k >= len(args):
                        return []
                    value = args[k]
                if ch == "d":
                    delim = value[:1] or "\0"
                elif ch in "nN":  # (a count of characters: not followed)
                    return []
                break
            elif ch not in "es":
                return []
        k += 1
    names = list(args[k:]) or ["REPLY"]
    line, quoted = _line(text, delim, raw)
    if not args[k:]:
        return [("REPLY", line)]  # (REPLY alone keeps its blanks)
    if ifs is None:
        ifs = _DEFAULT_IFS
    return list(zip(names, _split(line, quoted, ifs, len(names)), strict=False))


def _line(text: str, delim: str, raw: bool) -> tuple[str, frozenset[int]]:
    """The line, and where a backslash quoted a character (not a separator)."""
    out: list[str] = []
    quoted: set[int] = set()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == delim:
            break
        if ch == "\\" and not raw and i + 1 < len(text):
            i += 2
            if text[i - 1] != "\n":  # (a backslash-newline joins the lines)
                quoted.add(len(out))
                out.append(text[i - 1])
            continue
        out.append(ch)
        i += 1
    return "".join(out), frozenset(quoted)


def _split(line: str, quoted: frozenset[int], ifs: str, count: int) -> list[str]:
    blanks = "".join(c for c in ifs if c in _DEFAULT_IFS)
    n = len(line)

    def sep(i: int, chars: str) -> bool:
        return i < n and line[i] in chars and i not in quoted

    def field_end(i: int) -> int:
        while i < n and not sep(i, ifs):
            i += 1
        return i

    def past_separator(i: int) -> int:
        while sep(i, blanks):
            i += 1
        if sep(i, ifs) and line[i] not in blanks:  # one other separator, blanks around it
            i += 1
            while sep(i, blanks):
                i += 1
        return i

    fields: list[str] = []
    i = 0
    while sep(i, blanks):
        i += 1
    while len(fields) < count - 1 and i < n:
        end = field_end(i)
        fields.append(line[i:end])
        i = past_separator(end)
    end = n
    while end > i and end - 1 not in quoted and line[end - 1] in blanks:
        end -= 1
    last = field_end(i)
    if last < end and past_separator(last) >= end:  # `b ,`: one field and a separator
        end = last
    fields.append(line[i:end])
    return fields
