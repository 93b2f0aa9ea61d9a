"""Judge a command line: parse, see through wrappers, run every rule on every layer.

Code a command runs from a string (``bash -c``, ``eval``, ``ssh``, static text
piped into a shell) is judged recursively with the reason saying how it is run.
"""

from __future__ import annotations

from hookrun.hooks.shell_guard import indirect
from hookrun.hooks.shell_guard.heads import inline_language, is_python, is_runner
from hookrun.hooks.shell_guard.judging import Call, Finding, Where
from hookrun.hooks.shell_guard.model import Command, Script, Stdin, Var, Word
from hookrun.hooks.shell_guard.names import DOWNLOADERS, SHELLS
from hookrun.hooks.shell_guard.parse import MAX_DEPTH, TooDeep, parse_script
from hookrun.hooks.shell_guard.paths import cwd_of, cwds_of
from hookrun.hooks.shell_guard.rules import checks_for
from hookrun.hooks.shell_guard.unwrap import rsync_default_shell, unwrap
from hookrun.lazyre import compile as lazy_compile

_TEXT_PASSTHROUGH = frozenset({"cat", "tee", "head", "tail"})


def judge(text: str, where: Where, depth: int = 0, via: tuple[str, ...] = ()) -> list[Finding]:
    """Every finding for ``text`` (before the allow list and switched-off rules)."""
    if depth > MAX_DEPTH:
        return [_too_deep(text, via)]
    try:
        found = _judge(text, where, depth, via)
        if "\\\n" in text and _MID_WORD.search(text):
            # `$\⏎(…)`, `cas\⏎e`: bash drops a backslash-newline inside a word too; the
            # front end's reading of such a word may differ, so the joined text is judged
            found += _judge(_MID_WORD_JOIN.sub("", text), where, depth, via)
        return found
    except TooDeep:
        return [_too_deep(text, via)]


# A temp variable's name not read as `$NAME`/`${NAME`: a line that may set it (`export
# TMPDIR=…`, `read TMP`), where an unset one's emptiness is not known. Not a prefix
# assignment (`TMPDIR=/x rm -rf $TMPDIR/y`): bash expands the words before it applies.
_SETS_TEMP = lazy_compile(r"(?<![$\w{])(?:TMPDIR|TMP|TEMP)(?![\w}])(?!=[^\s;&|]*[ \t]+[^\s;&|#])")
# A temp variable set from what only the shell knows: read from input (`read TMPDIR`,
# `read -r a TMP`, `mapfile`, `getopts`, `printf -v`), a loop's name, or an assignment of
# an expansion (`TMPDIR=$X`, `export TMP="$(…)"`; a literal one the walk fills in; not
# a prefix of one command, `TMPDIR=$D pytest`, nor text, `echo "TMPDIR=$TMPDIR"`).
_SETS_TEMP_UNKNOWN = lazy_compile(
    r"(?:\b(?:read|mapfile|readarray|getopts)\b[^;&|\n]*?[\s'\"]|\bprintf\s+-v\s*['\"]?"
    r"|\b(?:for|select)\s+)(TMPDIR|TMP|TEMP)(?![\w}])"
    r"|(?:^|(?<=[\s;&|(]))(TMPDIR|TMP|TEMP)\+?=[\"']?(?=[$`])(?![^\s;&|]*[ \t]+[^\s;&|#])"
)
_MID_WORD = lazy_compile(r"[^\s\\]\\\n(?=\S)")  # a backslash-newline inside a word
_MID_WORD_JOIN = lazy_compile(r"(?<!\\)\\\n")


def _too_deep(text: str, via: tuple[str, ...]) -> Finding:
    from hookrun.hooks.shell_guard.rules.misc import too_deep

    return too_deep(text, via)


