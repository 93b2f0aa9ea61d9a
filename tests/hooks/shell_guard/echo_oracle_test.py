"""``printed("echo", …)`` against bash's own echo, and printf's numeric conversions.

``echo -e '\\u0072m -rf /' | sh`` runs ``rm -rf /`` in bash: its echo expands the same
escapes as printf's ``%b`` (``\\u``/``\\U``, ``\\0NNN``, ``\\e``, ``\\c`` ending the
output). shell-guard's echo knew only ``\\x``, octal and ``\\n\\t\\r\\\\`` and allowed that
line. The oracle is bash: each echo (options in every order, ``-e`` against ``-E``,
``-n``) and each printf below runs there, and ``printed`` must print the same.
"""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from hookrun.hooks.shell_guard.printed import printed
from tests.hooks.shell_guard.conftest import Judge

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle")

_ECHO_OPTIONS = ["-e", "-E", "-n", "-ne", "-en", "-eE", "-Ee", "-e -E", "-E -e", "-x", "--", "-"]
_ECHO_ATOMS = [
    "rm", " ", "-rf", "/", "\\x72", "\\u0072", "\\U00000072", "\\0162", "\\162", "\\e", "\\a",
    "\\c", "\\n", "\\t", "\\\\", "\\", "\\q", "\\x", "\\u", "\\0", "é", "\\v",
]  # fmt: skip


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _bash_outputs(lines: list[str]) -> list[str]:
    """Each shell line's output, all in one bash (a separator byte after each)."""
    script = "".join(f"{line}; printf '\\036'\n" for line in lines)
    out = subprocess.run(
        ["bash", "-c", script], capture_output=True, timeout=60, check=False
    ).stdout.decode("utf-8", "surrogateescape")
    parts = out.split("\036")[: len(lines)]
    assert len(parts) == len(lines)
    return parts


def _echo_cases(n: int, seed: int) -> list[list[str]]:
    rnd = random.Random(seed)
    cases = []
    for _ in range(n):
        options = rnd.choice(["", *_ECHO_OPTIONS]).split()
        words = [
            "".join(rnd.choice(_ECHO_ATOMS) for _ in range(rnd.randrange(1, 5)))
            for _ in range(rnd.randrange(0, 3))
        ]
        cases.append([*options, *words])
    return cases


def test_echo_prints_what_bash_prints() -> None:
    cases = [["-e", "\\u0072m -rf /"], ["-e", "rm\\c", "-rf"], ["-ne", "a"], ["-e", "-E", "\\x72"]]
    cases += _echo_cases(300, 23)
    lines = ["echo " + " ".join(_quoted(a) for a in case) for case in cases]
    wrong = [
        (case, want, printed("echo", case))
        for case, want in zip(cases, _bash_outputs(lines), strict=True)
        if printed("echo", case) != want
    ]
    assert not wrong, wrong[:5]


PRINTF_CASES = [
    ["%u %o %x %X", "-1", "8", "255", "255"],
    ["%f|%.2f|%e|%g|%G|%E|%F", "1.5", "2", "3", "0.0001", "1e20", "7", "2"],
    ["%5.1f|%-8.3e|%+d|% d", "3.14159", "12345", "4", "5"],
    ["%.*s|%*.*s|", "2", "rm -rf", "6", "2", "push"],
    ["%.*s", "-1", "rm"],  # a negative precision is none
    ["%*s|%-*s|", "-4", "ab", "3", "c"],  # a negative width pads on the right
    ["%(%Y)T", "0"],  # a time: never a command word (printed as nothing)
    ["[%(%H)T]", "0"],
    ["%d %i", "'a", '"b'],  # a quote: the character's code
    ["%d", "0x1f"],
    ["%o|%u", "010", "'"],
]


def test_printf_numbers_widths_and_times_print_what_bash_prints() -> None:
    lines = ["printf " + " ".join(_quoted(a) for a in case) for case in PRINTF_CASES]
    for case, want in zip(PRINTF_CASES, _bash_outputs(lines), strict=True):
        if "T" in case[0]:  # %(…)T: the time itself is left out; the text around it stays
            want_text = case[0].split("%(")[0] + case[0].split(")T", 1)[1]
            assert printed("printf", case) == want_text, case
            assert want.startswith(case[0].split("%(")[0]), (case, want)
            continue
        assert printed("printf", case) == want, case


@pytest.mark.parametrize(
    "command",
    [
        "echo -e '\\u0072m -rf /' | sh",
        "echo -e '\\U00000072m -rf /' | bash",
        "echo -ne '\\0162m -rf /' | sh",
        "echo -Ee '\\x72m -rf /' | sh",  # the last of -E/-e wins
        "printf '%.*s' -1 'rm -rf /' | sh",  # a negative precision is none: all printed
        "printf '%.*s\\n' -9 'rm -rf /' | bash",
    ],
)
def test_an_escaped_or_printed_delete_fed_to_a_shell_is_denied(judge: Judge, command: str) -> None:
    verdict = judge(command)
    assert verdict.decision == "deny", verdict
    assert verdict.rule == "delete.catastrophic", verdict


@pytest.mark.parametrize(
    "command",
    [
        "echo -eE '\\x72m -rf /' | sh",  # -E last: printed as is, `\x72m` is no command
        "echo -e 'ls\\c -rf /' | sh",  # \c: nothing after it is printed
        "echo -e '\\u0072m -rf /'",  # printed, not run
    ],
)
def test_an_echo_that_does_not_run_a_delete_is_allowed(judge: Judge, command: str) -> None:
    assert judge(command).decision != "deny"
