"""The screen clears a line unparsed only when the full judgement could not deny it.

Its claim: a line it can read (plain words, simple quotes, ``$NAME``, globs, the
``"$(cat <<'EOF' …)"`` idiom; see ``screen.py``) can be denied only through a command
whose program is a rule's head or one the unwrapper looks inside (``heads.looked_at``),
given arguments its rules read — or through a deny shape's head.
Checked against the full judgement — the engine's findings before any rule is switched
off, under the default options and the strictest (``allow_force_with_lease: false``) —
over every table there is: shell-guard's labelled cases, the causes, the here-doc
lines, the peers' corpora (dcg, safety-net), the benchmark's commands, each of them
also with its non-plain characters taken out (``"r"m -rf /`` → ``rm -rf /``), and
generated lines: plain words, quoted and unknown words, keywords, and here-documents
with hostile bodies (whose reading as text bash itself confirms).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY, engine, heads, screen, screen_read, where_for
from hookrun.hooks.shell_guard.rules import supply_chain
from hookrun.hooks.shell_guard.screen import PLAIN, may_match
from tests.hooks.shell_guard import git_text_oracle_test, heredoc_test
from tests.hooks.shell_guard.rules_index_test import CORPUS

HOME = "/home/user"
PROJECT = "/home/user/project"
OPTS = POLICY.bind({})
# Every option that widens what a rule finds (block_rebase is on by default).
STRICT = POLICY.bind({"allow_force_with_lease": False, "block_rebase": True})


def _findings(command: str, cwd: str = PROJECT, opts: object = None) -> list[str]:
    """The full judgement's findings; under both option sets unless ``opts`` is given."""
    ctx = PolicyContext(cwd, cwd, "/nonexistent", {"HOME": HOME})
    rules: list[str] = []
    for o in (OPTS, STRICT) if opts is None else (opts,):
        where = where_for({"cwd": cwd}, o, ctx)  # type: ignore[arg-type]
        rules += [f.rule for f in engine.judge(command, where)]
    return rules


def _plain_only(command: str) -> str:
    return "".join(c for c in command if c in PLAIN)


TABLES = [
    *CORPUS,
    *((c, PROJECT) for c in heredoc_test.ALLOWED),
    *((c, PROJECT) for c, _ in heredoc_test.BLOCKED),
    *(
        (c.replace("{g}", "git").replace("{r}", "rm"), PROJECT)
        for c, *_ in (*git_text_oracle_test.ALLOWED, *git_text_oracle_test.BLOCKED)
    ),
]
WITH_PLAIN_VARIANTS = TABLES + [(_plain_only(c), cwd) for c, cwd in TABLES]


def test_the_screen_never_clears_a_line_of_any_table_the_full_judgement_denies() -> None:
    cleared = [(c, cwd) for c, cwd in WITH_PLAIN_VARIANTS if not may_match(c)]
    denied = [(c, cwd, rules) for c, cwd in cleared if (rules := _findings(c, cwd))]
    assert denied == []
    # (not vacuous: the tables deny many lines, and the screen clears a good part of them)
    assert sum(1 for c, cwd in TABLES if _findings(c, cwd)) > 300
    assert len(cleared) > 200


# Words a generated line is made of: every name the judgement looks at, near misses of
# them, and the arguments that make rules fire (targets, flags, devices, refspecs).
_HEAD_NAMES = sorted(
    heads.PEELED
    | heads.DELETERS
    | heads.GIT_READERS
    | heads.FORMATTERS
    | heads.COPIERS
    | heads.SOURCES
    | heads.PUBLISHERS
    | {"git", "dd", "mkfs", "mkfs.ext4", "format", "FORMAT", "python3.11", "pypy3", "lua5.4"}
)
_NEAR = [
    "/bin/rm", "/usr/bin/git", "rm.exe", "RM", "Rm", "rm1", "rmdir", "unlink", "shred",
    "./rm", "../bin/rm", "x=rm", "-Srm", "--split-string=rm", "python3x", "pythonic", "gitk",
    "terraform", "kubectl", "make", "ls", "echo", "printf", "true", ":", "exit", "cd", "npm",
    "pytest", "go", "cargo", "docker", "chmod", "chown", "truncate", "ln", "touch", "mkdir",
]  # fmt: skip
_ARGS = [
    "/", "-rf", "-r", "-f", "-fr", "--force", "--no-preserve-root", ".", "..", ".git", "/etc",
    "/home/user", "/home/user/project", "src", "node_modules", "/tmp/x", "push", "origin",
    "main", "+main", "-f", "--mirror", "reset", "--hard", "clean", "-fdx", "rebase", "-i",
    "config", "user.email", "--get", "/dev/sda", "of=/dev/sda", "if=/dev/zero", "-delete",
    "-exec", "publish", "unpublish", "-c", "-e", "install", "x", "1", "FOO=bar", "-n", "5",
    "http://x.sh", "-o-", "-s", "-u", "root", "/home/user/.gitconfig", ".gitconfig",
]  # fmt: skip
_SEPARATORS = [" ", " ", " ", " ", ";", " && ", " || ", " | ", "&", "\n", "\t"]

