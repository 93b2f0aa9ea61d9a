"""The screen clears a line unparsed only when the full judgement could not deny it.

Its claim: a line of plain characters (no quoting, expansion, substitution,
redirection or grouping) can be denied only through a word that is a rule's head or a
program the unwrapper looks inside (``heads.looked_at``), or a deny shape's head.
Checked against the full judgement — the engine's findings before any rule is switched
off — over every table there is: shell-guard's labelled cases, the causes, the here-doc
lines, the peers' corpora (dcg, safety-net), the benchmark's commands, each of them
also with its non-plain characters taken out (``"r"m -rf /`` → ``rm -rf /``), and
generated lines of plain words.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY, engine, heads, where_for
from hookrun.hooks.shell_guard.rules import supply_chain
from hookrun.hooks.shell_guard.screen import PLAIN, may_match
from tests.hooks.shell_guard import heredoc_test
from tests.hooks.shell_guard.rules_index_test import CORPUS

HOME = "/home/user"
PROJECT = "/home/user/project"
OPTS = POLICY.bind({})


def _findings(command: str, cwd: str = PROJECT, opts: object = OPTS) -> list[str]:
    ctx = PolicyContext(cwd, cwd, "/nonexistent", {"HOME": HOME})
    where = where_for({"cwd": cwd}, opts, ctx)  # type: ignore[arg-type]
    return [f.rule for f in engine.judge(command, where)]


def _plain_only(command: str) -> str:
    return "".join(c for c in command if c in PLAIN)


TABLES = [
    *CORPUS,
    *((c, PROJECT) for c in heredoc_test.ALLOWED),
    *((c, PROJECT) for c, _ in heredoc_test.BLOCKED),
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
def test_a_generated_plain_line_the_screen_clears_has_no_finding(line: str, cwd: str) -> None:
    if not may_match(line):
        assert _findings(line, cwd) == []


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
    ],
)
def test_everyday_plain_commands_are_cleared_without_parsing(command: str) -> None:
    assert not may_match(command)


@pytest.mark.parametrize(
    "command",
    [
        'ls "$HOME"',
        "ls 'a b'",
        "ls a\\ b",
        "ls *.py",
        "ls ~",
        "ls {a,b}",
        "echo $(id)",
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
        "cat notes.txt",  # git.read-email judges what cat prints
        "git status",
        "mkfs.ext4 x",
        "FORMAT c:",
        "dd if=a of=b",
        "python3.11 x.py",
        "npm publish",
        "npm --tag beta publish",
        "yarn unpublish x",
        "echo publish",  # (a release word sends any line: cheaper than knowing whose it is)
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
