"""A black-box differential search for shell-guard fail-opens, with bash as the oracle.

Each blocked command (``rm -rf /``, ``git push --force origin main``, …) is embedded in
every construct bash accepts — arrays, declarations, ``case``, ``select``, ``coproc``,
functions, ``eval``, here-strings fed to shells, traps, arithmetic, ``[[ … ]]``, quoting
of the name, variables holding it… The same line is run by bash with the program's name
replaced by a marker (an executable in a temp dir on PATH that records its arguments):
nothing destructive ever runs, since the line bash runs never names the real program.
When the marker ran with the command's arguments **and** shell-guard allowed the line
with the real name, that is a fail-open.

    python -m tests.hooks.shell_guard.redteam [-v] [--nested N]

prints the count per construct (probes where bash ran the marker, and fail-opens).
The tests pin the fixed ones (``bash_oracle_test.py``); they never run the whole search.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import shlex
import stat
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.shell_guard import POLICY

HOME = "/home/dev"
PROJECT = "/home/dev/proj"
MARK = "hkmark"

# (label, program, arguments): what shell-guard must block when bash runs it.
DANGERS = [
    ("rm", "rm", "-rf /"),
    ("push", "git", "push --force origin main"),
    ("reset", "git", "reset --hard"),
    ("clean", "git", "clean -fdx"),
    ("mkfs", "mkfs.ext4", "/dev/sda1"),
    ("dd", "dd", "if=/dev/zero of=/dev/sda"),
    ("publish", "npm", "publish"),
    ("find", "find", "/ -delete"),
]


def _hex(n: str) -> str:
    return "$'" + "".join(f"\\x{ord(c):02x}" for c in n) + "'"


def _oct(n: str) -> str:
    return "$'" + "".join(f"\\{ord(c):03o}" for c in n) + "'"


# How the program's name is written: the same transformation of the real name (judged)
# and of the marker's (run).
SPELLINGS: dict[str, Callable[[str], str]] = {
    "plain": lambda n: n,
    "backslash": lambda n: "\\" + n,
    "every-char-escaped": lambda n: "".join("\\" + c for c in n),
    "double-quoted": lambda n: f'"{n}"',
    "single-quoted": lambda n: f"'{n}'",
    "split-empty-dq": lambda n: n[0] + '""' + n[1:],
    "split-empty-sq": lambda n: n[0] + "''" + n[1:],
    "ansi-c-hex": _hex,
    "ansi-c-octal": _oct,
    "ansi-c-part": lambda n: n[0] + "$'" + n[1:] + "'",
    "locale": lambda n: f'$"{n}"',
    "mixed": lambda n: f"\"{n[0]}\"'{n[1:]}'",
    "line-continuation": lambda n: n[0] + "\\\n" + n[1:],
    "cmdsub-echo": lambda n: f"$(echo {n})",
    "backtick-echo": lambda n: f"`echo {n}`",
    "printf-cmdsub": lambda n: f"$(printf %s {n})",
    "empty-cmdsub-inside": lambda n: n[0] + "$()" + n[1:],
    "colon-cmdsub-inside": lambda n: n[0] + "$(:)" + n[1:],
    "zero-substring": lambda n: n[0] + "${IFS:0:0}" + n[1:],
    "empty-at": lambda n: n[0] + '"$@"' + n[1:],
    "brace": lambda n: "{" + n + ",}",
    "brace-split": lambda n: n[0] + "{" + n[1:] + ",}",
}

# Constructs: {c} the whole command, {n} the (spelled) name, {a} the arguments, {p} an
# absolute path to the program, {q} the command as one single-quoted word.
CONSTRUCTS: dict[str, str] = {
    "plain": "{c}",
    # arrays and subscripts
    "array-elem": "a=($({c}))",
    "array-elem-2": "a=(x $({c}) y)",
    "array-append": "a+=($({c}))",
    "array-keyed": "declare -A m; m=([$({c})]=1)",
    "subscript-assign": "a[$({c})]=1",
    "subscript-append": "a[$({c})]+=1",
    "subscript-expand": "echo ${{a[$({c})]}}",
    "subscript-quoted-arith": "a=(1); echo \"${{a['$({c})']}}\"",
    "subscript-len": "echo ${{#a[$({c})]}}",
    "array-run": 'a=({c}); "${{a[@]}}"',
    "array-run-unquoted": "a=({c}); ${{a[*]}}",
    "array-name-elem": "a=({n}); ${{a[0]}} {a}",
    # assignments and declarations
    "assign-prefix": "x=$({c}) true",
    "assign-backtick": "x=`{c}`",
    "assign-dq": 'x="$({c})"',
    "declare": "declare x=$({c})",
    "declare-quoted": "declare 'x=$({c})'",
    "declare-array-quoted": "declare -a 'a=($({c}))'",
    "declare-subscript-quoted": "declare 'a[$({c})]=1'",
    "declare-i": "declare -i x; x='a[$({c})]'",
    "declare-i-init": "declare -i x='a[$({c})]'",
    "local": "f() {{ local x=$({c}); }}; f",
    "local-array": "f() {{ local -a x=($({c})); }}; f",
    "readonly": "readonly x=$({c})",
    "export": "export x=$({c})",
    "typeset": "typeset x=$({c})",
    "export-then": "export X=1; {c}",
    "readonly-then": "readonly Y=2 && {c}",
    "declare-nameref": "declare -n r='a[$({c})]'; echo $r",
    "printf-v-subscript": "printf -v 'a[$({c})]' x",
    "read-subscript": "read 'a[$({c})]' <<< x",
    "unset-subscript": "a=(1); unset 'a[$({c})]'",
    "test-v-subscript": "[[ -v a[$({c})] ]]",
    "test-v-quoted": "a=(1); [[ -v 'a[$({c})]' ]]",
    "prompt-expansion": "x='$({c})'; echo \"${{x@P}}\"",
    "substring-arith": "x=abc; echo \"${{x:'a[$({c})]'}}\"",
    # case / select / coproc
    "case-word": "case $({c}) in *) ;; esac",
    "case-pattern": "case a in $({c})) ;; esac",
    "case-pattern-2": "case a in x|$({c})) ;; esac",
    "case-body": "case a in a) {c};; esac",
    "case-fallthrough": "case a in a) ;& b) {c};; esac",
    "select-words": "select x in $({c}); do break; done </dev/null",
    "select-body": "select x in a; do {c}; break; done <<< 1",
    "coproc": "coproc {c}",
    "coproc-named": "coproc N {{ {c}; }}",
    "coproc-subshell": "coproc ( {c} )",
    # functions
    "function": "f() {{ {c}; }}; f",
    "function-kw": "function f {{ {c}; }}; f",
    "function-subshell": "f() ( {c} ); f",
    "function-args": 'f() {{ "$@"; }}; f {c}',
    "function-dollar1": "f() {{ $1 {a}; }}; f {n}",
    "function-named-as-cmd": 'f() {{ {n} "$@"; }}; f {a}',
    "function-exported": "f() {{ {c}; }}; export -f f; bash -c f",
    "command-not-found": "command_not_found_handle() {{ {c}; }}; nosuchcmd_x",
    "bash-func-env": "BASH_FUNC_f%%='() {{ {c}; }}' bash -c f",
    # eval and code in strings
    "eval-sq": "eval {q}",
    "eval-dq": 'eval "{c}"',
    "eval-bare": "eval {c}",
    "eval-dashdash": "eval -- {q}",
    "eval-var": 'x={q}; eval "$x"',
    "eval-cmdsub": 'eval "$(echo {q})"',
    "eval-builtin": "builtin eval {q}",
    "eval-command": "command eval {q}",
    "eval-printf": "eval \"$(printf '%s' {q})\"",
    "bash-c": "bash -c {q}",
    "sh-c": "sh -c {q}",
    "bash-c-args": "bash -c '\"$@\"' _ {c}",
    "sh-c-dollar0": "sh -c '\"$0\" {a}' {n}",
    "bash-c-eval1": "bash -c 'eval \"$1\"' _ {q}",
    "source-procsub": "source <(echo {q})",
    "dot-procsub": ". <(echo {q})",
    "source-stdin-herestring": "source /dev/stdin <<< {q}",
    "bash-herestring": "bash <<< {q}",
    "sh-s-herestring": "sh -s <<< {q}",
    "bash-heredoc": "bash <<'EOF'\n{c}\nEOF",
    "bash-heredoc-unquoted": "bash <<EOF\n{c}\nEOF",
    "cat-heredoc-bash": "cat <<'EOF' | bash\n{c}\nEOF",
    "source-heredoc": ". /dev/stdin <<'EOF'\n{c}\nEOF",
    "echo-pipe-bash": "echo {q} | bash",
    "printf-pipe-sh": "printf '%s\\n' {q} | sh",
    "bash-procsub-stdin": "bash < <(echo {q})",
    "bash-procsub-file": "bash <(echo {q})",
    "bash-env": "BASH_ENV=<(echo {q}) bash -c :",
    "ps4-xtrace": "PS4='$({c}) ' bash -xc :",
    "ps4-set-x": "PS4='$({c})'; set -x; :",
    "mapfile-callback": "mapfile -C {q} -c 1 x <<< y",
    "trap-exit": "trap {q} EXIT",
    "trap-err": "trap {q} ERR; false",
    "trap-debug": "trap {q} DEBUG; :",
    "trap-return": "f() {{ :; }}; trap {q} RETURN; f",
    "trap-signal": "trap {q} USR1; kill -USR1 $$",
    "alias-expand": "shopt -s expand_aliases\nalias x={q}\nx",
    "alias-name": "shopt -s expand_aliases\nalias x={n}\nx {a}",
    "hash-p": "hash -p {p} x; x {a}",
    # substitutions and parameter operators
    "procsub-in": "cat <({c})",
    "procsub-stdin": "cat < <({c})",
    "procsub-out": "echo x > >({c})",
    "param-default": "echo ${{x:-$({c})}}",
    "param-assign": "echo ${{x:=$({c})}}",
    "param-alt": "x=1; echo ${{x:+$({c})}}",
    "param-error": "echo ${{x?$({c})}} 2>/dev/null; :",
    "param-replace": "x=a; echo ${{x/a/$({c})}}",
    "param-prefix": "x=a; echo ${{x#$({c})}}",
    "param-substr": "x=a; echo ${{x:$({c})}}",
    "param-nested-dq": 'echo "${{x:-"$({c})"}}"',
    # arithmetic
    "arith-expansion": "echo $(( $({c}) ))",
    "arith-old": "echo $[ $({c}) ]",
    "arith-command": "(( $({c}) ))",
    "arith-subscript": "(( a[$({c})] ))",
    "arith-quoted-subscript": "(( a['$({c})'] ))",
    "arith-var-indirect": "x='a[$({c})]'; echo $(( x ))",
    "arith-var-indirect-cmd": "x='a[$({c})]'; (( x ))",
    "let": "let x=$({c})",
    "let-quoted": "let 'x=a[$({c})]'",
    "let-quoted-dq": 'let "x=$({c})"',
    "for-arith": "for ((i=$({c}); 0; )); do :; done",
    "test-eq-arith": "[[ 1 -eq 'a[$({c})]' ]]",
    "test-eq-var": "x='a[$({c})]'; [[ $x -eq 1 ]]",
    # [[ ]] and test
    "dbracket": "[[ $({c}) ]]",
    "dbracket-n": "[[ -n $({c}) ]]",
    "dbracket-eq": "[[ x == $({c}) ]]",
    "dbracket-re": "[[ x =~ $({c}) ]]",
    "bracket": '[ -n "$({c})" ]',
    "test": 'test -n "$({c})"',
    # groups and prefixes
    "brace-group": "{{ {c}; }}",
    "brace-group-redirect": "{{ {c}; }} >/dev/null 2>&1",
    "subshell": "( {c} )",
    "time": "time {c}",
    "time-p": "time -p {c}",
    "bang": "! {c}",
    "exec": "( exec {c} )",
    "exec-a": "( exec -a x {c} )",
    "exec-c": "( exec -c {c} )",
    "command": "command {c}",
    "command-p": "command -p {c}",
    "builtin-command": "builtin command {c}",
    "nested-group": "{{ ( {{ {c}; }} ) }}",
    "background": "{c} &\nwait",
    "and-list": "true && {c}",
    "or-list": "false || {c}",
    "pipe": "echo | {c}",
    "pipe-amp": "{c} |& cat",
    "if-cond": "if {c}; then :; fi",
    "while-cond": "while {c}; do break; done",
    "until-body": "until false; do {c}; break; done",
    "for-body": "for i in 1; do {c}; done",
    "for-words": "for i in $({c}); do :; done",
    # redirections
    "redir-before": ">f {c}",
    "redir-before-2": "2>/dev/null {c}",
    "redir-fd-var": "{{fd}}>f {c}",
    "redir-fd-var-after": "{c} {{fd}}>f",
    "redir-close": "<&- {c}",
    "redir-target-cmdsub": "echo x > $({c})",
    "redir-heredoc-word": "cat <<< $({c})",
    "redir-assign-before": ">f x=1 {c}",
    "exec-fd": "exec {{fd}}>f; {c}",
    # line continuations and comments
    "continued": "{n} \\\n{a}",
    "comment-before": ": # x\n{c}",
    "comment-after": "{c} # x",
    "comment-continued": "# x \\\n{c}",
    "semicolon-newline": "true;\n{c}",
    "crlf": "true\r\n{c}",
    "cr-only": "true\r{c}",
    # positional parameters and variables
    "set-dashdash": 'set -- {c}; "$@"',
    "set-name": "set -- {n}; $1 {a}",
    "set-args": 'set -- {a}; {n} "$@"',
    "set-star": "set -- {c}; $*",
    "var-cmd": "c={q}; $c",
    "var-name": "c={n}; $c {a}",
    "var-name-braced": "c={n}; ${{c}} {a}",
    "var-name-quoted": 'c={n}; "$c" {a}',
    "var-args": "x={qa}; {n} $x",
    "var-name-default": ": ${{c:={n}}}; $c {a}",
    "var-name-default-inline": "${{c:-{n}}} {a}",
    "var-name-printf-v": "printf -v c %s {n}; $c {a}",
    "var-name-read": "read -r c <<< {n}; $c {a}",
    "var-name-declare": "declare c={n}; $c {a}",
    "var-name-local": "f() {{ local c={n}; $c {a}; }}; f",
    "var-reassigned": "c=ls; c={n}; $c {a}",
    "var-indirect": "c={n}; d=c; ${{!d}} {a}",
    "var-nameref": "c={n}; declare -n d=c; $d {a}",
    "ifs-comma": "IFS=,; c={qcomma}; $c",
    "ifs-colon-set": "IFS=:; set -- {qcolon}; $@",
    "var-concat": "a={n0}; b={n1}; $a$b {a}",
    "var-substring": "x=x{n}x; ${{x:1:{nlen}}} {a}",
    "var-replace": "x=ls; ${{x/ls/{n}}} {a}",
    "var-upper": "x={nu}; ${{x,,}} {a}",
    "var-env-prefix": "c={n} eval '$c {a}'",
    "xargs-sh": "echo {q} | xargs -0 bash -c",
}


def _sq(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def line_for(construct: str, spelled: str, args: str, path: str, raw: str) -> str:
    c = f"{spelled} {args}"
    return CONSTRUCTS[construct].format(
        c=c,
        n=spelled,
        a=args,
        p=path,
        q=_sq(c),
        qa=_sq(args),
        qcomma=_sq(",".join([raw, *args.split()])),
        qcolon=_sq(":".join([raw, *args.split()])),
        n0=raw[:1],
        n1=raw[1:],
        nlen=len(raw),
        nu=raw.upper(),
    )


# ------------------------------------------------------------------ the oracle


class Oracle:
    """bash, with a marker program on PATH that records each run's arguments."""

    def __init__(self) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="hk-oracle-")
        self.root = Path(self._dir.name)
        bin_dir = self.root / "bin"
        bin_dir.mkdir()
        self.marker = bin_dir / MARK
        self.marker.write_text(
            "#!/bin/sh\n"
            'printf \'%s\\037\' "$@" >> "$HK_MARK_LOG"\n'
            "printf '\\n' >> \"$HK_MARK_LOG\"\n"
        )
        self.marker.chmod(self.marker.stat().st_mode | stat.S_IXUSR)
        self.path = f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}"
        self._n = 0

    def close(self) -> None:
        self._dir.cleanup()

    def runs(self, line: str, args: str, timeout: float = 5.0) -> bool:
        """Whether bash, running ``line``, ran the marker with exactly ``args``."""
        if _REAL_PROGRAM.search(line):  # the line bash runs must never name one
            raise AssertionError(f"oracle line names a real program: {line!r}")
        self._n += 1
        work = self.root / f"w{self._n}"
        work.mkdir()
        log = work / ".marks"
        env = {"PATH": self.path, "HOME": str(work), "HK_MARK_LOG": str(log), "LC_ALL": "C"}
        with contextlib.suppress(subprocess.TimeoutExpired):
            subprocess.run(
                ["bash", "-c", line],
                cwd=work,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=timeout,
                start_new_session=True,
            )
        try:
            text = log.read_text()
        except FileNotFoundError:
            return False
        want = "".join(a + "\037" for a in shlex.split(args))
        return any(row == want for row in text.split("\n"))


