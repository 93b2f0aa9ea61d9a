"""See into ``ruby -e CODE`` (and a program fed to ruby): what reaches a shell or deletes.

The code is split into tokens with Ruby's own quoting — ``'…'``, ``"…"``, backticks,
``%q(…)``, ``%Q[…]``, ``%(…)``, ``%w{…}``, ``%W``, ``%i``, ``%x<…>``, ``%r``, any
delimiter (brackets nest), here-documents (``<<~EOS``, ``<<-'EOS'``, `` <<`EOS` ``),
comments and ``=begin``/``=end`` — strings decoded as ruby decodes them, ``#{…}``
unknown except ``#{ENV["NAME"]}``. Then the calls:

- shell code: ``system``/``exec``/``spawn`` (``Kernel.``, ``Process.``) of one string,
  an optional environment hash first; backticks and ``%x``; ``IO.popen``,
  ``Open3.capture2``/``capture2e``/``capture3``/``popen2``/``popen2e``/``popen3``/
  ``pipeline*`` of a string; ``open``/``IO.read``/``IO.readlines``/``IO.foreach``/
  ``IO.write`` of ``"|cmd"``. Several strings (or ``[program, argv0]`` first, or
  ``IO.popen([…])``) are a program's argv;
- recursive deletes: ``FileUtils.rm_rf``/``rm_r``/``remove_dir``/``remove_entry``/
  ``remove_entry_secure``/``rmtree`` (bare after ``include FileUtils``; a list of paths;
  ``Dir.glob("…")``/``Dir["…"]`` as the pattern; nothing with ``noop: true``) and
  ``Pathname.new(P).rmtree`` → ``rm -rf P``; ``File.delete``/``File.unlink``/
  ``FileUtils.rm``/``rm_f`` → ``rm -f P``.
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
    merged,
    quoted_end,
    read_code,
    shell_text,
    short_escape,
    single_quoted,
    word,
)
from hookrun.hooks.shell_guard.model import Part, Var, Word

_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_STOPS = frozenset({"if", "unless", "while", "until", "rescue", "do", "and", "or", "then"})
_CONCAT = frozenset({"+", "<<"})
_RUNS = frozenset({"system", "exec", "spawn"})
_RUN_OWNERS = frozenset({"", "Kernel", "Process", "::Kernel"})
_OPEN3 = frozenset(
    {"capture2", "capture2e", "capture3", "popen2", "popen2e", "popen3", "pipeline",
     "pipeline_r", "pipeline_w", "pipeline_rw", "pipeline_start"}
)  # fmt: skip
_PIPE_OPENS = frozenset(
    {"open", "Kernel.open", "IO.read", "IO.readlines", "IO.foreach", "IO.write", "IO.binread",
     "IO.binwrite"}
)  # fmt: skip
_RM_TREE = frozenset(
    {"rm_rf", "rm_r", "remove_dir", "remove_entry", "remove_entry_secure", "rmtree"}
)
_RM_FILE = frozenset({"rm", "rm_f", "remove", "safe_unlink"})
_NAMES = frozenset(
    {"system", "exec", "spawn", "`", "%x", "popen", "Open3", "open", "IO.", "rm", "remove",
     "rmtree", "delete", "unlink", "eval"}
)  # fmt: skip
_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "f": "\f", "b": "\b", "a": "\a", "e": "\x1b", "s": " ",
    "v": "\v",
}  # fmt: skip
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_SPACE = " \t\r\f"


def may_run(code: str) -> bool:
    """False when ``code`` holds none of the names :func:`reads` follows."""
    return any(name in code for name in _NAMES)


def reads(code: str, depth: int = 0) -> tuple[list[str], list[list[Word]]]:
    """(shell code strings, argv lists) that ruby ``code`` runs."""
    return read_code(code, depth, may_run=may_run, lex=lex, calls=calls, var=_var, concat=_CONCAT)


_KEYWORDS = frozenset(
    {"if", "unless", "while", "until", "do", "end", "def", "then", "else", "elsif", "and",
     "or", "not", "nil", "true", "false", "self", "return", "begin", "rescue", "ensure",
     "case", "when", "in", "class", "module", "yield", "super", "puts", "print", "p"}
)  # fmt: skip


def _var(toks: list[Tok], i: int) -> str | None:
    """A local variable's name at ``i``: a lower-case word that is no keyword, method
    call (``x.c``, ``c(…)``), definition (``def c``) or hash key (``c:``)."""
    kind, text, _ = toks[i]
    if kind != "w" or not (text[:1].islower() or text[:1] == "_") or text in _KEYWORDS:
        return None
    if not text.isidentifier():
        return None
    if i and (toks[i - 1][:2] in (("p", "."), ("p", "::"), ("p", "&.")) or toks[i - 1][1] == "def"):
        return None
    if i + 1 < len(toks) and toks[i + 1][:2] in (("p", "("), ("p", ":")):
        return None
    return text


def _dotted(toks: list[Tok], i: int) -> tuple[str, str, int]:
    """(owner, method, index after) of ``A::B.c`` / ``A.c`` / ``c`` starting at ``i``."""
    names = [toks[i][1]]
    k = i + 1
    n = len(toks)
    while (
        k + 1 < n
        and toks[k][:2] in (("p", "."), ("p", "::"), ("p", "&."))
        and toks[k + 1][0] == "w"
    ):
        names.append(toks[k + 1][1])
        k += 2
    return ".".join(names[:-1]), names[-1], k


def calls(toks: list[Tok], depth: int = 0) -> tuple[list[str], list[list[Word]]]:
    shell: list[str] = []
    argvs: list[list[Word]] = []
    n = len(toks)
    i = 0
    while i < n:
        kind, text, parts = toks[i]
        if kind == "x":
            shell.append(shell_text(parts))
            i += 1
            continue
        if kind != "w" or (i and toks[i - 1][:2] in (("p", "."), ("p", "::"), ("p", "&."))):
            i += 1
            continue
        owner, method, k = _dotted(toks, i)
        if k < n and toks[k][:2] == ("p", ":") and owner == "":
            i = k  # `system:` a hash key
            continue
        i = k
        full = f"{owner}.{method}" if owner else method
        if method in _RUNS and owner in _RUN_OWNERS:
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            _run(args, shell, argvs)
        elif method == "popen" and owner == "IO" or method in _OPEN3 and owner == "Open3":
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            args = [a for a in args if a.kind != "hash"]
            if args and args[0].kind == "list" and method == "popen":
                _run(list(args[0].items), shell, argvs, many=True)
            elif method == "popen":
                _run(args[:1], shell, argvs)
            else:
                _run(args, shell, argvs)
        elif method in ("eval", "instance_eval", "class_eval", "module_eval") and owner in (
            "",
            "Kernel",
        ):
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            if args and args[0].kind == "str":  # eval("…"): the string is ruby code
                text = "".join(p for p in args[0].parts if isinstance(p, str))
                more = reads(text, depth + 1)
                shell.extend(more[0])
                argvs.extend(more[1])
        elif full in _PIPE_OPENS:
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            if args and args[0].kind == "str":
                first = merged(args[0].parts)
                if first and isinstance(first[0], str) and first[0].startswith("|"):
                    shell.append(shell_text(first)[1:])
        elif method in _RM_TREE and owner in ("", "FileUtils", "::FileUtils"):
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            _delete(args, "-rf", argvs)
        elif (
            method in _RM_FILE
            and owner in ("FileUtils", "::FileUtils")
            or (method in ("delete", "unlink") and owner in ("File", "::File"))
        ):
            args, i = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            _delete(args, "-f", argvs)
        elif method in ("new", "Pathname") and (owner == "Pathname" or method == "Pathname"):
            args, after = call_args(toks, i, concat=_CONCAT, stops=_STOPS)
            if (
                args
                and after + 1 < n
                and toks[after][:2] == ("p", ".")
                and toks[after + 1][:2] == ("w", "rmtree")
            ):
                _delete(args[:1], "-rf", argvs)
                i = after + 2
    return shell, argvs


def _run(args: list[Arg], shell: list[str], argvs: list[list[Word]], many: bool = False) -> None:
    """``system([env,] cmd…[, opts])``: one string is shell code, more an argv;
    ``[program, argv0]`` first names the program."""
    args = [a for a in args if a.kind not in ("kw",)]
    if args and args[0].kind == "hash":
        args = args[1:]  # the environment
    if args and args[-1].kind == "hash":
        args = args[:-1]  # options
    if not args:
        return
    if len(args) == 1 and args[0].kind == "str" and not many:
        shell.append(shell_text(args[0].parts))
        return
    first = args[0]
    if first.kind == "list" and len(first.items) == 2 and "*" not in first.keys:
        args = [first.items[0], *args[1:]]  # [program, argv0]
    argvs.append([word(known_parts(a)) for a in flat(args)])


def _delete(args: list[Arg], flag: str, argvs: list[list[Word]]) -> None:
    if any(
        a.kind == "kw" and any(k.startswith("noop:") and k != "noop:false" for k in a.keys)
        for a in args
    ):
        return  # noop: true deletes nothing
    for a in flat([a for a in args if a.kind in ("str", "list")]):
        if a.kind == "str":
            argvs.append([Word.lit("rm"), Word.lit(flag), word(a.parts)])


# ------------------------------------------------------------------ tokens


def lex(code: str, regex: bool = True) -> list[Tok]:
    """Ruby ``code`` as tokens (see :data:`~inline_args.Tok`)."""
    toks: list[Tok] = []
    n = len(code)
    i = 0
    pending: list[tuple[str, bool, str, int]] = []  # heredocs: (term, squiggly, quote, tok)
    while i < n:
        c = code[i]
        if c == "\n":
            i += 1
            for term, indent, q, at in pending:
                body, i = heredoc_body(code, i, term, indent)
                parts: tuple[Part, ...] = (body,) if q == "'" else _double(body)
                toks[at] = ("x" if q == "`" else "s", body, parts)
            pending = []
            toks.append(("p", "nl", ()))
            continue
        if c in _SPACE:
            i += 1
            continue
        if c == "\\" and code.startswith("\\\n", i):
            i += 2
            continue
        if c == "#":
            i = line_end(code, i)
            continue
        if c == "=" and (i == 0 or code[i - 1] == "\n") and code.startswith("=begin", i):
            end = code.find("\n=end", i)
            i = n if end < 0 else line_end(code, end + 1)
            continue
        if c == "'":
            end = quoted_end(code, i + 1, "'", "'", interp=False)
            toks.append(("s", code[i:end], (single_quoted(code[i + 1 : end - 1], "'", "'"),)))
            i = end
            continue
        if c == '"' or c == "`":
            end = quoted_end(code, i + 1, c, c, interp=True)
            parts = _double(code[i + 1 : end - 1])
            toks.append(("x" if c == "`" else "s", code[i:end], parts))
            i = end
            continue
        # (a name followed by a blank and a literal — `puts %q(…)`, `system %x…` — is a
        # call given that literal, as ruby reads it; `x %(y)` without the blank is a modulo)
        if c == "%" and i + 1 < n and not ends_value(toks):
            got = _percent(code, i, toks)
            if got >= 0:
                i = got
                continue
        if c == "<" and code.startswith("<<", i) and not ends_value(toks):
            got_h = _heredoc_start(code, i)
            if got_h is not None:
                term, indent, q, after = got_h
                pending.append((term, indent, q, len(toks)))
                toks.append(("s", "", ("",)))
                i = after
                continue
        if c in "$@":
            k = i + 1
            while k < n and (code[k] in _WORD or code[k] == "@"):
                k += 1
            if k == i + 1 and c == "$" and k < n:
                k += 1  # $0, $!, $~
            toks.append(("v", code[i:k], (UNKNOWN,)))
            i = k
            continue
        if c == ":" and i + 1 < n and (code[i + 1] in _WORD and not code[i + 1].isdigit()):
            k = i + 1
            while k < n and code[k] in _WORD:
                k += 1
            toks.append(("n", code[i:k], ()))  # a symbol
            i = k
            continue
        if (
            c == "?"
            and i + 1 < n
            and code[i + 1] not in _SPACE
            and not ends_value(toks)
            and (i + 2 >= n or code[i + 2] not in _WORD)
        ):
            toks.append(("s", code[i : i + 2], (code[i + 1],)))  # ?c
            i += 2
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
            while j < n and code[j] in _WORD:
                j += 1
            if j < n and code[j] in "?!" and not code.startswith("=", j + 1):
                j += 1
            name = code[i:j]
            if name in ("__END__",) and (i == 0 or code[i - 1] == "\n"):
                break
            toks.append(("w", name, ()))
            i = j
            continue
        if c == "/" and regex and not ends_value(toks):
            end = quoted_end(code, i + 1, "/", "/", interp=True)
            toks.append(("r", code[i:end], ()))
            i = end
            continue
        two = code[i : i + 2]
        if two in ("=>", "->", "::", "&.", "..", "&&", "||", "<<", "==", "!="):
            toks.append(("p", two, ()))
            i += 2
            continue
        toks.append(("p", c, ()))
        i += 1
    return _fold(toks)


def _fold(toks: list[Tok]) -> list[Tok]:
    """``Dir.glob("…")`` / ``Dir["…"]`` as one glob token; ``ENV["NAME"]`` and
    ``Dir.home`` as the environment value they are."""
    out: list[Tok] = []
    i = 0
    n = len(toks)
    while i < n:
        kind, text, _ = toks[i]
        if kind == "w" and text == "ENV" and i + 3 < n:
            key = toks[i + 2][2]
            if (
                toks[i + 1][:2] == ("p", "[")
                and toks[i + 2][0] == "s"
                and toks[i + 3][:2] == ("p", "]")
                and len(key) == 1
                and isinstance(key[0], str)
                and key[0].isidentifier()
            ):
                out.append(("v", "ENV[]", (Var(key[0]),)))
                i += 4
                continue
        if (
            kind == "w"
            and text == "Dir"
            and i + 2 < n
            and toks[i + 1][:2] == ("p", ".")
            and toks[i + 2][:2] == ("w", "home")
        ):
            out.append(("v", "Dir.home", (Var("HOME"),)))
            i += 3
            if i + 1 < n and toks[i][:2] == ("p", "(") and toks[i + 1][:2] == ("p", ")"):
                i += 2
            continue
        if kind == "w" and text == "Dir" and i + 4 < n:
            if (
                toks[i + 1][:2] == ("p", ".")
                and toks[i + 2][:2] == ("w", "glob")
                and toks[i + 3][:2] == ("p", "(")
                and toks[i + 4][0] == "s"
                and i + 5 < n
                and toks[i + 5][:2] in (("p", ")"), ("p", ","))
            ):
                out.append(("g", "Dir.glob", toks[i + 4][2]))
                end = i + 5
                while end < n and toks[end][:2] != ("p", ")"):
                    end += 1
                i = end + 1
                continue
            if (
                toks[i + 1][:2] == ("p", "[")
                and toks[i + 2][0] == "s"
                and toks[i + 3][:2] == ("p", "]")
            ):
                out.append(("g", "Dir[]", toks[i + 2][2]))
                i += 4
                continue
        out.append(toks[i])
        i += 1
    return out


def _percent(code: str, i: int, toks: list[Tok]) -> int:
    """``%q(…)``, ``%Q``, ``%(…)``, ``%w``, ``%W``, ``%i``, ``%I``, ``%x``, ``%r``, ``%s``
    at ``i``; -1 when it is not one."""
    n = len(code)
    k = i + 1
    kind = ""
    if code[k] in "qQwWiIxrs":
        kind = code[k]
        k += 1
    if k >= n:
        return -1
    delim = code[k]
    if delim in _WORD or delim in _SPACE or delim == "\n" or (not kind and delim == "="):
        return -1
    close = _PAIRS.get(delim, delim)
    end = quoted_end(code, k + 1, delim, close, interp=kind not in ("q", "s", "w", "i"))
    body = code[k + 1 : end - 1]
    raw = code[i:end]
    if kind in ("q", "s"):
        toks.append(("s", raw, (single_quoted(body, delim, close),)))
    elif kind in ("", "Q"):
        toks.append(("s", raw, _double(body)))
    elif kind == "x":
        toks.append(("x", raw, _double(body)))
    elif kind in "wWiI":
        toks.append(("p", "[", ()))
        for k2, w in enumerate(body.split()):
            if k2:
                toks.append(("p", ",", ()))
            toks.append(("s", w, (w,) if kind in "wi" else _double(w)))
        toks.append(("p", "]", ()))
    else:  # %r
        i2 = end
        while i2 < n and code[i2].isalpha():
            i2 += 1
        toks.append(("r", raw, ()))
        return i2
    return end


def _heredoc_start(code: str, i: int) -> tuple[str, bool, str, int] | None:
    """``<<~EOS``, ``<<-EOS``, ``<<EOS``, ``<<'EOS'``, ``<<"EOS"``, `` <<`EOS` ``:
    (terminator, its line may be indented, quote, index after)."""
    n = len(code)
    k = i + 2
    indent = k < n and code[k] in "~-"
    if indent:
        k += 1
    if k < n and code[k] in "\"'`":
        q = code[k]
        end = code.find(q, k + 1)
        if end < 0 or "\n" in code[k:end]:
            return None
        return code[k + 1 : end], indent, q, end + 1
    m = k
    while m < n and code[m] in _WORD:
        m += 1
    if m == k or not (code[k].isupper() or code[k] == "_"):
        return None  # `a <<b`: an append
    return code[k:m], indent, '"', m


def _double(body: str) -> tuple[Part, ...]:
    """An interpolating string's value: escapes decoded, ``#{…}`` unknown (but
    ``#{ENV["NAME"]}`` and ``#{Dir.home}`` are those values)."""
    parts: list[Part] = []
    text: list[str] = []
    n = len(body)
    i = 0
    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n:
            i = _escape(body, i + 1, text)
            continue
        if c == "#" and i + 1 < n and body[i + 1] in "{$@":
            parts.append("".join(text))
            text = []
            if body[i + 1] == "{":
                end = quoted_end(body, i + 2, "{", "}", interp=True)
                expr = body[i + 2 : end - 1].strip()
                known = bound(expr) if expr.isidentifier() else None  # (`"#{c}"`)
                parts.extend((_interpolated(expr),) if known is None else known)
                i = end
            else:
                k = i + 2
                while k < n and (body[k] in _WORD or body[k] == "@"):
                    k += 1
                parts.append(UNKNOWN)
                i = k
            continue
        text.append(c)
        i += 1
    parts.append("".join(text))
    return merged(parts) or ("",)


