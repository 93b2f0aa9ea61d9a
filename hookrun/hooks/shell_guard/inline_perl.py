"""See into ``perl -e CODE`` (and a program fed to perl): what reaches a shell or deletes.

The code is split into tokens with Perl's own quoting — ``'…'``, ``"…"``, ``q{…}``,
``qq(…)``, ``qw[…]``, ``qx<…>``, any delimiter (brackets nest), here-documents,
comments, POD, ``m//``, ``s///`` (its replacement read as code with ``/e``), ``tr///``
— strings decoded as perl decodes them (``\\x72``, ``\\162``, ``\\x{72}``), a
variable interpolated into ``"…"`` unknown except ``$ENV{NAME}``. Then the calls:

- shell code: ``system``/``exec`` of one string, ``qx``/backticks, ``readpipe``,
  ``open`` with a ``|`` at either end of a two-argument mode, or ``|-``/``-|`` and one
  string; the same with several strings (``system("rm", "-rf", "/")``,
  ``system { "rm" } …``, ``system qw(rm -rf /)``) is that program's argv;
- recursive deletes: ``rmtree``/``remove_tree`` (``File::Path::…`` too, array refs of
  paths) → ``rm -rf P``; ``unlink`` → ``rm -f P`` (``glob(…)``, ``<…>`` as the pattern).

What perl would run only with values the code computes is unknown (``$x``): such a
target is the delete rules' "unresolved".
"""

from __future__ import annotations

from hookrun.hooks.shell_guard.inline_args import (
    UNKNOWN,
    Arg,
    Tok,
    bound,
    call_args,
    char_of,
    ends_value,
    flat,
    heredoc_body,
    known_parts,
    line_end,
    matching,
    merged,
    quoted_end,
    read_code,
    shell_text,
    short_escape,
    single_quoted,
    word,
)
from hookrun.hooks.shell_guard.model import Part, Var, Word

_QUOTES = frozenset({"q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y"})
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
# (the statement ends a call without parentheses: `system "ls" or die`)
_STOPS = frozenset({"or", "and", "xor", "if", "unless", "while", "until", "for", "foreach"})
_CONCAT = frozenset({"."})
_RUNS = frozenset({"system", "exec", "CORE::system", "CORE::exec"})
_RM_TREE = frozenset(
    {"rmtree", "remove_tree", "File::Path::rmtree", "File::Path::remove_tree", "File::Path->rmtree"}
)
_UNLINK = frozenset({"unlink", "CORE::unlink"})
_NAMES = frozenset(
    {"system", "exec", "qx", "readpipe", "open", "rmtree", "remove_tree", "unlink", "`", "eval"}
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "b": "\b", "a": "\a", "e": "\x1b"}
_OCTAL = "01234567"
_HEX = "0123456789abcdefABCDEF"
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_SPACE = " \t\r\n\f"


def may_run(code: str) -> bool:
    """False when ``code`` holds none of the names :func:`reads` follows (the tokens are
    made only for code that may run or delete something)."""
    return any(name in code for name in _NAMES)


def reads(code: str, depth: int = 0) -> tuple[list[str], list[list[Word]]]:
    """(shell code strings, argv lists) that perl ``code`` runs."""
    return read_code(code, depth, may_run=may_run, lex=lex, calls=calls, var=_var, concat=_CONCAT)


def _var(toks: list[Tok], i: int) -> str | None:
    """``$c`` / ``@c`` at ``i`` (not ``$c[0]``, ``$c{k}``: another variable's element)."""
    kind, text, _ = toks[i]
    if kind != "v" or text[:1] not in "$@" or not text[1:].isidentifier():
        return None
    if i + 1 < len(toks) and toks[i + 1][:2] in (("p", "["), ("p", "{")):
        return None
    return text


