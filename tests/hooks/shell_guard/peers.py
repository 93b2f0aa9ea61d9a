"""shell-guard judged on the labelled commands of two peer guards (issue 12's yardstick).

``data/peers/dcg.json`` and ``data/peers/safety_net.json`` hold the commands
destructive_command_guard (dcg) and claude-code-safety-net label "block" or
"allow" in their own tests, extracted by ``scripts/peer_guard_cases.py`` (both
MIT; licences beside the data). The scope rule of ``docs/shell-guard.md``
decides which of them shell-guard answers for: :func:`scope` returns None for
an in-scope case, else the reason it is out of scope (the doc names the same).

Run ``python -m tests.hooks.shell_guard.peers`` for the figures per peer and
the in-scope cases shell-guard gets wrong.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY

DATA = Path(__file__).parent / "data" / "peers"
HOME = "/home/user"
PROJECT = "/home/user/project"
TEMP_PROJECT = "/tmp/safety-net-test-k3j2h1"  # safety-net's tests run in a mkdtemp dir

# dcg packs shell-guard answers for; every other pack (clouds, databases,
# Kubernetes, containers, messaging, DNS, CDNs, …) guards a service's API, not
# the machine and the repository the agent works in.
DCG_PACKS = frozenset({"core.filesystem", "core.git", "system.disk"})

# What each peer blocks that shell-guard leaves to the user on purpose
# (docs/shell-guard.md, "Scope"): (peer, regex over the command) → reason.
DELIBERATE: tuple[tuple[str, str, str], ...] = (
    (
        "any",
        r"(?i)\bgit(\s+-C\s+\S+)?\s+(checkout|switch)\b.*(\s--(\s|$)|\s-[a-zA-Z]*f\b|\s--force\b|"
        r"--discard|--pathspec-from-file|\s\.(\s|$))"
        r"|\bgit\s+checkout(\s+--?[a-zA-Z-]+)*\s+[^-\s]\S*\s+[^-\s]",
        "git checkout/switch that discards working-tree changes: recoverable by editing again; "
        "add it with `deny` to block it",
    ),
    (
        "any",
        r"\bgit\s+(restore\b|stash\s+(drop|clear)|branch\s+(-[a-zA-Z]*[DfF]|--force|--delete\s+--force)"
        r"|worktree\s+remove)",
        "git restore / stash drop / branch -D / branch -f / worktree remove: local and recoverable "
        "(reflog); add with `deny`",
    ),
    (
        "any",
        r"\bgit\s+push\b.*(--force\b.*--force-with-lease|--force-with-lease.*(--force\b|\s-f\b)|\s-f\b.*--force-with-lease)",
        "--force next to --force-with-lease disables the lease: shell-guard blocks it on purpose",
    ),
    ("any", r"\bgit\s+clean\s+-[a-z]*n", "git clean with -n is a dry run: it deletes nothing"),
    (
        "dcg",
        r"os\.remove\('/etc/passwd'\)",
        "one file deleted without -r (rm -f /etc/x, os.remove): shell-guard judges recursive "
        "deletes",
    ),
    ("dcg", r"\bgit\s+rebase\b", "starting a rebase is blocked by default (block_rebase)"),
    (
        "dcg",
        r"\brm\b.*\s(\./)?(build|dist|node_modules|target)\b",
        "a regenerable artifact directory inside the workspace may be deleted",
    ),
    ("dcg", r"\brm\b.*\$\{?TMPDIR", "a temp directory may be deleted"),
    ("dcg", r"\brm\s+-rf\s*($|&&|;|\|)", "rm -rf with no operand deletes nothing"),
    (
        "safety-net",
        r"^\$\( cd \.\.; echo ok \) && rm",
        "$( … ) runs in a subshell: its cd does not move the rm after it (bash)",
    ),
    (
        "safety-net",
        r"^TMPDIR=\S*\s+rm\b",
        "bash expands $TMPDIR in the words before the prefix assignment applies: the old value "
        "is deleted",
    ),
    (
        "safety-net",
        r"^(busybox\s+)?find\s+\.\s+-name\s+\S+\s+-delete$",
        "a filtered find -delete inside the workspace is allowed",
    ),
    (
        "safety-net",
        r"^find \. -exec rm -r \{\} \\;$",
        "rm -r of every path find lists from . reaches the workspace root itself",
    ),
    (
        "safety-net",
        r"^(node|ruby|perl) -e \"rm -rf /\"$",
        "not a program in that language: the interpreter stops at a syntax error",
    ),
    (
        "safety-net",
        r"^echo (ok|'rm -rf /') \| (xargs (-I\{\} )?bash -c( \{\})?|parallel bash -c \{\})$",
        "runs the piped words as code: `ok`, or `rm` alone (xargs splits the line into words)",
    ),
)


class Case(NamedTuple):
    peer: str
    id: str
    command: str
    expected: str  # "block" | "allow"
    cwd: str
    scope: str | None  # None: in scope; else why not


def _deliberate(peer: str, command: str) -> str | None:
    for who, pattern, reason in DELIBERATE:
        if reason and who in ("any", peer) and re.search(pattern, command):
            return reason
    return None


def _dcg_scope(case: dict[str, Any]) -> str | None:
    pack = case["pack"]
    if pack and pack not in DCG_PACKS:
        return f"dcg pack {pack}: a service's API, not the machine or the repository"
    if (
        case["kind"] == "corpus"
        and not pack
        and case["source"].startswith("tests/corpus/edge_cases/future_packs")
    ):
        return "dcg future packs"
    return _deliberate("dcg", case["command"])


_SN_CWD = {
    None: PROJECT,
    "tempDir": TEMP_PROJECT,
    "tmpDir": TEMP_PROJECT,
    "projectDir": PROJECT,
    "'/tmp'": "/tmp",
}


def _sn_scope(case: dict[str, Any]) -> str | None:
    if "rules-custom-integration" in case["source"]:
        return "safety-net's own custom rules, read from a config file in the test's directory"
    if case.get("skipped"):
        return "the command is built at run time in the test"
    if case["env"] is not None:
        return f"safety-net's optional mode {case['env']} (strict / paranoid / worktree)"
    if case["cwd"] not in _SN_CWD:
        return f"a git worktree / symlink fixture ({case['cwd']}): safety-net's worktree mode"
    return _deliberate("safety-net", case["command"])


def cases() -> list[Case]:
    out: list[Case] = []
    dcg = json.loads((DATA / "dcg.json").read_text())["cases"]
    for c in dcg:
        out.append(Case("dcg", c["id"], c["command"], c["expected"], PROJECT, _dcg_scope(c)))
    sn = json.loads((DATA / "safety_net.json").read_text())["cases"]
    for c in sn:
        cwd = _SN_CWD.get(c["cwd"], PROJECT)
        out.append(
            Case("safety-net", c["id"], c["command"] or "", c["expected"], cwd, _sn_scope(c))
        )
    return out


_OPTS = POLICY.bind({})


def blocked(case: Case) -> bool:
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": case.command},
        "cwd": case.cwd,
    }
    # (TMPDIR set: the peers' tests read `$TMPDIR/build` as a temp path, as on a machine
    # that sets it — macOS always does. Unset, bash makes it /build: docs/shell-guard.md)
    env = {"HOME": HOME, "TMPDIR": "/tmp"}
    ctx = PolicyContext(cwd=case.cwd, project_dir=case.cwd, state_dir="/nonexistent", env=env)
    return POLICY.decide(payload, _OPTS, ctx).decision == "deny"


class Figures(NamedTuple):
    blocks: int  # in-scope cases the peer blocks
    blocked: int  # of which shell-guard blocks
    allows: int
    false_blocks: int
    out_of_scope: int


def figures(results: dict[Case, bool | None]) -> dict[str, Figures]:
    out: dict[str, Figures] = {}
    for peer in ("dcg", "safety-net"):
        mine = [(c, b) for c, b in results.items() if c.peer == peer]
        scoped = [(c, b) for c, b in mine if c.scope is None]
        blocks = [b for c, b in scoped if c.expected == "block"]
        allows = [b for c, b in scoped if c.expected == "allow"]
        out[peer] = Figures(
            len(blocks), sum(blocks), len(allows), sum(allows), len(mine) - len(scoped)
        )
    return out


def run() -> dict[Case, bool | None]:
    """Every case: whether shell-guard blocks it (None: out of scope, not run)."""
    return {c: (blocked(c) if c.scope is None else None) for c in cases()}


def main() -> None:
    results = run()
    for peer, f in figures(results).items():
        print(
            f"{peer}: blocks {f.blocked}/{f.blocks} ({100 * f.blocked / max(f.blocks, 1):.1f}%), "
            f"false blocks {f.false_blocks}/{f.allows} "
            f"({100 * f.false_blocks / max(f.allows, 1):.1f}%), "
            f"out of scope {f.out_of_scope}"
        )
    if "-v" in sys.argv:
        for c, b in results.items():
            if b is not None and b != (c.expected == "block"):
                tag = "MISS" if c.expected == "block" else "FALSE"
                print(f"{tag} {c.peer} {c.id}: {c.command!r} (cwd {c.cwd})")
    if "--scope" in sys.argv:
        print(Counter(c.scope for c in cases() if c.scope).most_common())


if __name__ == "__main__":
    main()
