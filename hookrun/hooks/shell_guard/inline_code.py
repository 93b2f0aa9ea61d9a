"""See into ``node -e``, ``php -r``, ``deno``/``bun`` code: the shell commands and deletes it makes.

(perl, ruby and awk have readers of their own quoting: :mod:`inline_perl`,
:mod:`inline_ruby`, :mod:`inline_awk`.) These languages have no parser here, so the
code is read for the few calls that reach the shell or delete trees, each a literal
string argument:

- shell code: ``child_process.execSync('…')`` / ``exec`` / ``spawnSync('sh', …)``,
  (with further literal arguments, ``system('rm', '-rf', '/')``, a program's argv),
  ``system('…')``, ``exec('…')``, ``qx(…)``, ``%x(…)``, ``IO.popen('…')``,
  ``Open3.capture2('…')`` and backticks (Ruby, Perl);
- recursive deletes: ``FileUtils.rm_rf`` / ``rm_r`` / ``remove_dir`` /
  ``remove_entry``, ``fs.rmSync(p, {recursive: true})`` / ``rmdirSync`` /
  ``fs.rm``, Perl's ``rmtree`` / ``remove_tree`` → ``rm -rf p``;
- single deletes: ``File.delete``, ``fs.unlinkSync``, ``unlink`` → ``rm -f p``.

A call whose argument is not a literal string is not followed (its value is
only known when the program runs); the literal-string reading is what makes
``node -e "console.log('rm -rf /')"`` pass while ``execSync('rm -rf /')`` does not.
"""

from __future__ import annotations

import re

from hookrun.hooks.shell_guard.heads import CODE_FLAGS
from hookrun.hooks.shell_guard.model import Word
from hookrun.lazyre import compile as lazy_compile

__all__ = ["CODE_FLAGS", "reads"]

_STR = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`)"""
_SHELL_CALL = lazy_compile(
    r"\b(?:execSync|exec|execa|execaSync|spawnSync|system|shell_exec|passthru|popen|qx|"
    r"capture2e?|capture3|IO\.popen|Kernel\.system|%x)\s*\(?\s*" + _STR
)
# A further literal argument after a call's first: `system("rm", "-rf", "/")` (Perl,
# Ruby) and `spawnSync('rm', ['-rf', '/'])` (Node) run a program with those arguments.
_NEXT_ARG = lazy_compile(r"\s*,\s*\[?\s*" + _STR)
_BACKTICK = lazy_compile(r"`((?:[^`\\]|\\.)+)`")
_RM_TREE = lazy_compile(
    r"\b(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree|remove_tree|rmSync|rmdirSync|"
    r"rimraf(?:\.sync)?)\s*\(?\s*" + _STR
)
_RM_FILE = lazy_compile(r"\b(?:File\.delete|unlinkSync|unlink|File\.unlink)\s*\(?\s*" + _STR)
_JS_FS_RM = lazy_compile(r"\bfs\.(?:promises\.)?rm\s*\(\s*" + _STR + r"\s*,\s*\{[^}]*recursive")
# The same deletes given a name (`rmSync(d, …)` after `const d = "/etc"`).
_NAME = r"(\$?[A-Za-z_$][\w$]*)\s*[,)]"
_RM_TREE_NAME = lazy_compile(
    r"\b(?:rmtree|remove_tree|rmSync|rmdirSync|rimraf(?:\.sync)?)\s*\(\s*" + _NAME
)
_RM_FILE_NAME = lazy_compile(r"\b(?:unlinkSync|unlink)\s*\(\s*" + _NAME)
_JS_FS_RM_NAME = lazy_compile(
    r"\bfs\.(?:promises\.)?rm\s*\(\s*([A-Za-z_$][\w$]*)\s*,\s*\{[^}]*recursive"
)


def _value(m: re.Match[str], known: dict[str, str] | None = None, php: bool = False) -> str:
    at = next(k for k, g in enumerate(m.groups()) if g is not None)
    value = m.group(at + 1)
    value = value.replace("\\'", "'").replace('\\"', '"').replace("\\\\", "\\")
    if known and (at == 2 or (at == 1 and php)):  # (a JS template, a PHP "…": interpolated)
        value = (_PHP_INTERP if php else _JS_INTERP).sub(
            lambda v: known.get(v.group(1) or v.group(2), v.group(0)), value
        )
    return value


_JS_INTERP = lazy_compile(r"\$\{\s*([A-Za-z_$][\w$]*)\s*\}()")
_PHP_INTERP = lazy_compile(r"\{\$([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)")
# `const c = "…"`, `let c = '…'`, `c = `…``; PHP's `$c = "…"`: a name given a literal.
_JS_ASSIGN = lazy_compile(
    r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*=(?![=>])\s*" + _STR + r"\s*(?=[;,\n)}]|$)"
)
_PHP_ASSIGN = lazy_compile(r"\$([A-Za-z_]\w*)\s*=(?![=>])\s*" + _STR + r"\s*(?=[;\n]|$)")
# Any assignment to a name (counted: one given a value twice is not bound).
_JS_SETS = lazy_compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?:[-+*/|&.]|\?\?)?=(?![=>])")
_PHP_SETS = lazy_compile(r"\$([A-Za-z_]\w*)\s*(?:[-+*/|&.]|\?\?)?=(?![=>])")
# A shell-running call whose first argument is a name (`execSync(c)`, `system($c)`).
_SHELL_CALL_NAME = lazy_compile(
    r"\b(?:execSync|exec|execa|execaSync|spawnSync|system|shell_exec|passthru|popen|"
    r"proc_open)\s*\(\s*(\$?[A-Za-z_$][\w$]*)\s*[,)]"
)


