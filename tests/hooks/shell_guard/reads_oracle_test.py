"""``read_fields`` against bash's own ``read``, on generated lines, ``IFS`` values and
options: what ``read -r c a <<< 'rm -rf'`` sets is what ``$c $a /`` runs."""

from __future__ import annotations

import random
import subprocess

from hookrun.hooks.shell_guard.reads import read_fields

_TEXT_ATOMS = [
    "a", "b", " ", "  ", "\t", ":", ",", "\\", "\\ ", "\\:", "\n", "rm", "-rf", "\\\n",
]  # fmt: skip
_IFS = [None, " :", ":", ", ", "\t", " ", ":,", ""]
_OPTIONS: list[list[str]] = [[], ["-r"], ["-d", ":"], ["-r", "-d", ","], ["-rd", ":"]]


def _cases(n: int, seed: int) -> list[tuple[list[str], str, str | None]]:
    rnd = random.Random(seed)
    out: list[tuple[list[str], str, str | None]] = []
    while len(out) < n:
        text = "".join(rnd.choice(_TEXT_ATOMS) for _ in range(rnd.randrange(0, 10))) + "\n"
        if text.rstrip("\n").endswith(("\\ ", "\\\t")):
            continue  # (bash keeps or drops a quoted blank at the end by what precedes it)
        names = [f"v{k}" for k in range(rnd.randrange(0, 4))]
        out.append(([*rnd.choice(_OPTIONS), *names], text, rnd.choice(_IFS)))
    return out


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def test_read_sets_what_bash_sets() -> None:
    cases = _cases(300, 5)
    script: list[str] = []
    for k, (args, text, ifs) in enumerate(cases):
        names = [a for a in args if a[:1] == "v"] or ["REPLY"]
        prefix = f"IFS={_quoted(ifs)} " if ifs is not None else ""
        script.append(f"unset {' '.join(names)}; T{k}={_quoted(text)}")
        script.append(f'{prefix}read {" ".join(args)} <<< "${{T{k}%?}}"')
        script.append("".join(f'printf "%s\\037" "${n}"; ' for n in names) + 'printf "\\036"')
    real = subprocess.run(
        ["bash", "-c", "\n".join(script)], capture_output=True, timeout=60, check=False
    ).stdout.decode("utf-8", "surrogateescape")
    outputs = real.split("\036")[: len(cases)]
    assert len(outputs) == len(cases)
    wrong = []
    for (args, text, ifs), out in zip(cases, outputs, strict=True):
        want = out.split("\037")[:-1]
        got = [v for _, v in read_fields(args, text, ifs)]
        got += [""] * (len(want) - len(got))
        if got != want:
            wrong.append((args, text, ifs, want, got))
    assert not wrong, wrong[:5]
