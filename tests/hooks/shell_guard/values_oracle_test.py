"""Fail-opens a session-17 search found in the fast path's shapes and issue 12's wrappers,
each pinned with bash as the oracle.

Arguments from arrays, slices and shifted positional parameters, xargs given no items,
``printf``'s reused format, ``~`` in values, interpreters' argv lists. For every row bash
runs the line with the marker program of :mod:`redteam` in the blocked program's place
(nothing destructive runs) and must have run it with the blocked arguments (``~`` is
bash's ``$HOME``); then shell-guard, given the line with the real program, must deny it
by the row's rule. Each was ALLOWED before its fix.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from .redteam import MARK, Oracle, judge

# (line, program, the arguments bash must run it with, rule). `{n}` is the program's
# name; `{c}` its name one character an argument (`printf %c` reuses its format).
_ROWS = [
    # an array or a slice of the positional parameters in the arguments' place
    ('a=(-rf /); {n} "${{a[@]}}"', "rm", "-rf /", "delete.catastrophic"),
    ("a=(-rf /); {n} ${{a[*]}}", "rm", "-rf /", "delete.catastrophic"),
    ('a[0]=-rf; a[1]=/; {n} "${{a[@]}}"', "rm", "-rf /", "delete.catastrophic"),
    ('set -- -rf /; {n} "${{@:1}}"', "rm", "-rf /", "delete.catastrophic"),
    (
        'set -- x push --force origin main; {n} "${{@:2}}"',
        "git",
        "push --force origin main",
        "git.force-push",
    ),
    ('set -- x reset --hard; shift; {n} "$@"', "git", "reset --hard", "git.reset-hard"),
    ('a=(x clean -fdx); {n} "${{a[@]:1}}"', "git", "clean -fdx", "git.clean-force"),
    # the program's name last, moved first by a slice
    ('set -- -rf / {n}; "${{@: -1}}" "${{@:1:$(($#-1))}}"', "rm", "-rf /", "delete.catastrophic"),
    (
        'set -- push --force origin main {n}; ${{!#}} "${{@:1:$(($#-1))}}"',
        "git",
        "push --force origin main",
        "git.force-push",
    ),
    # `~` in a value: bash's home
    ('a=({n} -rf ~); "${{a[@]}}"', "rm", "-rf ~", "delete.catastrophic"),
    ('a=(-rf ~); {n} "${{a[@]}}"', "rm", "-rf ~", "delete.catastrophic"),
    ("set -- -rf ~; {n} $@", "rm", "-rf ~", "delete.catastrophic"),
    ('f() {{ {n} "$@"; }}; f -rf ~', "rm", "-rf ~", "delete.catastrophic"),
    ('a[0]=-rf; a[1]=~; {n} "${{a[@]}}"', "rm", "-rf ~", "delete.catastrophic"),
    ("echo -rf ~ | xargs {n}", "rm", "-rf ~", "delete.catastrophic"),
    # GNU xargs given no items runs the command once
    ("echo | xargs {n} -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("xargs {n} reset --hard < /dev/null", "git", "reset --hard", "git.reset-hard"),
    (
        "printf '' | xargs -0 {n} push --force origin main",
        "git",
        "push --force origin main",
        "git.force-push",
    ),
    # printf reuses its format while arguments remain; %c, %b
    (
        "printf '%s\\n' push --force origin main | xargs {n}",
        "git",
        "push --force origin main",
        "git.force-push",
    ),
    ("printf '%s\\0' -r -f / | xargs -0 {n}", "rm", "-r -f /", "delete.catastrophic"),
    ("eval \"$(printf '%s ' {n} -rf /)\"", "rm", "-rf /", "delete.catastrophic"),
    ('sh -c "$(printf %c {c}) -rf /"', "rm", "-rf /", "delete.catastrophic"),
    ("sh -c \"$(printf %b '{b}') -rf /\"", "rm", "-rf /", "delete.catastrophic"),
    # a backslash-newline that ends the text: bash drops it (the front end refused it)
    (
        "set -- {n} push --force origin main; ${{@:1}}\\\n\\\n",
        "git",
        "push --force origin main",
        "git.force-push",
    ),
    ('a=({n} -rf /); "${{a[@]}}" \\\n\\\n', "rm", "-rf /", "delete.catastrophic"),
    # an interpreter or a wrapper with its words, as a value the line runs
    (
        'set -- python3 -c \'import subprocess; subprocess.call(["{n}", "-rf", "/"])\'; "$@"',
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    ('f() {{ "$@"; }}; f perl -e \'system("{n} -rf /")\'', "rm", "-rf /", "delete.catastrophic"),
    # an array holding an interpreter's quoted code; a function given a shell and its stdin
    (
        'a=(perl -e \'system("{n} push --force origin main")\'); "${{a[@]}}"',
        "git",
        "push --force origin main",
        "git.force-push",
    ),
    ("f() {{ \"$@\"; }}; f bash -s <<< '{n} clean -fdx'", "git", "clean -fdx", "git.clean-force"),
    ("a=(x bash -ec '{n} reset --hard'); \"${{a[@]:1}}\"", "git", "reset --hard", "git.reset-hard"),
    ("a=(x env -S '{n} clean -fdx'); ${{a[@]:1}}", "git", "clean -fdx", "git.clean-force"),
    # python's code ending in a backslash-newline (python -c reads it; ast did not)
    (
        'python3 -c \'import subprocess as s; s.call(["{n}", "-rf", "/"])\\\n\'',
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    # the fallback (the front end refuses `select`): a `case` pattern's `)` inside `"$(…)"`
    (
        'echo "$(case y in y) select c in a; do {n} push --force origin main; break; '
        'done <<< 1;; esac)"',
        "git",
        "push --force origin main",
        "git.force-push",
    ),
    # interpreters: an imported alias, an argv list
    (
        'python3 -c \'import subprocess as s; s.call(["{n}", "-rf", "/"])\'',
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    (
        'python3 -c \'from subprocess import run as r; r(["{n}", "reset", "--hard"])\'',
        "git",
        "reset --hard",
        "git.reset-hard",
    ),
    ('perl -e \'system("{n}", "-rf", "/")\'', "rm", "-rf /", "delete.catastrophic"),
    # session 18: a value the line assigns, printed into a shell
    ('x="{n} -rf /"; echo "$x" | sh', "rm", "-rf /", "delete.catastrophic"),
    ('x="{n} -rf /"; echo $x | bash', "rm", "-rf /", "delete.catastrophic"),
    ("x='{n} reset --hard'; printf '%s\\n' \"$x\" | sh", "git", "reset --hard", "git.reset-hard"),
    # read's split into several names (the last takes the rest); a value split into a command
    ('read -r x y <<< "{n} -rf"; $x $y /', "rm", "-rf /", "delete.catastrophic"),
    ('IFS=: read -r x y <<< "{n}:-rf"; $x $y /', "rm", "-rf /", "delete.catastrophic"),
    ('IFS=: read x y <<< "{n} -rf"; $x /', "rm", "-rf /", "delete.catastrophic"),
    ('c="{n} reset"; $c --hard', "git", "reset --hard", "git.reset-hard"),
    # assigned through a name the line computes: eval of NAME=value, a nameref
    ('f() {{ eval "$1=\\"{n} -rf /\\""; }}; f x; $x', "rm", "-rf /", "delete.catastrophic"),
    ('f() {{ local -n r=$1; r="-rf /"; }}; f x; {n} $x', "rm", "-rf /", "delete.catastrophic"),
    # what a function the line defines prints, piped on; `~` in an `-a` file's text
    ("f() {{ \"$@\"; }}; f printf '%s\\n' -rf / | xargs {n}", "rm", "-rf /", "delete.catastrophic"),
    ("f() {{ $*; }}; f echo -r -f / | xargs {n}", "rm", "-r -f /", "delete.catastrophic"),
    (
        "function f {{ printf '%s\\n' \"$@\"; }}; f -rf ~ | xargs {n}",
        "rm",
        "-rf ~",
        "delete.catastrophic",
    ),
    ("f() {{ echo \"$1\"; }}; f '{n} reset --hard' | sh", "git", "reset --hard", "git.reset-hard"),
    ("xargs -a <(echo -rf ~) {n}", "rm", "-rf ~", "delete.catastrophic"),
    # nested subscripts and keyed elements holding `$(…(…)…)` (the front end refuses or
    # cuts them; the substitution is judged as the line it is)
    ("a[b[$(a=(-rf ..); {n} ${{a[*]}})]]=1", "rm", "-rf ..", "delete.catastrophic"),
    ("a=([$(a=([3]={n}); ${{a[3]}} -rf /)]=1)", "rm", "-rf /", "delete.catastrophic"),
    # session 18's search (functions, aliases, eval of built strings, printf -v, read -a,
    # mapfile, wrappers of "$@")
    ("f() {{ echo -rf /; }}; {n} $(f)", "rm", "-rf /", "delete.catastrophic"),
    ("f() {{ echo -rf ~; }}; f | xargs {n}", "rm", "-rf ~", "delete.catastrophic"),
    ("x={n}; y='-rf /'; eval \"$x $y\"", "rm", "-rf /", "delete.catastrophic"),
    ("x='reset --hard'; eval {n} '$x'", "git", "reset --hard", "git.reset-hard"),
    ('function f() {{ command "$@"; }}; f {n} -rf /', "rm", "-rf /", "delete.catastrophic"),
    ("printf -v x '%s' '-rf /'; {n} $x", "rm", "-rf /", "delete.catastrophic"),
    (
        "printf -v 'a[0]' %s {n}; printf -v 'a[1]' %s '-rf /'; ${{a[0]}} ${{a[1]}}",
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    ("read -a a <<< 'reset --hard'; {n} \"${{a[@]}}\"", "git", "reset --hard", "git.reset-hard"),
    ("mapfile -t a <<< $'{n}\\n-rf\\n/'; \"${{a[@]}}\"", "rm", "-rf /", "delete.catastrophic"),
    (
        "shopt -s expand_aliases\nalias r='{n} '\nalias x='-rf /'\nr x",
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    # ${!n} of a name the line assigns; a value copied from another (`x=$P`)
    ("a={n}; b='-rf /'; n=a; m=b; ${{!n}} ${{!m}}", "rm", "-rf /", "delete.catastrophic"),
    ("P={n}; x=$P; y='reset --hard'; eval \"$x $y\"", "git", "reset --hard", "git.reset-hard"),
    # a wrapper's long option inside an array value (gen3, seed 18)
    (
        "a=(x env --split-string='{n} push --force origin main'); \"${{a[@]:1}}\"",
        "git",
        "push --force origin main",
        "git.force-push",
    ),
    (
        "f() {{ \"$@\"; }}; f printf -v c '%s %s' {n} '-rf ..'; $c",
        "rm",
        "-rf ..",
        "delete.catastrophic",
    ),
    ('s=; for w in {n} -rf /; do s+="$w "; done; eval "$s"', "rm", "-rf /", "delete.catastrophic"),
    (
        'P={n}; s=; for w in $P -rf /; do s+="$w "; done; eval "$s"',
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    # a backslash-newline inside a word (bash drops it; gen3, seed 18)
    ("a=([$(cas\\\ne x in x) # ;;\n {n} -rf /;; esac)]=1)", "rm", "-rf /", "delete.catastrophic"),
    ("a=($\\\n(echo x | xargs --replace=X {n} -rf /))", "rm", "-rf /", "delete.catastrophic"),
    # GNU parallel combines its `:::` sources (`:::+` pairs one with the one before); run
    # when parallel is installed (checked against GNU parallel 20221122)
    ("parallel -j1 {n} ::: reset ::: --hard", "git", "reset --hard", "git.reset-hard"),
    ("parallel {n} {{2}} {{1}} ::: / ::: -rf", "rm", "-rf /", "delete.catastrophic"),
    ("parallel {n} ::: -rf -v :::+ / x", "rm", "-rf /", "delete.catastrophic"),
    (
        "node -e \"require('child_process').spawnSync('{n}', ['-rf', '/'])\"",
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    # session 19 (lead): a value or a `-c` string a substitution prints — a printer, or
    # known text through the filters shell-guard models (`base64 -d`, `rev`, `head`)
    ("x=$(echo '{n} -rf /'); eval \"$x\"", "rm", "-rf /", "delete.catastrophic"),
    ("x=$(echo '{n} -rf /'); $x", "rm", "-rf /", "delete.catastrophic"),
    ("x=$(printf '%s -rf /' {n}); sh -c \"$x\"", "rm", "-rf /", "delete.catastrophic"),
    ("x=`echo '{n} -rf /'`; bash -c \"$x\"", "rm", "-rf /", "delete.catastrophic"),
    ("x=$(echo reset --hard); {n} $x", "git", "reset --hard", "git.reset-hard"),
    ("x=$(echo {e} | base64 -d); $x", "rm", "-rf /", "delete.catastrophic"),
    ('sh -c "$(echo {e} | base64 -d)"', "rm", "-rf /", "delete.catastrophic"),
    ('eval "$(base64 -d <<< {e} 2>/dev/null)"', "rm", "-rf /", "delete.catastrophic"),
    ("sh -c \"$(echo '{r}' | rev)\"", "rm", "-rf /", "delete.catastrophic"),
    (
        "x=$(printf '%s\\n' '{n} -rf /' ls | head -1); eval \"$x\"",
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    # session 19 (lead): a value set again — by a declaration, a loop, read, mapfile,
    # eval, `${c:=…}`, a nameref, a function, a DEBUG trap, a sourced file — or kept only
    # on a path bash may not take (a branch, a loop, a subshell, a pipeline, `&`)
    ("c=echo; export c={n}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; declare c={n}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; readonly c={n}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("f() {{ local c=echo; typeset c={n}; $c -rf /; }}; f", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; for c in {n}; do $c -rf /; done", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; mapfile -t c <<< {n}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; IFS= read -r c < <(echo {n}); $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    (
        "c=echo; select c in {n}; do break; done <<< 1; $c -rf /",
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
    ("c=echo; eval c={n}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; unset c; : ${{c:={n}}}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; declare -n r=c; r={n}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c={n}; if false; then c=echo; fi; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c={n}; false && c=echo; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c={n}; while false; do c=echo; done; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c={n}; case x in y) c=echo;; esac; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c={n}; (c=echo); $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c={n}; {{ c=echo; }} | cat; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c={n}; c=echo & wait; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("f() {{ c={n}; }}; c=echo; f; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; for i in 1 2; do $c -rf /; c={n}; done", "rm", "-rf /", "delete.catastrophic"),
    ("c=echo; trap 'c={n}' DEBUG; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("d=$(mktemp -d); trap '{n} -rf \"$d\"' EXIT; d=/", "rm", "-rf /", "delete.unresolved"),
    # an IFS set on a path bash may not take: the one before it may still split
    ("IFS=,; if false; then IFS=' '; fi; c={n},-rf,/; $c", "rm", "-rf /", "delete.catastrophic"),
    ("IFS=,; (IFS=' '); c={n},-rf,/; $c", "rm", "-rf /", "delete.catastrophic"),
    # a value that grows: `c+=…` after a known value
    ("c={h}; c+={t}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    ("c={h}; export c+={t}; $c -rf /", "rm", "-rf /", "delete.catastrophic"),
    # a value run case-converted (s19-front found it)
    ("c='{u} -rf /'; ${{c,,}}", "rm", "-rf /", "delete.catastrophic"),
    ("c='{u} -RF /'; ${{c~~}}", "rm", "-rf /", "delete.catastrophic"),
    ("c='{u} -rf /'; ${{c@L}}", "rm", "-rf /", "delete.catastrophic"),
    ("declare -l c='{u} -rf /'; $c", "rm", "-rf /", "delete.catastrophic"),
    (
        "printf 'c={n}' > v.sh; c=echo; source ./v.sh; $c -rf /",
        "rm",
        "-rf /",
        "delete.catastrophic",
    ),
]


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    made = Oracle()
    yield made
    made.close()


def _line(template: str, name: str) -> str:
    import base64

    octal = "".join(f"\\0{ord(ch):o}" for ch in name)
    line = f"{name} -rf /"  # ({e}, {r}: this line encoded, reversed)
    encoded = base64.b64encode(line.encode()).decode()
    return template.format(
        n=name,
        c=" ".join(name),
        b=octal,
        e=encoded,
        r=line[::-1],
        u=name.upper(),
        h=name[:-1],
        t=name[-1],
    )


@pytest.mark.parametrize(("template", "program", "args", "rule"), _ROWS, ids=[r[0] for r in _ROWS])
def test_bash_runs_it_and_shell_guard_denies_it(
    oracle: Oracle, template: str, program: str, args: str, rule: str
) -> None:
    for tool in ("python3", "perl", "node", "parallel"):
        if template.startswith(tool) and shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    ran = oracle.argvs(_line(template, MARK))
    home = oracle.last_home
    want = [home if a == "~" else a for a in args.split()]
    assert want in ran, f"bash did not run the marker with {want}: {ran}"
    verdict = judge(_line(template, program))
    assert verdict.decision == "deny", f"allowed: {_line(template, program)!r}"
    assert verdict.rule == rule, verdict.reason


# Lines the front end refused when found (`echo esac` inside a case item, s18-front's gap,
# since read): judged by the fallback alone, which must deny what bash runs.
_FALLBACK_ROWS = [
    ("case x in x) echo esac; a=(-rf /); {n} ${{a[*]}};; esac", "rm", "-rf /"),
    ('case x in x) echo esac; a=({n} reset --hard); "${{a[@]}}";; esac', "git", "reset --hard"),
]


@pytest.mark.parametrize(("template", "program", "args"), _FALLBACK_ROWS)
def test_the_fallback_denies_what_bash_runs(
    oracle: Oracle, template: str, program: str, args: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hookrun.hooks.shell_guard import parse
    from hookrun.shellsyntax import ShellSyntaxError, plain

    def refused(text: str, depth: int) -> None:
        raise ShellSyntaxError("refused for the test", 1, 1)

    assert args.split() in oracle.argvs(_line(template, MARK))
    monkeypatch.setattr(plain, "read", lambda source: None)
    monkeypatch.setattr(parse, "parse_with_tree", refused)
    parse.parse_script.cache_clear()
    try:
        line = _line(template, program)
        assert parse.parse_script(line).parsed is False  # (the fallback's reading)
        assert judge(line).decision == "deny", f"allowed: {line!r}"
    finally:
        parse.parse_script.cache_clear()


@pytest.mark.parametrize(
    "template",
    [
        "echo | xargs -r {n} -rf /",
        "echo | xargs -I{{}} {n} -rf /",
        "printf -rf | xargs {n}",
        "x=$(echo '{n} -rf /'); echo \"$x\"",
        "msg=$(echo '{n} -rf / is what not to run'); printf '%s\\n' \"$msg\"",
        'x=$(echo {e} | base64); echo "$x" -rf /',
        "c={n}; c=echo; $c -rf /",
        "c={n}; x=1; c=echo; $c -rf /",
        "c={n}; c=ec; c+=ho; $c -rf /",
        "IFS=,; if false; then IFS=' '; fi; c=ls,-la; $c",
    ],
)
def test_what_bash_does_not_run_is_not_denied(oracle: Oracle, template: str) -> None:
    """The other side of the xargs and printf readings: bash runs nothing here."""
    ran = oracle.argvs(_line(template, MARK))
    assert not any("-rf" in argv for argv in ran), ran
    assert judge(_line(template, "rm")).decision is None


def test_the_oracle_sees_a_run() -> None:
    """(the marker really records: a line that runs it is seen)"""
    made = Oracle()
    try:
        assert made.argvs(f"{MARK} -rf /") == [["-rf", "/"]]
        assert made.argvs(f"echo {MARK}") == []
    finally:
        made.close()
    assert os.path.isdir(made.root) is False


def test_a_bracket_glob_in_a_name_is_still_judged(oracle: Oracle) -> None:
    """The other side of `A=1 [[ [` (a `[` with no `]` is no glob): `/dir/r[m]` is one,
    and bash runs what it matches."""
    glob = f"{oracle.marker.parent}/{MARK[:-1]}[{MARK[-1]}]"
    assert oracle.argvs(f"{glob} -rf /") == [["-rf", "/"]]
    assert judge("/usr/bin/r[m] -rf /").decision == "deny"
    assert judge("/usr/bin/[[ -rf /").decision is None  # (bash: no such program)