_words = st.sampled_from(_HEAD_NAMES + _NEAR + _ARGS)
plain_lines = st.lists(st.tuples(_words, st.sampled_from(_SEPARATORS)), max_size=12).map(
    lambda pairs: "".join(w + s for w, s in pairs)
) | st.text(alphabet=sorted(PLAIN), max_size=60)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_lines, st.sampled_from([PROJECT, HOME, HOME + "/.config/git", "/", "/tmp"]))
@example("cat config", HOME + "/.config/git")
@example("ls -la\nrm -rf /", PROJECT)
@example("ls;rm -rf /", PROJECT)
@example("ls|sh", PROJECT)
@example("ag | type | ag\n/home/user/.gitconfig && gawk ", PROJECT)  # gap 28, found in CI
def test_a_generated_plain_line_the_screen_clears_has_no_finding(line: str, cwd: str) -> None:
    if not may_match(line):
        assert _findings(line, cwd) == []


# Words the screen reads beyond plain ones: quoted, unknown ($NAME, globs, ~), keywords
# and assignments before a program, and what makes a cleared program's rule fire.
_READ = [
    "'rm'", '"rm"', "r'm'", "'-rf'", "'/'", '"/"', "'-rf /'", '"$HOME"', "$HOME",
    "$HOME/.gitconfig", '"$HOME/.gitconfig"', "~", "~/.gitconfig", "~/.config/git/config", "*",
    "/r?", "/bin/r[m]", "HEAD~1", "a=~/.gitconfig", "$(ls)", '"$(git rev-parse --show-toplevel)"',
    "$(echo rm)", "$(cat ~/.gitconfig)", "$(echo push --force)", "'$(rm -rf /)'", "$((1))",
    "$(rm -rf /)", '"$(git push -f)"', "$(ls;rm -rf ~)",
    "$X", '"$X"', "$1", "[", "[[", "]]", "]", "if", "then", "else", "do", "while", "until", "for",
    "in", "done", "fi", "esac", "function", "case", "coproc", "select", "A=1", "A=$X", "$X=1",
    "A=rm", "'--force'", '"push"', "--force", "--force-with-lease", "-u", "--tags", "+main",
    "'.gitconfig'", "'.config/git/config'", "../.gitconfig", "x/..", ".", "..", "./",
    "CONFIG", "'/dev/sda'", "/dev/sda1", "/dev/disk0", "-m", "pytest", "pip", "-c", "-e",
    "-p", "'fork while fork'", '"import os; os.system(\'rm -rf /\')"', "-C", "alias.st=push",
    "--config-env=alias.x=Y", "status", "commit", "diff", "log", "-m", "'msg'", "\"it's\"",
    "'\"'", "publish", "'publish'", "sed", "grep", "cat", "cp", "tee", "mv", "install",
]  # fmt: skip
_BODY_LINES = [
    "feat: add x", "", "rm -rf /", "git push --force origin main", ")", ")\"", '"', "'", "`id`",
    "$(rm -rf ~)", "$HOME", "EOF)", " EOF", "EOFX", "xEOF", "EOF ", "\\", "(", "#!/bin/sh",
    "Co-Authored-By: A <a@b.c>", "end", "DONE", "MSG",
]  # fmt: skip


def _heredoc_word(delim: str, quote: str, body: list[str]) -> str:
    text = "".join(line + "\n" for line in body)
    return f'"$(cat <<{quote}{delim}{quote}\n{text}{delim}\n)"'


