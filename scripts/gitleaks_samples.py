"""Extract gitleaks' per-rule true- and false-positive samples into JSON.

gitleaks (MIT) builds its rules in Go (``cmd/generate/config/rules/*.go``); each
rule function lists the samples it must flag (``tps``) and must not flag
(``fps``), many of them generated at run time from a regex
(``secrets.NewSecret(utils.AlphaNumeric("36"))``) and spread over gitleaks'
sample templates (``utils.GenerateSampleSecrets``). Go 1.24 is not installable
here, so this script evaluates the small subset of Go those functions use —
string literals, ``+``, ``fmt.Sprintf``, ``append``, composite literals,
``range`` loops, base64 — with the random parts drawn from a seeded generator
(``rstr``), and writes the result once. The tests read the vendored JSON; they
never run this script.

Usage::

    python scripts/gitleaks_samples.py GIT_DIR COMMIT OUT_DIR

writes ``OUT_DIR/samples.json`` and ``OUT_DIR/LICENSE`` (gitleaks' own).
A statement the evaluator cannot run is recorded per rule under ``skipped``.
"""

from __future__ import annotations

import base64
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rstr

try:
    from re import _constants as sre_constants  # type: ignore[attr-defined]
except ImportError:  # Python 3.10
    import sre_constants

RULES_DIR = "cmd/generate/config/rules"


class Unsupported(Exception):
    pass