def _judge(text: str, where: Where, depth: int, via: tuple[str, ...]) -> list[Finding]:
    script = parse_script(text, depth)
    findings: list[Finding] = []
    if script.fork_bombs:  # (the misc rules load for a line that has one)
        from hookrun.hooks.shell_guard.rules.misc import fork_bombs

        findings = fork_bombs(script, via)
    spelled = indirect.formatters(text)
    if spelled and not set(spelled).issubset(where.spelled):  # for code this line runs
        where = where._replace(spelled=(*where.spelled, *spelled))
    temps = where.temp_vars
    if (
        ("TMP" in text or "TEMP" in text)
        and _SETS_TEMP.search(text)  # (`export TMPDIR=…`, `read TMP`: its value unknown)
    ):
        if temps is not None and len(temps) < 3:
            where = where._replace(temp_vars=None)
        unknown = (
            frozenset(m.group(1) or m.group(2) for m in _SETS_TEMP_UNKNOWN.finditer(text))
            | where.unknown_temps
        )  # (and what a line running this one set so)
        if unknown != where.unknown_temps:
            where = where._replace(unknown_temps=unknown)
    deny = bool(where.opts.deny)  # the project's own deny shapes
    outputs: list[Stdin | None] = []
    files: dict[str, str] = {}  # text the line writes to a file or a descriptor, by name
    values = dict(script.values) if script.values else None  # the last static value of each
    for cmd in script.commands:
        stdin = cmd.stdin
        if stdin is None and 0 <= cmd.pipe_from < len(outputs):
            stdin = outputs[cmd.pipe_from]
        if stdin is None and (cmd.redirects or files):
            stdin = _read_in(cmd, files)
        fed = stdin.text if stdin is not None and stdin.kind == "text" else None
        if cmd.name == "xargs":  # `xargs -a FILE`: its items come from FILE
            fed = _arg_file(cmd, files, fed, where.home)
        layers, nested = unwrap(cmd, fed)
        if values and "RSYNC_RSH" in values and "rsync" in cmd.source:
            # `export RSYNC_RSH='…'; rsync … host:dst`: the value the line gives it (the
            # environment's own is not known; one set but not exported is taken as well)
            for layer in layers:
                if layer.name == "rsync":
                    nested = [*nested, *rsync_default_shell(layer, values["RSYNC_RSH"])]
        out = output_of(layers[-1], stdin, files, where.home, values)
        if out is None and script.functions and cmd.name:  # `f echo -rf / | xargs rm`
            out = _function_output(cmd, script, where.home, values)
        outputs.append(out)
        if cmd.redirects:
            _written(cmd, out, files)
        if files and cmd.argv and cmd.argv[0].static:  # `./f` of a written f
            written = _file_text(cmd.argv[0], files)
            if written is not None:
                label = f"text the line writes to {cmd.argv[0].text}, run as a program"
                findings.extend(judge(written, where, depth + 1, (*via, label)))
        if fed is not None and layers[-1].name == "ssh" and not nested:  # `echo … | ssh host`
            label = f"text piped into {layers[-1].source}"
            findings.extend(judge(fed, _remote(where), depth + 1, (*via, label)))
        if files and layers[-1].name in _RUNS_FILES:  # `bash f`, `source f` of a written f
            for a in layers[-1].args:
                written = _file_text(a, files)
                if written is not None:
                    label = f"text the line writes to {a.text}, run by {layers[-1].name}"
                    findings.extend(judge(written, where, depth + 1, (*via, label)))
        for layer in layers[1:]:  # `command $c -rf /`, `time r$()m -rf /`
            if layer.argv and not layer.argv[0].static:
                findings.extend(indirect.as_unknown(layer, text, where, via))
        for layer in layers:
            call = Call(layer.layer(layer.argv, (*via, *layer.via)) if via else layer, stdin, where)
            for check in checks_for(layer.name, bool(layer.redirects)):
                findings.extend(check(call))
            if deny:
                findings.extend(_user_deny(call))
        last = layers[-1]
        runs_stdin = (
            stdin is not None
            and stdin.kind == "text"
            # (a name only the shell knows may be a shell: `"${BASH:-bash}" <<< '…'`)
            and (_reads_program(last) or (bool(last.argv) and not last.argv[0].static))
        )
        if not (runs_stdin or nested):
            continue
        inner_where = where._replace(cwd=cwd_of(cmd.cd, where)) if cmd.cd else where
        if runs_stdin and stdin is not None:
            label = f"text piped into {last.name or last.argv[0].raw}"
            code = _program_in(last, stdin.text)
            if code is None:  # a shell: the text is shell code
                findings.extend(judge(stdin.text, inner_where, depth + 1, (*via, label)))
            else:  # python/node/ruby/perl: what their code runs and deletes
                shell, argvs = code
                for text in shell:
                    findings.extend(judge(text, inner_where, depth + 1, (*via, label)))
                for argv in argvs:
                    shown = " ".join(w.text for w in argv)  # what the program does, as a command
                    layer = Command(tuple(argv), shown, (), cmd.cd, None, -1, (*via, label))
                    call = Call(layer, None, inner_where)
                    for check in checks_for(layer.name, False):
                        findings.extend(check(call))
        fed = stdin.text if stdin is not None and stdin.kind == "text" else None
        for n in nested:
            w = _remote(where) if n.remote else inner_where
            if n.cd is not None and n.cd != cmd.cd and not n.remote:  # `env -C /tmp sh -c …`
                w = where._replace(cwd=cwd_of(n.cd, where))
            found = judge(n.code, w, depth + 1, (*via, n.via))
            if not found and cmd.cd and not n.remote:
                # (where a `cd` joined by `;`/`||` failed, the code runs where it was)
                for cwd in cwds_of(cmd.cd, where)[1:]:
                    other = where._replace(cwd=cwd)
                    found = judge(n.code, other, depth + 1, (*via, n.via, _FAILED_CD))
                    if found:
                        break
            findings.extend(found)
            if fed is not None and not n.remote and indirect.reads_stdin(n.code):
                # `bash -c 'source /dev/stdin' <<< '…'`: the code runs what it reads
                label = f"text fed to {n.via} code that reads it"
                findings.extend(judge(fed, w, depth + 1, (*via, label)))
    findings.extend(indirect.findings(text, script, where, depth, via, judge))
    if not script.parsed:
        findings = [f._replace(fallback=True) for f in findings]
    return findings


