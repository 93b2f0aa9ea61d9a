"""Command line → :class:`Script`: the shared shell front end, the fallback tokenizer if it fails.

The walk flattens lists, pipelines, subshells, compound commands, function
bodies and command/process substitutions into one ordered tuple of simple
commands, keeping for each what a rule needs: its words (evaluated from the
tree's word parts by :mod:`treewords`), redirects, here-document bodies, the
``cd`` steps before it, and which pipeline stage feeds it. A line the front end
refuses is judged by :mod:`fallback`. Results are cached per string: agents
repeat commands.
"""

from __future__ import annotations

from functools import lru_cache

from hookrun.hooks.shell_guard.model import (
    CD_HEADS,
    Command,
    Part,
    Redirect,
    Script,
    Stdin,
    Var,
    Word,
    cd_target,
    mark_may_fail,
    may_fail,
)
from hookrun.hooks.shell_guard.treewords import static_text, values_of
from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING
from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse
from hookrun.shellsyntax.nodes import ArithExp, Assign, CallExpr, CmdSubst, Lit
from hookrun.shellsyntax.nodes import Word as NodeWord
from hookrun.shellsyntax.walk import literal

if TYPE_CHECKING:
    from typing import Any

# Substitutions inside substitutions inside …: past this depth the line is an
# evasion attempt, and the policy says so instead of recursing further.
MAX_DEPTH = 12


_BLANKS = frozenset(" \t\n")


class TooDeep(Exception):
    """Substitutions or shells nested past :data:`MAX_DEPTH`: refuse to judge."""


@lru_cache(maxsize=2048)
def parse_script(text: str, depth: int = 0) -> Script:
    """Every simple command of ``text`` (cached; the Script is immutable)."""
    if depth > MAX_DEPTH:
        raise TooDeep(text)
    try:
        return parse_with_tree(text, depth)
    except TooDeep:
        raise
    except (ShellSyntaxError, Unsupported, UnicodeDecodeError):
        joined = _without_final_continuation(text)
        if joined is not None:  # `git push --force origin main \⏎` at the end: bash drops it
            return parse_script(joined, depth)
        # (a UnicodeDecodeError: the tree's offsets cut a character — seen for non-ASCII
        # text in backquotes, "`\x80𐀀`" — so its words cannot be trusted either)
        from hookrun.hooks.shell_guard import fallback  # (only for what the front end refuses)

        return fallback.parse(text, depth)


_SETTERS = frozenset({"read", "mapfile", "readarray", "printf"})  # (Walker.read)
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-")