def calls(toks: list[Tok], depth: int = 0) -> tuple[list[str], list[list[Word]]]:
    shell: list[str] = []
    argvs: list[list[Word]] = []
    n = len(toks)
    i = 0
    while i < n:
        kind, text, parts = toks[i]
        i += 1
        if kind == "x":  # `…`, qx{…}
            shell.append(shell_text(parts))
            continue
        if kind != "w":
            continue
        name = text
        if i + 1 < n and toks[i][:2] == ("p", "->") and toks[i + 1][0] == "w":
            name = f"{text}->{toks[i + 1][1]}"  # File::Path->rmtree(…)
            i += 2
        if i > 1 and toks[i - 2][:2] == ("p", "->") and name == text:
            continue  # $obj->system(…): a method of the code's own
        if name in _RUNS:
            program: Arg | None = None
            if i < n and toks[i][:2] == ("p", "{"):  # system { "rm" } "rm", "-rf", "/"
                end = matching(toks, i)
                inner, _ = call_args(toks, i + 1, concat=_CONCAT, stops=_STOPS)
                program = inner[0] if inner else Arg("str", (UNKNOWN,))
                i = end + 1
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            _run(flat(args), program is not None, shell, argvs, program)
        elif name in ("eval", "evalbytes") and i < n and toks[i][0] == "s":
            body = toks[i][2]  # eval "…": the string is perl code (its text as known)
            more = reads("".join(p for p in body if isinstance(p, str)), depth + 1)
            shell.extend(more[0])
            argvs.extend(more[1])
            i += 1
        elif (
            name in ("eval", "evalbytes")
            and i + 2 < n
            and toks[i][:2] == ("p", "(")
            and toks[i + 1][0] == "s"
        ):
            more = reads("".join(p for p in toks[i + 1][2] if isinstance(p, str)), depth + 1)
            shell.extend(more[0])
            argvs.extend(more[1])
            i += 2
        elif name == "readpipe":
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            if args:
                shell.append(shell_text(known_parts(args[0])))
        elif name in ("open", "CORE::open"):
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            _open(flat(args), shell, argvs)
        elif name in _RM_TREE:
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            for a in flat(args):
                if a.kind == "str":
                    argvs.append([Word.lit("rm"), Word.lit("-rf"), word(a.parts)])
        elif name in _UNLINK:
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            for a in flat(args):
                if a.kind == "str":
                    argvs.append([Word.lit("rm"), Word.lit("-f"), word(a.parts)])
    return shell, argvs


def _run(
    args: list[Arg],
    indirect: bool,
    shell: list[str],
    argvs: list[list[Word]],
    program: Arg | None,
) -> None:
    """``system LIST``: one string is shell code (perl splits one without shell
    characters itself: the same words), more are a program's argv."""
    if not args:
        return
    if len(args) == 1 and not indirect:
        shell.append(shell_text(known_parts(args[0])))
        return
    argv = [word(known_parts(a)) for a in args]
    if program is not None:  # `system { PROGRAM } LIST`: LIST[0] is only its $0
        argv[0] = word(known_parts(program))
    argvs.append(argv)


def _open(args: list[Arg], shell: list[str], argvs: list[list[Word]]) -> None:
    """``open(FH, "| cmd")``, ``open(FH, "cmd |")``, ``open(FH, "-|", LIST)``."""
    if len(args) == 2 and args[1].kind == "str":
        parts = merged(args[1].parts)
        text = parts[0] if parts and isinstance(parts[0], str) else ""
        last = parts[-1] if parts and isinstance(parts[-1], str) else ""
        if text.lstrip().startswith("|"):
            shell.append(shell_text(parts).lstrip()[1:])
        elif last.rstrip().endswith("|"):
            shell.append(shell_text(parts).rstrip()[:-1])
    elif len(args) >= 3 and args[1].kind == "str" and args[1].parts in (("|-",), ("-|",)):
        _run(args[2:], False, shell, argvs, None)


# ------------------------------------------------------------------ tokens


