"""See through commands that run another command.

``sudo -u x env -i timeout 5 rm -rf ~`` is judged as ``rm -rf ~``. A wrapper
yields the command it runs as a further *layer* (every layer is judged, so a
user shape can name either); a wrapper that runs a *string* of shell code
(``bash -c``, ``eval``, ``ssh host '…'``, ``watch``, ``su -c``, an inline git
alias ``!…``) yields it as :class:`Nested` code that the engine parses and
judges in turn.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from hookrun.hooks.shell_guard.heads import (
    CODE_FLAGS,
    git_subcommand_at,
    inline_language,
    is_python,
    peels,
)
from hookrun.hooks.shell_guard.model import UNKNOWN_DIR, Command, Var, Word
from hookrun.hooks.shell_guard.names import SHELLS
from hookrun.hooks.shell_guard.wrappers import (
    BWRAP_ARGS,
    MANAGER_ARG,
    NAMED_PROGRAM,
    NIX_ARGS,
    PACKAGE_DELETERS,
    PACKAGE_RUNNERS,
    RUNNERS,
    WINDOWS_SHELLS,
    WRAPPERS,
    Spec,
    spec,
)
from hookrun.lazyre import compile as lazy_compile
from hookrun.records import NamedTuple

# Past this many layers something is looping (`env env env …`); stop peeling.
_MAX_LAYERS = 32


class Nested(NamedTuple):
    """Shell code a command runs from a string."""

    code: str
    via: str  # how it is run, for the reason: "bash -c", "ssh host", "eval"
    remote: bool = False  # runs on another machine: its paths are not ours
    cd: tuple[Word, ...] | None = None  # where it runs, when a wrapper moved (`env -C d sh -c`)


_SHELL_ARG_OPTS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
_SSH_ARG = "BbcDEeFIiJLlmOoPpQRSWw"
_WATCH_ARG = "nqd"
_FIND_FILTERS = frozenset(
    [
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-regex",
        "-iregex",
        "-lname",
        "-ilname",
        "-newer",
        "-anewer",
        "-cnewer",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-size",
        "-user",
        "-group",
        "-uid",
        "-gid",
        "-perm",
        "-empty",
        "-links",
        "-inum",
        "-samefile",
        "-used",
        "-nouser",
        "-nogroup",
    ]
)


def unwrap(cmd: Command, stdin: str | None = None) -> tuple[list[Command], list[Nested]]:
    """Every layer of ``cmd`` (itself first), and the code strings it runs.

    ``stdin``: the text ``cmd`` reads when it is known (``echo / | xargs rm -rf``),
    which ``xargs`` and ``parallel`` turn into arguments. Every layer is peeled
    in turn (``parallel`` yields one per item).
    """
    if not may_peel(cmd):  # most commands run nothing else: one layer, no code
        return [cmd], []
    layers = [cmd]
    nested: list[Nested] = []
    todo = [cmd]
    while todo and len(layers) < _MAX_LAYERS:
        current = todo.pop(0)
        step = _peel(current, nested, stdin if current is cmd else None)
        step = step[: _MAX_LAYERS - len(layers)]
        layers.extend(step)
        todo.extend(step)
    return layers, nested


def may_peel(cmd: Command) -> bool:
    """``cmd`` may run another command or code (:func:`_peel` has a branch for it)."""
    name = cmd.name
    if peels(name):
        return True
    return bool(cmd.argv) and cmd.argv[0].static and "=" in cmd.argv[0].text


def _layer(cmd: Command, argv: Sequence[Word], via: str) -> Command:
    return cmd.layer(tuple(argv), (*cmd.via, via))


def _code_layer(cmd: Command, argv: Sequence[Word], via: str) -> Command:
    """What an interpreter's code runs or deletes (``system("rm", "-rf", "/")``,
    ``rmtree("/etc")``) as the command that does the same: a reason quotes it, not the
    whole interpreter line (as for a program read from stdin: engine.py)."""
    shown = " ".join(w.text for w in argv)
    return Command(tuple(argv), shown, (), cmd.cd, None, -1, (*cmd.via, via))


_ASSIGNMENT_LIKE = lazy_compile(r"[^=/]*=.*", re.DOTALL)
_ENV_ASSIGN = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.DOTALL)


def _peel(cmd: Command, nested: list[Nested], stdin: str | None = None) -> list[Command]:
    """The command(s) ``cmd`` runs directly; code strings go to ``nested``."""
    name = cmd.name
    args = cmd.args
    if cmd.argv and cmd.argv[0].static and _ASSIGNMENT_LIKE.fullmatch(cmd.argv[0].text):
        # `1A=2 git reset --hard`: not a valid assignment, so bash runs a command
        # named "1A=2" — and one typo away is `A=2 git reset --hard`. Judge the rest.
        return [_layer(cmd, cmd.argv[1:], "assignment")] if args else []
    if name == "command" and any(a.text == "-v" for a in args[:2]):
        return []  # `command -v rm` looks rm up; it does not run it
    if name == "parallel":
        lines = None if stdin is None else [x for x in stdin.splitlines() if x.strip()]
        return _parallel(cmd, nested, lines)
    if name == "xargs":
        return _xargs_layers(cmd, nested, stdin)
    if name in ("su", "sg", "runuser") and not any(a.text == "--" for a in args):
        # `su [-] [user] -c CMD`: the code option may follow the user name.
        for i, a in enumerate(args[:-1]):
            if a.text in ("-c", "--command"):
                nested.append(Nested(args[i + 1].text, f"{name} -c"))
                return []
    if name in _DEBUGGERS:
        return _debugger(cmd, name, nested)
    if name in _PACKAGE_HEADS:
        ran = _package_runner(cmd, nested)
        if ran is not None:
            return ran
    if name in WRAPPERS:
        return _wrapper(cmd, name, WRAPPERS[name], nested)
    if name in _SANDBOXES:
        ran = _sandbox(cmd, name, nested)
        if ran is not None:  # (None: `nix develop`, a runner of wrappers.RUNNERS)
            return ran
    if len(args) >= 1 and (name, args[0].text) in RUNNERS:
        spec = RUNNERS[(name, args[0].text)]
        sub = cmd.layer(cmd.argv[1:], cmd.via)
        return [
            _layer(c, c.argv, f"{name} {args[0].text}") for c in _wrapper(sub, name, spec, nested)
        ]
    if name in SHELLS:
        _shell(cmd, name, nested)
        return []
    if is_python(name):
        return _python(cmd, nested)
    language = inline_language(name)
    if language:
        return _interpreter(cmd, language, nested, stdin)
    if name in WINDOWS_SHELLS:
        _windows_shell(cmd, name, nested)
        return []
    if name == "trap":
        action = args[1:] if args and args[0].text == "--" else args
        if len(action) >= 2 and not action[0].text.startswith("-"):
            nested.append(Nested(action[0].text, "trap"))  # the action runs on the signal
        return []
    if name == "eval" and args:
        code = args[1:] if args[0].text == "--" else args  # `eval -- CODE`: bash skips `--`
        nested.append(Nested(" ".join(a.text for a in code), "eval"))
        return []
    if name == "ssh":
        _ssh(cmd, nested)
        return []
    if name == "watch":
        return _watch(cmd, nested)
    if name == "find":
        return _find_exec(cmd)
    if name == "git":
        source = cmd.source  # (most git commands name none of these: no split made)
        if "foreach" in source or "bisect" in source or "difftool" in source:
            _git_runs(cmd, nested)
        return _git_alias(cmd, nested)
    if name == "rsync":
        _rsync_shell(cmd, nested)
    return []


_PACKAGE_HEADS = frozenset({name for name, _ in PACKAGE_RUNNERS} | {"uv"})  # (uv tool run)
_MANAGER_DIR = frozenset({"-C", "--dir", "--cwd", "--directory"})  # (uv's: --directory)
_DEBUGGERS = frozenset({"gdb", "lldb", "perf", "rr", "uftrace", "hyperfine", "arch"})
# `perf SUB [opts] CMD`: the subcommands that run a command, and their options taking a value
_PERF = {
    "record": spec("eoptCcFmrGuDj", "--event --output --pid --tid --cpu --count --freq"),
    "stat": spec("eoptCGrxDI", "--event --output --pid --tid --cpu --repeat --delay"),
    "trace": spec("eoptCF", "--event --output --pid --tid --cpu --expr"),
    "mem": spec("etC", "--event --type --cpu"),
    "c2c": spec("eC", "--event --cpu"),
    "kvm": spec(),
    "sched": spec(),
    "lock": spec(),
}
_HYPERFINE = spec(
    "wrmMpcsSunLPo",
    "--warmup --runs --min-runs --max-runs --prepare --cleanup --setup --shell "
    "--time-unit --command-name --parameter-list --parameter-scan --parameter-step-size "
    "--export-json --export-csv --export-markdown --export-asciidoc --export-orgmode "
    "--output --style --sort --reference --conclude",
    code="-p --prepare -c --cleanup -s --setup --conclude --reference",
)


def _debugger(cmd: Command, name: str, nested: list[Nested]) -> list[Command]:
    """gdb, lldb, perf, rr, uftrace, hyperfine and macOS ``arch``: what they run.

    ``gdb --args CMD…`` and ``lldb [--] CMD…`` load CMD and run it on ``run`` (given by
    ``-ex run``/``-o run``, or the next line of input): judged as running it. gdb's
    ``-ex 'shell …'``/``-ex '!…'`` and lldb's ``-o 'platform shell …'`` are shell code.
    """
    args = cmd.args
    texts = [a.text for a in args]
    if name == "gdb":
        for k, t in enumerate(texts[:-1]):
            value = texts[k + 1]
            if t in ("-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex"):
                for lead in ("shell ", "!", "pipe "):
                    if value.lstrip().startswith(lead):
                        nested.append(Nested(value.lstrip()[len(lead) :], "gdb -ex shell"))
        if "--args" in texts:
            rest = list(args[texts.index("--args") + 1 :])
            return [_layer(cmd, rest, "gdb --args")] if rest else []
        return []
    if name == "lldb":
        for k, t in enumerate(texts[:-1]):
            value = texts[k + 1].lstrip()
            if t in ("-o", "--one-line", "-O", "--one-line-before-file", "-k") and value.startswith(
                "platform shell "
            ):
                nested.append(Nested(value[len("platform shell ") :], "lldb platform shell"))
        if "--" in texts:
            rest = list(args[texts.index("--") + 1 :])
        else:  # `lldb [opts] PROGRAM ARGS…` (options with a value: -o, -s, -p, -a, -f…)
            i = 0
            while i < len(args) and texts[i].startswith("-"):
                i += 2 if texts[i] in _LLDB_ARG else 1
            rest = list(args[i:])
        return [_layer(cmd, rest, "lldb")] if rest else []
    if name == "hyperfine":  # every operand is a command line, run by a shell
        code: list[str] = []
        start = _skip_all_options(args, _HYPERFINE, code)
        for c in code:
            nested.append(Nested(c, "hyperfine"))
        for a in args[start:]:
            nested.append(Nested(a.text, "hyperfine"))
        return []
    if name == "arch":  # `arch -arm64 CMD`, `arch -arch x86_64 CMD`, `arch -e A=1 CMD`
        i = 0
        while i < len(args) and texts[i].startswith("-"):
            i += 2 if texts[i] in ("-arch", "-e") else 1
        rest = list(args[i:])
        return [_layer(cmd, rest, "arch")] if rest else []
    # perf SUB …, rr [record] …, uftrace [record|live] …
    sub_at = 0
    while sub_at < len(args) and texts[sub_at].startswith("-"):
        sub_at += 1
    sub = texts[sub_at] if sub_at < len(args) else ""
    if name == "perf":
        if sub not in _PERF:
            return []
        opts = _PERF[sub]
    else:  # rr / uftrace: `record`/`live` CMD, or CMD alone (recorded); others run none
        opts = spec("o", "--output")
        if sub in ("replay", "report", "ps", "dump", "pack", "sources", "info", "graph", "tui"):
            return []
        if sub not in ("record", "live"):
            sub_at, sub = sub_at - 1, ""  # (no subcommand: the command follows the options)
    rest = list(args[sub_at + 1 :])
    start = _skip_options(rest, opts, [])
    inner = rest[start:]
    return [_layer(cmd, inner, f"{name} {sub}".strip())] if inner else []


_LLDB_ARG = frozenset(
    ["-o", "-O", "-k", "-K", "-s", "-S", "-p", "-n", "-a", "-f", "-c", "-l", "-P", "--file",
     "--core", "--arch", "--one-line", "--source", "--attach-pid", "--attach-name"]
)  # fmt: skip


def _skip_all_options(args: Sequence[Word], spec: Spec, code: list[str]) -> int:
    """:func:`_skip_options` for a program whose options may follow its operands
    (hyperfine): the operands are the words no option takes."""
    return _skip_options(args, spec, code)


def _bin_of(word: Word) -> Word:
    """The program a package spec runs: ``rimraf@3`` → rimraf, ``@scope/pkg@1`` → pkg,
    ``npm:del-cli`` → del-cli (a package's bin is named after it, as a rule)."""
    if not word.static:
        return word
    text = word.text
    if text.startswith(("npm:", "jsr:")):
        text = text[4:]
    if text.startswith("@") and "/" in text:
        text = text.split("/", 1)[1]
    name = text.split("@", 1)[0] if "@" in text[1:] else text
    return word if name == word.text or not name else Word((name,), word.raw)


def _package_runner(cmd: Command, nested: list[Nested]) -> list[Command] | None:
    """``npx PKG ARGS…`` (also ``npm exec``/``npm x``, ``pnpm dlx``/``exec``, ``pnpx``,
    ``yarn dlx``/``exec``, ``bunx``, ``bun x``): PKG's program with ARGS; ``npx -c CODE``
    and ``pnpm dlx -c`` (shell mode) run shell code. ``yarn rimraf …``/``pnpm rimraf …``
    run a package's bin without ``exec``. None: not a package runner's form."""
    name = cmd.name
    args = cmd.args
    if (name, "") in PACKAGE_RUNNERS:
        opts, rest, via = PACKAGE_RUNNERS[(name, "")], list(args), name
    else:
        i = 0
        dirs: list[Word] = []
        while i < len(args) and args[i].text.startswith("-"):  # `pnpm -C dir dlx …`
            opt = args[i].text.partition("=")
            if opt[0] in _MANAGER_DIR and name != "npm":  # (npm's --prefix: not its cwd)
                dirs.append(_dir_word(args, i, i if opt[1] else i + 1, opt[2]))
            i += 2 if args[i].text in MANAGER_ARG else 1
        if i >= len(args):
            return None
        cmd = _moved(cmd, dirs)
        sub = args[i].text
        if name == "uv" and sub == "tool" and i + 1 < len(args) and args[i + 1].text == "run":
            opts, rest, via = PACKAGE_RUNNERS[("uvx", "")], list(args[i + 2 :]), "uv tool run"
        elif (name, sub) in PACKAGE_RUNNERS:
            opts, rest, via = PACKAGE_RUNNERS[(name, sub)], list(args[i + 1 :]), f"{name} {sub}"
        elif i > 0 and (name, sub) in RUNNERS:  # `uv --directory d run …`: moved
            return _peel(cmd.layer((cmd.argv[0], *args[i:]), cmd.via), nested)
        elif name == "yarn" and sub in ("workspace", "workspaces") and i + 2 < len(args):
            # `yarn workspace NAME CMD…`, `yarn workspaces foreach [OPTS] CMD…`: yarn's CMD
            # run in each workspace (yarn 4's options of foreach that take a value)
            k = i + 2
            if sub == "workspaces":
                if args[i + 1].text != "foreach":
                    return None
                while k < len(args) and args[k].text.startswith("-"):
                    k += 2 if args[k].text in _YARN_FOREACH_ARG else 1
            if k >= len(args):
                return None
            return _peel(cmd.layer((cmd.argv[0], *args[k:]), (*cmd.via, f"yarn {sub}")), nested)
        elif name in ("yarn", "pnpm") and _bin_of(args[i]).text in PACKAGE_DELETERS:
            return [_layer(cmd, [_bin_of(args[i]), *args[i + 1 :]], name)]
        elif (  # `yarn run rimraf …` runs the bin too (pnpm run and npm run: scripts only)
            name == "yarn"
            and sub == "run"
            and i + 1 < len(args)
            and _bin_of(args[i + 1]).text in PACKAGE_DELETERS
        ):
            return [_layer(cmd, [_bin_of(args[i + 1]), *args[i + 2 :]], "yarn run")]
        else:
            return None
    code: list[str] = []
    start = _skip_options(rest, opts, code)
    for c in code:
        nested.append(Nested(c, f"{via} -c"))
    operands = rest[start:]
    if not operands:
        return []
    if name == "pnpm" and any(a.text in ("-c", "--shell-mode") for a in rest[:start]):
        nested.append(Nested(" ".join(a.text for a in operands), f"{via} --shell-mode"))
        return []
    if any(a.text.partition("=")[0] in NAMED_PROGRAM for a in rest[:start]):
        program = operands[0]  # (`uvx --from httpie http`, `pipx run --spec black black`)
    elif name in _PYTHON_RUNNERS:
        program = _tool_of(operands[0])
    else:
        program = _bin_of(operands[0])
    return [_layer(cmd, [program, *operands[1:]], via)]


_PYTHON_RUNNERS = frozenset({"uvx", "uv", "pipx"})
_YARN_FOREACH_ARG = frozenset({"-j", "--jobs", "--include", "--exclude", "--from"})


def _tool_of(word: Word) -> Word:
    """The program a Python tool spec runs: ``ruff@0.6``, ``ruff==0.6``, ``black[d]>=24``
    → its name (a package's script is named after it, as a rule)."""
    if not word.static:
        return word
    text = word.text
    cut = min((k for k in map(text.find, "@=<>!~[;") if k > 0), default=len(text))
    return word if cut == len(text) else Word((text[:cut],), word.raw)


def _skip_options(
    args: Sequence[Word], spec: Spec, code: list[str], dirs: list[Word] | None = None
) -> int:
    """Index of the first operand after ``spec``'s options; code option values → ``code``,
    directories the command is run in (``env -C DIR``, ``sudo -D DIR``) → ``dirs``."""
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "--":
            return i + 1
        if text == "-":  # `env -`: the same as -i
            i += 1
            continue
        if text.startswith("--") and len(text) > 2:
            name, eq, value = text.partition("=")
            at = i
            if name in spec.long_arg and not eq:
                value = args[i + 1].text if i + 1 < len(args) else ""
                i += 1
            if name in spec.code_opts:
                code.append(value)
            if dirs is not None and name in spec.chdir_opts:
                dirs.append(_dir_word(args, at, i, value))
            i += 1
            continue
        if text.startswith("-") and len(text) > 1:
            at = i
            i += 1
            for k, ch in enumerate(text[1:], start=2):
                if ch in spec.short_arg:
                    value = text[k:]
                    if not value:
                        value = args[i].text if i < len(args) else ""
                        i += 1
                    if "-" + ch in spec.code_opts:
                        code.append(value)
                    if dirs is not None and "-" + ch in spec.chdir_opts:
                        dirs.append(_dir_word(args, at, i - 1, value))
                    break
            continue
        if "=" in text and _ENV_ASSIGN.fullmatch(text):
            i += 1  # env's NAME=value
            continue
        break
    return i


def _dir_word(args: Sequence[Word], at: int, value_at: int, value: str) -> Word:
    """The directory an option names: its own word (``-C DIR``), or the text after
    ``=``/the letter when the option's word is known (``--chdir=DIR``, ``-CDIR``)."""
    if value_at != at and value_at < len(args):
        return args[value_at]
    if args[at].static and value:
        return Word.lit(value)
    return Word((Var(UNKNOWN_DIR),), args[at].raw)


def _env_spliced(args: Sequence[Word], spec: Spec) -> str:
    """``env ARGS`` with each ``-S``/``--split-string`` value put in its option's place."""
    out = ["env"]
    commanded = False
    i = 0
    while i < len(args):
        if commanded:  # a spliced word was no option (the command, a NAME=v): env
            out.extend(w.raw for w in args[i:])  # reads no further options
            break
        text = args[i].text
        if text.startswith("--split-string"):
            name, eq, value = text.partition("=")
            if name == "--split-string":
                if not eq:
                    i += 1
                    value = args[i].text if i < len(args) else ""
                out.append(value)
                commanded = _names_a_command(value)
                i += 1
                continue
        if text.startswith("-") and not text.startswith("--") and len(text) > 1:
            for k, ch in enumerate(text[1:], start=2):
                if ch in spec.short_arg:
                    if ch == "S":
                        value = text[k:]
                        if not value:
                            i += 1
                            value = args[i].text if i < len(args) else ""
                        if k > 2:  # flags before it in the same word: `-iS 'rm -rf /'`
                            out.append(text[: k - 1])
                        out.append(value)
                        commanded = _names_a_command(value)
                    else:  # another option taking a value: `-u NAME`, `-uS` (unsets S)
                        out.append(args[i].raw)
                        if k == len(text) and i + 1 < len(args):
                            i += 1
                            out.append(args[i].raw)
                    break
            else:
                out.append(args[i].raw)
            i += 1
            continue
        # The first other word ends env's options (`--`, `-`, NAME=v, the command):
        # what follows is no -S of env's.
        out.extend(w.raw for w in args[i:])
        break
    return " ".join(out)


def _names_a_command(split: str) -> bool:
    return any(w[:1] != "-" for w in split.split())


def _moved(cmd: Command, dirs: Sequence[Word]) -> Command:
    """``cmd`` run in ``dirs`` (a wrapper's ``-C DIR``): the steps after its own ``cd``s."""
    if not dirs:
        return cmd
    cd = (*cmd.cd, *dirs)
    return Command(cmd.argv, cmd.source, cmd.redirects, cd, cmd.stdin, cmd.pipe_from, cmd.via)


def _wrapper(cmd: Command, name: str, spec: Spec, nested: list[Nested]) -> list[Command]:
    args = cmd.args
    code: list[str] = []
    dirs: list[Word] = []
    start = _skip_options(args, spec, code, dirs if spec.chdir_opts else None)
    if name == "sudo" and any(_login(a.text) for a in args[:start]):
        dirs.append(Word((Var(UNKNOWN_DIR),), "-i"))  # `sudo -i`: the user's home, unknown
    elif name == "chroot" and not any(a.text == "--skip-chdir" for a in args[:start]):
        dirs.append(Word.lit("/"))  # (chroot runs CMD in the new root's /: as its paths read)
    cmd = _moved(cmd, dirs)
    if name == "env" and code:
        # `env -S STRING ARGS…` splits STRING into arguments in its place, and option
        # reading goes on over them: `env -S rm -rf /` runs `rm -rf /` (GNU env:
        # `env -S echo -rf /` prints "-rf /"). Judge the line again, spliced.
        nested.append(Nested(_env_spliced(args, spec), "env -S"))
        return []
    for c in code:
        nested.append(Nested(c, f"{name} -c"))
    rest = list(args[start + spec.operands :])
    if name == "flock" and len(rest) >= 2 and rest[0].text in ("-c", "--command"):
        nested.append(Nested(rest[1].text, "flock -c"))  # `flock FILE -c CODE`
        return []
    if name == "script":  # `script [-q] -c CODE [FILE]`: FILE is where it logs
        return []
    if name == "busybox" and rest and rest[0].text in ("sh", "ash"):
        return [_layer(cmd, rest, name)]
    return [_layer(cmd, rest, name)] if rest else []


def _login(option: str) -> bool:
    """sudo's ``-i``/``--login`` (in a cluster of flags too: ``-Ei``)."""
    if option == "--login":
        return True
    if option.startswith("--") or not option.startswith("-"):
        return False
    for c in option[1:]:
        if c == "i":
            return True
        if c in "ugpChDrRtTU":  # (an option taking a value: the rest is its value)
            return False
    return False


_XARGS = spec(
    "aEdeILlnPsJ",
    "--arg-file --delimiter --eof --max-lines --max-args --max-procs --max-chars "
    "--process-slot-var",
)
_MAX_ITEMS = 8  # items of xargs/parallel judged one by one; past that the rest are alike


def _xargs_layers(cmd: Command, nested: list[Nested], stdin: str | None) -> list[Command]:
    """``xargs [opts] CMD…``: CMD with the items it reads from stdin.

    ``-I R``, ``-IR``, ``-i[R]``, ``--replace[=R]`` and BSD's ``-J R`` replace
    ``R`` (``{}`` by default) in the arguments; otherwise items are appended.
    Known items (``echo / | xargs …``) are put in; unknown ones are a marker
    the delete rules treat as an unresolved target.
    """
    args = cmd.args
    replace_str: str | None = None
    i = 0
    while i < len(args):
        text = args[i].text
        if text == "--":
            i += 1
            break
        if text in ("-I", "-J") and i + 1 < len(args):
            replace_str = args[i + 1].text
            i += 2
            continue
        if text.startswith(("-I", "-J")) and len(text) > 2:
            replace_str = text[2:]
        elif text == "-i" or text.startswith("-i"):
            replace_str = text[2:] or "{}"
        elif text == "--replace" or text.startswith("--replace="):
            replace_str = text.partition("=")[2] or "{}"
        elif text.startswith("--") and "=" not in text and text in _XARGS.long_arg:
            i += 2
            continue
        elif text.startswith("-") and len(text) > 1 and not text.startswith("--"):
            opt = text[1]
            i += 2 if opt in _XARGS.short_arg and len(text) == 2 else 1
            continue
        elif not text.startswith("-"):
            break
        i += 1
    rest = list(args[i:]) or [Word.lit("echo")]
    items: list[str] | None = None
    nul = any(a.text in ("-0", "--null") for a in args[:i])
    if stdin is not None and nul:  # `-0`: items end at NUL (a newline is part of one)
        items = [x for x in stdin.split("\0") if x]
    elif stdin is not None:  # -I reads whole lines; otherwise blank-separated words
        items = [x for x in stdin.splitlines() if x.strip()] if replace_str else stdin.split()
    if items == [] and not replace_str and not any(_no_run_if_empty(a.text) for a in args[:i]):
        # GNU xargs given no items runs the command once, bare (`echo | xargs rm -rf /`
        # runs `rm -rf /`); only -r / --no-run-if-empty (and BSD's default) skip it.
        return [_layer(cmd, rest, "xargs")]
    if items and stdin is not None and not replace_str:
        # Without -I, xargs puts as many items on one command line as -n allows (else
        # all of them: `echo '-rf /' | xargs rm` runs `rm -rf /`); -L N: N lines' words.
        per, lines = _per_command(args[:i])
        if lines and not nul:
            rows = [x.split() for x in stdin.splitlines() if x.strip()]
            groups = [sum(rows[k : k + per], []) for k in range(0, len(rows), per)]
        else:
            groups = [items[k : k + per] for k in range(0, len(items), per)]
        return [
            _layer(cmd, [*rest, *(Word.lit(x) for x in group)], "xargs")
            for group in groups[:_MAX_ITEMS]
        ]
    return _with_items(cmd, rest, replace_str, items, "xargs")


def _no_run_if_empty(option: str) -> bool:
    """``-r``, ``--no-run-if-empty``, or a cluster of flags holding ``r`` (``-0r``)."""
    if option == "--no-run-if-empty":
        return True
    if not option.startswith("-") or option.startswith("--"):
        return False
    for c in option[1:]:
        if c == "r":
            return True
        if c in _XARGS.short_arg:  # (the rest of the word is that option's argument)
            return False
    return False


def _per_command(opts: Sequence[Word]) -> tuple[int, bool]:
    """How many items (or, True, lines) xargs puts on one command line: ``-n N``,
    ``-L N``/``-l[N]``/``--max-lines[=N]``; else all (as far as is judged)."""
    for k, a in enumerate(opts):
        text = a.text
        lines = text.startswith(("-L", "-l", "--max-lines"))
        if text in ("-n", "--max-args", "-L") and k + 1 < len(opts):
            value = opts[k + 1].text
        elif text.startswith(("--max-args", "--max-lines")):
            value = text.partition("=")[2] or "1"
        elif text.startswith(("-n", "-L", "-l")):
            value = text[2:] or "1"
        else:
            continue
        return (int(value) if value.isdigit() and int(value) > 0 else 1), lines
    return _MAX_ARGS, False


_MAX_ARGS = 64  # items of one xargs command line judged


def _with_items(
    cmd: Command,
    template: list[Word],
    marker: str | None,
    items: Sequence[str | Word] | None,
    via: str,
) -> list[Command]:
    """``template`` run once per item: ``marker`` replaced, or the item appended."""
    if items is None:
        unknown = Word((Var(f"{via}-input"),), "{}")
        if marker:
            argv = [unknown if marker in w.text else w for w in template]
            if all(marker not in w.text for w in template):
                argv = [*template]
        else:
            argv = [*template, unknown]
        return [_layer(cmd, argv, via)]
    if marker and all(marker not in w.text for w in template):
        marker = None  # `xargs -i rm -rf`: no {} to fill, so the item goes last
    out = []
    for item in list(items)[:_MAX_ITEMS]:
        word = item if isinstance(item, Word) else Word.lit(item)
        argv = [_fill(w, marker, word) for w in template] if marker else [*template, word]
        out.append(_layer(cmd, argv, via))
    return out


def _fill(word: Word, marker: str, item: Word) -> Word:
    """``word`` with ``marker`` replaced by ``item`` (a word of its own when it is all marker)."""
    if word.text == marker:
        return item
    if word.static and marker in word.text and item.static:
        return Word.lit(word.text.replace(marker, item.text))
    if marker in word.text:
        return Word((Var(f"{marker}-item"),), word.raw)
    return word


_PARALLEL_ARG = frozenset(
    [
        "-j",
        "--jobs",
        "-N",
        "--max-args",
        "-S",
        "--sshlogin",
        "--results",
        "--joblog",
        "--tmpdir",
        "-a",
        "--arg-file",
        "--delay",
        "--timeout",
        "--memfree",
        "--load",
        "-d",
        "--delimiter",
        "--colsep",
        "-E",
        "--env",
        "--workdir",
        "--basefile",
        "--return",
        "--transfer-file",
        "--tagstring",
        "--retries",
        "-L",
        "--max-lines",
    ]
)


def _parallel(
    cmd: Command, nested: list[Nested], items: Sequence[str | Word] | None
) -> list[Command]:
    """GNU ``parallel [opts] [CMD…] ::: ITEMS…``: CMD per item, ``{}`` replaced or appended.

    With no CMD each item is a command line; with no ``:::`` the items are
    read from stdin (known when piped from ``echo``/``printf``).
    """
    args = cmd.args
    i = 0
    marker = "{}"
    while i < len(args):
        text = args[i].text
        if text == "--":
            i += 1
            break
        if text in _PARALLEL_ARG:
            i += 2
            continue
        if text == "-I" and i + 1 < len(args):
            marker = args[i + 1].text
            i += 2
            continue
        if text.startswith("-") and text not in (":::", "::::", ":::+"):
            i += 1
            continue
        break
    rest = list(args[i:])
    template: list[Word] = []
    listed: list[str | Word] | None = None
    k = 0
    while k < len(rest) and rest[k].text not in (":::", "::::", ":::+"):
        template.append(rest[k])
        k += 1
    sources: list[list[Word]] = []
    linked: list[bool] = []  # `:::+`: paired with the source before it, not combined
    if k < len(rest):
        listed = []
        while k < len(rest):
            if rest[k].text in (":::", ":::+"):
                linked.append(rest[k].text == ":::+" and bool(sources))
                sources.append([])
                k += 1
                while k < len(rest) and rest[k].text not in (":::", "::::", ":::+"):
                    listed.append(rest[k])
                    sources[-1].append(rest[k])
                    k += 1
            else:  # `:::: file`: items from a file only the shell reads
                listed = None
                break
    if listed is not None and len(sources) > 1 and template:
        return _parallel_jobs(cmd, template, marker, sources, linked)
    source = listed if listed is not None else items
    if not template:  # each item is a command line
        if source is None:
            return []
        for item in list(source)[:_MAX_ITEMS]:
            nested.append(Nested(item.text if isinstance(item, Word) else item, "parallel"))
        return []
    has_marker = any(marker in w.text for w in template)
    return _with_items(cmd, template, marker if has_marker else None, source, "parallel")


def _parallel_jobs(
    cmd: Command, template: list[Word], marker: str, sources: list[list[Word]], linked: list[bool]
) -> list[Command]:
    """``parallel git ::: reset ::: --hard``: one job per combination of the sources'
    items (``:::+`` pairs a source with the one before), each job's items appended, or in
    the place of ``{}`` (all of them) and ``{1}``, ``{2}``… (one each)."""
    jobs: list[list[Word]] = [[]]
    for source, pair in zip(sources, linked, strict=True):
        if pair:  # (item k joins job k's last source)
            jobs = [[*job, source[j]] for j, job in enumerate(jobs) if j < len(source)]
        else:
            jobs = [[*job, item] for job in jobs for item in source][:_MAX_ITEMS]
    numbered = any(w.static and w.text[:1] == "{" and w.text[1:-1].isdigit() for w in template)
    has_marker = any(w.text == marker for w in template)
    out = []
    for job in jobs:
        argv: list[Word] = []
        for w in template:
            if numbered and w.static and w.text[:1] == "{" and w.text[-1:] == "}":
                k = int(w.text[1:-1]) if w.text[1:-1].isdigit() else 0
                argv.append(job[k - 1] if 0 < k <= len(job) else w)
            elif has_marker and w.text == marker:
                argv.extend(job)
            else:
                argv.append(w)
        if not numbered and not has_marker:
            argv.extend(job)
        out.append(_layer(cmd, argv, "parallel"))
    return out


def _shell(cmd: Command, name: str, nested: list[Nested]) -> None:
    args = cmd.args
    i = 0
    wants_code = False
    while i < len(args):
        text = args[i].text
        if text in _SHELL_ARG_OPTS:
            i += 2
            continue
        if text == "--":
            i += 1
            break
        if (text.startswith("-") or text.startswith("+")) and len(text) > 1:
            if not text.startswith("--") and "c" in text[1:]:
                wants_code = True
            i += 1
            if not text.startswith("--") and ("o" in text[1:] or "O" in text[1:]):
                i += 1  # `bash -euo pipefail -c …`: the option's name follows
            continue
        break
    if wants_code and i < len(args):
        code = args[i].text
        if len(args) > i + 1:  # `bash -c '"$@"' _ rm -rf /`: the rest are $0, $1, …
            # ($0 as a no-op's argument: indirect.py tries it as a program when the code
            # runs a name only the shell knows, `sh -c '"$0" /dev/sda' mkfs`)
            rest = " ".join(_quoted(a.text) for a in args[i + 2 :])
            code = f": {_quoted(args[i + 1].text)}\nset -- {rest}\n{code}"
        nested.append(Nested(code, f"{name} -c", cd=cmd.cd))


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _python(cmd: Command, nested: list[Nested]) -> list[Command]:
    """``python -c CODE``: what the code runs (see :mod:`inline_python`)."""
    args = cmd.args
    for i, a in enumerate(args[:-1]):
        if a.text == "-c" or (
            a.text.startswith("-") and a.text.endswith("c") and "-" not in a.text[1:]
        ):
            from hookrun.hooks.shell_guard.inline_python import calls

            shell, argvs = calls(args[i + 1].text)
            nested.extend(Nested(code, f"{cmd.name} -c") for code in shell)
            return [_code_layer(cmd, argv, f"{cmd.name} -c") for argv in argvs if argv]
        if not a.text.startswith("-"):
            break  # a script file: not opened
    return []


def _interpreter(
    cmd: Command, language: str, nested: list[Nested], stdin: str | None = None
) -> list[Command]:
    """``perl -e CODE``, ``ruby -e``, an awk program, ``node -e``…: what the code runs
    (see :mod:`inline_perl`, :mod:`inline_ruby`, :mod:`inline_awk`, :mod:`inline_code`)."""
    args = cmd.args
    if language == "awk":
        from hookrun.hooks.shell_guard import inline_awk

        got = inline_awk.program([a.text for a in args])
        if got is not None:
            via = f"{cmd.name} program"
            texts = [a.text for a in args]
            fed = stdin if inline_awk.reads_stdin(texts) else None  # (not a file's lines)
            nested.extend(Nested(code, via) for code in inline_awk.reads(*got, stdin=fed))
        return []
    if language in ("perl", "ruby"):
        from hookrun.hooks.shell_guard import inline_perl, inline_ruby

        reader = inline_perl if language == "perl" else inline_ruby
        found = reader.codes([a.text for a in args])
        if found is None:
            return []
        code, flag = found
        shell, argvs = reader.reads(code)
        via = f"{cmd.name} {flag}"
        nested.extend(Nested(text, via) for text in shell)
        return [_code_layer(cmd, argv, via) for argv in argvs if argv]
    out: list[Command] = []
    for i, a in enumerate(args[:-1]):
        if a.text in CODE_FLAGS or (
            a.text.startswith("-") and a.text[-1:] in "eE" and "-" not in a.text[1:]
        ):
            from hookrun.hooks.shell_guard import inline_code  # (node/php code only)

            shell, argvs = inline_code.reads(args[i + 1].text, php=cmd.name.startswith("php"))
            nested.extend(Nested(code, f"{cmd.name} {a.text}") for code in shell)
            out.extend(_code_layer(cmd, argv, f"{cmd.name} {a.text}") for argv in argvs if argv)
    return out


def _windows_shell(cmd: Command, name: str, nested: list[Nested]) -> None:
    args = cmd.args
    flags = WINDOWS_SHELLS[name]
    for i, a in enumerate(args):
        if a.text in flags or a.text.lower() in (f.lower() for f in flags):
            nested.append(Nested(" ".join(w.text for w in args[i + 1 :]), f"{name} {a.text}"))
            return


_SANDBOXES = frozenset({"bwrap", "nix", "nix-shell"})


_BWRAP_RW_BINDS = frozenset({"--bind", "--bind-try", "--dev-bind", "--dev-bind-try"})


def _bwrap_host_paths(word: Word, binds: list[tuple[str, str]]) -> list[Word]:
    """The host paths an absolute path inside bwrap's sandbox stands for: through the
    writable bind whose destination holds it (the last one bound there wins), and each
    writable bind's source mounted below it (`rm -rf /x` deletes what is mounted in /x
    too). A path no writable bind reaches is kept (judged as the host's: conservative)."""
    if not (word.static and word.text.startswith("/")):
        return [word]
    path = posixpath.normpath(word.text)
    mapped = path
    best = ""
    for src, dest in binds:
        if (path == dest or path.startswith(dest.rstrip("/") + "/")) and len(dest) >= len(best):
            best = dest
            mapped = src.rstrip("/") + path[len(dest.rstrip("/")) :] or "/"
    within = mapped.rstrip("/") + "/"
    below = [
        src
        for src, dest in binds
        if dest != path
        and dest.startswith(path.rstrip("/") + "/")
        and not (src + "/").startswith(within)  # (already under the path judged)
    ]
    head = word if mapped == path else Word.lit(mapped)
    return [head, *(Word.lit(src) for src in below)]


def _sandbox(cmd: Command, name: str, nested: list[Nested]) -> list[Command] | None:
    """``bwrap [OPTIONS] CMD``, ``nix run INSTALLABLE [--] ARGS`` (the installable's
    program, named by its attribute: ``nixpkgs#python3`` → python3), ``nix shell
    INSTALLABLES -c CMD``, ``nix-shell [-p PKGS] --run CODE`` (also ``--command CODE``):
    what they run. ``nix develop`` is a runner (wrappers.RUNNERS)."""
    args = cmd.args
    if name == "bwrap":
        i = 0
        dirs: list[Word] = []
        binds: list[tuple[str, str]] = []  # (source, destination) of each writable bind
        while i < len(args) and args[i].text.startswith("--"):
            text = args[i].text
            if text == "--":
                i += 1
                break
            if text == "--chdir" and i + 1 < len(args):
                dirs.append(args[i + 1])
            if text in _BWRAP_RW_BINDS and i + 2 < len(args):
                src, dest = args[i + 1], args[i + 2]
                if src.static and dest.static and dest.text.startswith("/"):
                    binds.append((src.text, posixpath.normpath(dest.text)))
            i += 1 + BWRAP_ARGS.get(text, 0)
        rest = list(args[i:])
        if binds and rest:
            rest = [rest[0], *(w for a in rest[1:] for w in _bwrap_host_paths(a, binds))]
        return [_layer(_moved(cmd, dirs), rest, "bwrap")] if rest else []
    if name == "nix-shell":
        i = 0
        while i < len(args):
            text = args[i].text
            if text in ("--run", "--command") and i + 1 < len(args):
                nested.append(Nested(args[i + 1].text, f"nix-shell {text}"))
                i += 2
                continue
            i += 1 + NIX_ARGS.get(text, 0)
        return []
    sub = args[0].text if args else ""
    if sub not in ("run", "shell"):
        return None  # (`nix develop`: wrappers.RUNNERS)
    i = 1
    installables: list[Word] = []
    while i < len(args):
        text = args[i].text
        if sub == "shell" and text in ("-c", "--command"):
            rest = list(args[i + 1 :])
            return [_layer(cmd, rest, "nix shell")] if rest else []
        if text == "--" and sub == "run":
            break
        if text.startswith("-") and len(text) > 1:
            i += 1 + NIX_ARGS.get(text, 0)
            continue
        installables.append(args[i])
        i += 1
        if sub == "run":
            break  # (what follows is the program's)
    if sub == "shell" or not installables:
        return []  # (`nix shell PKGS`: an interactive shell; `nix run`: the flake's own app)
    rest = list(args[i + 1 :] if i < len(args) and args[i].text == "--" else args[i:])
    return [_layer(cmd, [_nix_program(installables[0]), *rest], "nix run")]


def _nix_program(word: Word) -> Word:
    """The program ``nix run`` runs for an installable: its attribute's last name
    (``nixpkgs#python3Packages.black`` → black; ``nixpkgs#hello`` → hello); without an
    attribute (``.``, ``github:o/r``) the flake's default app, which only nix knows."""
    text = word.text
    _, hashed, attr = text.partition("#")
    if not word.static or not hashed or not attr:
        return Word((Var("NIX_APP"),), word.raw)
    return Word((attr.rsplit(".", 1)[-1].strip('"'),), word.raw)


def rsync_default_shell(cmd: Command, value: str) -> list[Nested]:
    """What rsync ``cmd`` runs as its remote shell when the line gives ``RSYNC_RSH`` the
    value ``value`` before it (`export RSYNC_RSH='…'; rsync … host:dst`): nothing when
    ``-e``/``--rsh`` or a prefix assignment gives one (unwrap judged those)."""
    out: list[Nested] = []
    _rsync_shell(cmd, out, value)
    return out


def _rsync_shell(cmd: Command, nested: list[Nested], default: str | None = None) -> None:
    """``rsync -e CMD`` / ``--rsh=CMD`` runs CMD locally, with the remote host and the
    remote rsync's arguments after it (``-e 'rm -rf'`` runs ``rm -rf HOST rsync --server …
    .``; ``-l USER`` first for ``user@host``); ``--rsync-path=PROG`` is code the remote
    shell runs, PROG then ``--server …``.
    (rsync 3.5.0 with a marker in CMD's place: wrappers_oracle_test.py.)"""
    from hookrun.hooks.shell_guard.rules.delete import _RSYNC_LONG_ARG, _RSYNC_SHORT_ARG

    args = cmd.args
    rsh: list[str] = []
    path: list[str] = []
    operands: list[str] = []
    i = 0
    while i < len(args):
        text = args[i].text
        i += 1
        if text == "--":
            break
        if text.startswith("--"):
            opt, eq, value = text.partition("=")
            if opt in _RSYNC_LONG_ARG and not eq:
                value = args[i].text if i < len(args) else ""
                i += 1
            if opt == "--rsh":
                rsh.append(value)
            elif opt == "--rsync-path":
                path.append(value)
            continue
        if text.startswith("-") and len(text) > 1:
            for k, ch in enumerate(text[1:], start=2):
                if ch in _RSYNC_SHORT_ARG:
                    value = text[k:]
                    if not value:
                        value = args[i].text if i < len(args) else ""
                        i += 1
                    if ch == "e":
                        rsh.append(value)
                    break
            continue
        operands.append(text)
    operands.extend(a.text for a in args[i:])
    if "RSYNC_RSH=" in cmd.source:  # `RSYNC_RSH='CMD' rsync …`: the default for -e
        rsh.extend(_prefix_value(cmd.source, "RSYNC_RSH") if not rsh else ())
    if default is not None:  # (rsync_default_shell: the line's value, and only that)
        if rsh or not any(":" in t.split("/", 1)[0] for t in operands):
            return  # (a local copy runs no remote shell)
        rsh, path = [default], []
    if not rsh and not path:
        return
    import shlex  # (an rsync line with -e or --rsync-path only)

    host, server = "host", "--server ."
    for k, text in enumerate(operands):
        colon = text.find(":")
        if colon > 0 and "/" not in text[:colon]:  # `[user@]host:path`, `host::module`
            user, at, host = text[:colon].rpartition("@")
            host = f"-l {shlex.quote(user)} {host}" if at else host  # (rsync: `-l user host`)
            sender = "--sender " if k < len(operands) - 1 else ""  # (a pull: host:src dst)
            where = text[colon + 1 :].lstrip(":") or "."
            server = f"--server {sender}. {shlex.quote(where)}"
            break
    for value in rsh:
        nested.append(Nested(f"{value} {host} rsync {server}", "rsync -e"))
    for value in path:
        nested.append(Nested(f"{value} {server}", f"rsync --rsync-path on {host}", remote=True))


def _prefix_value(source: str, name: str) -> list[str]:
    """The value a ``NAME=value`` word before the command's name gives ``name``."""
    import shlex

    try:
        words = shlex.split(source)
    except ValueError:
        return []
    out: list[str] = []
    for w in words:
        key, eq, value = w.partition("=")
        if not eq or not key.isidentifier():
            break
        if key == name:
            out = [value]
    return out


def _ssh(cmd: Command, nested: list[Nested]) -> None:
    args = cmd.args
    i = 0
    while i < len(args):
        text = args[i].text
        if text.startswith("-") and len(text) > 1:
            i += 2 if text[-1] in _SSH_ARG and len(text) == 2 else 1
            continue
        break
    if i + 1 < len(args):
        host = args[i].text
        code = " ".join(w.text for w in args[i + 1 :])
        nested.append(Nested(code, f"ssh {host}", remote=True))


def _watch(cmd: Command, nested: list[Nested]) -> list[Command]:
    args = cmd.args
    i = 0
    exec_mode = False
    while i < len(args):
        text = args[i].text
        if text in ("-x", "--exec"):
            exec_mode = True
        if text.startswith("--") and "=" not in text and text[2:] in ("interval", "differences"):
            i += 2
            continue
        if text.startswith("-") and len(text) > 1:
            i += 2 if text[-1] in _WATCH_ARG and len(text) == 2 else 1
            continue
        break
    rest = list(args[i:])
    if not rest:
        return []
    if exec_mode:
        return [_layer(cmd, rest, "watch")]
    nested.append(Nested(" ".join(w.text for w in rest), "watch"))
    return []


def find_parts(args: Sequence[Word]) -> tuple[list[Word], bool, int]:
    """find's start paths, whether its expression narrows the match, and where it starts."""
    starts: list[Word] = []
    i = 0
    while i < len(args) and args[i].text in ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"):
        i += 1
    while i < len(args) and not (args[i].text.startswith("-") or args[i].text in ("(", "!")):
        starts.append(args[i])
        i += 1
    narrows = any(a.text in _FIND_FILTERS for a in args[i:])
    return starts or [Word.lit(".")], narrows, i


def found_word(start: Word, narrows: bool, names: str = "") -> Word:
    """What find's ``{}`` stands for: the start itself, or (filtered) something under it.

    ``names``: the ``-name`` patterns of the filter, ``\n``-joined, when the
    filter is only names (``-name __pycache__ -type d``).
    """
    if not narrows:
        return start
    return Word((*start.parts, "/", Var("FOUND", names)), start.raw)


def find_names(args: Sequence[Word]) -> str:
    """``-name``/``-iname`` patterns, when they are the only narrowing tests."""
    names = []
    for k, a in enumerate(args[:-1]):
        if a.text in ("-name", "-iname"):
            names.append(args[k + 1].text)
        elif a.text in _FIND_FILTERS:
            return ""
    return "\n".join(names)


def _find_exec(cmd: Command) -> list[Command]:
    starts, narrows, i = find_parts(cmd.args)
    args = cmd.args
    out: list[Command] = []
    while i < len(args):
        if args[i].text in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(args) and args[j].text not in (";", "+"):
                j += 1
            inner = list(args[i + 1 : j])
            names = find_names(args)
            for start in starts:
                found = found_word(start, narrows, names)
                argv = [found if "{}" in w.text else w for w in inner]
                if argv:
                    out.append(_layer(cmd, argv, f"find {args[i].text}"))
            i = j
        i += 1
    return out


def git_split(args: Sequence[Word]) -> tuple[list[Word], int]:
    """git's global options (``-C dir``, ``-c k=v``…) and the index of its subcommand."""
    i = git_subcommand_at([a.text for a in args])
    return list(args[:i]), i


def _git_runs(cmd: Command, nested: list[Nested]) -> None:
    """Shell code git runs from its words: ``submodule foreach [--recursive] CMD…`` (in
    each submodule), ``bisect run CMD…``, ``difftool -x CMD`` / ``--extcmd=CMD`` (each
    file pair after it). (git 2.39, a marker in CMD's place: git_text_oracle_test.py.)"""
    _, i = git_split(cmd.args)
    args = cmd.args[i:]
    texts = [a.text for a in args]
    if len(texts) < 2:
        return
    sub = texts[0]
    if sub == "submodule" and texts[1] == "foreach":
        k = 2
        while k < len(texts) and texts[k] in ("--recursive", "--quiet", "-q"):
            k += 1
        code = " ".join(a.raw for a in args[k:]) if k + 1 < len(args) else None
        if k + 1 == len(args):
            code = texts[k]  # (one word: git hands it to sh -c as it is)
        if code:
            nested.append(Nested(code, "git submodule foreach"))
    elif sub == "bisect" and texts[1] == "run" and len(args) > 2:
        nested.append(Nested(" ".join(a.raw for a in args[2:]), "git bisect run"))
    elif sub == "difftool":
        for k, t in enumerate(texts[1:], start=1):
            if t in ("-x", "--extcmd") and k + 1 < len(texts):
                nested.append(Nested(texts[k + 1], "git difftool -x"))
            elif t.startswith("--extcmd="):
                nested.append(Nested(t[len("--extcmd=") :], "git difftool -x"))


def _git_alias(cmd: Command, nested: list[Nested]) -> list[Command]:
    """``git -c alias.x='push --force' x`` → ``git push --force``."""
    opts, i = git_split(cmd.args)
    if i >= len(cmd.args):
        return []
    sub = cmd.args[i].text
    for k, opt in enumerate(opts[:-1]):
        if opt.text != "-c":
            continue
        key, _, value = opts[k + 1].text.partition("=")
        if key.lower() == f"alias.{sub}".lower() and value:
            if value.startswith("!"):
                nested.append(Nested(value[1:], f"git alias {sub}"))
                return []
            from hookrun.hooks.shell_guard.parse import words_of

            words = words_of(value, 0, [], [])  # git splits an alias like shell words
            argv = [cmd.argv[0], *opts, *words, *cmd.args[i + 1 :]]
            return [_layer(cmd, argv, f"git alias {sub}")]
    return []