_REAL_PROGRAM = re.compile(
    r"(?<![\w.-])(rm|git|dd|mkfs\.ext4|npm|find)(?![\w.-])|\\x72\\x6d|\\162\\155"
)


def judge(line: str) -> Verdict:
    ctx = PolicyContext(
        cwd=PROJECT, project_dir=PROJECT, state_dir=PROJECT + "/.hookrun/state", env={"HOME": HOME}
    )
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": line},
        "cwd": PROJECT,
    }
    return POLICY.decide(payload, POLICY.bind({}), ctx)


# ------------------------------------------------------------------ the search


class Probe:
    __slots__ = ("args", "construct", "danger", "judged", "run", "spelling")

    def __init__(
        self, construct: str, spelling: str, danger: tuple[str, str, str], run: str, judged: str
    ) -> None:
        self.construct, self.spelling, self.danger = construct, spelling, danger
        self.args = danger[2]
        self.run, self.judged = run, judged


def probe(construct: str, spelling: str, danger: tuple[str, str, str]) -> Probe:
    spell = SPELLINGS[spelling]
    _, name, args = danger
    run = line_for(construct, spell(MARK), args, f"$HK_BIN/{MARK}", MARK)
    judged = line_for(construct, spell(name), args, f"/usr/bin/{name}", name)
    return Probe(construct, spelling, danger, run, judged)