heredoc_words = st.builds(
    _heredoc_word,
    st.sampled_from(["EOF", "MSG", "END"]),
    st.sampled_from(["'", '"']),
    st.lists(st.sampled_from(_BODY_LINES), max_size=6),
)
_ANY_WORD = st.sampled_from(_HEAD_NAMES + _NEAR + _ARGS + _READ) | heredoc_words
readable_lines = st.lists(st.tuples(_ANY_WORD, st.sampled_from(_SEPARATORS)), max_size=10).map(
    lambda pairs: "".join(w + s for w, s in pairs)
)
# One command of a program the screen clears by its arguments, given the arguments
# that make its rules fire (so that the generator hits them often).
_CLEARED_HEADS = sorted({*screen_read.CLEARERS, "python3", "npm", "yarn", "then", "A=1"})
cleared_commands = st.builds(
    lambda head, args, tail: " ".join([head, *args]) + tail,
    st.sampled_from(_CLEARED_HEADS),
    st.lists(st.sampled_from(_ARGS + _READ) | heredoc_words, max_size=5),
    st.sampled_from(["", "; ls", " | sh"]),
)
_CWDS = [PROJECT, HOME, HOME + "/.config/git", HOME + "/.gitconfig", "/", "/tmp", "/dev"]


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(readable_lines | cleared_commands, st.sampled_from(_CWDS))
@example("cat /home/user/.gitconfig", PROJECT)
@example("cat .gitconfig", HOME)
@example("cat config", HOME + "/.config/git")
@example("sort -o x ../../.gitconfig", PROJECT)
@example("cat x/..", HOME + "/.gitconfig")
@example("cat .", HOME + "/.gitconfig")
@example("grep -r x '../git/config'", HOME + "/.config/git/x")
@example("cp x /dev/sda", PROJECT)
@example("git -c alias.st=push st --force", PROJECT)
@example("then rm -rf /", PROJECT)
@example("A=1 git push -f", PROJECT)
@example("python -m x -c 'fork while fork'", PROJECT)
@example("python3 -m x -e 'fork while fork'", PROJECT)
@example("git push -u origin +main", PROJECT)
@example("git push origin main --force-with-lease", PROJECT)
@example("git rebase main", PROJECT)
@example("git -C . clean -fdx", PROJECT)
@example("time git push -f", PROJECT)
@example("cat $HOME/.gitconfig", PROJECT)
@example('echo "$(git reset --hard)"', PROJECT)
@example("find . -name x -delete", PROJECT)
@example("git reset --hard HEAD~1", PROJECT)
@example("for x in $(rm -rf /); do :; done", PROJECT)
@example("git commit -m \"$(cat <<'EOF'\nx\nEOF)\nrm -rf /\nEOF\n)\"", PROJECT)
# found by this search in a CI rehearsal: a line bash refuses (the dangling `&&`), which
# the full judgement's fallback reads in its own way (it denies), the screen cleared
@example('-Srm "$(cat <<\'EOF\'\n)"\nrm -rf /\nEOF\n)" && ', PROJECT)
# found by this search (s13-red): the fallback's span of `$( … )` ended at a `)` line of a
# here-document's body, and read the rest of the body as commands; bash reads it as text
@example('then / "$(cat <<\'EOF\'\n)"\nrm -rf /\nEOF\n)"', PROJECT)
@example('then / "$(cat <<\'EOF\'\nrm -rf /\n)"\nEOF\n)"', PROJECT)
# found by this search in session 19 (s19-cov, s19-front): `[[` is no glob (a `[` with no
# `]` after it is a plain character); git's own `rm` with nothing unknown before it
@example("A=1 [[ [", "/home/user")
@example('git rm -rf "$HOME"', PROJECT)
# found by this search in session 21: an unknown word after a subcommand that runs no
# argument (the judgement took the text git is given for code); one after `bisect` may
# be `run sh -c` (the screen cleared it); a global option with no value (an IndexError)
@example("git / $X \"$(cat <<'EOF'\nrm -rf /\nEOF\n)\"", PROJECT)
@example('git bisect $X "rm -rf /"', PROJECT)
@example("git -C", PROJECT)
def test_a_generated_line_the_screen_clears_has_no_finding(line: str, cwd: str) -> None:
    if not may_match(line):
        assert _findings(line, cwd) == []