def printed_output(
    cmds: list[Command], offset: int, values: dict[str, str] | None, home: str | None = None
) -> str | None:
    """What a list of commands prints, when every pipeline in it ends in a command whose
    output is known (a printer, or known text through modelled filters: `echo … | base64
    -d`); None when any of them prints what only running it tells. ``offset``: the index of
    ``cmds[0]`` in its script (``pipe_from`` counts from there)."""
    outputs: list[Stdin | None] = []
    for cmd in cmds:
        stdin = cmd.stdin
        if stdin is None and cmd.pipe_from >= offset:
            stdin = outputs[cmd.pipe_from - offset]
        if not cmd.argv or (cmd.argv[0].static and cmd.argv[0].text in _SILENT):
            out: Stdin | None = Stdin("text", "", cmd.source, ())
        else:
            out = output_of(cmd, stdin, None, home, values)
        outputs.append(out)
    piped = {c.pipe_from - offset for c in cmds}
    texts: list[str] = []
    for k, out in enumerate(outputs):
        if k in piped:
            continue
        if out is None or out.kind != "text":
            return None
        texts.append(out.text)
    return "".join(texts)


_FAILED_CD = "in the directory before a `cd` that may fail (join them with &&)"
_SILENT = frozenset({"local", "declare", "typeset", "shift", "set", ":", "true", "return", "cd"})


def _function_output(
    call: Command, script: Script, home: str | None, values: dict[str, str] | None
) -> Stdin | None:
    """What a call of a function the line defines prints, when its body's commands are
    printers (or print nothing) once the call's arguments fill ``"$@"``, ``$*``, ``$1``
    (`f() { "$@"; }; f printf '%s\\n' -rf / | xargs rm`)."""
    span = next(((a, b) for n, a, b in reversed(script.functions) if n == call.name), None)
    if span is None or any(indirect.home_text(a, home) is None for a in call.args):
        return None
    texts: list[str] = []
    for body in script.commands[span[0] : span[1]]:
        argv = _called(body.argv, call.args)
        if argv is None or body.pipe_from >= 0 or body.redirects:
            return None
        if not argv or (argv[0].static and argv[0].text in _SILENT):
            continue
        if argv[0].text not in _PRINTERS - {"yes"}:
            return None
        out = output_of(body.layer(argv, body.via), None, None, home, values)
        if out is None:
            return None
        texts.append(out.text)
    return Stdin("text", "".join(texts), call.source, tuple(w.text for w in call.argv))