def lex(code: str, regex: bool = True) -> list[Tok]:
    """Perl ``code`` as tokens (see :data:`~inline_args.Tok`)."""
    toks: list[Tok] = []
    n = len(code)
    i = 0
    heredoc_at = -1  # where the next here-document body starts (after its line's newline)
    bodies: list[tuple[int, int]] = []  # (start, end) of bodies read: skipped at their line
    while i < n:
        c = code[i]
        if c == "\n":
            i += 1
            for start, end in bodies:
                if start == i:
                    i = end
            continue
        if c in _SPACE:
            i += 1
            continue
        if c == "#":
            i = line_end(code, i)
            continue
        if c == "=" and (i == 0 or code[i - 1] == "\n") and i + 1 < n and code[i + 1].isalpha():
            end = code.find("\n=cut", i)  # POD
            i = n if end < 0 else line_end(code, end + 1)
            continue
        if c == "'":
            end = quoted_end(code, i + 1, "'", "'")
            toks.append(("s", code[i:end], (single_quoted(code[i + 1 : end - 1], "'", "'"),)))
            i = end
            continue
        if c == '"' or c == "`":
            end = quoted_end(code, i + 1, c, c)
            parts = _double(code[i + 1 : end - 1])
            toks.append(("x" if c == "`" else "s", code[i:end], parts))
            i = end
            continue
        if c == "$" or c == "@" or (c == "%" and i + 1 < n and code[i + 1] in _WORD):
            i = _variable(code, i, toks)
            continue
        if c.isdigit():
            j = i + 1
            while j < n and code[j] in _WORD:
                j += 1
            toks.append(("n", code[i:j], ()))
            i = j
            continue
        if c in _WORD:
            j = i + 1
            while j < n and (code[j] in _WORD or (code.startswith("::", j) and j + 2 < n)):
                j += 2 if code[j] == ":" else 1
            name = code[i:j]
            if name in ("__END__", "__DATA__"):
                break
            if name in _QUOTES and not _after_arrow(toks):
                quoted = _quote_like(code, j, name, toks)
                if quoted >= 0:
                    i = quoted
                    continue
            k = j
            while k < n and code[k] in " \t":
                k += 1
            if code.startswith("=>", k):  # a bareword hash key: text
                toks.append(("s", name, (name,)))
            else:
                toks.append(("w", name, ()))
            i = j
            continue
        if c == "/" and regex and not ends_value(toks):
            end = quoted_end(code, i + 1, "/", "/")
            toks.append(("r", code[i:end], ()))
            i = end
            continue
        if c == "<" and code.startswith("<<", i) and not ends_value(toks):
            got = _heredoc(code, i, heredoc_at)
            if got is not None:
                tok, after, body_start, body_end = got
                toks.append(tok)
                bodies.append((body_start, body_end))
                heredoc_at = body_end
                i = after
                continue
        if c == "<" and not ends_value(toks):
            end = code.find(">", i + 1)
            inner = code[i + 1 : end] if end > 0 else ""
            if end > 0 and "\n" not in inner and " " not in inner.strip():
                if inner and (inner.isidentifier() or inner.startswith("$") or inner == "STDIN"):
                    toks.append(("v", code[i : end + 1], (UNKNOWN,)))  # <FH>: a line read
                else:
                    toks.append(("g", code[i : end + 1], _tilde(_double(inner))))  # <*.c>
                i = end + 1
                continue
        two = code[i : i + 2]
        if two in ("=>", "->", "::", "..", "&&", "||", "//", "=~", "<<"):
            toks.append(("p", two, ()))
            i += 2
            continue
        toks.append(("p", c, ()))
        i += 1
    return _globs(toks)


def _globs(toks: list[Tok]) -> list[Tok]:
    """``glob("…")`` / ``glob '…'`` as one glob token (``unlink glob(…)`` deletes what
    it matches)."""
    out: list[Tok] = []
    i = 0
    n = len(toks)
    while i < n:
        tok = toks[i]
        if tok[:2] == ("w", "glob"):
            if (
                i + 3 < n
                and toks[i + 1][:2] == ("p", "(")
                and toks[i + 3][:2] == ("p", ")")
                and toks[i + 2][0] == "s"
            ):
                out.append(("g", "glob", _tilde(toks[i + 2][2])))
                i += 4
                continue
            if i + 1 < n and toks[i + 1][0] == "s":
                out.append(("g", "glob", _tilde(toks[i + 1][2])))
                i += 2
                continue
        out.append(tok)
        i += 1
    return out


