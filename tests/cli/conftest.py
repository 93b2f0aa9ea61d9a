"""Fixtures of the CLI tests: throw-away projects driven by a real ``python -m hookrun``.

Everything lives here and reaches the tests as fixtures, so the tests import nothing
from this directory (what they share with tests/reliability is tests/hookrun_proc.py).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.hookrun_proc import Ran, hookrun_env

REPO = Path(__file__).resolve().parents[2]


class Project:
    """A project directory (it holds ``.hookrun/``) with helpers to fill and run it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / ".hookrun").mkdir(parents=True)

    def write(self, rel: str, text: str, *, executable: bool = False) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if executable:
            path.chmod(0o755)
        return path

    def config(self, value: dict[str, Any] | str, rel: str = ".hookrun/hooks.json") -> Path:
        text = value if isinstance(value, str) else json.dumps(value, indent=2)
        return self.write(rel, text)

    def hooks(self, event: str, *hooks: dict[str, Any], **top: Any) -> Path:
        return self.config({**top, "hooks": {event: list(hooks)}})

    @staticmethod
    def tool(name: str, **tool_input: Any) -> dict[str, Any]:
        """A PreToolUse-style payload."""
        return {"session_id": "s1", "tool_name": name, "tool_input": tool_input}

    def popen(
        self, *args: str, env: dict[str, str] | None = None, **kwargs: Any
    ) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "hookrun", *args],
            cwd=self.root,
            env=hookrun_env(self.root.parent, env),
            **kwargs,
        )

    def sh(self, script: str, *, timeout: float = 60) -> Ran:
        """Run ``script`` with /bin/sh in the project; ``$HOOKRUN`` is the hookrun command."""
        hookrun = f"{shlex.quote(sys.executable)} -m hookrun"
        proc = subprocess.run(
            ["/bin/sh", "-c", script.replace("$HOOKRUN", hookrun)],
            capture_output=True,
            cwd=self.root,
            env=hookrun_env(self.root.parent),
            timeout=timeout,
        )
        return Ran(
            proc.returncode,
            proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"),
        )

    def run(
        self,
        *args: str,
        payload: dict[str, Any] | str | bytes | None = None,
        env: dict[str, str] | None = None,
        timeout: float = 60,
    ) -> Ran:
        if isinstance(payload, dict):
            data = json.dumps(payload).encode()
        elif isinstance(payload, str):
            data = payload.encode()
        else:
            data = payload or b""
        proc = subprocess.run(
            [sys.executable, "-m", "hookrun", *args],
            input=data,
            capture_output=True,
            cwd=self.root,
            env=hookrun_env(self.root.parent, env),
            timeout=timeout,
        )
        return Ran(
            proc.returncode,
            proc.stdout.decode("utf-8", "replace"),
            proc.stderr.decode("utf-8", "replace"),
        )


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path / "proj")


@pytest.fixture
def make_project(tmp_path: Path) -> Callable[[str], Project]:
    """Another project next to ``project`` (for --cwd tests)."""
    return lambda name: Project(tmp_path / name)


@pytest.fixture
def repo() -> Path:
    """The checkout under test (README.md, examples/)."""
    return REPO
