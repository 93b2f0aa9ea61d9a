"""Code bash runs that the line does not spell as a command: found by bash as the oracle.

``tests/hooks/shell_guard/redteam.py`` ran blocked commands through every construct
bash accepts (a marker program standing in for them) and kept the lines shell-guard
allowed although bash ran the command. What they have in common, and what is judged
here besides the line's own commands:

- **a command whose name only the shell knows** (``$c -rf /``, ``${c:-rm} -rf /``,
  ``r$()m -rf /``, ``"$1" -rf /`` in ``sh -c … rm``, ``${!d}``, a name ``alias`` or
  ``hash -p`` defines on the line): its arguments are judged as each program a rule
  judges by its arguments (``rm``, ``git``, ``find``, ``dd``, ``npm``) — an unknown
  program given ``-rf /`` or ``push --force origin main`` is denied, spelled out;
- **values that may run as a command** when such a command (or ``eval``/``source``/a
  shell of unknown code) is on the line: each static value assigned (``c='rm -rf /'``,
  ``a=(rm -rf /)``), each command's arguments from a program name on
  (``set -- rm -rf /``, ``f rm -rf /`` for ``f() { "$@"; }``), split by a static ``IFS``
  the line sets;
- **code in quoted text bash evaluates**: a subscript holding a substitution
  (``'a[$(rm -rf /)]'`` is arithmetic to ``let``, ``declare -i``, ``(( x ))``,
  ``[[ … -eq … ]]``, ``printf -v``, ``read``, ``unset``, ``${x:…}``), and every
  substitution on a line that expands a prompt (``${x@P}``, ``PS4`` with ``set -x``);
- **static text a process substitution gives a shell** (``source <(echo '…')``,
  ``bash <(echo …)``, ``bash < <(echo …)``, ``BASH_ENV=<(echo …)``): it is code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from hookrun.hooks.shell_guard.heads import (
    GIT_GLOBAL_ARG,
    GIT_PLACE_ARG,
    GIT_RUNS_GIVEN,
    PEELED,
    git_subcommand_at,
    peels,
)
from hookrun.hooks.shell_guard.judging import Call, Finding, Where
from hookrun.hooks.shell_guard.model import Command, Script, Var, Word
from hookrun.hooks.shell_guard.names import SHELLS, command_name
from hookrun.hooks.shell_guard.rules import checks_for
from hookrun.hooks.shell_guard.screen import evaluated
from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from hookrun.hooks.shell_guard.rules import Rule

# The programs a rule judges by their arguments: what an unknown name is tried as.
CANDIDATES = ("rm", "git", "find", "dd", "npm")
_MAX_ARGS = 64  # a command's arguments tried from each program name on (quadratic)
_SOURCES = frozenset({"source", "."})
_READERS = frozenset({"read", "mapfile", "readarray"})
_SHELL_OR_SOURCE = _SOURCES | SHELLS
# Programs denied whatever their arguments (disk.mkfs), tried as an unknown name when
# the line spells one anywhere (`${c:-mkfs.ext4} /dev/sda1`, `read c <<< mkfs.ext4`) —
# inside a longer word too: a part of a value may be the name (`x=xmkfs.ext4x;
# ${x:1:9} /dev/sda1`) — or when a line running this one as code spells it
# (`c=mkfs.ext4 eval '$c /dev/sda1'`: Where.spelled).
_FORMATTER = lazy_compile(
    r"mkfs(?:\.(?:ext[234]|xfs|btrfs|vfat|fat|msdos|ntfs|exfat|f2fs|minix|jfs))?"
    r"|mkswap|mke2fs|wipefs|newfs|diskpart",
    re.IGNORECASE,
)
# What _FORMATTER needs a text to hold, lowered (each of its branches starts with one).
_FORMATTER_NAMES = ("mkfs", "mkswap", "mke2fs", "wipefs", "newfs", "diskpart")

# Code that may run what it reads on stdin: a shell or `source` of a descriptor, `eval`
# of what `cat`/`read` gives, words from "$@" (`bash -c '"$@"' _ source /dev/stdin`).
_READS_STDIN = lazy_compile(
    r"/dev/stdin|/dev/fd/|/proc/self/fd/|\$[@*]|\$\{?[0-9@*]"
    r"|(?<![\w.-])(?:cat|read|mapfile|readarray|source|eval|exec|xargs|sh|bash|dash|zsh|ksh|ash)"
    r"(?![\w.-])|(?:^|[\s;&|({])\.[ \t]"
)

Judge = Callable[[str, Where, int, tuple[str, ...]], list[Finding]]


def findings(
    text: str, script: Script, where: Where, depth: int, via: tuple[str, ...], judge: Judge
) -> list[Finding]:
    """What ``text`` (parsed as ``script``) runs besides its commands, judged."""
    out: list[Finding] = []
    if ("$(" in text or "`" in text) and evaluated(text):
        from hookrun.hooks.shell_guard.fallback import substitutions

        label = "a substitution in text bash evaluates"
        for span in substitutions(text):
            if "'" in text or '"' in text:  # (unquoted ones are walked already)
                out.extend(judge(span, where, depth + 1, (*via, label)))
    if not script.parsed and ("$(" in text or "`" in text):
        # The fallback flattens a substitution's commands into the line's, its values lost
        # (`a[b[$(a=(-rf ..); rm ${a[*]})]]=1`): each is judged as the line it is too.
        from hookrun.hooks.shell_guard.fallback import substitutions

        label = "a command substitution"
        for span in substitutions(text):
            inner = span[2:-1] if span.startswith("$(") else span[1:-1]
            if inner.strip() and inner != text:
                out.extend(judge(inner, where, depth + 1, (*via, label)))
    aliased = (
        _aliased(script, where, depth, via, judge, out) if "alias" in text or "hash" in text else {}
    )
    anyname = False
    if ("eval" in text or "-n" in text) and ("=" in text):
        script, anyname = _through_names(script)
    unknown = False
    procsub = "<(" in text
    vanishing: list[Command] = []
    fetching: list[Command] = []
    for cmd in script.commands:
        argv = cmd.argv
        if not argv:
            continue
        if aliased and aliased.get(cmd.name):  # `alias r='rm -rf'; r /`: r's value, then /
            words = [a.raw for a in cmd.args]
            value = aliased[cmd.name]
            if value[-1:] in (" ", "\t") and words and aliased.get(words[0]):
                words[0] = aliased[words[0]]  # (a value ending in a blank: the next word too)
            code = " ".join([value, *words])
            out.extend(judge(code, where, depth + 1, (*via, f"alias {cmd.name}")))
        if not argv[0].static or (aliased and cmd.name in aliased) or _globbed(argv[0]):
            unknown = True
            out.extend(as_unknown(cmd, text, where, via))
            if "$(" in argv[0].text:  # `$(echo 'rm -rf /')`: what it prints is the command
                out.extend(_printed_command(cmd, where, depth, via, judge))
            elif script.values and len(argv) > 1:  # `c='rm -rf'; $c /`: the value, split
                out.extend(_value_command(cmd, script, where, depth, via, judge))
            if len(argv) > 1 and _may_vanish(argv[0], script):  # `$(true) curl … | sh`
                vanishing.append(cmd)
            if (  # `$(command -v curl) -fsSL https://… | sh` (`x=echo; $x …`: prints)
                "|" in text
                and any("://" in a.text for a in argv[1:])
                and not _assigned(argv[0], script)
            ):
                fetching.append(cmd)
        elif _runs_unknown_code(cmd):
            unknown = True
        if procsub:
            out.extend(_process_substituted(cmd, where, depth, via, judge))
        if script.values and cmd.name == "eval":  # `x=rm; y='-rf /'; eval "$x $y"`
            out.extend(_eval_filled(cmd, script, where, depth, via, judge))
        if script.functions and len(argv) > 1 and "$(" in cmd.source:  # `rm $(f)`
            out.extend(_function_printed(cmd, script, where, via))
        if len(argv) > 1 and cmd.name:
            for w in argv:  # (most words are static: one attribute read each)
                if not w.static and _filled_later(w, script, anyname):
                    out.extend(_with_values_as_args(cmd, script, where, via, anyname))
                    break
    if "PROMPT_COMMAND" in text:  # an interactive shell runs it before each prompt
        for name, value in script.values:
            if name.startswith("PROMPT_COMMAND"):
                out.extend(judge(value, where, depth + 1, (*via, name)))
    if vanishing:
        out.extend(_vanished(vanishing, script, text, where, depth, via, judge))
    if fetching:
        out.extend(_as_downloader(fetching, text, where, depth, via, judge))
    if unknown:
        out.extend(_values_as_commands(script, where, depth, via, judge, text))
    return out


def _globbed(word: Word) -> bool:
    """A static name bash may glob into another (``/bin/r?``, ``/usr/bin/r[m]``; not
    ``[[`` or ``[``: a ``[`` with no ``]`` after it is a plain character)."""
    text = word.text
    if "?" in text or "*" in text:
        return word.static
    i = text.find("[")
    return i >= 0 and "]" in text[i + 2 :] and word.static


_BRACED = lazy_compile(r"\$\{([^}]*)\}")
_PLAIN_BRACED = lazy_compile(r"[A-Za-z_]\w*(?:\[[@*]\])?|[0-9@*]")


def _may_vanish(word: Word, script: Script) -> bool:
    """``word`` may expand to no word at all: unquoted (or ``"$@"``-like) and made only of
    expansions whose value may be empty (``$(tool)``, `` `:` ``, ``$x``, ``${x}``), none a
    substitution known to print something nor a name the line gives a value."""
    raw = word.raw
    if raw[:1] == '"' and not (raw.endswith('[@]}"') or raw == '"$@"' or raw == '"${@}"'):
        return False  # (`"$(x)" rm`: an empty word, "command not found")
    if "${" in raw and not all(_PLAIN_BRACED.fullmatch(b) for b in _BRACED.findall(raw)):
        return False  # (`${x:-echo}`, `${#x}`: not plainly the value)
    for part in word.parts:
        if not isinstance(part, Var):
            return False
        if part.name == "$(":
            shown = printed_by(part.inner)
            if shown is not None and shown.strip():
                return False  # (`$(echo echo) rm -rf /` only prints)
        else:
            name = part.name[1:-1] if part.name[:1] == "{" else part.name  # (`${a[@]}`: {a})
            if not (name.isidentifier() or name.isdigit() or name in ("@", "*")):
                return False  # (`<(…)`, `~user`, `$$`, `${x:-rm}`: never empty)
            if any(n == name and v.strip() for n, v in script.values):
                return False  # (`x=echo; $x curl … | sh` only prints)
    return True


def _vanished(
    cmds: list[Command],
    script: Script,
    text: str,
    where: Where,
    depth: int,
    via: tuple[str, ...],
    judge: Judge,
) -> list[Finding]:
    """``$(tool) curl … | sh``: when the substitution in a command's name prints nothing
    bash runs the next word (``$(true) rm -rf /`` runs ``rm``). The line with every such
    name dropped, wherever its command's text stands, is judged as the code it is then —
    its pipelines, ``-exec`` and aliases too, which judging the name as each program
    alone would miss. (One judgement for the line, not one per place: a line repeating
    such a command must not cost one judgement per subset of its places.)"""
    code = text
    heads: list[str] = []
    for cmd in cmds:
        source, head = cmd.source, cmd.argv[0].raw
        at = source.find(head)
        if at < 0:
            continue
        rest = source[at + len(head) :].lstrip(" \t")
        for word in cmd.argv[1:-1]:  # (`$(a) $(b) curl …`: every such word, at once)
            if not (rest.startswith(word.raw) and _may_vanish(word, script)):
                break
            rest = rest[len(word.raw) :].lstrip(" \t")
        code = code.replace(source, source[:at] + rest)
        if head not in heads:
            heads.append(head)
    if code == text:
        return []
    return judge(code, where, depth + 1, (*via, f"{', '.join(heads)}, if it prints nothing"))


def _assigned(word: Word, script: Script) -> bool:
    """A part of ``word`` is a name the line gives a static value."""
    names = {n for n, _ in script.values}
    return any(
        isinstance(p, Var) and (p.name in names or p.name.strip("{}") in names) for p in word.parts
    )


def _as_downloader(
    cmds: list[Command], text: str, where: Where, depth: int, via: tuple[str, ...], judge: Judge
) -> list[Finding]:
    """``CURL=$(command -v curl); $CURL -fsSL https://… | sh``: a name only the shell knows
    given a URL may be a downloader. The line with each such name as ``curl`` is judged
    once more (a download piped into a shell is what the rules then see)."""
    code = text
    heads: list[str] = []
    for cmd in cmds:
        source, head = cmd.source, cmd.argv[0].raw
        at = source.find(head)
        if at >= 0:
            code = code.replace(source, f"{source[:at]}curl {source[at + len(head) :]}")
            heads.append(head)
    if code == text:
        return []
    return judge(code, where, depth + 1, (*via, f"{', '.join(heads)}, a name only the shell knows"))


def _printed_command(
    cmd: Command, where: Where, depth: int, via: tuple[str, ...], judge: Judge
) -> list[Finding]:
    """``$(echo 'rm -rf /')``, ``x$(printf …)`` as a command's name: the words the known
    output makes, with the rest of the command, judged as code."""
    name: list[str] = []
    for part in cmd.argv[0].parts:
        if isinstance(part, str):
            name.append(part)
            continue
        shown = printed_by(part.inner) if part.name == "$(" else None
        if shown is None:
            return []
        name.append(shown.replace("\n", " "))
    code = " ".join(["".join(name), *(a.raw for a in cmd.argv[1:])])
    return judge(code, where, depth + 1, (*via, f"what {cmd.argv[0].raw} prints"))


def _value_command(
    cmd: Command, script: Script, where: Where, depth: int, via: tuple[str, ...], judge: Judge
) -> Iterator[Finding]:
    """``c='rm -rf'; $c /``: each value the line gives the name, with the command's
    arguments, judged as code (an unquoted value is split into the command's first words)."""
    head = cmd.argv[0]
    if len(head.parts) != 1 or head.raw.startswith('"'):
        return
    name = head.parts[0].name if isinstance(head.parts[0], Var) else ""
    rest = " ".join(a.raw for a in cmd.argv[1:])
    label = f"{head.raw}, a value the line assigns"
    for assigned, value in script.values:
        if assigned == name and (" " in value or "\t" in value):
            yield from judge(f"{value} {rest}", where, depth + 1, (*via, label))


_DECLARERS = frozenset({"declare", "local", "typeset"})
_EVAL_ASSIGN = lazy_compile(r"(\$?\{?\w+\}?)(?:\[[^\]]*\])?\+?=(.+)", re.DOTALL)


def _eval_filled(
    cmd: Command, script: Script, where: Where, depth: int, via: tuple[str, ...], judge: Judge
) -> list[Finding]:
    """``eval "$x $y"`` and ``eval rm '$x'`` of values the line assigns: the code eval
    builds, with those values filled in or assigned first."""
    values = {n: v for n, v in script.values if n.isidentifier()}
    texts = filled_args(cmd.args, where.home, values)
    if not texts or None in texts:
        return []
    code = " ".join(t or "" for t in texts)
    if "$" not in code and all(a.static for a in cmd.args):
        return []  # (static code: judged as eval's own already)
    if "$" in code:
        import shlex  # (eval of a value, on a line that assigns some)

        assigned = "".join(f"{n}={shlex.quote(v)}; " for n, v in values.items() if n.isidentifier())
        code = assigned + code
    return judge(code, where, depth + 1, (*via, "eval of values the line assigns"))


def _function_printed(
    cmd: Command, script: Script, where: Where, via: tuple[str, ...]
) -> Iterator[Finding]:
    """``f() { echo -rf /; }; rm $(f)``: the words a call of a function the line defines
    prints, in the place of its substitution."""
    from hookrun.hooks.shell_guard.engine import _function_output  # (a line with both)
    from hookrun.hooks.shell_guard.parse import parse_script

    checks = checks_for(cmd.name, False)
    if not checks:
        return
    names = {n for n, _, _ in script.functions}
    for k, w in enumerate(cmd.argv):
        part = w.parts[0] if len(w.parts) == 1 else None
        if not isinstance(part, Var) or part.name != "$(" or part.inner.split()[:1] == []:
            continue
        if part.inner.split()[0] not in names:
            continue
        inner = parse_script(part.inner).commands
        out = _function_output(inner[0], script, where.home, None) if len(inner) == 1 else None
        if out is None:
            continue
        words = [out.text.rstrip("\n")] if w.raw.startswith('"') else out.text.split()
        argv = (*cmd.argv[:k], *map(_value_word, words), *cmd.argv[k + 1 :])
        label = f"what {w.raw} prints"
        yield from _checked(argv, cmd, where, (*via, *cmd.via, label), checks)


def _through_names(script: Script) -> tuple[Script, bool]:
    """Assignments through a name the line computes: ``eval "$1='rm -rf /'"`` (the value
    its text spells is a value of the line), ``local -n r=$1; r=…`` (a nameref: its values
    are its target's). True when a value may so reach any name."""
    values: list[tuple[str, str]] = []
    anyname = False
    for cmd in script.commands:
        if cmd.name == "eval":
            for a in cmd.args:
                m = _EVAL_ASSIGN.fullmatch(a.text)
                if m is None:
                    continue
                import shlex  # (an eval of an assignment only)

                try:
                    words = shlex.split(m.group(2))
                except ValueError:
                    continue
                if len(words) == 1:
                    values.append((m.group(1).strip("${}"), words[0]))
                    anyname = anyname or m.group(1).startswith("$")
        elif cmd.name in _DECLARERS and any(
            a.text[:1] == "-" and "n" in a.text[1:] for a in cmd.args
        ):
            anyname = True
    if not values and not anyname:
        return script, False
    every = script.values + tuple(values)
    return Script(
        script.commands, script.parsed, script.fork_bombs, every, script.functions
    ), anyname


def _aliased(
    script: Script, where: Where, depth: int, via: tuple[str, ...], judge: Judge, out: list[Finding]
) -> dict[str, str]:
    """Names ``alias`` / ``hash -p`` define on the line, with an alias's value ("" for
    ``hash -p``); an alias's value is judged as code."""
    names: dict[str, str] = {}
    for cmd in script.commands:
        if cmd.name == "alias":
            for a in cmd.args:
                name, eq, value = a.text.partition("=")
                if eq:
                    names[name] = value
                    out.extend(judge(value, where, depth + 1, (*via, f"alias {name}")))
        elif cmd.name == "hash" and any(a.text == "-p" for a in cmd.args):
            names.update((a.text, "") for a in cmd.args[1:] if not a.text.startswith("-"))
    return names


def reads_stdin(code: str) -> bool:
    """``code`` may run text it reads on stdin (then that text is judged as code too)."""
    return _READS_STDIN.search(code) is not None


def _runs_unknown_code(cmd: Command) -> bool:
    name = cmd.name
    redirects = cmd.redirects  # (most commands have none: no generator made)
    unknown_in = redirects and any(r.op in ("<<<", "<<") and r.text is None for r in redirects)
    if unknown_in:  # `bash <<< "$x"` (the supply-chain rules load for such a line)
        from hookrun.hooks.shell_guard.rules.supply_chain import reads_program_from_stdin

        if reads_program_from_stdin(cmd):
            return True
    if name == "git":
        return _git_runs_unknown(cmd.args)
    if name == "eval" or name in _SOURCES or name in SHELLS or name in PEELED:
        # (`command "$@"`, `exec $c …`: a wrapper running a name only the shell knows)
        return any(not a.static for a in cmd.args)
    if name == "trap":  # `trap "$x" EXIT`
        args = cmd.args[1:] if cmd.args and cmd.args[0].text == "--" else cmd.args
        return len(args) >= 2 and not args[0].static
    return False


def _git_runs_unknown(args: Sequence[Word]) -> bool:
    """An unknown word may make git run code: among its global options (`git $X …`: X may
    be `-c alias.…` or `bisect run sh -c`) but a quoted place (`-C "$d"`), as or before
    its subcommand, or after one that runs a command it is given (heads.GIT_RUNS_GIVEN).
    `git commit $X -m "$(cat <<'EOF' … EOF)"`, `git / $X "…"`: the text is an argument."""
    for a in args:  # (most git commands: every word known, nothing to look at)
        if not a.static:
            break
    else:
        return False
    i = min(git_subcommand_at([a.text for a in args]), len(args))  # (`git -C`: no value)
    k = 0
    while k < i:
        a = args[k]
        if a.text in GIT_GLOBAL_ARG and k + 1 < i:
            value = args[k + 1]
            if not a.static or not (value.static or (a.text in GIT_PLACE_ARG and _quoted(value))):
                return True
            k += 2
        elif not a.static:
            return True
        else:
            k += 1
    if i >= len(args):
        return False
    if not args[i].static:
        return True
    return args[i].text in GIT_RUNS_GIVEN and any(not a.static for a in args[i + 1 :])


def _quoted(word: Word) -> bool:
    """The whole word is one double-quoted string: its value is one word, whatever it is."""
    raw = word.raw
    return len(raw) >= 2 and raw[0] == '"' and raw[-1] == '"' and raw.count('"') == 2


def as_unknown(cmd: Command, text: str, where: Where, via: tuple[str, ...]) -> list[Finding]:
    """``$c ARGS`` (a layer of ``text``): judged as each program a rule judges by its
    arguments, as a formatter the line spells, and as its name's known text alone
    (``r$(:)m``, ``g"$@"it``, ``m${IFS:0:0}kfs``: what bash runs when the unknown parts
    are empty)."""
    names = dict.fromkeys((*CANDIDATES, *formatters(text), *where.spelled))
    known = "".join(p for p in cmd.argv[0].parts if isinstance(p, str))
    if known:
        names[command_name(known)] = None
    return list(_as_candidates(cmd, tuple(names), where, via))


@lru_cache(maxsize=8)  # (once per line, not per command of it)
def formatters(text: str) -> tuple[str, ...]:
    """The formatters' names ``text`` spells, anywhere (lower case)."""
    low = text.lower()  # (`${x,,}` of MKFS.EXT4)
    if not ("fs" in low or "swap" in low or "disk" in low):
        return ()  # (most lines)
    if low.isascii():  # (ASCII: the pattern matches where the lowered text holds a name;
        for name in _FORMATTER_NAMES:  # other text: the search folds more than lower())
            if name in low:
                break
        else:
            return ()  # (`curl -fsSL …`: no search of the line)
    return tuple(dict.fromkeys(m.lower() for m in _FORMATTER.findall(text)))


def _as_candidates(
    cmd: Command, names: tuple[str, ...], where: Where, via: tuple[str, ...]
) -> Iterator[Finding]:
    args = cmd.args
    shown = cmd.argv[0].text
    for name in names:
        if not args and name in CANDIDATES:
            continue
        label = f"{shown}, a name only the shell knows, as {name}"
        argv = (Word.lit(name), *args)
        yield from _checked(argv, cmd, where, (*via, *cmd.via, label), checks_for(name, False))


def _checked(
    argv: tuple[Word, ...],
    cmd: Command,
    where: Where,
    labels: tuple[str, ...],
    checks: tuple[Rule, ...],
) -> Iterator[Finding]:
    """Each of ``checks`` on ``argv`` run as a command of ``cmd``'s line (``labels``: how
    the line comes to run it)."""
    call = Call(Command(argv, cmd.source, (), cmd.cd, None, -1, labels), None, where)
    for check in checks:
        yield from check(call)


def _blanked(text: str, ifs: str | None) -> str:
    """``text`` with the characters of a changed ``IFS`` read as the blanks they split at."""
    return "".join(" " if c in ifs else c for c in text) if ifs else text


def _filled_later(word: Word, script: Script, anyname: bool = False) -> bool:
    """``"$@"``, ``$1``, ``$x`` of a value the line assigns: a whole word the shell fills
    (also ``"${a[@]}"``, ``${@:2}``, ``${a[0]}``: elements or a slice of one, tried whole;
    ``anyname``: any name, when the line assigns through a name it computes)."""
    if word.static or len(word.parts) != 1:
        return False
    part = word.parts[0]
    name = getattr(part, "name", "")
    if name.startswith("{"):  # (treewords' name for `${a[…]}`, `${@:…}`, `${!a}`, …)
        name = _base_name(name[1:])
    if name in ("@", "*") or name.isdigit() or any(n == name for n, _ in script.values):
        return True
    return anyname and name.isidentifier()


def _base_name(text: str) -> str:
    """The parameter a ``{…}`` name is of: ``@``, ``*``, digits, or a name's characters."""
    if text[:1] in ("@", "*"):
        return text[0]
    end = 0
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[:end]


def _value_word(text: str) -> Word:
    """A word of a value the line spells (``a=(-rf ~)``), a leading ``~`` bash's home."""
    if text == "~" or text.startswith("~/"):
        return Word((Var("HOME"), *((text[1:],) if text[1:] else ())), text)
    return Word.lit(text)


def _with_values_as_args(
    cmd: Command, script: Script, where: Where, via: tuple[str, ...], anyname: bool = False
) -> Iterator[Finding]:
    """``set -- -rf /; rm "$@"``, ``x='-rf /'; rm $x``, ``f() { rm "$@"; }; f -rf /``: the
    command with each argument list the line spells in the place of the unknown word."""
    checks = checks_for(cmd.name, False)
    if not checks:
        return
    lists: list[tuple[Word, ...]] = [
        tuple(_value_word(t) for t in value.split()) for _, value in script.values
    ]
    for other in script.commands:
        args = other.args
        if other.name == "set" and args and args[0].text == "--":
            args = args[1:]
        if args and other is not cmd and all(a.static or _home(a) for a in args):
            lists.append(tuple(args))
    label = "arguments the line may pass in the place of a parameter"
    for k, word in enumerate(cmd.argv):
        if k == 0 or not _filled_later(word, script, anyname):
            continue
        for filled in lists[:16]:
            # (each tail too: `shift`, `"${@:2}"`, `"${a[@]:1}"` drop the first items)
            for start in range(min(len(filled), _MAX_TAILS)):
                argv = (*cmd.argv[:k], *filled[start:], *cmd.argv[k + 1 :])
                yield from _checked(argv, cmd, where, (*via, *cmd.via, label), checks)


_MAX_TAILS = 8


def _home(word: Word) -> bool:
    """``~`` or ``~/x``: bash's home, as good as static to a rule (``f -rf ~``)."""
    head = word.parts[0]
    return isinstance(head, Var) and head.name == "HOME" and word.raw.startswith("~")


def home_text(word: Word, home: str | None) -> str | None:
    """The text of a static word, or of ``~``/``~/x`` with ``home`` known; else None."""
    if word.static:
        return word.text
    if home is None or not _home(word) or not all(type(p) is str for p in word.parts[1:]):
        return None
    return home + "".join(p for p in word.parts[1:] if type(p) is str)


def filled_args(args: Sequence[Word], home: str | None, values: dict[str, str]) -> list[str | None]:
    """A printer's arguments with the line's static values in the place of ``$x`` /
    ``"$x"`` (``x='rm -rf /'; echo "$x" | sh``): an unquoted value split at blanks, as
    bash splits it; None for a word with another unknown part."""
    out: list[str | None] = []
    for a in args:
        text = home_text(a, home)
        if text is not None:
            out.append(text)
            continue
        filled: list[str] = []
        for p in a.parts:
            if isinstance(p, str):
                filled.append(p)
            elif p.name in values:
                filled.append(values[p.name])
            else:
                return [None]
        if a.raw.startswith('"') or len(a.parts) > 1:  # ("a$x" is kept whole: rarely split)
            out.append("".join(filled))
        else:
            out.extend(filled[0].split())
    return out


# Wrappers, shells and interpreters a value may hold after other words (the first word
# of a value is judged with the value already): what runs the words after them.
_VALUE_WRAPPERS = PEELED - {"find", "git"}


def _values_as_commands(
    script: Script, where: Where, depth: int, via: tuple[str, ...], judge: Judge, text: str
) -> Iterator[Finding]:
    # (each IFS the line sets, the last first: one set on a path bash may not take,
    # `IFS=,; if …; then IFS=' '; fi`, may be the one in force)
    ifses: list[str | None] = [v for n, v in reversed(script.values) if n == "IFS"] or [None]
    ifses = list(dict.fromkeys(ifses))
    ifs = ifses[0]
    label = "a value the line may run as a command"
    values = list(script.values)
    for cmd in script.commands:  # `read -r x <<< 'rm -rf /'; $x`: what is read is a value
        if cmd.name in _READERS and cmd.stdin is not None and cmd.stdin.kind == "text":
            values.extend(("", line) for line in cmd.stdin.text.splitlines())
        elif "printf" in cmd.source and "-v" in cmd.source:
            # `printf -v c '%s -rf /' rm; $c`, also as words a function runs
            # (`f() { "$@"; }; f printf -v c '%s %s' rm '-rf /'; $c`)
            argv = cmd.argv
            for k in range(len(argv) - 3):
                if argv[k].text != "printf" or argv[k + 1].text != "-v":
                    continue
                rest = argv[k + 3 :]
                if all(a.static for a in rest):
                    from hookrun.hooks.shell_guard.printed import printed  # (printf -v only)

                    values.append(("", printed("printf", [a.text for a in rest])))
        elif not cmd.argv:  # `while read -r l; do $l; done <<< 'rm -rf /'`
            for r in cmd.redirects:
                if r.text is not None and r.op in ("<<<", "<<", "<<-"):
                    values.extend(("", line) for line in r.text.splitlines())
    if values and _CASE_OPS.search(text):  # `c='RM -RF /'; ${c,,}`: the value, case-converted
        values += [(n, v) for n, value in values for v in _cased(value)]
    if len(ifses) > 1:  # each value split by each IFS
        values = list(dict.fromkeys((n, _blanked(v, i)) for n, v in values for i in ifses))
        ifs = None
    for name, value in values:
        if name == "IFS":
            continue
        value = _blanked(value, ifs)
        if " " in value or "\t" in value:
            yield from judge(value, where, depth + 1, (*via, label))
            words = value.split()  # `a=(x rm -rf /); "${a[@]:1}"`: from a program name on
            for k in range(1, min(len(words), _MAX_ARGS)):
                name = command_name(words[k])
                if name in _VALUE_WRAPPERS and k + 1 < len(words):
                    # `a=(x env --split-string='git push …'); "${a[@]:1}"`: a wrapper and
                    # its words from there on, as the command they make
                    yield from judge(" ".join(words[k:]), where, depth + 1, (*via, label))
                    continue
                checks = checks_for(name, False)
                if checks and not words[k].startswith("-"):
                    argv = tuple(_value_word(w) for w in words[k:])
                    yield from _checked(argv, script.commands[0], where, (*via, label), checks)
                    # `set -- -rf / rm; "${@: -1}" "${@:1:$(($#-1))}"`: the name moved first
                    argv = tuple(_value_word(w) for w in (words[k], *words[:k]))
                    yield from _checked(argv, script.commands[0], where, (*via, label), checks)
    for cmd in script.commands:
        argv = cmd.argv[1:_MAX_ARGS]
        for k, word in enumerate(argv):
            if not word.static:
                continue
            texts = dict.fromkeys(_blanked(word.text, i) for i in ifses)
            split = [t for t in texts if " " in t or "\t" in t]
            if split:  # `set -- 'rm -rf /'; eval "$1"`
                for t in split:
                    yield from judge(t, where, depth + 1, (*via, label))
                continue
            name = command_name(word.text)
            if name and peels(name) and name not in ("find", "git") and k + 1 < len(argv):
                # `set -- python3 -c '…'; "$@"`, `f nice perl -e '…'`: a wrapper, a shell or
                # an interpreter with its words, judged as the command they make
                code = " ".join(a.raw for a in argv[k:])
                if cmd.stdin is not None and cmd.stdin.kind == "text":  # `f bash -s <<< '…'`
                    code += f" <<'_HK_EOF_'\n{cmd.stdin.text.rstrip(chr(10))}\n_HK_EOF_"
                yield from judge(code, where, depth + 1, (*via, label))
                continue
            checks = checks_for(name, False) if name else ()
            if not checks or word.text.startswith("-"):
                continue
            if cmd.name == "git" and all(a.static for a in argv[:k]):
                continue  # `git rm -rf "$d"`: git's own rm (only an unknown word before it,
                # `git $opts rm …`, may be an alias that makes it a command)
            yield from _checked(tuple(argv[k:]), cmd, where, (*via, label), checks)
            if k and cmd.name == "set":  # (the name moved first, as for a value above)
                yield from _checked((word, *argv[1:k]), cmd, where, (*via, label), checks)


# ${x,,} ${x,} ${x^^} ${x^} ${x~~} ${x~} ${x@L} ${x@U} ${x@u} ${x@l}, declare -l/-u/-c
_CASE_OPS = lazy_compile(r"\$\{[^}]*(?:,|\^|~|@[LUul])|\b(?:declare|typeset|local)\s+-\w*[luc]")


def _cased(value: str) -> list[str]:
    """The case conversions of ``value`` that differ from it: lower, swapped."""
    return [v for v in dict.fromkeys((value.lower(), value.swapcase())) if v != value]


def _process_substituted(
    cmd: Command, where: Where, depth: int, via: tuple[str, ...], judge: Judge
) -> Iterator[Finding]:
    """``source <(echo '…')``, ``bash <(…)``, ``bash < <(…)``, ``BASH_ENV=<(…) bash``:
    the text the process substitution prints is code."""
    name = cmd.name
    source = cmd.source
    if "<(" not in source:
        return
    if not ("ENV=" in source or any(_SHELL_OR_SOURCE.intersection(w.parts) for w in cmd.argv)):
        return  # (a shell or `source` may stand behind a wrapper: `command . <(…)`)
    from hookrun.hooks.shell_guard.fallback import span_end

    i = source.find("<(")
    while i >= 0:
        j = span_end(source, i + 2, ")")
        text = printed_by(source[i + 2 : j - 1])
        if text is not None:
            label = f"text a process substitution gives {name or 'the shell'}"
            yield from judge(text, where, depth + 1, (*via, label))
        i = source.find("<(", j)


def printed_by(code: str, home: str | None = None) -> str | None:
    """What ``echo``/``printf`` of static words in ``code`` prints, else None (``home``:
    what bash makes of a ``~`` word, `xargs -a <(echo -rf ~) rm`)."""
    from hookrun.hooks.shell_guard.parse import parse_script
    from hookrun.hooks.shell_guard.printed import printed

    try:
        script = parse_script(code)
    except Exception:  # noqa: BLE001 - too deep or unreadable: nothing to add here
        return None
    texts: list[str] = []
    for c in script.commands:
        args = [home_text(a, home) for a in c.args] if c.name in ("echo", "printf") else [None]
        if None not in args:
            texts.append(printed(c.name, [a or "" for a in args]))
        elif c.name == "cat" and not c.args and c.stdin is not None and c.stdin.kind == "text":
            texts.append(c.stdin.text)  # `cat <<< '…'`, `cat <<'EOF' … EOF`
    return "\n".join(texts) if texts else None