def _tilde(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """A glob pattern's leading ``~`` (perl's ``glob`` expands it, as csh does)."""
    first = parts[0] if parts else ""
    if isinstance(first, str) and (first == "~" or first.startswith("~/")):
        return (Var("HOME"), first[1:], *parts[1:])
    return parts


def _after_arrow(toks: list[Tok]) -> bool:
    """The name is a method (``$x->s(…)``) or a sub being defined (``sub s {…}``)."""
    return bool(toks) and toks[-1][:2] in (("p", "->"), ("w", "sub"))


def _quote_like(code: str, j: int, name: str, toks: list[Tok]) -> int:
    """Read ``q…``/``qq``/``qw``/``qx``/``m``/``qr``/``s``/``tr``/``y`` at ``j`` (after
    the name); -1 when the name is not one here (a hash key, a sub called so)."""
    n = len(code)
    k = j
    while k < n and code[k] in _SPACE:
        k += 1
    if k >= n:
        return -1
    delim = code[k]
    if delim in _WORD or delim in ",;)}" or (delim == "=" and code.startswith("=>", k)):
        return -1
    if delim == "#" and k > j:
        return -1  # `q #…`: a comment, not a delimiter
    close = _PAIRS.get(delim, delim)
    end = quoted_end(code, k + 1, delim, close)
    body = code[k + 1 : end - 1]
    raw_end = end
    replacement = ""
    if name in ("s", "tr", "y"):
        if close != delim:  # s{a}{b}: the second part has its own delimiters
            m = end
            while m < n and code[m] in _SPACE:
                m += 1
            if m < n:
                second = _PAIRS.get(code[m], code[m])
                raw_end = quoted_end(code, m + 1, code[m], second)
                replacement = code[m + 1 : raw_end - 1]
        else:
            raw_end = quoted_end(code, end, delim, delim)
            replacement = code[end : raw_end - 1]
    m = raw_end
    while m < n and code[m].isalpha():
        m += 1
    flags = code[raw_end:m]
    raw = code[j - len(name) : m]
    if name == "q":
        toks.append(("s", raw, (single_quoted(body, delim, close),)))
    elif name == "qq":
        toks.append(("s", raw, _double(body)))
    elif name == "qx":
        parts = (single_quoted(body, delim, close),) if delim == "'" else _double(body)
        toks.append(("x", raw, parts))
    elif name == "qw":
        words = single_quoted(body, delim, close).split()
        toks.append(("p", "(", ()))
        for k2, w in enumerate(words):
            if k2:
                toks.append(("p", ",", ()))
            toks.append(("s", w, (w,)))
        toks.append(("p", ")", ()))
    else:
        toks.append(("r", raw, ()))
        if name == "s" and "e" in flags:  # s/…/CODE/e: the replacement is perl code
            toks.append(("p", ";", ()))
            toks.extend(lex(replacement))
            toks.append(("p", ";", ()))
    return m


def _heredoc(code: str, i: int, body_at: int) -> tuple[Tok, int, int, int] | None:
    """``<<"EOF"``, ``<<'EOF'``, ``<<EOF``, ``<<~EOF`` at ``i``: (token, index after the
    operator, body start, index after the terminator line)."""
    n = len(code)
    k = i + 2
    indent = k < n and code[k] == "~"
    if indent:
        k += 1
    if k < n and code[k] in "\"'`":
        q = code[k]
        end = code.find(q, k + 1)
        if end < 0:
            return None
        term = code[k + 1 : end]
        after = end + 1
    else:
        q = '"'
        m = k
        while m < n and code[m] in _WORD:
            m += 1
        if m == k:
            return None
        term = code[k:m]
        after = m
    start = body_at if body_at > after else line_end(code, after) + 1
    body, pos = heredoc_body(code, start, term, indent)
    if q == "'":
        tok: Tok = ("s", body, (body,))
    else:
        tok = ("x" if q == "`" else "s", body, _double(body))
    return tok, after, start, pos


def _variable(code: str, i: int, toks: list[Tok]) -> int:
    """A variable at ``i`` (``$x``, ``@a``, ``%h``, ``$ENV{HOME}``, ``$#a``) as one token."""
    n = len(code)
    k = i + 1
    if code.startswith("ENV{", k) and code[i] == "$":
        end = code.find("}", k)
        key = code[k + 4 : end].strip().strip("'\"") if end > 0 else ""
        if key.isidentifier():
            toks.append(("v", code[i : end + 1], (Var(key),)))
            return end + 1
    if k < n and code[k] == "#":
        k += 1
    if k < n and code[k] == "{":
        k = quoted_end(code, k + 1, "{", "}")
    elif k < n and (code[k] in _WORD or code[k] == ":"):
        while k < n and (code[k] in _WORD or code.startswith("::", k)):
            k += 2 if code[k] == ":" else 1
    elif k < n and code[i] == "$" and code[k] not in _SPACE:
        k += 1  # $$, $&, $/ …
    else:
        toks.append(("p", code[i], ()))
        return i + 1
    toks.append(("v", code[i:k], (UNKNOWN,)))
    return k


def _double(body: str) -> tuple[Part, ...]:
    """An interpolating string's value: escapes decoded, variables unknown (an
    environment value, ``$ENV{NAME}``, is that name's)."""
    parts: list[Part] = []
    text: list[str] = []
    n = len(body)
    i = 0
    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n:
            i = _escape(body, i + 1, text)
            continue
        if c in "$@" and i + 1 < n and (body[i + 1] in _WORD or body[i + 1] in "{:"):
            got: list[Tok] = []
            at = _variable(body, i, got)
            end = _subscripts(body, at)
            if got and got[0][0] == "v":
                parts.append("".join(text))
                text = []
                known = bound(got[0][1]) if end == at else None  # (`"$c"` of `$c = "…"`)
                parts.extend(got[0][2] if known is None else known)
                i = end
                continue
        if c == "$" and i + 1 < n and body[i + 1] not in _SPACE:  # $$, $&: unknown
            parts.append("".join(text))
            text = []
            parts.append(UNKNOWN)
            i += 2
            continue
        text.append(c)
        i += 1
    parts.append("".join(text))
    return merged(parts) or ("",)


def _subscripts(body: str, i: int) -> int:
    """Past ``[…]``, ``{…}``, ``->[…]`` after an interpolated name."""
    n = len(body)
    while i < n:
        if body.startswith("->", i) and i + 2 < n and body[i + 2] in "[{":
            i += 2
        if i < n and body[i] in "[{":
            i = quoted_end(body, i + 1, body[i], _PAIRS[body[i]])
            continue
        break
    return min(i, n)


def _escape(body: str, i: int, text: list[str]) -> int:
    """Decode the escape whose letter is at ``i`` into ``text``; the index after it."""
    c = body[i]
    n = len(body)
    if c in _ESCAPES:
        text.append(_ESCAPES[c])
        return i + 1
    if c == "x" and i + 1 < n and body[i + 1] == "{":
        end = body.find("}", i + 2)
        digits = body[i + 2 : end] if end > 0 else ""
        text.append(char_of(digits.strip(), 16))
        return end + 1 if end > 0 else n
    end = short_escape(body, i, text)
    if end >= 0:
        return end
    if c == "o" and i + 1 < n and body[i + 1] == "{":
        end = body.find("}", i + 2)
        text.append(char_of(body[i + 2 : end] if end > 0 else "", 8))
        return end + 1 if end > 0 else n
    if c == "c" and i + 1 < n:
        text.append(chr(ord(body[i + 1].upper()) ^ 64))
        return i + 2
    if c == "N" and body.startswith("{U+", i + 1):
        end = body.find("}", i + 4)
        text.append(char_of(body[i + 4 : end] if end > 0 else "", 16))
        return end + 1 if end > 0 else n
    if c in "luLUQEF":  # case changes: the letters' case is not modelled
        return i + 1
    text.append(c)
    return i + 1


# ------------------------------------------------------------------ the command line

# Switches whose value is the rest of their word (`-i.bak`, `-F:`, `-MFile::Path`): a
# letter after them is not a switch (`-pie` edits in place with the suffix "e").
_REST = frozenset("iFIMmxCdDV")


def codes(args: list[str]) -> tuple[str, str] | None:
    """(the code perl runs, the switch that gave it) from its arguments: every ``-e``/
    ``-E`` (in a bundle such as ``-lane``, attached as ``-e'…'``), joined by newlines
    as perl joins them; None when perl runs a script file instead."""
    code: list[str] = []
    flag = ""
    i = 0
    while i < len(args):
        text = args[i]
        if text in ("--", "-") or not text.startswith("-"):
            break
        k = 1
        while k < len(text):
            c = text[k]
            if c in "eE":
                if k + 1 < len(text):
                    code.append(text[k + 1 :])
                elif i + 1 < len(args):
                    i += 1
                    code.append(args[i])
                flag = flag or text
                break
            if c in _REST:
                break
            if c in "l0":
                k += 1
                while k < len(text) and (text[k] in _HEX or (c == "0" and text[k] == "x")):
                    if c == "l" and text[k] not in _OCTAL:
                        break
                    k += 1
                continue
            k += 1
        i += 1
    return ("\n".join(code), flag) if code else None
