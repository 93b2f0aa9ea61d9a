"""Write what the scanner's table reads off each row's pattern into secret_rules.DERIVED.

Run after changing a row: ``.venv/bin/python scripts/pii_derived.py``. Reading the 53
patterns with Python's regex parser was half of a fresh process's table build (~30M
instructions of ~60M); the table now reads these results, and
``tests/hooks/scanner_derived_test.py`` rebuilds them and fails when they differ.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hookrun.hooks.pii_patterns import derive  # noqa: E402
from hookrun.hooks.secret_rules import RULES  # noqa: E402

MARK = "# ---- derived: written by scripts/pii_derived.py"


def block() -> str:
    lines = [
        MARK,
        "# (each row's pattern: its head, literal openings, lower-cased openings, first",
        "# bytes, and whether it counts word runs only: see pii_patterns.derive)",
        "DERIVED: dict[str, Derived] = {",
    ]
    for pattern in dict.fromkeys(r.pattern for r in RULES):
        lines.append(f"    {pattern!r}: {derive(pattern)!r},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    path = ROOT / "hookrun/hooks/secret_rules.py"
    text = path.read_text()
    head = text.split(MARK)[0]
    path.write_text(head + block())
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "format", "-q", str(path)], check=True)
    # (a pattern is one string: the lines holding a long one are let be long)
    head, generated = path.read_text().split(MARK)
    lines = [
        f"{line}  # noqa: E501" if len(line) > 100 and "# noqa" not in line else line
        for line in generated.split("\n")
    ]
    path.write_text(head + MARK + "\n".join(lines))
    subprocess.run([*ruff, "format", "-q", str(path)], check=True)


if __name__ == "__main__":
    main()