def _code_spans(code: str, php: bool) -> tuple[str, list[tuple[int, int]]]:
    """``code`` with its comments blanked (``//``, ``/* */``; PHP's ``#`` too), and the
    spans of its string literals (a call's name inside one is text, not a call). JS
    regular-expression literals are skipped as strings (after an operator or bracket)."""
    out = list(code)
    strings: list[tuple[int, int]] = []
    n = len(code)
    i = 0
    prev = ""  # the last character of code before i that is not blank
    while i < n:
        c = code[i]
        if c in "'\"`":
            j = i + 1
            while j < n and code[j] != c:
                j += 2 if code[j] == "\\" else 1
            strings.append((i, min(j + 1, n)))
            i = j + 1
            prev = c
            continue
        if (
            c == "/"
            and code.startswith("//", i)
            or (php and c == "#" and not code.startswith("#[", i))
        ):
            j = code.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
            continue
        if code.startswith("/*", i):
            j = code.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out[i:j] = [ch if ch == "\n" else " " for ch in code[i:j]]
            i = j
            continue
        if c == "/" and not php and (prev == "" or prev in "(,=:[!&|?{};+-*%<>~^"):
            j = i + 1
            klass = False
            while j < n and code[j] != "\n" and (code[j] != "/" or klass):
                if code[j] == "\\":
                    j += 1
                elif code[j] == "[":
                    klass = True
                elif code[j] == "]":
                    klass = False
                j += 1
            strings.append((i, min(j + 1, n)))
            i = j + 1
            prev = "/"
            continue
        if not c.isspace():
            prev = c
        i += 1
    return "".join(out), strings


def _in(spans: list[tuple[int, int]], at: int) -> bool:
    """``at`` lies in one of ``spans`` (in order, apart: a binary search)."""
    from bisect import bisect_right

    k = bisect_right(spans, (at, 1 << 62)) - 1  # (the last one starting at or before it)
    return k >= 0 and spans[k][0] <= at < spans[k][1]


def reads(code: str, php: bool = False) -> tuple[list[str], list[list[Word]]]:
    """(shell code strings, argv lists) that ``code`` runs, from its literal-string calls
    and the names it gives a literal once (``const c = "…"; execSync(c)``). ``php``: PHP
    code (``#`` comments, ``$name`` variables), else JavaScript (node, deno, bun)."""
    code, strings = _code_spans(code, php)
    shell: list[str] = []
    argvs: list[list[Word]] = []
    known = _bound(code, strings, php)
    for m in _SHELL_CALL.finditer(code):
        if _in(strings, m.start()):
            continue  # (`console.log("execSync('rm -rf /')")`: text)
        argv = [_value(m, known, php)]
        more = _NEXT_ARG.match(code, m.end())
        while more is not None:
            argv.append(_value(more, known, php))
            more = _NEXT_ARG.match(code, more.end())
        if len(argv) > 1:  # a program and its arguments, no shell between
            argvs.append([Word.lit(a) for a in argv])
        else:
            shell.append(argv[0])
    if known:
        for m in _SHELL_CALL_NAME.finditer(code):
            name = m.group(1).lstrip("$") if php else m.group(1)
            if name in known and not _in(strings, m.start()):
                shell.append(known[name])
    if php:  # PHP's `…` runs its (interpolated) text in a shell; JS's is a template
        shell.extend(
            _PHP_INTERP.sub(lambda v: known.get(v.group(1) or v.group(2), v.group(0)), m.group(1))
            for m in _BACKTICK.finditer(code)
            if not _in(strings, m.start() + 1) or (m.start(), m.end()) in strings
        )
    for m in (*_RM_TREE.finditer(code), *_JS_FS_RM.finditer(code)):
        if not _in(strings, m.start()):
            argvs.append([Word.lit("rm"), Word.lit("-rf"), Word.lit(_value(m, known, php))])
    for m in _RM_FILE.finditer(code):
        if not _in(strings, m.start()):
            argvs.append([Word.lit("rm"), Word.lit("-f"), Word.lit(_value(m, known, php))])
    if known:  # the same deletes of a name given a literal
        named = (
            *((m, "-rf") for m in _RM_TREE_NAME.finditer(code)),
            *((m, "-rf") for m in _JS_FS_RM_NAME.finditer(code)),
            *((m, "-f") for m in _RM_FILE_NAME.finditer(code)),
        )
        for m, flag in named:
            name = m.group(1).lstrip("$") if php else m.group(1)
            if name in known and not _in(strings, m.start()):
                argvs.append([Word.lit("rm"), Word.lit(flag), Word.lit(known[name])])
    return shell, argvs


def _bound(code: str, strings: list[tuple[int, int]], php: bool) -> dict[str, str]:
    """The names ``code`` gives a literal exactly once (and no other value): their text."""
    if "=" not in code:
        return {}
    counts: dict[str, int] = {}
    for m in (_PHP_SETS if php else _JS_SETS).finditer(code):
        if not _in(strings, m.start()):
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    out: dict[str, str] = {}
    for m in (_PHP_ASSIGN if php else _JS_ASSIGN).finditer(code):
        name = m.group(1)
        if counts.get(name) == 1 and not _in(strings, m.start()):
            out[name] = _value_of_groups(m)
    from hookrun.hooks.shell_guard.inline_args import MAX_BOUND_CHARS, MAX_BOUND_USES

    # (each use copies the value: bounded, as for perl and ruby — else unknown, as before)
    if any(len(v) > MAX_BOUND_CHARS for v in out.values()):
        return {}
    if sum(code.count(name) for name in out) > MAX_BOUND_USES:
        return {}
    return out


def _value_of_groups(m: re.Match[str]) -> str:
    value = next(g for g in m.groups()[1:] if g is not None)
    return value.replace("\\'", "'").replace('\\"', '"').replace("\\\\", "\\")
