"""hookrun.dispatch.trivial gives exactly what the in-process shell gives, or declines.

The oracle is :func:`hookrun.dispatch.run` itself (the in-process shell, whose echo and
exit are confirmed against bash by the shell's own tables): every command a grammar of
echo/exit shapes generates — near misses included — either is declined (None) or
yields the same exit code, stdout, stderr, route and flags.
"""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookrun.dispatch import run as shell_run
from hookrun.dispatch import trivial

_MAX = 1 << 20


def _compare(command: str, tmp: str) -> bool:
    """True when the fast path answered (and then agreed with the shell)."""
    fast = trivial.run(command, max_output=_MAX)
    if fast is None:
        return False
    slow = shell_run(command, cwd=tmp, env=dict(os.environ), stdin=b"{}", timeout=30)
    assert (fast.exit_code, fast.stdout, fast.stderr, fast.route) == (
        slow.exit_code,
        slow.stdout,
        slow.stderr,
        slow.route,
    ), command
    assert (fast.timed_out, fast.cancelled, fast.truncated, fast.error) == (
        slow.timed_out,
        slow.cancelled,
        slow.truncated,
        slow.error,
    )
    return True


# Real inline hooks, as configs and the README write them.
ANSWERED = [
    """echo '{"decision": "allow"}'""",
    """echo '{"context": "checked"}'""",
    """echo '{"decision":"deny","reason":"no rm -rf here"}'""",
    "echo hi",
    "echo",
    "echo ''",
    "echo 'a' '' 'b'",
    "  echo\t'tab separated'  ",
    "echo a=b c:d e,f g+h 50% user@host ./path/to-file",
    "echo 'émoji ✓ and ünïcode'",
    "exit 2",
    "exit 0",
    "exit",
    "exit 255",
    "exit 49",
]
# Near misses: each means something else to the shell, so the fast path must decline.
DECLINED = [
    "echo -n hi",
    "echo '-n' hi",
    "echo -e 'a\\nb'",
    "echo hi # comment",
    "echo $HOME",
    "echo '$HOME' \"$HOME\"",
    'echo "double quoted"',
    "echo a\\ b",
    "echo ~",
    "echo *",
    "echo a?",
    "echo {a,b}",
    "echo 'a''b'",
    "echo a'b'",
    "echo hi; exit 2",
    "echo hi && exit 2",
    "echo hi | cat",
    "echo hi > out.txt",
    "echo hi\nexit 2",
    "exit 256",
    "exit 08",
    "exit -1",
    "exit 2 3",
    "echo(hi)",
    "echos hi",
    "ECHO hi",
    "echo 'unterminated",
]


@pytest.mark.parametrize("command", ANSWERED)
def test_a_trivial_command_is_answered_as_the_shell_answers_it(
    command: str, tmp_path: os.PathLike[str]
) -> None:
    assert _compare(command, os.fspath(tmp_path))


@pytest.mark.parametrize("command", DECLINED)
def test_anything_the_shell_reads_differently_is_left_to_the_shell(command: str) -> None:
    assert trivial.run(command, max_output=_MAX) is None


def test_output_over_the_capture_bound_is_left_to_the_shell() -> None:
    assert trivial.run("echo " + "x" * 100, max_output=50) is None
    assert trivial.run("echo " + "x" * 100, max_output=101) is not None


_BLANK = st.sampled_from([" ", "  ", "\t", " \t"])
_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), min_codepoint=0, max_codepoint=0x2FFF),
    max_size=12,
)
_BARE = st.text(alphabet="abcXYZ019_./:,=+%@-~#*?$!^&;|<>(){}[]\"'\\", min_size=1, max_size=8)
_WORD = st.one_of(_BARE, _TEXT.map(lambda t: f"'{t}'"), _TEXT.map(lambda t: f'"{t}"'), _TEXT)


@st.composite
def _commands(draw: st.DrawFn) -> str:
    head = draw(st.sampled_from(["echo", "exit", "echo", "echo", "exit ", " echo"]))
    words = draw(st.lists(st.tuples(_BLANK, _WORD), max_size=4))
    tail = draw(st.sampled_from(["", " ", "\t", ";", " # c"]))
    if head.strip() == "exit" and draw(st.booleans()):
        words = [(" ", str(draw(st.integers(min_value=-3, max_value=300))))]
    return head + "".join(blank + word for blank, word in words) + tail


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(command=_commands())
def test_every_generated_echo_or_exit_agrees_with_the_shell_or_is_declined(
    command: str, tmp_path: os.PathLike[str]
) -> None:
    _compare(command, os.fspath(tmp_path))


# The same grammar as regexes (the module reads it by hand, see there): what each
# command means to the fast path — its stdout words and exit status — or None.
_RX_WORD = r"(?:'(?![-'])[^'\x00-\x1f\x7f]*'|''|[A-Za-z0-9_./:,=+%@][A-Za-z0-9_./:,=+%@-]*)"
_RX_ECHO = rf"[ \t]*echo((?:[ \t]+{_RX_WORD})*)[ \t]*"
_RX_EXIT = r"[ \t]*exit(?:[ \t]+(0|[1-9][0-9]{0,2}))?[ \t]*"
_RX_ARG = rf"[ \t]+({_RX_WORD})"


def _by_regex(command: str) -> tuple[int, bytes] | None:
    if "\\" in command or "\n" in command:
        return None
    echo = re.fullmatch(_RX_ECHO, command)
    if echo is not None:
        words = [w[1:-1] if w.startswith("'") else w for w in re.findall(_RX_ARG, echo[1])]
        try:
            return 0, (" ".join(words) + "\n").encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: declined, the shell decides
            return None
    done = re.fullmatch(_RX_EXIT, command)
    if done is not None and int(done[1] or 0) <= 255:
        return int(done[1] or 0), b""
    return None


def _by_scanner(command: str) -> tuple[int, bytes] | None:
    fast = trivial.run(command, max_output=_MAX)
    return None if fast is None else (fast.exit_code, fast.stdout)


@pytest.mark.parametrize("command", ANSWERED + DECLINED)
def test_the_scanner_reads_the_grammar_as_its_regexes_do(command: str) -> None:
    assert _by_scanner(command) == _by_regex(command)


@settings(max_examples=500, deadline=None)
@given(command=_commands())
def test_every_generated_command_reads_the_same_by_scanner_and_by_regex(command: str) -> None:
    assert _by_scanner(command) == _by_regex(command)