# ------------------------------------------------------------------ lexer

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r]+)
  | (?P<nl>\n)
  | (?P<lc>//[^\n]*)
  | (?P<bc>/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<rune>'(?:[^'\\\n]|\\.)+')
  | (?P<num>\d+(?:\.\d+)?)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\.\.\.|:=|==|!=|<=|>=|&&|\|\||\+=|\+\+|--|[-+*/%&|!<>=(){}\[\],;:.^#])
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass
class Tok:
    kind: str  # id, str, num, op, rune, ;
    text: str
    value: Any = None


def _unquote(lit: str) -> str:
    body = lit[1:-1]
    return bytes(body, "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def lex(src: str) -> list[Tok]:
    toks: list[Tok] = []
    pos = 0
    for m in _TOKEN.finditer(src):
        if m.start() != pos:
            raise SyntaxError(f"lex error at {pos}: {src[pos : pos + 20]!r}")
        pos = m.end()
        kind = m.lastgroup
        text = m.group()
        if kind in ("ws", "lc"):
            continue
        if kind in ("nl", "bc") and ("\n" in text or kind == "nl"):
            last = toks[-1] if toks else None
            if last is not None and (
                last.kind in ("id", "str", "num", "rune")
                or last.text in (")", "]", "}", "++", "--")
            ):
                toks.append(Tok(";", ";"))
            continue
        if kind == "bc":
            continue
        if kind == "raw":
            toks.append(Tok("str", text, text[1:-1].replace("\r", "")))
        elif kind == "str":
            toks.append(Tok("str", text, _unquote(text)))
        elif kind == "rune":
            toks.append(Tok("rune", text, _unquote(text)))
        elif kind == "num":
            toks.append(Tok("num", text, int(float(text))))
        elif kind == "id":
            toks.append(Tok("id", text))
        else:
            toks.append(Tok("op", text))
    if pos != len(src):
        raise SyntaxError(f"lex error at {pos}")
    toks.append(Tok(";", ";"))
    toks.append(Tok("eof", ""))
    return toks


# ------------------------------------------------------------------ values


class Opaque:
    """A value the evaluator does not model (a regexp, a config.Allowlist…)."""

    def __init__(self, what: str) -> None:
        self.what = what


@dataclass
class Func:
    name: str
    params: list[str]
    body: tuple[int, int]  # token range of the block contents
    toks: list[Tok]  # the tokens of the file it is written in
    file: str = ""


@dataclass
class Capture:
    rule: dict[str, Any]
    tps: list[str]
    fps: list[str]


class Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class Break(Exception):
    pass


# ------------------------------------------------------------------ evaluator

_SAMPLE_TEMPLATES: list[str] = []


def _templates(src: str) -> list[str]:
    """The ``samples`` map of utils.GenerateSampleSecrets, in source order."""
    start = src.index("samples := map[string]string{")
    end = src.index("\n\t}\n", start)
    out = []
    for line in src[start:end].splitlines()[1:]:
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        toks = [t for t in lex(line) if t.kind == "str"]
        if len(toks) == 2:
            out.append(toks[1].value)
    return out


@dataclass
class Interp:
    toks: list[Tok]
    rng: random.Random
    globals: dict[str, Any] = field(default_factory=dict)
    funcs: dict[str, Func] = field(default_factory=dict)
    captures: list[Capture] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    pos: int = 0

    # -- token helpers
    def peek(self, off: int = 0) -> Tok:
        return self.toks[self.pos + off]

    def next(self) -> Tok:
        t = self.toks[self.pos]
        self.pos += 1
        return t

    def accept(self, text: str) -> bool:
        if self.peek().text == text and self.peek().kind in ("op", "id", ";"):
            self.pos += 1
            return True
        return False

    def expect(self, text: str) -> Tok:
        t = self.next()
        if t.text != text:
            raise Unsupported(f"expected {text!r}, got {t.text!r}")
        return t

    def skip_balanced(self) -> None:
        """Skip one bracketed group starting at the current ( [ or {."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        depth = 0
        while True:
            t = self.next()
            if t.kind == "op" and t.text in pairs:
                depth += 1
            elif t.kind == "op" and t.text in pairs.values():
                depth -= 1
                if depth == 0:
                    return
            elif t.kind == "eof":
                raise Unsupported("unbalanced")

    def skip_statement(self) -> None:
        while True:
            t = self.peek()
            if t.kind == "eof":
                return
            if t.text in ("(", "[", "{") and t.kind == "op":
                self.skip_balanced()
                continue
            if t.text == "}" and t.kind == "op":
                return
            self.pos += 1
            if t.kind == ";":
                return

    # -- top level
    def load_file(self) -> None:
        while self.peek().kind != "eof":
            t = self.peek()
            if t.text == "package":
                self.skip_statement()
            elif t.text == "import":
                self.next()
                if self.peek().text == "(":
                    self.skip_balanced()
                self.skip_statement()
            elif t.text == "func":
                self.next()
                name = self.next().text
                params: list[str] = []
                self.expect("(")
                while not self.accept(")"):
                    tok = self.next()
                    if tok.kind == "id" and self.peek().kind == "id":
                        params.append(tok.text)
                while self.peek().text != "{":
                    self.next()
                start = self.pos + 1
                self.skip_balanced()
                self.funcs[name] = Func(name, params, (start, self.pos - 1), self.toks)
            elif t.text == "var":
                self.run_statement(self.globals)
            elif t.kind == ";":
                self.next()
            else:
                raise Unsupported(f"top level {t.text!r}")

    def call_func(self, fn: Func, args: list[Any]) -> Any:
        scope = dict(zip(fn.params, args, strict=False))
        saved = self.pos, self.toks
        self.pos, self.toks = fn.body[0], fn.toks
        try:
            self.run_block(scope, fn.body[1])
        except Return as r:
            return r.value
        finally:
            self.pos, self.toks = saved
        return None

    # -- statements
    def run_block(self, scope: dict[str, Any], end: int) -> None:
        while self.pos < end:
            start = self.pos
            try:
                self.run_statement(scope)
            except (Unsupported, KeyError, TypeError, ValueError, IndexError, re.error) as exc:
                self.pos = start
                self.skip_statement()
                text = " ".join(t.text for t in self.toks[start : self.pos])[:160]
                self.skipped.append(f"{exc}: {text}")

    def lookup(self, scope: dict[str, Any], name: str) -> Any:
        if name in scope:
            return scope[name]
        if name in self.globals:
            return self.globals[name]
        if name in self.funcs:
            return self.funcs[name]
        if name in ("true", "false"):
            return name == "true"
        if name == "nil":
            return None
        raise Unsupported(f"unknown name {name}")

    def run_statement(self, scope: dict[str, Any]) -> None:
        t = self.peek()
        if t.kind == ";":
            self.next()
            return
        if t.text == "var":
            self.next()
            if self.accept("("):
                while not self.accept(")"):
                    if self.accept(";"):
                        continue
                    self.var_spec(scope)
            else:
                self.var_spec(scope)
            self.accept(";")
            return
        if t.text == "return":
            self.next()
            value = None if self.peek().kind == ";" else self.expr(scope)
            raise Return(value)
        if t.text == "for":
            self.for_stmt(scope)
            return
        if t.text in ("if", "switch", "break", "continue", "defer", "go"):
            raise Unsupported(f"statement {t.text}")
        # assignment or expression
        names: list[str] = []
        mark = self.pos
        while self.peek().kind == "id" and self.peek(1).text in (",", ":=", "=", "+="):
            names.append(self.next().text)
            if self.accept(","):
                continue
            break
        op = self.peek().text
        if names and op in (":=", "=", "+="):
            self.next()
            values = [self.expr(scope)]
            while self.accept(","):
                values.append(self.expr(scope))
            if len(values) != len(names):
                raise Unsupported("multi-value assignment")
            for name, value in zip(names, values, strict=True):
                if name == "_":
                    continue
                if op == "+=":
                    value = self.lookup(scope, name) + value
                target = scope if (op == ":=" or name in scope) else self.globals
                target[name] = value
        else:
            self.pos = mark
            self.expr(scope)
        if self.peek().text != "}":
            self.expect(";")

    def var_spec(self, scope: dict[str, Any]) -> None:
        names = [self.next().text]
        while self.accept(","):
            names.append(self.next().text)
        if self.peek().text != "=":
            self.type_expr()
        if self.accept("="):
            values = [self.expr(scope)]
            while self.accept(","):
                values.append(self.expr(scope))
        else:
            values = [[] for _ in names]
        for name, value in zip(names, values, strict=True):
            scope[name] = value
        self.accept(";")

    def for_stmt(self, scope: dict[str, Any]) -> None:
        self.expect("for")
        names = []
        while self.peek().kind == "id":
            names.append(self.next().text)
            if not self.accept(","):
                break
        if not (names and self.accept(":=") and self.accept("range")):
            raise Unsupported("for loop other than range")
        seq = self.expr(scope, composite=False)
        self.expect("{")
        start = self.pos
        self.pos -= 1
        self.skip_balanced()
        end = self.pos - 1
        after = self.pos
        items = list(seq.items()) if isinstance(seq, dict) else list(enumerate(seq))
        for key, value in items:
            inner = dict(scope)
            for name, v in zip(names, (key, value), strict=False):
                inner[name] = v
            self.pos = start
            self.run_block(inner, end)
            for k in scope:
                scope[k] = inner[k]
        self.pos = after
        self.accept(";")

    # -- types (skipped, but their shape matters for composite literals)
    def type_expr(self) -> str:
        t = self.next()
        if t.text == "[":
            self.expect("]")
            return "[]" + self.type_expr()
        if t.text == "map":
            self.expect("[")
            k = self.type_expr()
            self.expect("]")
            return f"map[{k}]{self.type_expr()}"
        if t.text == "*":
            return "*" + self.type_expr()
        name = t.text
        while self.accept("."):
            name += "." + self.next().text
        return name

    # -- expressions
    def expr(self, scope: dict[str, Any], composite: bool = True) -> Any:
        left = self.unary(scope, composite)
        while self.peek().kind == "op" and self.peek().text in ("+", "==", "!=", "&&", "||"):
            op = self.next().text
            right = self.unary(scope, composite)
            if op == "+":
                if isinstance(left, Opaque) or isinstance(right, Opaque):
                    raise Unsupported("opaque operand")
                left = left + right
            else:
                left = Opaque(op)
        return left

    def unary(self, scope: dict[str, Any], composite: bool) -> Any:
        if self.accept("&"):
            return self.unary(scope, composite)
        if self.accept("!"):
            self.unary(scope, composite)
            return Opaque("!")
        return self.postfix(scope, composite)

    def composite_body(self, scope: dict[str, Any], typ: str) -> Any:
        self.expect("{")
        keyed: dict[Any, Any] = {}
        items: list[Any] = []
        while not self.accept("}"):
            if self.accept(";") or self.accept(","):
                continue
            if self.peek().text == "{":
                value = self.composite_body(scope, typ.split("]", 1)[-1])
            else:
                value = self.expr(scope)
            if self.accept(":"):
                key = value.text if isinstance(value, _Name) else value
                if self.peek().text == "{":
                    inner = typ.split("]", 1)[-1] if typ.startswith("map[") else typ
                    value = self.composite_body(scope, inner)
                else:
                    value = self.expr(scope)
                keyed[key] = value
            else:
                items.append(value)
        if typ.startswith("map[") or (keyed and not items):
            return keyed
        return items

    def postfix(self, scope: dict[str, Any], composite: bool) -> Any:
        t = self.peek()
        value: Any
        if t.kind == "str" or t.kind == "rune" or t.kind == "num":
            self.next()
            value = t.value
        elif t.text == "(":
            self.next()
            value = self.expr(scope)
            self.expect(")")
        elif t.text in ("[", "map"):
            typ = self.type_expr()
            if self.peek().text == "(":  # conversion: []byte(x)
                self.next()
                value = self.expr(scope)
                self.expect(")")
                value = value.encode() if typ == "[]byte" and isinstance(value, str) else value
            else:
                value = self.composite_body(scope, typ)
        elif t.kind == "id":
            self.next()
            name = t.text
            while self.peek().text == "." and self.peek(1).kind == "id":
                self.next()
                name += "." + self.next().text
            if self.peek().text == "(":
                args = self.call_args(scope)
                value = self.call(scope, name, args)
            elif (
                composite
                and self.peek().text == "{"
                and name[:1].isupper()
                or "." in name
                and (composite and self.peek().text == "{")
            ):
                value = self.composite_body(scope, name)
                if name == "config.Rule":
                    value = dict(value) if isinstance(value, dict) else {}
            else:
                try:
                    value = self.lookup(scope, name)
                except Unsupported:
                    value = _Name(name)
        else:
            raise Unsupported(f"expression at {t.text!r}")
        while True:
            if self.peek().text == "[":
                self.next()
                index = self.expr(scope)
                self.expect("]")
                value = value[index]
            elif self.peek().text == "(":
                args = self.call_args(scope)
                value = self.call(scope, value, args)
            else:
                return value

    def call_args(self, scope: dict[str, Any]) -> list[Any]:
        self.expect("(")
        args: list[Any] = []
        while not self.accept(")"):
            if self.accept(",") or self.accept(";"):
                continue
            arg = self.expr(scope)
            if self.accept("..."):
                arg = _Spread(arg)
            args.append(arg)
        return args

    def call(self, scope: dict[str, Any], fn: Any, args: list[Any]) -> Any:
        flat: list[Any] = []
        for a in args:
            if isinstance(a, _Spread):
                flat.extend(a.value)
            else:
                flat.append(a)
        if isinstance(fn, Func):
            return self.call_func(fn, flat)
        name = fn.text if isinstance(fn, _Name) else fn
        if not isinstance(name, str):
            raise Unsupported("call of a value")
        impl = BUILTINS.get(name)
        if impl is not None:
            for a in flat:
                if isinstance(a, (_Name, Opaque)) and name not in _OPAQUE_OK:
                    raise Unsupported(f"{name} of an unknown value")
            return impl(self, flat)
        if name in self.funcs:
            return self.call_func(self.funcs[name], flat)
        return Opaque(name)

    def secret(self, pattern: str) -> str:
        return _Reggen(self.rng).xeger(pattern.replace("(?-i:", "(?:"))


class _Reggen(rstr.Rstr):
    """rstr's generator with gitleaks' reggen limit: an open repeat adds at most one."""

    def _handle_repeat(self, start_range: int, end_range: int, value: str) -> str:
        if end_range >= sre_constants.MAXREPEAT:
            end_range = start_range + 1
        times = self._random.randint(start_range, end_range)
        return "".join("".join(self._handle_state(s) for s in value) for _ in range(times))


@dataclass
class _Name:
    text: str


@dataclass
class _Spread:
    value: Any


def _sprintf(fmt: str, *args: Any) -> str:
    out = []
    it = iter(args)
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and i + 1 < len(fmt):
            verb = fmt[i + 1]
            i += 2
            if verb == "%":
                out.append("%")
            elif verb in "sdv":
                out.append(str(next(it)))
            elif verb == "q":
                out.append(json.dumps(next(it)))
            else:
                raise Unsupported(f"printf verb %{verb}")
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _samples(identifier: str, secret: str) -> list[str]:
    return [
        t.replace("{i}", identifier).replace("{I}", identifier.upper()).replace("{s}", secret)
        for t in _SAMPLE_TEMPLATES
    ]


def _capture(interp: Interp, args: list[Any]) -> Any:
    rule, tps, fps = (args + [None, None, None])[:3]
    if isinstance(tps, dict):
        tps = list(tps.values())
    if isinstance(fps, dict):
        fps = list(fps.values())
    if not isinstance(tps, list):
        interp.skipped.append(f"true samples not evaluated ({tps})")
        tps = []
    if not isinstance(fps, list):
        if fps is not None:
            interp.skipped.append(f"false samples not evaluated ({fps})")
        fps = []
    interp.captures.append(Capture(rule if isinstance(rule, dict) else {}, tps, fps))
    return rule


def _b64(fn: Callable[[bytes], bytes]) -> Callable[[Interp, list[Any]], str]:
    def run(_: Interp, args: list[Any]) -> str:
        data = args[0].encode() if isinstance(args[0], str) else args[0]
        return fn(data).decode()

    return run


def _raw(fn: Callable[[bytes], bytes]) -> Callable[[bytes], bytes]:
    return lambda b: fn(b).rstrip(b"=")


_OPERATOR = r"(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)"
_SECRET_PREFIX = r"[\x60'\"\s=]{0,5}("
_SECRET_SUFFIX = r")(?:[\x60'\"\s;]|\\[nr]|$)"


def _semi_generic(_: Interp, a: list[Any]) -> str:
    identifiers, secret, insensitive = a
    ids = "[\\w.-]{0,50}?(?:" + "|".join(identifiers) + r")(?:[ \t\w.-]{0,20})[\s'\"]{0,3}"
    head = "(?i)" + ids if insensitive else "[\\w.-]{0,50}?(?i:" + ids + ")"
    return head + _OPERATOR + _SECRET_PREFIX + secret + _SECRET_SUFFIX


def _unique(_: Interp, a: list[Any]) -> str:
    secret, insensitive = a
    return ("(?i)" if insensitive else "") + r"\b(" + secret + _SECRET_SUFFIX


BUILTINS: dict[str, Callable[[Interp, list[Any]], Any]] = {
    "regexp.MustCompile": lambda i, a: a[0],
    "utils.GenerateSemiGenericRegex": _semi_generic,
    "utils.GenerateUniqueTokenRegex": _unique,
    "utils.MergeRegexps": lambda i, a: "|".join(a),
    "utils.GenerateSampleSecrets": lambda i, a: _samples(a[0], a[1]),
    "utils.GenerateSampleSecret": lambda i, a: f'{a[0]}_api_token = "{a[1]}"',
    "secrets.NewSecret": lambda i, a: i.secret(a[0]),
    "utils.Numeric": lambda i, a: f"[0-9]{{{a[0]}}}",
    "utils.Hex": lambda i, a: f"[a-f0-9]{{{a[0]}}}",
    "utils.AlphaNumeric": lambda i, a: f"[a-z0-9]{{{a[0]}}}",
    "utils.AlphaNumericExtendedShort": lambda i, a: f"[a-z0-9_-]{{{a[0]}}}",
    "utils.AlphaNumericExtended": lambda i, a: f"[a-z0-9=_\\-]{{{a[0]}}}",
    "utils.AlphaNumericExtendedLong": lambda i, a: f"[a-z0-9\\/=_\\+\\-]{{{a[0]}}}",
    "utils.Hex8_4_4_4_12": lambda i, a: (
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    ),
    "fmt.Sprintf": lambda i, a: _sprintf(*a),
    "strings.Repeat": lambda i, a: a[0] * a[1],
    "strings.ToUpper": lambda i, a: a[0].upper(),
    "strings.ToLower": lambda i, a: a[0].lower(),
    "string": lambda i, a: a[0].decode() if isinstance(a[0], bytes) else str(a[0]),
    "append": lambda i, a: list(a[0] or []) + list(a[1:]),
    "len": lambda i, a: len(a[0]),
    "utils.Validate": _capture,
    "utils.ValidateWithPaths": _capture,
    "base64.StdEncoding.EncodeToString": _b64(base64.b64encode),
    "b64.StdEncoding.EncodeToString": _b64(base64.b64encode),
    "b64.RawStdEncoding.EncodeToString": _b64(_raw(base64.b64encode)),
    "b64.URLEncoding.EncodeToString": _b64(base64.urlsafe_b64encode),
    "b64.RawURLEncoding.EncodeToString": _b64(_raw(base64.urlsafe_b64encode)),
    "base64.RawURLEncoding.EncodeToString": _b64(_raw(base64.urlsafe_b64encode)),
}
_OPAQUE_OK = {"utils.Validate", "utils.ValidateWithPaths", "append"}


def _rule_fields(rule: dict[Any, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in rule.items():
        key = k.text if isinstance(k, _Name) else str(k)
        if key in ("RuleID", "Description", "Regex") and isinstance(v, str):
            out[key] = v
    return out


def extract(git_dir: str, commit: str, seed: int = 12) -> dict[str, Any]:
    def show(path: str) -> str:
        return subprocess.run(
            ["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    _SAMPLE_TEMPLATES[:] = _templates(show("cmd/generate/config/utils/generate.go"))
    names = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "--name-only", commit, RULES_DIR + "/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    files = [n for n in names if n.endswith(".go") and not n.endswith("_test.go")]
    # Pass 1: every file's functions and package variables (shared across files).
    interp = Interp([], random.Random(seed))
    for f in files:
        interp.toks = lex(show(f))
        interp.pos = 0
        interp.load_file()
        for fn in interp.funcs.values():
            fn.file = fn.file or f
    rules: dict[str, Any] = {}
    # Pass 2: run each rule function (one that names a RuleID), in file order.
    for name, fn in sorted(interp.funcs.items(), key=lambda kv: (id(kv[1].toks), kv[1].body)):
        if not any(t.text == "RuleID" for t in fn.toks[fn.body[0] : fn.body[1]]):
            continue
        interp.captures = []
        interp.skipped = []
        try:
            interp.call_func(fn, [])
        except (Unsupported, KeyError, TypeError, ValueError, IndexError) as exc:
            interp.skipped.append(f"{name}: {exc}")
        for cap in interp.captures:
            info = _rule_fields(cap.rule)
            rule_id = info.get("RuleID", name)
            rules[rule_id] = {
                "file": fn.file,
                "function": name,
                "regex": info.get("Regex"),
                "tps": [s for s in cap.tps if isinstance(s, str)],
                "fps": [s for s in cap.fps if isinstance(s, str)],
                "skipped": list(interp.skipped),
            }
        if not interp.captures:
            rules[f"?{name}"] = {
                "function": name,
                "tps": [],
                "fps": [],
                "skipped": list(interp.skipped),
            }
    return {
        "source": "https://github.com/gitleaks/gitleaks",
        "commit": commit,
        "path": RULES_DIR,
        "licence": "MIT (LICENSE beside this file)",
        "generated_by": "scripts/gitleaks_samples.py (random parts seeded: "
        f"random.Random({seed}) through rstr)",
        "rules": dict(sorted(rules.items())),
    }


def main(argv: list[str]) -> int:
    git_dir, commit, out_dir = argv
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    data = extract(git_dir, commit)
    (out / "samples.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    licence = subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{commit}:LICENSE"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    (out / "LICENSE").write_text(licence)
    total_t = sum(len(r["tps"]) for r in data["rules"].values())
    total_f = sum(len(r["fps"]) for r in data["rules"].values())
    skipped = sum(1 for r in data["rules"].values() if r["skipped"])
    print(
        f"{len(data['rules'])} rules, {total_t} true samples, {total_f} false samples, "
        f"{skipped} rules with skipped statements"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
