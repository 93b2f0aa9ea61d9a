"""``printed("printf", …)`` against bash's own printf, on generated formats and arguments.

What printf prints is what a shell fed by it runs (``printf '%s\\n' push --force … |
xargs git``), so it is read as bash's builtin prints it: the format reused while
arguments remain, ``%c``, ``%b`` (``\\0NNN``, ``\\c``), widths and precisions, ``%q``, a
missing argument, ``\\`` escapes of the format, a leading option bash refuses.
"""

from __future__ import annotations

import random
import subprocess

from hookrun.hooks.shell_guard.printed import printed

_FORMAT_ATOMS = [
    "%s", "%c", "%b", "%d", "%i", "%x", "%q", "%%", "%5s", "%-3s", "%.1s", "%.s", "%*s",
    "\\n", "\\t", "\\x72", "\\155", "\\0162", "\\u0041", "\\\\", "\\c", "\\e", "\\", "%",
    "rm", " ", "-rf", "/", '\\"', "\\'", "\\?",
]  # fmt: skip
_ARG_ATOMS = [
    "rm", "-rf", "/", "\\162m", "\\0162", "a\\cb", "12", "x", "'a", "", "a b", "\\x72",
    "\\n", "push", "--force", '\\"', "\\'", "\\?", "a\\'b",
]  # fmt: skip


def _cases(n: int, seed: int) -> list[list[str]]:
    rnd = random.Random(seed)
    out = [["%s\\n", "push", "--force", "origin", "main"], ["--", "-rf"], ["-rf"], ["-"]]
    for _ in range(n):
        fmt = "".join(rnd.choice(_FORMAT_ATOMS) for _ in range(rnd.randrange(1, 5)))
        out.append([fmt, *(rnd.choice(_ARG_ATOMS) for _ in range(rnd.randrange(0, 5)))])
    return out


def test_printf_prints_what_bash_prints() -> None:
    cases = _cases(300, 17)
    # one bash for all: each printf's output framed by a separator byte
    script = "".join(f'printf "${{A{k}[@]}}"; printf "\\036"\n' for k in range(len(cases)))
    env_lines = "".join(
        f"A{k}=(" + " ".join("'" + a.replace("'", "'\\''") + "'" for a in case) + ")\n"
        for k, case in enumerate(cases)
    )
    real = subprocess.run(
        ["bash", "-c", env_lines + script], capture_output=True, timeout=60, check=False
    ).stdout.decode("utf-8", "surrogateescape")
    outputs = real.split("\036")[: len(cases)]
    assert len(outputs) == len(cases)
    wrong = [
        (case, want, printed("printf", case))
        for case, want in zip(cases, outputs, strict=True)
        if printed("printf", case) != want
    ]
    assert not wrong, wrong[:5]
