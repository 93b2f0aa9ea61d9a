"""Fail-opens the bash-oracle search found (``redteam.py``), each pinned with bash as the oracle.

For every construct: bash runs the line with a marker program in the blocked program's
place (nothing destructive runs) and the marker must have run with the command's
arguments — then shell-guard, given the line with the real program, must deny it and
name the rule and the offending part. Each of these was ALLOWED before its fix.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .redteam import DANGERS, MARK, Oracle, judge, probe

_DANGER = {label: (label, name, args) for label, name, args in DANGERS}
_RULE = {
    "rm": "delete.catastrophic",
    "push": "git.force-push",
    "clean": "git.clean-force",
    "mkfs": "disk.mkfs",
    "publish": "supply-chain.publish",
    "reset": "git.reset-hard",
    "dd": "disk.dd-device",
    "find": "delete.catastrophic",
}

# (construct, spelling, danger) of redteam.CONSTRUCTS / SPELLINGS / DANGERS
_FOUND = [
    # a named descriptor before the command: the front end refuses the line, and the
    # fallback read `{fd}` as the program
    ("redir-fd-var", "plain", "rm"),
    # eval skips `--`
    ("eval-dashdash", "plain", "rm"),
    # a shell's -c code given its $0, $1 … after it
    ("bash-c-args", "plain", "rm"),
    ("sh-c-dollar0", "plain", "rm"),
    ("sh-c-dollar0", "plain", "mkfs"),
    ("bash-c-eval1", "plain", "rm"),
    ("xargs-sh", "plain", "rm"),
    # static text a process substitution gives a shell or `source`
    ("source-procsub", "plain", "rm"),
    ("dot-procsub", "plain", "push"),
    ("bash-procsub-stdin", "plain", "rm"),
    ("bash-procsub-file", "plain", "rm"),
    ("bash-env", "plain", "rm"),
    # substitutions in quoted text bash evaluates: arithmetic subscripts, prompts
    ("declare-i", "plain", "rm"),
    ("declare-i-init", "plain", "rm"),
    ("declare-nameref", "plain", "rm"),
    ("declare-subscript-quoted", "plain", "rm"),
    ("declare-array-quoted", "plain", "rm"),
    ("let-quoted", "plain", "rm"),
    ("test-eq-arith", "plain", "rm"),
    ("test-eq-var", "plain", "clean"),
    ("test-v-quoted", "plain", "rm"),
    ("arith-var-indirect", "plain", "rm"),
    ("arith-var-indirect-cmd", "plain", "push"),
    ("printf-v-subscript", "plain", "rm"),
    ("read-subscript", "plain", "rm"),
    ("unset-subscript", "plain", "rm"),
    ("substring-arith", "plain", "rm"),
    ("subscript-quoted-arith", "plain", "rm"),
    ("prompt-expansion", "plain", "rm"),
    ("ps4-set-x", "plain", "rm"),
    # names `alias` / `hash -p` define on the line
    ("alias-expand", "plain", "rm"),
    ("alias-name", "plain", "rm"),
    ("hash-p", "plain", "rm"),
    # a command's name or arguments in a value the line assigns or passes
    ("var-cmd", "plain", "rm"),
    ("var-cmd", "plain", "mkfs"),
    ("var-args", "plain", "rm"),
    ("var-args", "plain", "push"),
    ("var-name-default", "plain", "rm"),
    ("var-name-default-inline", "plain", "rm"),
    ("var-name-default-inline", "plain", "mkfs"),
    ("var-name-printf-v", "plain", "rm"),
    ("var-name-read", "plain", "mkfs"),
    ("var-name-declare", "plain", "rm"),
    ("var-name-local", "plain", "publish"),
    ("var-indirect", "plain", "rm"),
    ("var-nameref", "plain", "rm"),
    ("var-substring", "plain", "rm"),
    ("var-replace", "plain", "rm"),
    ("var-upper", "plain", "push"),
    ("ifs-comma", "plain", "rm"),
    ("ifs-colon-set", "plain", "rm"),
    ("set-dashdash", "plain", "rm"),
    ("set-name", "plain", "rm"),
    ("set-args", "plain", "rm"),
    ("set-star", "plain", "rm"),
    ("array-run", "plain", "rm"),
    ("array-run-unquoted", "plain", "rm"),
    ("array-name-elem", "plain", "mkfs"),
    ("function-args", "plain", "rm"),
    ("function-dollar1", "plain", "rm"),
    ("function-named-as-cmd", "plain", "push"),
    # a name whose unknown parts are empty
    ("plain", "empty-cmdsub-inside", "rm"),
    ("plain", "colon-cmdsub-inside", "rm"),
    ("plain", "zero-substring", "rm"),
    ("plain", "empty-at", "push"),
    ("eval-sq", "zero-substring", "rm"),
    # a substitution in a word the front end refuses on its own
    ("array-elem", "brace", "rm"),
    # (session 14) a formatter's name inside a longer value (`${x:1:9}` of `xmkfs.ext4x`),
    # and spelled by the line that runs the code (`c=mkfs.ext4 eval '$c /dev/sda1'`)
    ("var-substring", "plain", "mkfs"),
    ("var-env-prefix", "plain", "mkfs"),
    # (session 14, the widened search) wrappers with their options and operands
    ("chrt", "plain", "rm"),
    ("chrt-idle", "plain", "push"),
    ("taskset", "plain", "push"),
    ("prlimit", "plain", "rm"),
    ("fakeroot-dashdash", "plain", "rm"),
    ("unshare-r", "plain", "reset"),
    ("script-qc", "plain", "rm"),
    ("script-qec", "plain", "publish"),
    ("script-q-command", "plain", "clean"),
    ("flock-c", "plain", "rm"),
    ("trap-dashdash", "plain", "rm"),
    ("trap-var", "plain", "push"),
    # xargs: all items on one command line; items from -a FILE, <(…), a here-string
    ("xargs-r", "plain", "rm"),
    ("xargs-E", "plain", "push"),
    ("xargs-L", "plain", "clean"),
    ("xargs-herestring", "plain", "reset"),
    ("xargs-heredoc", "plain", "clean"),
    ("xargs-procsub-stdin", "plain", "dd"),
    ("xargs-a-file", "plain", "publish"),
    ("xargs-a-procsub", "plain", "find"),
    ("xargs-arg-file-eq", "plain", "push"),
    # text fed to code on stdin or a descriptor
    ("bash-fd0", "plain", "rm"),
    ("bash-proc-fd0", "plain", "push"),
    ("source-fd0", "plain", "rm"),
    ("source-fd3", "plain", "rm"),
    ("bash-fd3", "plain", "mkfs"),
    ("exec-fd3-bash", "plain", "rm"),
    ("bash-c-source-stdin", "plain", "rm"),
    ("bash-c-dot-stdin", "plain", "publish"),
    ("bash-c-eval-cat", "plain", "rm"),
    ("bash-c-unquoted-cat", "plain", "push"),
    ("bash-c-read-run", "plain", "rm"),
    ("bash-c-sh", "plain", "rm"),
    ("sh-c-exec-sh", "plain", "reset"),
    ("bash-c-heredoc", "plain", "rm"),
    ("herestring-var", "plain", "rm"),
    ("cat-procsub-bash", "plain", "rm"),
    ("prompt-command", "plain", "rm"),
    # what read/mapfile/select/for read is a value the line may run
    ("read-line-run", "plain", "rm"),
    ("read-a-run", "plain", "push"),
    ("mapfile-run", "plain", "rm"),
    ("readarray-eval", "plain", "clean"),
    ("read-eval", "plain", "rm"),
    ("while-read-run", "plain", "rm"),
    ("select-var-run", "plain", "rm"),
    ("array-slice", "plain", "rm"),
    # the whole command printed by a substitution; names bash globs or brace-expands
    ("cmdsub-whole", "plain", "rm"),
    ("backtick-whole", "plain", "push"),
    ("cmdsub-printf-whole", "plain", "rm"),
    ("cmdsub-cat-whole", "plain", "rm"),
    ("eval-cat-herestring", "plain", "rm"),
    ("eval-cat-heredoc", "plain", "reset"),
    ("glob-path", "plain", "rm"),
    ("glob-path-bracket", "plain", "push"),
    ("plain", "brace-range", "rm"),
    ("bash-c", "brace-range", "push"),
    # a name only the shell knows fed text (it may be a shell); files read back by path
    ("var-shell-herestring", "plain", "rm"),
    ("cat-file-pipe-bash", "plain", "push"),
    ("source-dot-slash", "plain", "rm"),
    ("heredoc-to-file", "plain", "rm"),
    ("bash-redirect-file", "plain", "publish"),
    ("run-written-file", "plain", "rm"),
    ("glob-shell-c", "plain", "push"),
    # text a filter decodes or rearranges before a shell reads it; programs that hand
    # their stdin to a shell; shell options that take a word; printf -v and alias values
    ("rev-pipe-sh", "plain", "rm"),
    ("tr-case-sh", "plain", "push"),
    ("xxd-sh", "plain", "rm"),
    ("base32-sh", "plain", "reset"),
    ("yes-head-bash", "plain", "rm"),
    ("script-stdin", "plain", "rm"),
    ("bash-euo-c", "plain", "rm"),
    ("printf-v-fmt-run", "plain", "rm"),
    ("alias-part", "plain", "rm"),
]

# One construct inside another (found by the nested search): (run, judged, danger).
_NESTED = [
    ("command {run} -rf /", "colon-cmdsub-inside", "rm"),
    ("time {run} push --force origin main", "empty-at", "push"),
    ("true && {{ {run} /dev/sda1; }}", "zero-substring", "mkfs"),
    ("echo $({{fd}}>f {run} -rf /)", "plain", "rm"),
    ("(( $({{fd}}>f {run} clean -fdx) ))", "mixed", "clean"),
    # (session 14) a here-string fed to the code of a shell's -c words, which reads it
    ("bash -c '\"$@\"' _ source /dev/stdin <<< '{run} publish'", "plain", "publish"),
    ("bash -c '\"$@\"' _ source /dev/stdin <<< '{run} -rf /'", "plain", "rm"),
    ("bash -c 'eval \"$(cat)\"' <<< '{run} reset --hard'", "plain", "reset"),
    # (session 16) a here-string on a descriptor: read by the tree (gap 35), as bash runs it
    ("{run} -rf / 3<<< x", "plain", "rm"),
    ("{{ eval \"$(cat <&3)\"; }} 3<<< '{run} -rf /'", "plain", "rm"),
    ("read -r -u 3 c 3<<< '{run} push --force origin main'; $c", "plain", "push"),
]


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    if shutil.which("bash") is None:
        pytest.skip("bash is the oracle")
    made = Oracle()
    yield made
    made.close()


def _denied(line: str, label: str) -> None:
    verdict = judge(line)
    assert verdict.decision == "deny", line
    rule = _RULE[label]
    assert verdict.rule == rule, (line, verdict.reason)
    assert f"shell-guard [{rule}]: " in (verdict.reason or "")


@pytest.mark.parametrize(("construct", "spelling", "label"), _FOUND)
def test_what_bash_runs_through_the_construct_is_denied(
    construct: str, spelling: str, label: str, oracle: Oracle
) -> None:
    p = probe(construct, spelling, _DANGER[label])
    run = p.run.replace("$HK_BIN", str(oracle.marker.parent))
    assert oracle.runs(run, p.args), f"bash did not run the marker: {run!r}"
    _denied(p.judged, label)


@pytest.mark.parametrize(("shape", "spelling", "label"), _NESTED)
def test_nested_constructs_found_by_the_search_are_denied(
    shape: str, spelling: str, label: str, oracle: Oracle
) -> None:
    from .redteam import SPELLINGS

    _, name, args = _DANGER[label]
    spell = SPELLINGS[spelling]
    run = shape.format(run=spell(MARK))
    assert oracle.runs(run, args), f"bash did not run the marker: {run!r}"
    _denied(shape.format(run=spell(name)), label)


# Look-alikes: the same constructs running nothing a rule blocks stay allowed.
_ALLOWED = [
    "c='ls -la'; $c",
    'set -- a b; echo "$@"',
    'f() { ls "$@"; }; f -la',
    "alias ll='ls -l'",
    'cmd=(git status); "${cmd[@]}"',
    "$PYTHON -m pytest -x",
    "$GIT push origin main",
    "$RM -rf build",
    "x='a[1]'; echo $(( x ))",
    "declare -i n='1+2'",
    "let 'x=a[1]'",
    "printf -v 'a[2]' %s x",
    "PS4='+ $LINENO: '; set -x; ls",
    "source <(echo 'export A=1')",
    "bash <(echo 'echo hi')",
    "bash -c 'echo \"$1\"' _ 'rm -rf /'",
    "x='-la'; ls $x",
    'git commit -m "fix a[$(date +%s)] in the table"',
    "echo '$(rm -rf /)'",
    "sh -c '\"$0\" --version' git",
    # (session 14) text fed to -c code that does not read it as code; a formatter named
    # where no name only the shell knows runs
    "bash -c 'wc -l' <<< 'rm -rf /'",
    "bash -c 'tr a-z A-Z' <<< 'git push --force'",
    'x=mkfs.ext4; echo "$x" /dev/sda1',
    "man mkfs.ext4; ls /dev/sda1",
    "ls /sys/fs; $EDITOR notes.txt",
    "c=ls eval '$c -la'",
    # (session 14) the widened search's constructs running ordinary work
    "chrt -o 0 make test",
    "taskset -c 0 pytest -x",
    "script -qc 'make build' /dev/null",
    "script -q session.log",
    "flock /tmp/build.lock -c 'npm test'",
    "trap -- 'echo done' EXIT",
    "x='echo bye'; trap \"$x\" EXIT",
    "echo 'a b c' | xargs -n 1 echo",
    "xargs -a files.txt wc -l",
    "find . -name '*.pyc' -print0 | xargs -0 rm -f",
    "echo 'src tests' | xargs ls",
    "read -r x <<< 'hello world'; echo $x",
    "mapfile -t lines < notes.txt; echo ${#lines[@]}",
    "while read -r l; do echo \"$l\"; done <<< 'a b'",
    "for f in 'a b' c; do echo $f; done",
    "$(git rev-parse --show-toplevel)/scripts/test.sh -q",
    "cat <(echo hi) | wc -l",
    "PROMPT_COMMAND='history -a' bash -i",
    "echo {1..3} {a..c}",
    "ls /usr/bin/py*",
    "echo 'ls -la' > cmd.txt; cat cmd.txt",
    "exec 3<<< 'data'; cat <&3",
    "bash -c 'source ./env.sh && make' <<< 'y'",
    "echo 'make test' > run.sh; bash run.sh",
    "$PAGER <<< 'see the notes'",
    "echo 'rm -rf /' > notes.txt; cat notes.txt | wc -l",
    "echo 'export A=1' > env.sh; . ./env.sh",
    "echo 'olleh' | rev",
    "echo 'HELLO' | tr A-Z a-z",
    "echo 6869 | xxd -r -p",
    "yes | head -3",
    "bash -euo pipefail -c 'make test'",
    "alias ll='ls -l'; ll /",
    "printf -v x '%s-%s' a b; echo $x",
    "echo 'uptime' | ssh build-host",
    "echo 'make nightly' | at midnight",
    "echo 'make' > build.sh; chmod +x build.sh; ./build.sh",
]


@pytest.mark.parametrize("line", _ALLOWED)
def test_look_alikes_running_nothing_blocked_are_allowed(line: str) -> None:
    assert judge(line).decision is None, judge(line).reason


# Hostile text around a blocked command, through `hookrun policy shell-guard` end to end:
# the answer is a deny naming the rule (exit 2), never an error nor an allow. (A lone
# surrogate raised UnicodeEncodeError in the front end: a deny by on_error, no rule.)
_HOSTILE = [
    ('{"tool_input": {"command": "echo \\ud800; rm -rf /"}}', "delete.catastrophic"),
    ('{"tool_input": {"command": "echo \\udc80\\ud800x; rm -rf /"}}', "delete.catastrophic"),
    ('{"tool_input": {"command": "echo a\\u0000b; rm -rf /"}}', "delete.catastrophic"),
    ('{"tool_input": {"command": "true\\r\\nrm -rf /\\r\\n"}}', "delete.catastrophic"),
    ('{"tool_input": {"command": "echo \\u202e; rm -rf /"}}', "delete.catastrophic"),
    ('{"tool_input": {"command": "echo ' + "$(" * 40 + ")" * 40 + '; rm -rf /"}}', "misc.too-deep"),
    ('{"tool_input": {"command": "' + "{ " * 300 + "rm -rf /" + "; }" * 300 + '"}}', None),
    ('{"tool_input": {"command": "cat <<E\\nrm -rf /\\n; rm -rf /"}}', "delete.catastrophic"),
    ('{"tool_input": {"command": "echo ' + "a" * 100_000 + '; rm -rf /"}}', None),
    # (2,000 here-documents took the front end 46 s: the hook's timeout, no rule named)
    (
        '{"tool_input": {"command": "cat '
        + "<<E " * 2000
        + "\\n"
        + "x\\nE\\n" * 2000
        + 'rm -rf /"}}',
        "misc.too-deep",
    ),
]


@pytest.mark.parametrize(("body", "rule"), _HOSTILE, ids=[b[:50] for b, _ in _HOSTILE])
def test_hostile_text_around_a_blocked_command_is_a_named_deny(
    body: str, rule: str | None, tmp_path: Path
) -> None:
    import json
    import subprocess
    import sys

    payload = json.loads(body)
    payload.update(hook_event_name="PreToolUse", tool_name="Bash", cwd=str(tmp_path))
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "hookrun", "policy", "shell-guard"],
        input=json.dumps(payload).encode("utf-8", "surrogatepass"),
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    answer = json.loads(done.stdout)
    assert done.returncode == 2, answer
    assert answer["decision"] == "deny"
    assert (answer["reason"] or "").startswith(f"shell-guard [{rule or 'delete.catastrophic'}]")
