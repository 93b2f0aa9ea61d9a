"""Extract the labelled commands of two peer command guards into JSON.

- Dicklesworthstone/destructive_command_guard (dcg, Rust, MIT): its corpus
  (``tests/corpus/**/*.toml``: ``command`` + ``expected`` deny/allow) and the
  literal commands its packs' tests hand to the test helpers
  (``assert_blocks(&pack, "…", …)``, ``assert_allows``, ``test_batch_*``…, in
  ``src/packs/**/*.rs``), each with its pack id.
- kenryu42/claude-code-safety-net (TypeScript, MIT): every
  ``assertBlocked(cmd, reason[, cwd])`` / ``assertAllowed(cmd[, cwd])`` call
  in ``tests/``, with the working directory argument (a temp dir the test
  made) and the environment of an enclosing ``withEnv({...}, …)`` (strict /
  paranoid modes).

Usage::

    python scripts/peer_guard_cases.py DCG_GIT_DIR DCG_COMMIT SN_GIT_DIR SN_COMMIT OUT_DIR

writes ``OUT_DIR/dcg.json``, ``OUT_DIR/safety_net.json`` and each peer's
LICENSE. The tests read the JSON; they never run this script.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import tomllib


def _git(git_dir: str, *args: str) -> str:
    out = subprocess.run(
        ["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True
    )
    return out.stdout


# ------------------------------------------------------------------ dcg

_BLOCK_HELPERS = {
    "assert_blocks",
    "assert_blocks_with_pattern",
    "assert_blocks_with_severity",
    "assert_rm_parser_denies",
    "test_batch_blocks",
}
_ALLOW_HELPERS = {
    "assert_allows",
    "assert_safe_pattern_matches",
    "test_batch_allows",
    "assert_no_match",
}
_HELPER = re.compile(r"\b(" + "|".join(sorted(_BLOCK_HELPERS | _ALLOW_HELPERS)) + r")\s*\(")
_RUST_STR = re.compile(r'r(#*)"(.*?)"\1|"((?:[^"\\]|\\.)*)"', re.S)
_PACK_ID = re.compile(r'pack\.id,\s*"([^"]+)"|id:\s*"([a-z_]+\.[a-z_]+)"')


def _rust_unescape(body: str) -> str:
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n == "\n":  # line continuation: skip the newline and leading blanks
                i += 2
                while i < len(body) and body[i] in " \t":
                    i += 1
                continue
            out.append({"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _call_args(text: str, start: int) -> tuple[str, int]:
    """The argument text of the call whose "(" is at ``start - 1``, and its end."""
    depth = 1
    i = start
    while i < len(text) and depth:
        m = _RUST_STR.match(text, i)
        if m:
            i = m.end()
            continue
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
        i += 1
    return text[start : i - 1], i


def _rust_strings(args: str) -> list[str]:
    return [
        _rust_unescape(m.group(3)) if m.group(3) is not None else m.group(2)
        for m in _RUST_STR.finditer(args)
    ]


def dcg_cases(git_dir: str, commit: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    files = _git(git_dir, "ls-tree", "-r", "--name-only", commit).split()
    for path in sorted(f for f in files if f.startswith("tests/corpus/") and f.endswith(".toml")):
        data = tomllib.loads(_git(git_dir, "show", f"{commit}:{path}"))
        for k, case in enumerate(data.get("case", [])):
            expected = case.get("expected") or case.get("expected_decision")
            command = case.get("command")
            if expected not in ("deny", "allow") or not isinstance(command, str):
                continue
            log = case.get("expected_log") or case.get("log") or {}
            rule = case.get("rule_id") or log.get("rule_id") or ""
            cases.append(
                {
                    "id": case.get("id") or f"{path}#{k}",
                    "source": path,
                    "kind": "corpus",
                    "pack": rule.split(":")[0] if rule else "",
                    "rule": rule,
                    "command": command,
                    "expected": "block" if expected == "deny" else "allow",
                    "description": case.get("description", ""),
                }
            )
    for path in sorted(f for f in files if f.startswith("src/packs/") and f.endswith(".rs")):
        text = _git(git_dir, "show", f"{commit}:{path}")
        ids = [m.group(1) or m.group(2) for m in _PACK_ID.finditer(text)]
        pack = ids[0] if ids else ""
        if path.endswith(("test_helpers.rs", "test_template.rs", "mod.rs")):
            continue
        tests_at = text.find("#[cfg(test)]")
        if tests_at < 0:
            continue
        for m in _HELPER.finditer(text, tests_at):
            helper = m.group(1)
            args, _ = _call_args(text, m.end())
            strings = _rust_strings(args)
            if helper.startswith("test_batch"):
                bracket = args.find("[")
                commands = (
                    _rust_strings(args[bracket : args.rfind("]") + 1]) if bracket >= 0 else []
                )
            else:
                commands = strings[:1]
            line = text.count("\n", 0, m.start()) + 1
            for command in commands:
                cases.append(
                    {
                        "id": f"{path}:{line}",
                        "source": f"{path}:{line}",
                        "kind": helper,
                        "pack": pack,
                        "rule": "",
                        "command": command,
                        "expected": "block" if helper in _BLOCK_HELPERS else "allow",
                        "description": "",
                    }
                )
    return cases


# ------------------------------------------------------------------ safety-net

_TS_CALL = re.compile(r"\bassert(Blocked|Allowed)\s*\(")
_WITH_ENV = re.compile(r"\bwithEnv\s*\(\s*(\{[^}]*\})")
_TS_STR = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"|`((?:[^`\\]|\\.)*)`", re.S)


def _ts_unescape(body: str) -> str:
    return _rust_unescape(body)


def _ts_args(text: str, start: int) -> tuple[list[str], int]:
    """Top-level argument expressions (as written) of the call opened at ``start - 1``."""
    depth = 1
    i = start
    args: list[str] = []
    cur = start
    while i < len(text) and depth:
        m = _TS_STR.match(text, i)
        if m:
            i = m.end()
            continue
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[cur:i].strip())
                break
        elif c == "," and depth == 1:
            args.append(text[cur:i].strip())
            cur = i + 1
        i += 1
    return [a for a in args if a], i


def _ts_literal(expr: str) -> str | None:
    """The value of a string literal (or a ``+`` of literals); None when computed."""
    parts = []
    pos = 0
    expr = expr.strip()
    while pos < len(expr):
        m = _TS_STR.match(expr, pos)
        if not m:
            return None
        if m.group(3) is not None:
            if "${" in m.group(3):
                return None
            parts.append(_ts_unescape(m.group(3)))
        else:
            parts.append(_ts_unescape(m.group(1) if m.group(1) is not None else m.group(2)))
        pos = m.end()
        rest = expr[pos:].lstrip()
        if not rest:
            break
        if not rest.startswith("+"):
            return None
        pos = len(expr) - len(rest) + 1
        while pos < len(expr) and expr[pos] in " \n\t":
            pos += 1
    return "".join(parts)


def _env_ranges(text: str) -> list[tuple[int, int, str]]:
    out = []
    for m in _WITH_ENV.finditer(text):
        _, end = _ts_args(text, m.start() + len("withEnv("))
        out.append((m.start(), end, m.group(1)))
    return out


def safety_net_cases(git_dir: str, commit: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    files = _git(git_dir, "ls-tree", "-r", "--name-only", commit, "tests").split()
    for path in sorted(f for f in files if f.endswith(".test.ts")):
        text = _git(git_dir, "show", f"{commit}:{path}")
        envs = _env_ranges(text)
        for m in _TS_CALL.finditer(text):
            args, _ = _ts_args(text, m.end())
            line = text.count("\n", 0, m.start()) + 1
            blocked = m.group(1) == "Blocked"
            command = _ts_literal(args[0]) if args else None
            cwd_arg = (
                args[2]
                if blocked and len(args) > 2
                else (args[1] if not blocked and len(args) > 1 else None)
            )
            env = [e for s, e_end, e in envs if s < m.start() < e_end]
            record = {
                "id": f"{path}:{line}",
                "source": f"{path}:{line}",
                "command": command,
                "expected": "block" if blocked else "allow",
                "reason": (_ts_literal(args[1]) if blocked and len(args) > 1 else None),
                "cwd": cwd_arg,
                "env": env[-1] if env else None,
            }
            if command is None:
                record["command_expr"] = args[0] if args else ""
                skipped.append(record)
            else:
                cases.append(record)
    return cases + [dict(s, skipped="command built at run time") for s in skipped]


def main(argv: list[str]) -> int:
    dcg_dir, dcg_commit, sn_dir, sn_commit, out_dir = argv
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dcg = {
        "source": "https://github.com/Dicklesworthstone/destructive_command_guard",
        "commit": dcg_commit,
        "licence": "MIT (LICENSE-dcg beside this file)",
        "cases": dcg_cases(dcg_dir, dcg_commit),
    }
    sn = {
        "source": "https://github.com/kenryu42/claude-code-safety-net",
        "commit": sn_commit,
        "licence": "MIT (LICENSE-safety-net beside this file)",
        "cases": safety_net_cases(sn_dir, sn_commit),
    }
    (out / "dcg.json").write_text(json.dumps(dcg, indent=1, ensure_ascii=False) + "\n")
    (out / "safety_net.json").write_text(json.dumps(sn, indent=1, ensure_ascii=False) + "\n")
    (out / "LICENSE-dcg").write_text(_git(dcg_dir, "show", f"{dcg_commit}:LICENSE"))
    (out / "LICENSE-safety-net").write_text(_git(sn_dir, "show", f"{sn_commit}:LICENSE"))
    print(f"dcg: {len(dcg['cases'])} cases; safety-net: {len(sn['cases'])} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