def _called(argv: tuple[Word, ...], args: tuple[Word, ...]) -> tuple[Word, ...] | None:
    """``argv`` of a function's body with the call's ``args`` in the place of the
    positional parameters; None when another word only the shell knows is left."""
    out: list[Word] = []
    for w in argv:
        if w.static or indirect.home_text(w, "~") is not None:  # (`~`: the printer's home)
            out.append(w)
            continue
        part = w.parts[0]
        name = part.name if len(w.parts) == 1 and isinstance(part, Var) else ""
        quoted = w.raw.startswith('"')
        if name == "@" or (name == "*" and not quoted):
            out.extend(args)
        elif name == "*":
            out.append(Word.lit(" ".join(a.text for a in args)))
        elif name.isdigit() and name != "0":
            k = int(name)
            if k <= len(args):
                out.append(args[k - 1])
            elif quoted:
                out.append(Word.lit(""))
        else:
            return None
    return tuple(out)


def _reads_program(cmd: Command) -> bool:
    """:func:`~hookrun.hooks.shell_guard.rules.supply_chain.reads_program_from_stdin`,
    its module loaded for a command that text is piped into."""
    from hookrun.hooks.shell_guard.rules.supply_chain import reads_program_from_stdin

    return reads_program_from_stdin(cmd)


def _program_in(cmd: Command, text: str) -> tuple[list[str], list[list[Word]]] | None:
    """What an interpreter's program read from stdin runs; None when ``cmd`` is a shell."""
    name = cmd.name
    if is_python(name):
        from hookrun.hooks.shell_guard.inline_python import calls

        return calls(text)
    language = inline_language(name)
    if language in ("perl", "ruby"):
        from hookrun.hooks.shell_guard import inline_perl, inline_ruby

        if language == "perl":
            return inline_perl.reads(text)
        return inline_ruby.reads(text)
    if language == "other":
        from hookrun.hooks.shell_guard import inline_code

        return inline_code.reads(text, php=name.startswith("php"))
    return None


def _remote(where: Where) -> Where:
    # On another machine only absolute paths mean anything; `~` is that machine's
    # home, and a relative path is relative to it (ssh starts there).
    return where._replace(cwd="~", workspace=None, home="~")


def _user_deny(call: Call) -> list[Finding]:
    shapes = tuple(call.where.opts.deny)
    if not shapes or not call.cmd.argv:
        return []
    from hookrun.hooks.shell_guard.shapes import any_matches  # (shlex, fnmatch: for shapes only)

    shape = any_matches(shapes, [w.text for w in call.cmd.argv], prefix=True)
    if shape is None:
        return []
    return [call.finding("user.deny", f'it matches the deny shape "{shape}" of this project')]


_RUNS_FILES = SHELLS | {"source", "."}


def _read_in(cmd: Command, files: dict[str, str]) -> Stdin | None:
    """Text a redirection feeds ``cmd``: ``< <(echo …)``, ``< f`` of a file the line
    wrote, ``<&3`` / ``/dev/fd/3`` after ``exec 3<<< …``."""
    for r in cmd.redirects:
        target = r.target
        if r.op != "<" or target is None:
            continue
        text = _file_text(target, files)
        if text is not None:
            return Stdin("text", text, cmd.source)
    fd = files.get("&fd")
    if fd is not None and ("<&" in cmd.source or "/fd/" in cmd.source):
        return Stdin("text", fd, cmd.source)
    return None


def _arg_file(cmd: Command, files: dict[str, str], fed: str | None, home: str | None) -> str | None:
    """The text ``xargs -a FILE`` / ``--arg-file=FILE`` reads items from, when known."""
    args = cmd.args
    for k, a in enumerate(args):
        text = a.text
        if text in ("-a", "--arg-file") and k + 1 < len(args):
            word = args[k + 1]
        elif text.startswith("--arg-file="):
            word = Word(a.parts, a.raw)  # (the value's parts: a procsub stays one)
            if a.parts and isinstance(a.parts[0], str):
                rest = a.parts[0][len("--arg-file=") :]
                word = Word((rest, *a.parts[1:]) if rest else a.parts[1:], a.raw)
        elif text.startswith("-a") and len(text) > 2 and a.static:
            word = Word.lit(text[2:])
        else:
            if not text.startswith("-"):
                break
            continue
        return _file_text(word, files, home)
    return fed