def _element(word: Word) -> str:
    """An array element as the command line it stands in (`a=(perl -e 'system("…")')`):
    its text, quoted when it holds more than plain characters; a word only bash fills
    (`~`, `$x`) as written."""
    if not word.static:
        return word.raw
    text = word.text
    if text and _PLAIN.issuperset(text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def _without_final_continuation(text: str) -> str | None:
    """``text`` without the backslash-newlines that end it (bash reads them as nothing:
    a line continued into the end of the text), or None when it has none."""
    end = len(text)
    while text.endswith("\\\n", 0, end):
        slashes = end - 1 - len(text[: end - 1].rstrip("\\"))
        if slashes % 2 == 0:  # `\\⏎`: an escaped backslash, then a newline
            break
        end -= 2
    return text[:end] if end < len(text) else None


def parse_with_tree(text: str, depth: int) -> Script:
    """The shared front end's tree of ``text``, flattened into simple commands.

    Raises :class:`ShellSyntaxError` / :class:`Unsupported` as
    :func:`hookrun.shellsyntax.parse` does.
    """
    tree = parse(text)
    walker = _Walker(tree.source, depth)
    walker.stmts(tree.stmts, [])
    for name, elements in walker.elements.items():  # `a[0]=-rf; a[1]=/`: the array's value
        walker.values.append((name, " ".join(elements)))
    for index, then in walker.traps:
        walker.trap_values(index, then)
    return Script(
        tuple(walker.commands),
        True,
        tuple(walker.fork_bombs),
        tuple(walker.values),
        tuple(walker.functions),
    )


def with_variables(words: list[Word], variables: dict[str, str], ifs: str = "") -> list[Word]:
    """``c=rm; $c -rf /``: plain assignments made earlier on the line fill their ``$c``
    (``ifs``: more characters that may split a value, IFS values no longer known)."""
    if not variables:
        return words
    # (a value with blanks is left unknown: `c='rm -rf /'; $c` splits it into a command,
    # and indirect.py judges the value itself)
    blanks = _BLANKS.union(variables.get("IFS", ""), ifs)
    variables = {k: v for k, v in variables.items() if not blanks.intersection(v)}
    return [
        Word(
            tuple(variables.get(p.name, p) if isinstance(p, Var) else p for p in w.parts),
            w.raw,
            w.downloaded,
        )
        if "${!" not in w.raw
        else _indirect(w, variables)
        for w in words
    ]


def _indirect(word: Word, variables: dict[str, str]) -> Word:
    """``n=a; ${!n}``: the parameter ``a`` itself (its value when the line knows it)."""
    name = word.raw.strip('"')[3:-1]
    target = variables.get(name)
    if len(word.parts) != 1 or not name.isidentifier() or target is None:
        return word
    if target in variables:
        return Word((variables[target],), word.raw, word.downloaded)
    return Word((Var(target),), word.raw, word.downloaded) if target.isidentifier() else word


def _leak(cd: list[Word], moves: list[Word]) -> None:
    """A compound command runs in this shell: the ``cd``s of the branches or loop
    bodies that may have run move what follows it, or not (``if …; then cd ~; fi; rm
    -rf build``)."""
    if moves:
        cd.extend(may_fail(w) for w in moves)


def _guarded(stmt: Any) -> bool:
    """``… || exit 1`` (or ``return``): the statements after it run only where it worked."""
    node = stmt.cmd
    return type(node).__name__ == "BinaryCmd" and node.op == "||" and _ends_shell(node.right)


def _ends_shell(stmt: Any) -> bool:
    """``exit``/``return``, alone or last in a ``{ …; }`` group (``{ echo no; exit 1; }``)."""
    node = stmt.cmd
    kind = type(node).__name__
    if kind == "Block":
        return bool(node.stmts) and _ends_shell(node.stmts[-1])
    if kind != "CallExpr" or not node.args:
        return False
    parts = node.args[0].parts
    return len(parts) == 1 and type(parts[0]) is Lit and parts[0].text in ("exit", "return")


def words_of(
    raw: str,
    depth: int,
    sink: list[Command],
    cd: list[Word],
    variables: dict[str, str] | None = None,
) -> list[Word]:
    """The words of ``raw`` as command arguments, read from the front end's tree of it.

    For a word of a line the front end refused (:mod:`fallback`) and for text that is
    split like shell words (a git alias). Commands in substitutions go to ``sink``.
    Text the front end refuses on its own too (``'unterminated``) is one word, its
    text without quote characters: conservative, a name in it still reaches the rules.
    """
    try:
        tree = parse(": " + raw)  # an argument: no keyword, no assignment
    except (ShellSyntaxError, Unsupported, UnicodeDecodeError):
        return _unread_word(raw, depth, sink)
    walker = _Walker(tree.source, depth)
    walker.variables = dict(variables or {})
    words: list[Word] = []
    try:
        for stmt in tree.stmts:
            if isinstance(stmt.cmd, CallExpr):
                for arg in stmt.cmd.args[1:]:
                    if isinstance(arg, NodeWord):
                        words.extend(walker.words(arg, list(cd)))
    except (ShellSyntaxError, Unsupported, UnicodeDecodeError):
        # (the walk refuses what the parse let through: a here-document in a
        # substitution whose end line never comes, "` << rm `")
        return _unread_word(raw, depth, sink)
    base = len(sink)
    for cmd in walker.commands:
        sink.append(cmd.piped_from(cmd.pipe_from + base if cmd.pipe_from >= 0 else -1))
    return words


def _unread_word(raw: str, depth: int, sink: list[Command]) -> list[Word]:
    """A word the front end refuses on its own: one word, its text without quote
    characters; the substitutions in it still run (``$({rm,} -rf /)``,
    ``$({fd}>f git clean -fdx)``): their code is judged as lines of their own."""
    if "$(" in raw or "`" in raw:
        from hookrun.hooks.shell_guard import fallback

        for span in fallback.substitutions(raw):
            inner = span[2:-1] if span.startswith("$(") else span[1:-1]
            if not inner.strip() or inner == raw:
                continue
            base = len(sink)
            for cmd in parse_script(inner, depth + 1).commands:
                moved = cmd.pipe_from + base if cmd.pipe_from >= 0 else -1
                sink.append(cmd.piped_from(moved))
    return [Word.lit(raw.replace("'", "").replace('"', ""))]


def _read_key(key: Any) -> None:
    """A subscript the front end left as text holding ``$(`` (``a=([$(a=([3]=rm); …)]=1)``:
    it cut the substitution at its inner ``]``): refused, so the fallback reads the line."""
    for part in key.parts:
        if type(part) is Lit and ("$(" in part.text or "`" in part.text):
            raise Unsupported("a subscript the front end did not read")


class _Walker:
    """The shared front end's tree (hookrun.shellsyntax) flattened into simple commands.

    Word values come from the typed word parts (:mod:`treewords`); the commands in
    substitutions are walked where they stand (they run before the command).
    """

    def __init__(self, source: bytes, depth: int) -> None:
        self.source = source
        self.depth = depth
        self.commands: list[Command] = []
        self.fork_bombs: list[str] = []
        self.variables: dict[str, str] = {}
        # A name a compound set on some paths only, each to a literal: the few values it
        # may hold (a command using it is judged once with each: `_variants`).
        self.choices: dict[str, tuple[str, ...]] = {}
        self.sets: list[tuple[str, str | None]] = []  # each `name=…` walked: literal or None
        self.values: list[tuple[str, str]] = []  # Script.values
        self.elements: dict[str, list[str]] = {}  # `a[k]=v` static values, in line order
        self.functions: list[tuple[str, int, int]] = []  # Script.functions
        self.appended: list[str] = []  # the names `NAME+=…` appends to, in line order
        self.traps: list[tuple[int, dict[str, str]]] = []  # a trap's command, values then

    def trap_values(self, index: int, then: dict[str, str]) -> None:
        """``tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT``: the action runs later, with
        the values of then; a value the line set before the trap and never changed after
        is that value, so the action is judged with it set first."""
        cmd = self.commands[index]
        argv = list(cmd.argv)
        k = 2 if len(argv) > 2 and argv[1].static and argv[1].text == "--" else 1
        if k >= len(argv) or not argv[k].static or argv[k].text.startswith("-"):
            return
        action = argv[k].text
        known = [
            (name, value)
            for name, value in then.items()
            if self.variables.get(name) == value and ("$" + name) in action.replace("{", "")
        ]
        if not known:
            return
        from shlex import quote

        sets = "".join(f"{name}={quote(value)}; " for name, value in known)
        argv[k] = Word((sets + action,), argv[k].raw)
        self.commands[index] = cmd.layer(tuple(argv), cmd.via)

    def src(self, node: Any) -> str:
        return self.source[node.pos : node.end].decode("utf-8", "surrogatepass")

    def words(self, node: Any, cd: list[Word], variables: bool = True) -> list[Word]:
        parts = node.parts  # (most words: one literal with nothing to expand; plain_text,
        if len(parts) == 1 and type(parts[0]) is Lit:  # unrolled: a call each costs ~1k)
            text = parts[0].text
            if "\\" not in text and "{" not in text and text[:1] != "~":
                return [Word((text,), text)]
        words = values_of(node, self.source, lambda part: self.subst(part, cd))
        if not variables or not self.variables:
            return words
        # (`IFS=,; if …; then IFS=' '; fi`: either may split a value)
        ifs = "" if "IFS" in self.variables else "".join(v for n, v in self.values if n == "IFS")
        return with_variables(words, self.variables, ifs)

    def subst(self, part: Any, cd: list[Word]) -> Part:
        """What a substitution stands for; the commands in it are walked (they run)."""
        if isinstance(part, ArithExp):
            self.arith(part.expr, cd)
            return Var("((", self.src(part.expr))
        if isinstance(part, CmdSubst):
            folded = self.folded(part.stmts)
            if folded is not None:
                return folded
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooDeep(self.src(part))
        saved = dict(self.variables)  # a substitution runs in a subshell
        saved_choices = dict(self.choices)
        before = len(self.commands)
        try:
            # Each inner command keeps the `cd`s before the substitution; pipes inside it
            # point at commands inside it (indexes in the same flat list).
            self.stmts(part.stmts, list(cd))
        finally:
            self.depth -= 1
            self.variables = saved
            self.choices = saved_choices
        if isinstance(part, CmdSubst) and _straight(part.stmts):
            # `$(echo cm0g… | base64 -d)`: a pipeline of known text through modelled
            # filters prints known text (its commands were walked above: they run too)
            from hookrun.hooks.shell_guard.engine import printed_output

            shown = printed_output(self.commands[before:], before, dict(self.values))
            if shown is not None:
                return shown.rstrip("\n")
        skip = 1 if isinstance(part, CmdSubst) and part.backquote else 2
        inner = self.source[part.pos + skip : part.end - 1].decode("utf-8", "surrogatepass")
        return Var("$(" if isinstance(part, CmdSubst) else "<(", inner)

    def folded(self, stmts: Any) -> Part | None:
        """``$(pwd)`` is the working directory; ``$(echo rm)`` / ``$(printf r)`` just text."""
        if len(stmts) != 1 or stmts[0].redirects or not isinstance(stmts[0].cmd, CallExpr):
            return None
        call = stmts[0].cmd
        values = [literal(a) if isinstance(a, NodeWord) else None for a in call.args]
        if call.assigns or not values:
            return None
        if any(v is None for v in values):
            return None
        head, *rest = [v for v in values if v is not None]
        if head == "pwd" and rest in ([], ["-L"], ["-P"]):
            return Var("PWD")
        if head in ("echo", "printf") and rest:
            from hookrun.hooks.shell_guard.printed import printed

            return printed(head, rest).rstrip("\n")
        if head == "mktemp":
            return _mktemp(rest)
        return None

    def stmts(self, stmts: Any, cd: list[Word]) -> None:
        last = len(stmts) - 1
        for k, stmt in enumerate(stmts):
            moved = len(cd)
            self.stmt(stmt, cd, None)
            # The next statement runs, cd or no cd (the last one's status is the list's:
            # what follows the list is the caller's to mark).
            if k < last and len(cd) > moved and not _guarded(stmt):
                mark_may_fail(cd, moved)

    def stmt(self, stmt: Any, cd: list[Word], pipe_from: int | None) -> None:
        simple = type(stmt.cmd) is CallExpr and not stmt.background
        if not self.variables and not self.choices:  # (nearly every line: nothing known)
            if simple:
                self.walk(stmt, cd, pipe_from)
                return
            mark = len(self.sets)
            self.walk(stmt, cd, pipe_from)
            if self.variables or self.choices:  # set inside: on some path only
                names = [*self.variables, *self.choices]  # (`if …; then d=/; fi`)
                self.after_compound(stmt, {}, {}, mark, names)
            return
        # A value stays known only while nothing may have changed it: a name the
        # statement may set (`export c=…`, `read c`, `for c in`, `${c:=…}`, `(( c=1 ))`)
        # is unknown from here; what a compound sets only on some path (a branch, a loop,
        # `&&`, a subshell, a pipeline, `&`) is unknown after it — or one of a few
        # literals, when each way it may be set there is a literal (`after_compound`).
        source = self.src(stmt)
        touched = [
            n for n in (*self.variables, *self.choices) if n in source and _may_set(n, source)
        ]
        before = dict(self.variables)
        before_choices = dict(self.choices)
        if not simple:  # (a loop's body, a later branch: a value it sets may be there)
            for name in touched:
                self.variables.pop(name, None)
                self.choices.pop(name, None)
        mark = len(self.sets)
        self.walk(stmt, cd, pipe_from)
        if simple:  # its words expand with the old values; then what it may set is
            # unknown, unless its own assignment (`c=rm`, `c+=m`) set it
            for name in touched:
                if name in self.variables and self.variables[name] == before.get(name):
                    del self.variables[name]
                if name in self.choices and self.choices[name] == before_choices.get(name):
                    del self.choices[name]
        else:
            changed = [n for n, v in self.variables.items() if before.get(n) != v]
            changed += [n for n, v in self.choices.items() if before_choices.get(n) != v]
            self.after_compound(stmt, before, before_choices, mark, [*touched, *changed])

    def after_compound(
        self,
        stmt: Any,
        before: dict[str, str],
        before_choices: dict[str, tuple[str, ...]],
        mark: int,
        names: list[str],
    ) -> None:
        """What ``names``, which the compound ``stmt`` may have set, hold after it: one
        of a few literals when every mention of the name there that may set it is a plain
        assignment of a literal (``self.sets[mark:]``) and the value before it is known
        too, or every path sets it (`if …; then d=a; else d=b; fi`); else unknown."""
        source = self.src(stmt)
        for name in dict.fromkeys(names):
            self.variables.pop(name, None)
            self.choices.pop(name, None)
            sets = [v for n, v in self.sets[mark:] if n == name]
            if not sets or None in sets or len(sets) != _set_count(name, source):
                continue
            prior: tuple[str, ...] | None = None
            if name in before:
                prior = (before[name],)
            elif name in before_choices:
                prior = before_choices[name]
            elif not _always_sets(stmt, name):
                continue  # (a path that sets nothing leaves the caller's value)
            values = tuple(dict.fromkeys((*(prior or ()), *(v for v in sets if v is not None))))
            if len(values) == 1:
                self.variables[name] = values[0]
            elif len(values) <= _MAX_CHOICES:
                self.choices[name] = values

    def variants(self, argv: list[Word]) -> list[list[Word]] | None:
        """``argv`` with each combination of the values its names of ``self.choices``
        may hold (None: it uses none, or too many combinations to judge each)."""
        names = [
            p.name
            for w in argv
            if not w.static
            for p in w.parts
            if isinstance(p, Var) and p.name in self.choices
        ]
        if not names:
            return None
        combos: list[dict[str, str]] = [{}]
        for name in dict.fromkeys(names):
            combos = [{**c, name: v} for c in combos for v in self.choices[name]]
            if len(combos) > _MAX_VARIANTS:
                return None
        return [with_variables(argv, combo) for combo in combos]

    def walk(self, stmt: Any, cd: list[Word], pipe_from: int | None) -> None:
        node = stmt.cmd
        kind = type(node).__name__
        if node is None:  # redirections alone: `> /dev/sda`
            redirects = self.redirects(stmt.redirects, cd)
            if redirects:
                self.commands.append(Command((), self.src(stmt), tuple(redirects), tuple(cd)))
        elif kind == "CallExpr":
            self.call(stmt, node, cd, pipe_from)
        elif kind == "Pipeline":
            prev: int | None = None
            for stage in node.stages:
                # Each stage runs in a subshell: its `cd` does not leak.
                before = len(self.commands)
                self.stmt(stage, list(cd), prev)
                simple = type(stage.cmd).__name__ == "CallExpr"
                prev = len(self.commands) - 1 if simple and len(self.commands) > before else None
        elif kind == "BinaryCmd":
            moved = len(cd)
            self.stmt(node.left, cd, None)
            if node.op == "||" and len(cd) > moved:  # (the right side runs when one failed)
                certain = cd[moved:]
                mark_may_fail(cd, moved)
                self.stmt(node.right, cd, None)
                if _ends_shell(node.right):  # `cd x || exit 1`: what follows runs in x
                    cd[moved : moved + len(certain)] = certain
            else:
                self.stmt(node.right, cd, None)
        elif kind in ("Block", "Subshell"):
            # `{ …; }` runs in this shell: its `cd` moves what follows; `( … )` does not.
            self.stmts(node.stmts, cd if kind == "Block" else list(cd))
            self.compound_redirects(stmt, cd)
        elif kind == "IfClause":
            base = len(cd)
            inner = list(cd)
            moves: list[Word] = []
            for cond, body in node.branches:
                moved = len(inner)
                self.stmts(cond, inner)
                branch = list(inner)  # (the body runs where the condition's `cd` worked)
                self.stmts(body, branch)
                moves.extend(branch[base:])
                mark_may_fail(inner, moved)  # (later branches: where it failed)
            if node.else_ is not None:
                self.stmts(node.else_, inner)
            moves.extend(inner[base:])
            _leak(cd, moves)
            self.compound_redirects(stmt, cd)
        elif kind == "WhileClause":
            inner = list(cd)
            self.stmts(node.cond, inner)
            self.stmts(node.body, inner)
            _leak(cd, inner[len(cd) :])
            self.compound_redirects(stmt, cd)
        elif kind == "ForClause":
            inner = list(cd)
            items: list[str | None] = []  # the list's words (None: one only bash knows)
            for word in node.words or ():
                parts = word.parts
                if len(parts) != 1 or type(parts[0]) is not Lit:  # (a literal runs nothing)
                    for w in self.words(word, inner):  # (substitutions in the list run)
                        items.append(w.text if w.static else None)
                        if w.static and " " in w.text:  # `for c in 'rm -rf /'; do $c`
                            self.values.append((node.name, w.text))
                else:
                    items.append(parts[0].text)
            appended = len(self.appended)
            self.stmts(node.body, inner)
            # `for w in rm -rf /; do s+="$w "; done`: what the loop appends is its list
            if len(self.appended) > appended and items and None not in items:
                joined = " ".join(i or "" for i in items)
                self.values.extend((n, joined) for n in self.appended[appended:])
            _leak(cd, inner[len(cd) :])
            self.compound_redirects(stmt, cd)
        elif kind == "CForClause":
            inner = list(cd)
            for part in (node.init, node.cond, node.post):
                if part is not None:
                    self.arith(part, inner)
            self.stmts(node.body, inner)
            _leak(cd, inner[len(cd) :])
            self.compound_redirects(stmt, cd)
        elif kind == "CaseClause":
            inner = list(cd)
            self.words(node.word, inner)
            for item in node.items:
                for pattern in item.patterns:  # (expanded to be matched: `$(…)` in one runs)
                    self.words(pattern, inner, False)
                self.stmts(item.body, inner)
            _leak(cd, inner[len(cd) :])
            self.compound_redirects(stmt, cd)
        elif kind == "ArithCmd":
            self.arith(node.expr, cd)
        elif kind == "TestClause":
            self.test(node.expr, cd)
        elif kind == "FuncDecl":
            self.function(stmt, node, cd)

    def arith(self, word: Any, cd: list[Word]) -> None:
        """Command substitutions inside an arithmetic expression run."""
        self.words(word, cd)
        for part in word.parts:
            # An expression the front end could not read is one literal, substitutions
            # and all (`(( $({fd}>f git clean -fdx) ))`): they run, judged from the text.
            if type(part) is Lit and ("$(" in part.text or "`" in part.text):
                raw = self.src(part)
                _unread_word(raw, self.depth, self.commands)

    def test(self, expr: Any, cd: list[Word]) -> None:
        kind = type(expr).__name__
        if kind == "Word":
            self.words(expr, cd)
        elif kind == "TestUnary":
            self.test(expr.operand, cd)
        elif kind == "TestBinary":
            self.test(expr.left, cd)
            self.test(expr.right, cd)
        elif kind == "TestParen":
            self.test(expr.expr, cd)

    def call(self, stmt: Any, node: Any, cd: list[Word], pipe_from: int | None) -> None:
        assigned: list[tuple[str, list[Word]]] = []
        if node.assigns:
            for assign in node.assigns:
                assigned.append((assign.name, self.assign(assign, cd)))
        argv: list[Word] = []
        for arg in node.args:
            if type(arg) is Assign:  # `export X=…`, `declare -a a=(…)`: a declaration's
                argv.append(self.declared(arg, cd))
                continue
            parts = arg.parts  # (most arguments: words()'s first case, without the call
            if len(parts) == 1 and type(parts[0]) is Lit:  # and the list it returns)
                text = parts[0].text
                if "\\" not in text and "{" not in text and text[:1] != "~":
                    argv.append(Word((text,), text))
                    continue
            argv.extend(self.words(arg, cd))
        if not argv:  # `c=rm` alone sets c for the rest of the line
            for assign, (name, values) in zip(node.assigns, assigned, strict=True):
                known = len(values) == 1 and values[0].static
                if known and assign.append:  # `c=r; c+=m`: the value grows
                    known = name in self.variables and assign.key is None
                    if known:
                        self.variables[name] += values[0].text
                elif known:
                    self.variables[name] = values[0].text
                if not known:
                    self.variables.pop(name, None)
                if self.choices:
                    self.choices.pop(name, None)
                literal_set = known and assign.key is None and assign.array is None
                self.sets.append((name, self.variables[name] if literal_set else None))
        stdin = None
        redirects: tuple[Redirect, ...] = ()
        if stmt.redirects:
            redirects = tuple(self.redirects(stmt.redirects, cd))
            for r in redirects:
                if r.op in ("<", "<<", "<<<") and r.text is not None:
                    stdin = Stdin("text", r.text, self.src(stmt))
        # (a name one of a few literals may hold: the command with each; they run alike)
        variants = self.variants(argv) if self.choices and argv else None
        for words in variants or (argv,):
            cmd = Command(
                tuple(words),
                self.src(stmt),
                redirects,
                tuple(cd) if cd else (),
                stdin,
                -1 if pipe_from is None or stdin is not None else pipe_from,
            )
            self.commands.append(cmd)
        if argv and self.variables and argv[0].text == "trap":
            self.traps.append((len(self.commands) - 1, dict(self.variables)))
        if argv and (self.variables or self.choices) and _may_run_code(argv, self.functions):
            self.variables.clear()  # what it runs may set any variable
            self.choices.clear()
        if (
            argv
            and argv[0].text in _SETTERS
            and pipe_from is None
            and (stdin is not None or (len(argv) > 2 and argv[1].text == "-v"))  # (printf -v)
        ):
            self.read(argv, stdin.text if stdin is not None else None, assigned)
        if argv and argv[0].text in CD_HEADS:  # (cd_target's own first test, without a call)
            target = cd_target(argv)
            if target is not None:
                # Later commands of this list run there (a subshell copies `cd`).
                cd.append(target)

    def read(
        self, argv: list[Word], text: str | None, assigned: list[tuple[str, list[Word]]]
    ) -> None:
        """``read -r c a <<< 'rm -rf'``, ``read -a``, ``mapfile``, ``printf -v``: the names
        they set from known text are values of the line."""
        if not all(a.static for a in argv):
            return
        from hookrun.hooks.shell_guard.reads import set_by  # (a read of static text)

        ifs = self.variables.get("IFS")
        for name, words in assigned:  # `IFS=: read …`
            if name == "IFS":
                ifs = words[0].text if len(words) == 1 and words[0].static else ifs
        for name, value, scalar in set_by([a.text for a in argv], text, ifs):
            if "[" in name:  # `printf -v 'a[1]' …`: an element
                self.elements.setdefault(name.partition("[")[0], []).append(value)
                continue
            if scalar:
                self.variables[name] = value
            self.values.append((name, value))

    def assign(self, assign: Assign, cd: list[Word]) -> list[Word]:
        """The value of ``name[key]=value`` / ``name=(…)``: a scalar's words (none for an
        array). The substitutions in the subscript, the value and every element run
        (``a=($(rm -rf /))``, ``a[$(…)]=1``)."""
        if assign.append:
            self.appended.append(assign.name)
        if assign.key is not None:
            _read_key(assign.key)
            self.words(assign.key, cd, False)
            if assign.value is not None and assign.array is None:
                values = self.words(assign.value, cd, False)
                if len(values) == 1 and (values[0].static or values[0].raw.startswith("~")):
                    text = values[0].text if values[0].static else values[0].raw
                    self.elements.setdefault(assign.name, []).append(text)
                return values
        if assign.array is not None:
            elements: list[Word] = []
            for elem in assign.array:
                if elem.key is not None:
                    _read_key(elem.key)
                    self.words(elem.key, cd, False)
                elements.extend(self.words(elem.value, cd))
            if elements:  # (a word only bash fills, `~` or `$x`, as written: judged so)
                plain = " ".join(w.text if w.static else w.raw for w in elements)
                self.values.append((assign.name, plain))
                quoted = " ".join(map(_element, elements))
                if quoted != plain:  # (the words as one command line, quotes kept)
                    self.values.append((assign.name, quoted))
            return []
        if assign.value is None:
            return []
        values = self.words(assign.value, cd)  # (`x=$P`: P known)
        if len(values) == 1 and values[0].static:
            self.values.append((assign.name, values[0].text))
        elif values and all(v.static for v in values):
            # `x=$(echo 'rm -rf /')`: bash does not split a value; the words, rejoined
            # (runs of blanks as one: the same commands when the value is run or eval'ed)
            self.values.append((assign.name, " ".join(v.text for v in values)))
        return values

    def declared(self, assign: Assign, cd: list[Word]) -> Word:
        """A declaration builtin's ``name=value`` argument as one word (not split)."""
        values = self.assign(assign, cd)
        head = f"{assign.name}{'+=' if assign.append else '='}"
        raw = self.src(assign)
        if assign.key is None and assign.array is None and len(values) == 1:
            parts = values[0].parts
            if isinstance(parts[0], str):
                return Word((head + parts[0], *parts[1:]), raw)
            return Word((head, *parts), raw)
        return Word((head, Var("=")), raw)  # an element, an array: the shell's to know

    def compound_redirects(self, stmt: Any, cd: list[Word]) -> None:
        if not stmt.redirects:
            return
        redirects = self.redirects(stmt.redirects, cd)
        if redirects:
            self.commands.append(Command((), self.src(stmt), tuple(redirects), tuple(cd)))

    def redirects(self, nodes: Any, cd: list[Word]) -> list[Redirect]:
        out: list[Redirect] = []
        for node in nodes:
            if node.op in (">&", "<&") and self.src(node.target).strip().isdigit():
                continue  # `2>&1`: a descriptor, not a file
            if node.op in (">&", "<&") and self.src(node.target).strip() == "-":
                continue
            if node.heredoc is not None:
                if not node.heredoc.closed:
                    # bash reads the rest of the text as the body; the fallback reads it
                    # as commands too, the reading that misses nothing.
                    raise Unsupported("a here-document without its end line")
                # The body is the command's stdin; substitutions in an unquoted body run.
                body = static_text(node.heredoc.body, lambda part: self.subst(part, cd))
                delim = self.words(node.target, cd, False)
                out.append(Redirect("<<", delim[0] if delim else Word.lit(""), body))
                continue
            words = self.words(node.target, cd)
            word = words[0] if words else Word.lit("")
            text = word.text + "\n" if node.op == "<<<" and word.static else None
            out.append(Redirect(node.op, word, text))
        return out

    def function(self, stmt: Any, node: Any, cd: list[Word]) -> None:
        name = node.name
        before = len(self.commands)
        self.stmt(node.body, list(cd), None)
        self.functions.append((name, before, len(self.commands)))
        calls = sum(1 for c in self.commands[before:] if c.argv and c.argv[0].text == name)
        if calls >= 2:  # `:(){ :|:& };:` — each call starts two more
            self.fork_bombs.append(self.src(stmt))


def _straight(stmts: Any) -> bool:
    """Whether a substitution's statements are simple commands and pipelines of them,
    in the foreground, with no redirection: what they print is each pipeline's output,
    in order (no `&&`, `||`, `if`, loop or function decides which of them runs)."""
    for stmt in stmts:
        if stmt.background or stmt.negated or not all(map(_keeps_stdout, stmt.redirects)):
            return False
        cmd = stmt.cmd
        stages = cmd.stages if type(cmd).__name__ == "Pipeline" else (stmt,)
        for stage in stages:
            if not isinstance(stage.cmd, CallExpr) or stage.background:
                return False
            if not all(map(_keeps_stdout, stage.redirects)):
                return False
    return True


def _keeps_stdout(r: Any) -> bool:
    """A redirection that leaves what the command prints where it was: its input
    (`<<<`, `<<`, `<`) or its errors (`2>/dev/null`)."""
    if r.fd_var:
        return False
    if r.op in ("<<<", "<<", "<<-", "<"):
        return r.fd is None or r.fd == 0
    return r.fd == 2 and r.op in (">", ">>")


def _mktemp(args: list[str]) -> str | None:
    """The path ``mktemp ARGS`` prints, as far as where it lies (a name made up of X's):
    a new file or directory in the temp dir (``$TMPDIR``, else /tmp), in ``-p DIR`` /
    ``--tmpdir=DIR``, or where its template says (GNU mktemp). None for what it cannot
    tell (`-p "$D"` is left to the shell: not static, so not here)."""
    where: str | None = None  # --tmpdir / -p's directory; "" = the temp dir
    template = ""
    suffix = ""
    k = 0
    while k < len(args):
        a = args[k]
        if a == "-p" and k + 1 < len(args):
            where = args[k + 1]
            k += 2
            continue
        if a.startswith("--tmpdir="):
            where = a[len("--tmpdir=") :]
        elif a == "--tmpdir" or a == "-t":
            where = where if where is not None else ""
        elif a.startswith("-p") and len(a) > 2:
            where = a[2:]
        elif a.startswith("--suffix="):
            suffix = a[len("--suffix=") :]
        elif a in ("-d", "-u", "-q", "--directory", "--dry-run", "--quiet"):
            pass
        elif a.startswith("-") and a != "-" and set(a[1:]) <= set("dqut"):
            if "t" in a:
                where = where if where is not None else ""
        elif a.startswith("-"):
            return None  # an option it does not know: what it prints is the shell's to know
        elif template:
            return None
        else:
            template = a
        k += 1
    if template and not template.endswith("XXX") or "/" in suffix:
        return None  # mktemp refuses it ("too few X's"): it prints nothing
    name = (template.rsplit("/", 1)[-1] if template else "tmp.XXXXXXXXXX") + suffix
    template += suffix if template else ""
    if where is None and template and "/" in template:
        return template  # `mktemp -d ./build.XXXX`: where the template says
    if where is None and template:
        return name  # GNU: a bare template is made in the working directory
    return f"{where or '/tmp'}/{name}"


def _may_run_code(argv: list[Word], functions: list[tuple[str, int, int]]) -> bool:
    """Whether a command may run code in this shell that the line does not spell: a name
    only the shell knows, `source f` / `. f` (also after `builtin`/`command`), `eval` or
    `trap` of text only the shell knows, a function the line defines. (Text they spell
    is covered by :func:`_may_set`.)"""
    head = argv[0]
    if not head.static:
        return True
    heads = [w.text for w in argv[:3] if w.static]
    if "source" in heads or "." in heads:
        return True
    if head.text in ("eval", "trap") or "eval" in heads:
        return not all(w.static for w in argv)
    return any(name == head.text for name, _, _ in functions)


@lru_cache(maxsize=256)
def _uses(name: str) -> Any:
    import re

    return re.compile(r"(\$\{?[#!]?)?(?<![\w])" + re.escape(name) + r"(?!\w)(:?=)?")


def may_set_count(name: str, source: str) -> int:
    """How many mentions of ``name`` in ``source`` may assign it (:func:`_may_set`)."""
    return sum(1 for m in _uses(name).finditer(source) if _sets(m, source))


# The most values a name set in branches is judged with, and commands made of them.
_MAX_CHOICES = 4
_MAX_VARIANTS = 8


def _always_sets(stmt: Any, name: str) -> bool:
    """Every path through ``stmt`` assigns ``name`` plainly: an assignment, a block, an
    `if` with an `else` or a `case` with a `*)` whose every branch holds one, `n=a && …`,
    `… && n=a || n=b`."""
    node = stmt.cmd
    if stmt.background or node is None:
        return False
    kind = type(node).__name__
    if kind == "CallExpr":
        return not node.args and any(
            a.name == name and a.key is None and a.array is None and not a.append
            for a in node.assigns
        )
    if kind == "Block":
        return any(_always_sets(s, name) for s in node.stmts)
    if kind == "IfClause":
        return node.else_ is not None and all(
            any(_always_sets(s, name) for s in body)
            for body in (*(b for _, b in node.branches), node.else_)
        )
    if kind == "CaseClause":  # (with a `*)` item: some item's body runs)
        return any(literal(p) == "*" for i in node.items for p in i.patterns) and all(
            any(_always_sets(s, name) for s in item.body) for item in node.items
        )
    if kind == "BinaryCmd" and _always_sets(node.left, name):
        return True  # (`d=$(mktemp -d) && trap …`: the left side always runs)
    if kind == "BinaryCmd" and node.op == "||":
        left = node.left
        if type(left.cmd).__name__ == "BinaryCmd" and left.cmd.op == "&&":
            left = left.cmd.right  # (`c && n=a || n=b`: n=a ran, or n=b runs)
        return _always_sets(left, name) and _always_sets(node.right, name)
    return False


def _set_count(name: str, source: str) -> int:
    """:func:`may_set_count`, less the mentions no command can set: an option letter
    (`mktemp -d`, `ls -d`: a blank, then one `-`), a path's part (`/tmp/d`, `a.d`)."""
    count = 0
    for m in _uses(name).finditer(source):
        at = m.start()
        before = source[at - 1] if at else ""
        if before in "/." and before:
            continue
        if before == "-" and (at < 2 or source[at - 2] in " \t\n"):
            continue
        count += _sets(m, source)
    return count


def _may_set(name: str, source: str) -> bool:
    """Whether ``source`` may assign ``name``: any mention of it other than a read
    (`$c`, `${c}`, `${c:-…}`, `${#c}`) or a value (`n=c`) — `c=`, `export c`, `read c`,
    `for c`, `${c:=…}`, `(( c++ ))`, `declare -n r=c`, even `echo c` (the reading that
    misses nothing)."""
    return any(_sets(m, source) for m in _uses(name).finditer(source))


def _sets(m: Any, source: str) -> bool:
    dollar, assigns = m.group(1), m.group(2)
    if dollar:
        return dollar.startswith("${") and bool(assigns)  # `${c:=…}`, `${c=…}`
    if m.start() and source[m.start() - 1] == "=":  # `n=c`: a value — unless a nameref's
        return _NAMEREF.search(source) is not None
    return True


_NAMEREF = lazy_compile(r"(?:^|\s)-[A-Za-z]*n")  # `declare -n`, `local -rn`, `typeset -n`
