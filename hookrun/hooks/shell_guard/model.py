"""The parsed form of a shell command that every rule reads.

Both the tree walk and the fallback tokenizer produce these, so a rule is
written once and judges both. A word keeps what is statically known about its
value: literal text, and :class:`Var` markers for the parts only the running
shell would know (``$X``, ``$(…)``, ``~``). Rules decide from that, never from
the raw string.
"""

from __future__ import annotations

from operator import attrgetter

from hookrun.hooks.shell_guard.names import command_name
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import ClassVar

# The walk makes a Word per word and a Command per command of every line judged. Plain
# slotted classes, equal and hashable by value over the fields their constructor takes
# (what the slotted dataclasses they were compared): `dataclasses` brings inspect, ast,
# dis and tokenize into every process that judges a line (~70M instructions under
# callgrind, more than the judgement), for code these few lines write out. Nothing
# changes one after it is made: treat them as immutable.


class _Value:
    """Equal, hashable and shown by the fields ``_FIELDS`` names (a dataclass's own)."""

    __slots__ = ()
    _FIELDS: ClassVar[tuple[str, ...]] = ()
    _KEY: ClassVar[attrgetter[tuple[object, ...]]]  # those fields' values, as a tuple

    def __init_subclass__(cls) -> None:
        cls._KEY = attrgetter(*cls._FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        key = self._KEY
        return key(self) == key(other)

    def __hash__(self) -> int:
        return hash(self._KEY(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._FIELDS)
        return f"{type(self).__name__}({shown})"


class Var(_Value):
    """A part of a word whose value only the running shell knows.

    ``name`` is the parameter name (``HOME``, ``PWD``, ``1``…), ``$(`` for a
    command substitution, ``<(`` for a process substitution, ``~user`` for
    another user's home, or ``FOUND`` for a path ``find`` will discover.
    """

    __slots__ = ("name", "inner")
    _FIELDS = ("name", "inner")

    def __init__(self, name: str, inner: str = "") -> None:
        self.name = name
        self.inner = inner  # the code of a command/process substitution


Part = str | Var


class Word(_Value):
    __slots__ = ("parts", "raw", "downloaded", "static", "text")
    _FIELDS = ("parts", "raw", "downloaded")

    def __init__(self, parts: tuple[Part, ...], raw: str, downloaded: bool = False) -> None:
        self.parts = parts
        self.raw = raw  # as written, quotes and all
        self.downloaded = downloaded  # carries the output of a download ($(curl …), <(wget …))
        # Every rule reads these of nearly every word: computed once, with the word.
        # (functools.cached_property takes a lock on each first read in Python 3.11: a
        # first-seen command paid about a tenth of its judgement for it.)
        if len(parts) == 1 and isinstance(parts[0], str):  # most words: plain text
            self.static, self.text = True, parts[0]
        else:  # text: unknown parts as $NAME
            self.static, self.text = _static_shown(parts)

    @staticmethod
    def lit(text: str) -> Word:
        return Word((text,), text)


def _static_shown(parts: tuple[Part, ...]) -> tuple[bool, str]:
    """Whether every part is text, and the word's value with unknown parts shown as
    ``$NAME`` — what a reason prints (one pass: a Word is made for every word of every
    line judged)."""
    static = True
    out: list[str] = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        else:
            static = False
            out.append(f"{p.name}{p.inner})" if p.name in ("$(", "<(") else "$" + p.name)
    return static, "".join(out)


class Redirect(_Value):
    __slots__ = ("op", "target", "text")
    _FIELDS = ("op", "target", "text")

    def __init__(self, op: str, target: Word | None, text: str | None = None) -> None:
        self.op = op  # ">", ">>", "<", "<<", "<<<", ">|", "&>", …
        self.target = target
        self.text = text  # heredoc body / here-string value, when static


class Stdin(_Value):
    """Where a command's standard input comes from, when that matters to a rule."""

    __slots__ = ("kind", "text", "origin", "argv")
    _FIELDS = ("kind", "text", "origin", "argv")

    def __init__(
        self, kind: str, text: str = "", origin: str = "", argv: tuple[str, ...] = ()
    ) -> None:
        self.kind = kind  # "text": static text (echo, heredoc); "download": curl/wget output
        self.text = text  # the static text
        self.origin = origin  # the producing command as written
        self.argv = argv  # the producing command's words (an allow shape may name it)


class Command(_Value):
    """One simple command: argv after expansion, its redirects, its context."""

    __slots__ = ("argv", "source", "redirects", "cd", "stdin", "pipe_from", "via", "name")
    _FIELDS = ("argv", "source", "redirects", "cd", "stdin", "pipe_from", "via")

    def __init__(
        self,
        argv: tuple[Word, ...],
        source: str,
        redirects: tuple[Redirect, ...] = (),
        cd: tuple[Word, ...] = (),
        stdin: Stdin | None = None,
        pipe_from: int = -1,
        via: tuple[str, ...] = (),
    ) -> None:
        self.argv = argv
        self.source = source  # the command as written, for reasons
        self.redirects = redirects
        self.cd = cd  # `cd` targets run before it in the same list
        self.stdin = stdin  # a heredoc / here-string fed to it
        self.pipe_from = pipe_from  # index in Script.commands of the stage piping into it
        self.via = via  # wrappers seen through: ("sudo", "bash -c")
        # The command name: basename of a static argv[0], "" when unknown (every rule
        # asks first; computed with the command, as Word's text is).
        self.name = command_name(argv[0].text) if argv and argv[0].static else ""

    @property
    def args(self) -> tuple[Word, ...]:
        return self.argv[1:]

    def layer(self, argv: tuple[Word, ...], via: tuple[str, ...]) -> Command:
        """This command running ``argv`` instead, seen through ``via`` (a wrapper's layer)."""
        return Command(argv, self.source, self.redirects, self.cd, self.stdin, self.pipe_from, via)

    def piped_from(self, pipe_from: int) -> Command:
        """This command with its pipe's stage at ``pipe_from`` (its line moved in a sink)."""
        return Command(
            self.argv, self.source, self.redirects, self.cd, self.stdin, pipe_from, self.via
        )


class Script(_Value):
    """A parsed command line: every simple command in it, flattened."""

    __slots__ = ("commands", "parsed", "fork_bombs", "values", "functions")
    _FIELDS = ("commands", "parsed", "fork_bombs", "values", "functions")

    def __init__(
        self,
        commands: tuple[Command, ...],
        parsed: bool = True,
        fork_bombs: tuple[str, ...] = (),
        values: tuple[tuple[str, str], ...] = (),
        functions: tuple[tuple[str, int, int], ...] = (),
    ) -> None:
        self.commands = commands
        # False: the front end refused it, judged by the fallback tokenizer
        self.parsed = parsed
        self.fork_bombs = fork_bombs  # sources of self-replicating function definitions
        # The static values the line assigns, (name, value): a scalar's text, an array's
        # elements joined by spaces — what `$c` / `"${a[@]}"` may run as a command.
        self.values = values
        # The functions the line defines: (name, first, end) — their body's commands are
        # commands[first:end] (what a call of one prints: `f echo … | xargs rm`).
        self.functions = functions


# (the programs that may move the directory: `builtin cd`, `command cd` too)
CD_HEADS = frozenset({"cd", "pushd", "popd", "builtin", "command"})
# Markers of the steps that are not a plain move (paths.cwd_of reads them): `cd -` goes
# back to $OLDPWD, `pushd DIR` saves where it was, `popd` and a bare `pushd` take the
# directory stack's top; `pushd +N`/`popd -N` rotate it (unknown).
OLDPWD, PUSHD, POPD, SWAPD, UNKNOWN_DIR = "OLDPWD", "PUSHD", "POPD", "SWAPD", "?cd"
# A step that may have failed for the commands after it: joined to them by `;`, a newline
# or `||`, not `&&` (`cd /nowhere; rm -rf src` deletes the first directory's src).
MAYBE = "MAYBE?"


def may_fail(step: Word) -> Word:
    """``step`` as seen past a `;`/`||`: it may not have moved."""
    first = step.parts[0] if step.parts else None
    if isinstance(first, Var) and first.name == MAYBE:
        return step
    return Word((Var(MAYBE), *step.parts), step.raw)


def mark_may_fail(cd: list[Word], start: int = 0) -> None:
    """Mark ``cd[start:]`` in place as steps that may have failed."""
    for k in range(start, len(cd)):
        cd[k] = may_fail(cd[k])


def cd_target(argv: list[Word]) -> Word | None:
    """Where ``cd``/``pushd``/``popd`` (also as ``builtin cd`` / ``command cd``) moves, as a
    step :func:`~hookrun.hooks.shell_guard.paths.cwd_of` follows; None if not one."""
    if not argv or argv[0].text not in CD_HEADS:  # (nearly every command: answered here)
        return None
    words = list(argv)
    while words and words[0].static and words[0].text in ("builtin", "command"):
        words = words[1:]
    if not words or not words[0].static or words[0].text not in ("cd", "pushd", "popd"):
        return None
    head = words[0].text
    operands: list[Word] = []
    for i, w in enumerate(words[1:], start=1):
        if w.static and w.text == "--":
            operands.extend(words[i + 1 :])
            break
        if not (w.static and w.text.startswith(("-", "+")) and w.text != "-"):
            operands.append(w)
        elif head != "cd" and w.text[1:].isdigit():  # `pushd +1`, `popd -0`: a rotation
            return Word((Var(UNKNOWN_DIR),), w.raw)
    if head == "popd":
        return Word((Var(POPD),), "popd")
    if not operands:
        return Word((Var(SWAPD),), "pushd") if head == "pushd" else Word((Var("HOME"),), "~")
    target = operands[0]
    if target.static and target.text == "-":
        target = Word((Var(OLDPWD),), "-")
    if head == "pushd":
        target = Word((Var(PUSHD), *target.parts), target.raw)
    # (bash refuses `cd a b`, "too many arguments"; bash 3.2 and zsh move: either)
    return may_fail(target) if len(operands) > 1 else target
