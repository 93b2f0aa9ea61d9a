"""What a rule is given (:class:`Where`) and what it answers (:class:`Finding`)."""

from __future__ import annotations

from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from hookrun.hooks.shell_guard.model import Command, Stdin
    from hookrun.hooks.shell_guard.options import ShellGuardOptions


class Where(NamedTuple):
    """The machine a command runs on, as far as the delete rules care.

    (A NamedTuple: the engine makes one per ``cd`` it follows, and ``_replace``
    costs a fifth of ``dataclasses.replace``.)
    """

    cwd: str | None  # where the command starts (None: unknown)
    workspace: str | None
    home: str | None
    temp_dirs: tuple[str, ...]
    artifact_dirs: tuple[str, ...]
    opts: ShellGuardOptions
    # Formatters a line running this one as code spells (`c=mkfs.ext4 eval '$c …'`):
    # what a name only the shell knows may be, besides the code's own (indirect.py).
    spelled: tuple[str, ...] = ()
    # Which of TMPDIR, TMP, TEMP the environment sets (None: not known). An unset one is
    # empty to bash: `cd "$TMPDIR"` is `cd ""`, which stays where it is.
    temp_vars: frozenset[str] | None = None
    # Temp variables the line may set to what only the shell knows (`read TMPDIR`,
    # `TMPDIR=$X`, `for TMP in …`): their value is unknown, as any other name's.
    unknown_temps: frozenset[str] = frozenset()


class Finding(NamedTuple):
    rule: str
    part: str  # the offending command as written
    message: str  # what is blocked and what to do instead
    subjects: tuple[tuple[str, ...], ...] = ()  # argvs an allow shape may name to excuse it
    via: tuple[str, ...] = ()
    fallback: bool = False  # judged on the fallback tokenizer's words


class Call(NamedTuple):
    """One layer of one command, with what flows into its stdin (one per layer judged)."""

    cmd: Command
    stdin: Stdin | None
    where: Where

    def finding(self, rule: str, message: str, *extra: tuple[str, ...]) -> Finding:
        argv = tuple(w.text for w in self.cmd.argv)
        return Finding(rule, self.cmd.source, message, (argv, *extra), self.cmd.via)