def probes(nested: int, seed: int = 13) -> Iterator[Probe]:
    for construct in CONSTRUCTS:
        for danger in DANGERS:
            yield probe(construct, "plain", danger)
    for spelling in SPELLINGS:
        for construct in ("plain", "eval-sq", "bash-c", "function", "array-elem", "var-cmd"):
            for danger in DANGERS[:2]:
                yield probe(construct, spelling, danger)
    rnd = random.Random(seed)
    names = list(CONSTRUCTS)
    for _ in range(nested):  # one construct inside another: the inner line is the command
        outer, inner = rnd.choice(names), rnd.choice(names)
        danger = rnd.choice(DANGERS)
        p = probe(inner, rnd.choice(list(SPELLINGS)), danger)
        wrap = CONSTRUCTS[outer]
        if "{n}" in wrap or "{a}" in wrap or "{q" in wrap or "{p}" in wrap or "{c}" not in wrap:
            continue
        yield Probe(
            f"{outer}>{inner}",
            p.spelling,
            danger,
            wrap.format(c=p.run),
            wrap.format(c=p.judged),
        )


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    nested = int(argv[argv.index("--nested") + 1]) if "--nested" in argv else 300
    oracle = Oracle()
    os.environ["HK_BIN"] = str(oracle.marker.parent)
    ran: Counter[str] = Counter()
    opened: Counter[str] = Counter()
    errors: list[str] = []
    all_probes = list(probes(nested))

    def one(p: Probe) -> tuple[Probe, bool, Verdict | None, str | None]:
        env_line = p.run.replace("$HK_BIN", str(oracle.marker.parent))
        if not oracle.runs(env_line, p.args):
            return p, False, None, None
        try:
            return p, True, judge(p.judged), None
        except Exception as exc:  # noqa: BLE001 - a crash is a finding too
            return p, True, None, f"{type(exc).__name__}: {exc}"

    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            for p, did_run, verdict, error in pool.map(one, all_probes):
                key = p.construct if p.spelling == "plain" else f"{p.construct}/{p.spelling}"
                if not did_run:
                    continue
                ran[key] += 1
                if error is not None:
                    errors.append(f"{key}: {p.judged!r}: {error}")
                elif verdict is None or verdict.decision != "deny":
                    opened[key] += 1
                    if verbose:
                        print(f"FAIL-OPEN {key} [{p.danger[0]}]: {p.judged!r}")
    finally:
        oracle.close()
    print(f"{len(all_probes)} probes, {sum(ran.values())} ran the marker in bash")
    print(f"{sum(opened.values())} fail-opens in {len(opened)} constructs; {len(errors)} errors")
    for key in sorted(ran):
        if opened[key]:
            print(f"  {key:40} {opened[key]:3} / {ran[key]:3}")
    for e in errors:
        print("ERROR", e)
    return 1 if opened or errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