_BASH = shutil.which("bash")

# A quoted line (the screen's reader) whose operators bash refuses, then the same line
# made whole: the screen clears only the whole one. bash -n is the judge of which is which.
_BODY = "\"$(cat <<'EOF'\nfix: a\nEOF\n)\""
REFUSED_AND_WHOLE = [
    (f"git commit -m {_BODY} && ", f"git commit -m {_BODY} && ls"),
    (f"&& git commit -m {_BODY}", f"git commit -m {_BODY}"),
    ("echo 'a' ; ; echo 'b'", "echo 'a' ; echo 'b'"),
    ("echo 'a' | ", "echo 'a' | wc -l"),
    ("echo 'a' || && echo 'b'", "echo 'a' || echo 'b'"),
    ("; echo 'a'", "echo 'a' ;"),
    ("echo 'a' |\n", "echo 'a' |\n wc -l"),
]


@pytest.mark.skipif(_BASH is None, reason="needs bash")
@pytest.mark.parametrize(("refused", "whole"), REFUSED_AND_WHOLE)
def test_the_screen_leaves_a_line_bash_refuses_to_the_full_judgement(
    refused: str, whole: str
) -> None:
    def bash_reads(line: str) -> bool:
        checked = subprocess.run([_BASH, "--norc", "-n", "-c", line], capture_output=True)
        return checked.returncode == 0

    assert not bash_reads(refused) and bash_reads(whole)
    assert may_match(refused)
    assert not may_match(whole)


@pytest.mark.skipif(_BASH is None, reason="needs bash")
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(heredoc_words, st.sampled_from(["", " x", "x"]))
@example("\"$(cat <<'EOF'\nx\nEOF)\ny\nEOF\n)\"", "")  # bash 5.2 reads to the end
@example("\"$(cat <<'EOF'\nx\n EOF\ny\nEOF\n)\"", "")
@example("\"$(cat <<'MSG'\nMSG\n)\nMSG\n)\"", "")  # text after the substitution
@example("\"$(cat <<'MSG'\nMSG\n)\n$HOME\nMSG\n)\"", "")  # expanded there (assumed away)
@example('"$(cat <<\'MSG\'\nMSG\n)"\n"\nMSG\n)"', "")  # not one word (assumed away)
@example('"$(cat <<"MSG"\nfix: (a) \'b\' "c" `d` $(e)\n\nMSG\n)"', " x")
def test_a_cleared_heredoc_word_is_text_to_bash(word: str, tail: str) -> None:
    """The screen reads ``"$(cat <<'EOF' …)"`` as a word whose body is text; bash must
    agree: printed, the word is the body (nothing in it ran, nothing after it was code)."""
    line = f"printf %s {word}{tail}"
    head, _, rest = word[1:-1].partition("\n")
    lines = rest.split("\n")
    end = lines.index(head[len("$(cat <<") + 1 : -1])
    after = "\n".join(lines[end + 1 :])
    # A body line `)"` after the delimiter's first line ends the word there: what follows
    # is another command to bash (`"⏎MSG⏎)"`, not found) — not one word, not this test's;
    # and what follows the `)` is inside double quotes, where `$HOME`, `` `id` `` and `\`
    # are expanded, not printed as written
    assume('"' not in after[:-1] and not any(c in after for c in "$`\\"))
    if may_match(line):
        return
    done = subprocess.run(
        [_BASH, "--norc", "--noprofile", "-c", line],
        capture_output=True,
        text=True,
        timeout=20,
        env={"PATH": "/usr/bin:/bin"},
    )
    # The screen's reading: the body runs to the first line that is the delimiter, a `)`
    # closes the substitution, and what follows inside the quotes is text.
    assert after.startswith(")")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "\n".join(lines[:end]).rstrip("\n") + after[1:] + tail.strip()


DENY_SHAPES = [
    ("terraform destroy",),
    ("kubectl delete ns *",),
    ("terra* destroy",),
    ("te\\rraform destroy",),  # shlex reads it as terraform
    ("'terraform' apply", "make deploy"),
    ("ls",),
]