def _interpolated(expr: str) -> Part:
    if expr in ("Dir.home", "ENV['HOME']", 'ENV["HOME"]', "Dir.home()"):
        return Var("HOME")
    if expr.startswith(("ENV['", 'ENV["')) and expr.endswith(("']", '"]')):
        name = expr[5:-2]
        if name.isidentifier():
            return Var(name)
    return UNKNOWN


def _escape(body: str, i: int, text: list[str]) -> int:
    c = body[i]
    n = len(body)
    if c in _ESCAPES:
        text.append(_ESCAPES[c])
        return i + 1
    end = short_escape(body, i, text)
    if end >= 0:
        return end
    if c == "u":
        if i + 1 < n and body[i + 1] == "{":
            end = body.find("}", i + 2)
            inner = body[i + 2 : end] if end > 0 else ""
            text.extend(char_of(d, 16) for d in inner.split())
            return end + 1 if end > 0 else n
        text.append(char_of(body[i + 1 : i + 5], 16))
        return min(i + 5, n)
    if c == "\n":
        return i + 1  # a backslash-newline joins the lines
    text.append(c)
    return i + 1


# ------------------------------------------------------------------ the command line

_NEXT = frozenset("erICE")  # take the next word when nothing is attached (`-r fileutils`)
_REST = frozenset("erICEiF0xKTWd")  # their value is the rest of the word


def codes(args: list[str]) -> tuple[str, str] | None:
    """(the code ruby runs, the switch that gave it): every ``-e`` (``-ne``, ``-e'…'``),
    joined by newlines; None when ruby runs a script file instead."""
    code: list[str] = []
    flag = ""
    i = 0
    while i < len(args):
        text = args[i]
        if text in ("--", "-") or not text.startswith("-"):
            break
        if text.startswith("--"):
            i += 1
            continue
        k = 1
        while k < len(text):
            c = text[k]
            if c in _REST:
                value = text[k + 1 :]
                if not value and c in _NEXT and i + 1 < len(args):
                    i += 1
                    value = args[i]
                if c == "e":
                    code.append(value)
                    flag = flag or text
                break
            k += 1
        i += 1
    return ("\n".join(code), flag) if code else None
