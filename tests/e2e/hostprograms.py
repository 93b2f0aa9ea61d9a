"""The real agent host programs, installed from npm at the versions package-lock.json pins.

``npm ci`` runs into the repository's own ``node_modules/`` (reusing npm's cache, so a
second machine set-up costs a copy, not a download) whenever it is missing or was
installed from another lockfile. Install scripts are off (``--ignore-scripts``): every
host ships its native binary as a platform package in the npm registry itself, and the
only script a host needs is Claude Code's postinstall, which copies that binary out of
its platform package — it runs alone afterwards (``npm rebuild``). The scripts left out
are optional native add-ons of Gemini CLI (node-pty's ``node-gyp rebuild``, which
would fetch Node headers from nodejs.org, and keytar): Gemini CLI runs without them.
So nothing is downloaded from anywhere but the npm registry.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
LOCKFILE = REPO / "package-lock.json"
NODE_MODULES = REPO / "node_modules"
# Written after a complete install; holds the digest of the lockfile it installed.
STAMP = NODE_MODULES / ".hookrun-e2e-installed"

# npm's own codes for "the registry could not be reached" (npm ci prints them as
# `npm error code E…` or inside the message of a failed fetch).
_UNREACHABLE = re.compile(
    r"\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH"
    r"|ERR_SOCKET_TIMEOUT|network request to .* failed)\b"
)


class Host(NamedTuple):
    """One host program: its npm package and the command npm links for it."""

    name: str
    package: str
    command: str


HOSTS: tuple[Host, ...] = (
    Host("claude", "@anthropic-ai/claude-code", "claude"),
    Host("codex", "@openai/codex", "codex"),
    Host("gemini", "@google/gemini-cli", "gemini"),
    Host("copilot", "@github/copilot", "copilot"),
)


class Unavailable(Exception):
    """The host programs cannot be installed here; ``reason`` says why.

    ``unreachable`` is true only when npm is missing or the registry did not answer —
    the one case a run outside CI may skip.
    """

    def __init__(self, reason: str, *, unreachable: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.unreachable = unreachable


def pinned_versions(root: Path = REPO) -> dict[str, str]:
    """Package name → the exact version package-lock.json pins."""
    lock = json.loads((root / LOCKFILE.name).read_text(encoding="utf-8"))
    packages = lock["packages"]
    return {h.package: packages[f"node_modules/{h.package}"]["version"] for h in HOSTS}


def lock_digest(root: Path = REPO) -> str:
    return hashlib.sha256((root / LOCKFILE.name).read_bytes()).hexdigest()


def executable(host: Host, root: Path = REPO) -> Path:
    bin_dir = root / NODE_MODULES.name / ".bin"
    return bin_dir / (f"{host.command}.cmd" if os.name == "nt" else host.command)


def _stamp(root: Path) -> Path:
    return root / NODE_MODULES.name / STAMP.name


def is_current(root: Path = REPO) -> bool:
    """node_modules holds a complete install of exactly this lockfile."""
    try:
        stamped = _stamp(root).read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return stamped == lock_digest(root) and all(executable(h, root).exists() for h in HOSTS)


def install(root: Path = REPO, *, npm: str | None = None, timeout: float = 900.0) -> None:
    """Make ``root``'s node_modules match its package-lock.json, or raise
    :class:`Unavailable`. ``npm`` defaults to the one on PATH."""
    if is_current(root):
        return
    npm = npm or shutil.which("npm")
    if npm is None:
        raise Unavailable("npm is not on PATH (install Node.js 20+ with npm)", unreachable=True)
    steps = (
        # --prefer-offline: take what the cache has without asking the registry again.
        ("ci", "--ignore-scripts", "--prefer-offline"),
        ("rebuild", "@anthropic-ai/claude-code"),
    )
    for step in steps:
        try:
            done = subprocess.run(
                [npm, *step, "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=root,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise Unavailable(
                f"`npm {' '.join(step)}` did not finish in {timeout:.0f} s", unreachable=True
            ) from None
        if done.returncode != 0:
            output = (done.stderr + done.stdout).strip()
            raise Unavailable(
                f"`npm {' '.join(step)}` failed (exit {done.returncode}):\n{output[-3000:]}",
                unreachable=bool(_UNREACHABLE.search(output)),
            )
    missing = [str(executable(h, root)) for h in HOSTS if not executable(h, root).exists()]
    if missing:
        raise Unavailable(f"npm ci left no {', '.join(missing)}", unreachable=False)
    _stamp(root).write_text(lock_digest(root) + "\n", encoding="utf-8")


def in_ci(env: Mapping[str, str]) -> bool:
    """``CI=true`` (GitHub Actions, GitLab, most runners) or ``CI=1``."""
    return env.get("CI", "").strip().lower() in {"true", "1"}


def verdict(err: Unavailable, *, ci: bool) -> str:
    """What the suite does when the hosts cannot be installed: ``"skip"`` only outside CI
    and only when npm or the registry is out of reach; anything else is ``"fail"``."""
    return "skip" if err.unreachable and not ci else "fail"


def version(host: Host, env: dict[str, str] | None = None) -> str:
    """What ``HOST --version`` prints (its first line)."""
    done = subprocess.run(
        [str(executable(host)), "--version"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    lines = (done.stdout or done.stderr).strip().splitlines()
    return lines[0] if lines else f"(no output, exit {done.returncode})"