@pytest.mark.parametrize("deny", DENY_SHAPES, ids=str)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["terraform", "destroy", "kubectl", "delete", "ns", "prod", "make"]
                            + ["deploy", "apply", "ls", "-la", "/opt/bin/terraform", "x"]),
            st.sampled_from(_SEPARATORS),
        ),
        min_size=1,
        max_size=6,
    ).map(lambda pairs: "".join(w + s for w, s in pairs))
)  # fmt: skip
def test_a_line_a_deny_shape_matches_is_never_cleared(deny: tuple[str, ...], line: str) -> None:
    opts = POLICY.bind({"deny": list(deny)})
    if "user.deny" in _findings(line, PROJECT, opts):
        assert may_match(line, deny)


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "pytest -x tests/unit",
        "ruff check src --fix",
        "tox -e py311",
        "make -j4 all",
        "cd src && ls -l",
        "mkdir -p build/out; touch build/out/.keep",
        "go test ./...",
        "cargo build --release",
        "echo done",
        "docker compose up -d",
        "terraform destroy",  # no deny shape configured: no rule looks at it
        "npm test",  # a publisher without a release word
        "npm run build -- --watch=false",
        "yarn add lodash --exact",
        "pnpm -r test",
        # programs a rule looks at, given arguments no rule reads
        "git status",
        "git -C sub log --oneline -n 5",
        "git push -u origin feature/x",
        "cat notes.txt",
        "echo publish",  # a release word of no publisher
        "cp dist/app.js build/",
        "python -m pytest tests -q -x",
        # quoting and values only the shell knows, in arguments
        'ls "$HOME"',
        "ls 'a b'",
        "ls *.py",
        "ls ~",
        'git commit -m "fix: handle case 5"',
        'grep -rn "def handler" src/ | head -20',
        "sed -n '5,40p' src/mod.py",
        "wc -l src/*.py | sort -n | tail -5",
        "[[ -f out.txt ]] && cat out.txt",
        "echo $(id)",
        "for x in rm *; do echo $x; done",  # a for list is data
        'cd "$(git rev-parse --show-toplevel)" && git reset --soft HEAD~3',
        'if [ -d build ]; then echo "$PWD"; fi',
        "git commit -m \"$(cat <<'EOF'\nfeat: x (y)\n\nrm -rf / is text\nEOF\n)\"",
    ],
)
def test_everyday_commands_are_cleared_without_parsing(command: str) -> None:
    assert not may_match(command)


@pytest.mark.parametrize(
    "command",
    [
        "ls a\\ b",
        "ls {a,b}",
        "ls ${HOME}",
        "ls $'x'",
        'ls "$(echo "x")"',
        'ls "a\\"b"',
        "ls $?",
        '"$X" -rf /',
        "$X",
        "ls *.py; ~/bin/tool",
        "ls 'unterminated",
        'git commit -m "$(cat <<EOF\nx\nEOF\n)"',  # an unquoted delimiter: the body expands
        "git commit -m \"$(cat <<'EOF'\nEOF)\nEOF\n)\"",  # a body line holds the delimiter
        "echo $((1 + 2))",
        "echo $(id) $(echo (x))",
        "echo `id`",
        "ls > /dev/sda",
        "ls < in",
        "(ls)",
        "ls # comment",
        "! ls",
        "ls ^x",
        "ls café",
        "ls\r",
        "cat <<EOF\nhi\nEOF",
    ],
)
def test_quoting_expansion_substitution_or_redirection_sends_the_line_to_the_parser(
    command: str,
) -> None:
    assert may_match(command)


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf build",
        "/bin/rm x",
        "rm.exe x",
        "ls && rm x",
        "ls;rm x",
        "ls|sh",
        "sudo ls",
        "env -Srm",
        "xargs -n1",
        "cat ~/.gitconfig",  # git.read-email judges what cat prints
        "cat .gitconfig",
        "grep -r email ../.gitconfig",
        'cat "$HOME/x"',
        "git push --force",
        "git push origin +main",
        "git push --force-with-lease",
        "git -c alias.st=push st",
        "git $CMD",
        "git reset --hard",
        "cp x /dev/sda",
        "python -m pytest -c x",
        "python -c x",
        "then rm x",
        "A=1 git push -f",
        "done rm",
        "function f",
        "time git status",
        "mkfs.ext4 x",
        "FORMAT c:",
        "dd if=a of=b",
        "python3.11 x.py",
        "npm publish",
        "npm --tag beta publish",
        "yarn unpublish x",
        "npm $X",
        ". ./env.sh",
    ],
)
def test_a_word_the_judgement_looks_at_sends_the_line_to_the_parser(command: str) -> None:
    assert may_match(command)


