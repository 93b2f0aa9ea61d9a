"""The parsed form of a shell command that every rule reads.

Both the tree walk and the fallback tokenizer produce these, so a rule is
written once and judges both. A word keeps what is statically known about its
value: literal text, and :class:`Var` markers for the parts only the running
shell would know (``$X``, ``$(…)``, ``~``). Rules decide from that, never from
the raw string.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from hookrun.hooks.shell_guard.names import command_name


@dataclass(frozen=True)
class Var:
    """A part of a word whose value only the running shell knows.

    ``name`` is the parameter name (``HOME``, ``PWD``, ``1``…), ``$(`` for a
    command substitution, ``<(`` for a process substitution, ``~user`` for
    another user's home, or ``FOUND`` for a path ``find`` will discover.
    """

    name: str
    inner: str = ""  # the code of a command/process substitution


Part = str | Var


@dataclass(frozen=True)
class Word:
    parts: tuple[Part, ...]
    raw: str  # as written, quotes and all
    downloaded: bool = False  # carries the output of a download ($(curl …), <(wget …))

    @cached_property
    def static(self) -> bool:
        return all(isinstance(p, str) for p in self.parts)

    @cached_property
    def text(self) -> str:
        """The value with unknown parts shown as ``$NAME`` (what a reason prints)."""
        out: list[str] = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
            elif p.name in ("$(", "<("):
                out.append(f"{p.name}{p.inner})")
            else:
                out.append("$" + p.name)
        return "".join(out)

    @staticmethod
    def lit(text: str) -> Word:
        return Word((text,), text)


@dataclass(frozen=True)
class Redirect:
    op: str  # ">", ">>", "<", "<<", "<<<", ">|", "&>", …
    target: Word | None
    text: str | None = None  # heredoc body / here-string value, when static


@dataclass(frozen=True)
class Stdin:
    """Where a command's standard input comes from, when that matters to a rule."""

    kind: str  # "text": static text (echo, heredoc); "download": curl/wget output
    text: str = ""  # the static text
    origin: str = ""  # the producing command as written
    argv: tuple[str, ...] = ()  # the producing command's words (an allow shape may name it)


@dataclass(frozen=True)
class Command:
    """One simple command: argv after expansion, its redirects, its context."""

    argv: tuple[Word, ...]
    source: str  # the command as written, for reasons
    redirects: tuple[Redirect, ...] = ()
    cd: tuple[Word, ...] = ()  # `cd` targets run before it in the same list
    stdin: Stdin | None = None  # a heredoc / here-string fed to it
    pipe_from: int = -1  # index in Script.commands of the stage piping into it
    via: tuple[str, ...] = ()  # wrappers seen through: ("sudo", "bash -c")

    @cached_property
    def name(self) -> str:
        """The command name: basename of a static argv[0], ``""`` when unknown."""
        if not self.argv or not self.argv[0].static:
            return ""
        return command_name(self.argv[0].text)

    @property
    def args(self) -> tuple[Word, ...]:
        return self.argv[1:]


@dataclass(frozen=True)
class Script:
    """A parsed command line: every simple command in it, flattened."""

    commands: tuple[Command, ...]
    parsed: bool = True  # False: the front end refused it, judged by the fallback tokenizer
    fork_bombs: tuple[str, ...] = ()  # sources of self-replicating function definitions
