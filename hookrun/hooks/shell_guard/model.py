"""The parsed form of a shell command that every rule reads.

Both the tree walk and the fallback tokenizer produce these, so a rule is
written once and judges both. A word keeps what is statically known about its
value: literal text, and :class:`Var` markers for the parts only the running
shell would know (``$X``, ``$(…)``, ``~``). Rules decide from that, never from
the raw string.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hookrun.hooks.shell_guard.names import command_name

# The walk makes a Word per word and a Command per command of every line judged:
# slotted, unfrozen dataclasses (equal and hashable by value all the same) are made
# four times faster than frozen ones, whose __init__ goes through object.__setattr__
# per field (measured 0.7 µs against 3 µs a Word). Nothing changes one after it is
# made: treat them as immutable.


@dataclass(slots=True, unsafe_hash=True)
class Var:
    """A part of a word whose value only the running shell knows.

    ``name`` is the parameter name (``HOME``, ``PWD``, ``1``…), ``$(`` for a
    command substitution, ``<(`` for a process substitution, ``~user`` for
    another user's home, or ``FOUND`` for a path ``find`` will discover.
    """

    name: str
    inner: str = ""  # the code of a command/process substitution


Part = str | Var


@dataclass(slots=True, unsafe_hash=True)
class Word:
    parts: tuple[Part, ...]
    raw: str  # as written, quotes and all
    downloaded: bool = False  # carries the output of a download ($(curl …), <(wget …))
    # Every rule reads these of nearly every word: computed once, with the word.
    # (functools.cached_property takes a lock on each first read in Python 3.11: a
    # first-seen command paid about a tenth of its judgement for it.)
    static: bool = field(init=False, compare=False, repr=False)
    text: str = field(init=False, compare=False, repr=False)  # unknown parts as $NAME

    def __post_init__(self) -> None:
        parts = self.parts
        if len(parts) == 1 and isinstance(parts[0], str):  # most words: plain text
            self.static, self.text = True, parts[0]
        else:
            self.static, self.text = _static_shown(parts)

    @staticmethod
    def lit(text: str) -> Word:
        return Word((text,), text)


def _static_shown(parts: tuple[Part, ...]) -> tuple[bool, str]:
    """Whether every part is text, and :func:`_shown` (one pass: a Word is made for
    every word of every line judged)."""
    static = True
    out: list[str] = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        else:
            static = False
            out.append(f"{p.name}{p.inner})" if p.name in ("$(", "<(") else "$" + p.name)
    return static, "".join(out)


def _shown(parts: tuple[Part, ...]) -> str:
    """A word's value with unknown parts shown as ``$NAME`` (what a reason prints)."""
    out: list[str] = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif p.name in ("$(", "<("):
            out.append(f"{p.name}{p.inner})")
        else:
            out.append("$" + p.name)
    return "".join(out)


@dataclass(slots=True, unsafe_hash=True)
class Redirect:
    op: str  # ">", ">>", "<", "<<", "<<<", ">|", "&>", …
    target: Word | None
    text: str | None = None  # heredoc body / here-string value, when static


@dataclass(slots=True, unsafe_hash=True)
class Stdin:
    """Where a command's standard input comes from, when that matters to a rule."""

    kind: str  # "text": static text (echo, heredoc); "download": curl/wget output
    text: str = ""  # the static text
    origin: str = ""  # the producing command as written
    argv: tuple[str, ...] = ()  # the producing command's words (an allow shape may name it)


@dataclass(slots=True, unsafe_hash=True)
class Command:
    """One simple command: argv after expansion, its redirects, its context."""

    argv: tuple[Word, ...]
    source: str  # the command as written, for reasons
    redirects: tuple[Redirect, ...] = ()
    cd: tuple[Word, ...] = ()  # `cd` targets run before it in the same list
    stdin: Stdin | None = None  # a heredoc / here-string fed to it
    pipe_from: int = -1  # index in Script.commands of the stage piping into it
    via: tuple[str, ...] = ()  # wrappers seen through: ("sudo", "bash -c")
    # The command name: basename of a static argv[0], "" when unknown (every rule
    # asks first; computed with the command, as Word's text is).
    name: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        argv = self.argv
        self.name = command_name(argv[0].text) if argv and argv[0].static else ""

    @property
    def args(self) -> tuple[Word, ...]:
        return self.argv[1:]

    def layer(self, argv: tuple[Word, ...], via: tuple[str, ...]) -> Command:
        """This command running ``argv`` instead, seen through ``via`` (a wrapper's layer).

        (dataclasses.replace reads the fields' metadata on every call: five times slower.)
        """
        return Command(argv, self.source, self.redirects, self.cd, self.stdin, self.pipe_from, via)


@dataclass(slots=True, unsafe_hash=True)
class Script:
    """A parsed command line: every simple command in it, flattened."""

    commands: tuple[Command, ...]
    parsed: bool = True  # False: the front end refused it, judged by the fallback tokenizer
    fork_bombs: tuple[str, ...] = ()  # sources of self-replicating function definitions
    # The static values the line assigns, (name, value): a scalar's text, an array's
    # elements joined by spaces — what `$c` / `"${a[@]}"` may run as a command.
    values: tuple[tuple[str, str], ...] = ()


_CD_HEADS = frozenset({"cd", "pushd", "builtin", "command"})


def cd_target(argv: list[Word]) -> Word | None:
    """Where ``cd``/``pushd`` (also as ``builtin cd`` / ``command cd``) moves; None if not one."""
    if not argv or argv[0].text not in _CD_HEADS:  # (nearly every command: answered here)
        return None
    words = list(argv)
    while words and words[0].static and words[0].text in ("builtin", "command"):
        words = words[1:]
    if not words or not words[0].static or words[0].text not in ("cd", "pushd"):
        return None
    operands = [w for w in words[1:] if not (w.static and w.text.startswith("-") and w.text != "-")]
    return operands[0] if operands else Word((Var("HOME"),), "~")