@pytest.mark.parametrize(
    ("deny", "command", "expected"),
    [
        ((), "terraform destroy", False),
        (("terraform destroy",), "terraform destroy", True),
        (("terraform destroy",), "/usr/local/bin/terraform apply", True),
        (("terraform destroy",), "ls -la", False),
        (("terra* destroy",), "ls -la", True),  # a glob head may match any word
        (("te\\rraform destroy",), "terraform destroy", True),
    ],
)
def test_a_deny_shape_head_keeps_its_commands_from_being_cleared(
    deny: tuple[str, ...], command: str, expected: bool
) -> None:
    assert may_match(command, deny) is expected


def test_the_screen_reads_the_same_heads_as_the_rule_index() -> None:
    """``rules.checks_for`` is built from ``heads.RULE_HEADS``: a name with a check is a
    name the screen sends to the parser — but a publisher, whose check needs a release
    word (the screen looks for that word instead)."""
    from hookrun.hooks.shell_guard.rules import checks_for

    names = {*_HEAD_NAMES, *_NEAR, *_ARGS}
    for name in names:
        if checks_for(name, False):
            assert heads.looked_at(name) or checks_for(name, False) == (supply_chain.check,)
            assert heads.looked_at(name) or name in heads.PUBLISHERS, name


def _looked_at_by(name: str) -> set[str]:
    return {h.__name__ for h in (*heads.RULE_HEADS, heads.peels) if h(name)}


def test_each_clearer_answers_for_every_head_that_looks_at_its_programs() -> None:
    """A clearer knows the rules of the heads below; a program another head (or the
    unwrapper) starts looking at must not keep being cleared by it unread."""
    answers = {
        screen_read._git: {"reads_git", "peels"},
        screen_read._finds_without_acting: {"deletes", "peels"},
        screen_read._prints_no_gitconfig: {"reads_git"},
        screen_read._names_no_device: {"touches_disk"},
    }
    assert set(screen_read.CLEARERS) == screen._CLEARED
    for name, clears in screen_read.CLEARERS.items():
        assert screen._program(name) is clears
        if clears is screen_read._awk_runs_nothing:
            # awk's clearer answers for the program reader and for git.read-email
            # (awk, gawk read a file they are given; mawk, nawk only have the reader)
            assert _looked_at_by(name) in ({"peels"}, {"reads_git", "peels"}), name
            continue
        assert _looked_at_by(name) == answers[clears], name
    for name in ("python", "python3", "python3.11", "pypy3"):
        assert screen._program(name) is screen_read.python_module
        assert _looked_at_by(name) == {"runs_or_publishes", "runs_inline_code", "peels"}
    for name in heads.PUBLISHERS:  # (they also run packages: `npm exec`, `yarn dlx`)
        assert screen._program(name) is screen_read.runs_no_package
        assert _looked_at_by(name) == {"runs_or_publishes", "peels"}
    for name in ("npx", "pnpx", "bunx"):
        assert screen._program(name) is screen_read.runs_no_program
        assert _looked_at_by(name) == {"peels"}
    word_str = screen_read._WORD_STR
    assert len(set(word_str)) == len(word_str) and set(word_str) == screen_read._WORD_CHARS


_PUBLISH_WORDS = st.lists(
    st.sampled_from(sorted(supply_chain._NOT_A_RELEASE | supply_chain._PKG_ARG_OPTS))
    | st.sampled_from(["--", "-g", "--dry-run", "--tag", "beta", "pkg", "./dist", "Publish"])
    | st.text(max_size=10),
    max_size=8,
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(heads.PUBLISHERS)), _PUBLISH_WORDS)
def test_a_publisher_is_denied_only_for_a_release_word(name: str, texts: list[str]) -> None:
    """What lets the screen clear `npm test`: the publish check needs a word of
    heads.RELEASES among the arguments."""
    if not heads.RELEASES & set(texts):
        assert supply_chain._publish(name, texts) is None
