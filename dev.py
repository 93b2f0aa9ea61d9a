#!/usr/bin/env python3
"""Set-up and entry points for a fresh clone: ``python3 dev.py demo`` and ``python3 dev.py test``.

Each command creates ``.venv`` next to this file if needed and installs hookrun into
it (with the test extras), so the only prerequisite is Python 3.10+ and a package
index. Works the same on Linux, macOS and Windows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".hookrun-installed"


def ensure_venv(extras: str = "test,dev,otel") -> None:
    """Create the venv and (re)install hookrun when pyproject.toml changed."""
    if not PY.exists():
        print(f"dev.py: creating {VENV}", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    want = f"{(ROOT / 'pyproject.toml').stat().st_mtime_ns}:{extras}:compat"
    if STAMP.exists() and STAMP.read_text() == want:
        return
    print("dev.py: installing hookrun and its dependencies", file=sys.stderr)
    subprocess.run(
        [
            str(PY),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            # A plain path entry in a .pth file: the default editable finder
            # imports pathlib & co. at every interpreter start, which is
            # start-up time every `hookrun run` would pay.
            "--config-settings",
            "editable_mode=compat",
            "-e",
            f"{ROOT}[{extras}]",
        ],
        check=True,
    )
    STAMP.write_text(want)


USAGE = "usage: python3 dev.py demo | test [pytest args…] | setup"
HELP = f"""{USAGE}

Each command first creates .venv next to this file if needed and installs hookrun
into it (editable, with the test, dev and otel extras).

  demo   run examples/demo.py: agent events through the real `hookrun run` in a
         throw-away project; exits non-zero if anything does not behave as shown
  test   run pytest with the arguments given (none: the whole suite, as CI does)
  setup  only the .venv; then .venv/bin/hookrun is the command"""


def main(argv: list[str]) -> int:
    if argv and argv[0] in {"-h", "--help", "help"}:
        print(HELP)
        return 0
    if not argv or argv[0] not in {"demo", "test", "setup"}:
        print(USAGE, file=sys.stderr)
        return 2
    ensure_venv()
    cmd, rest = argv[0], argv[1:]
    if cmd == "setup":
        return 0
    if cmd == "demo":
        return subprocess.call([str(PY), str(ROOT / "examples" / "demo.py"), *rest], cwd=ROOT)
    return subprocess.call([str(PY), "-m", "pytest", *rest], cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