def _file_text(word: Word, files: dict[str, str] | None, home: str | None = None) -> str | None:
    """What reading ``word`` as a file gives, when the line makes it: ``<(echo …)``, or a
    file it wrote (``./f`` is ``f``)."""
    if _procsub(word):
        return indirect.printed_by(word.parts[0].inner, home)  # type: ignore[union-attr]
    if not files or not word.static:
        return None
    return files.get(_file_key(word.text))


def _file_key(path: str) -> str:
    while path.startswith("./"):
        path = path[2:]
    return path


def _written(cmd: Command, out: Stdin | None, files: dict[str, str]) -> None:
    """Record what ``echo … > f`` (or ``exec 3<<< …``) leaves for later commands."""
    for r in cmd.redirects:
        target = r.target
        if r.op in (">", ">|", ">>", "&>") and target is not None and target.static:
            text = out.text if out is not None and out.kind == "text" else None
            key = _file_key(target.text)
            if text is None:
                files.pop(key, None)
            elif r.op == ">>":
                files[key] = files.get(key, "") + text
            else:
                files[key] = text
        elif r.op in ("<<<", "<<") and r.text is not None and cmd.name == "exec":
            files["&fd"] = r.text


def _procsub(word: Word) -> bool:
    parts = word.parts
    return len(parts) == 1 and not isinstance(parts[0], str) and parts[0].name == "<("


_PRINTERS = frozenset({"echo", "printf", "yes"})
# The filters hookrun.hooks.shell_guard.decoders models (that module loads when one is met).
_FILTERS = frozenset({"rev", "tr", "xxd", "base64", "base32", "openssl", "basenc"})


def output_of(
    cmd: Command,
    stdin: Stdin | None,
    files: dict[str, str] | None = None,
    home: str | None = None,
    values: dict[str, str] | None = None,
) -> Stdin | None:
    """What ``cmd`` writes to a pipe, when a rule downstream cares (``home``: what bash
    makes of a ``~`` word, `echo -rf ~ | xargs rm`; ``values``: the static values the
    line assigns, `x='rm -rf /'; echo "$x" | sh`)."""
    name = cmd.name
    if name in DOWNLOADERS:
        return Stdin("download", "", cmd.source, tuple(w.text for w in cmd.argv))
    if stdin is not None and stdin.kind == "download" and not is_runner(name):
        return stdin  # filtered, decompressed, teed: still downloaded code
    args = cmd.args
    texts = [indirect.home_text(a, home) for a in args] if name in _PRINTERS else None
    if texts is not None and None in texts and values:
        texts = indirect.filled_args(args, home, values)
    if texts is not None and None not in texts:
        from hookrun.hooks.shell_guard.printed import printed  # (echo/printf/yes piped on)

        argv = tuple(w.text for w in cmd.argv)
        known = [t or "" for t in texts]
        if name == "yes":  # `yes 'rm -rf /' | head -1 | bash`: the line, repeated
            line = " ".join(known) or "y"
            return Stdin("text", line + "\n", cmd.source, argv)
        return Stdin("text", printed(name, known), cmd.source, argv)
    if name == "cat" and args and (files or "<(" in cmd.source):
        texts = [_file_text(a, files) for a in args]
        if all(t is not None for t in texts):  # `cat <(echo '…') | bash`, `cat f | bash`
            argv = tuple(w.text for w in cmd.argv)
            return Stdin("text", "".join(t or "" for t in texts), cmd.source, argv)
    if stdin is None or stdin.kind != "text":
        return None
    operands = [
        a
        for k, a in enumerate(args)
        if not a.text.startswith("-") and not (k and args[k - 1].text in ("-n", "-c"))
    ]
    if name in _TEXT_PASSTHROUGH and (name == "tee" or not operands):
        return stdin
    if name in _FILTERS and all(a.static for a in args):
        from hookrun.hooks.shell_guard import decoders  # (a line that pipes through one)

        out = decoders.transformed(name, [a.text for a in args], stdin.text)
        return None if out is None else Stdin("text", out, stdin.origin, stdin.argv)
    return None
