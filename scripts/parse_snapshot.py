"""Record, or compare against a record, what the shell front end makes of many inputs.

A change to :mod:`hookrun.shellsyntax` that must not change behaviour (a faster walk,
a refactoring) is checked with it: the ``repr`` of ``parse(text)`` — or the exception's
type and message — for every input, before and after::

    python scripts/parse_snapshot.py record /tmp/before.json   # on the old code
    python scripts/parse_snapshot.py compare /tmp/before.json  # on the new: exit 1 on a diff

The inputs: every case of the vendored Oils spec files and each of their lines, the
bench one-liners and shell-guard bench commands, the peer guards' labelled commands,
every string constant in the shell, shell-guard and dispatch tests, each of those
with a non-ASCII letter in it, and programs drawn (deterministically) from the
grammar fuzz's strategy.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Test files whose string constants are inputs (shell text, mostly).
_TEST_DIRS = ("tests/shellsyntax", "tests/hooks/shell_guard", "tests/dispatch", "tests/conformance")
_FUZZ_PROGRAMS = 3000


def _oils() -> list[str]:
    from tests.conformance.specfile import parse_file

    out: list[str] = []
    for path in sorted((ROOT / "tests/conformance/oils/spec").glob("*.test.sh")):
        for case in parse_file(path):
            out.append(case.code)
            out.extend(case.code.splitlines())
    return out


def _benches() -> list[str]:
    sys.path.insert(0, str(ROOT / "bench"))
    import shell_bench
    import shell_guard_bench

    return [*shell_bench.ONE_LINERS, *shell_guard_bench.commands(1000)]


def _peers() -> list[str]:
    out: list[str] = []
    for path in sorted((ROOT / "tests/hooks/shell_guard/data/peers").glob("*.json")):
        out.extend(str(c["command"]) for c in json.loads(path.read_text())["cases"])
    return out


def _test_strings() -> list[str]:
    out: list[str] = []
    for folder in _TEST_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                value = node.value if isinstance(node, ast.Constant) else None
                if isinstance(value, str) and len(value) < 20_000:
                    out.append(value)
    return out


def _fuzz_programs() -> list[str]:
    from hypothesis import HealthCheck, given, settings

    from tests.dispatch.shell.grammar_fuzz_test import _program

    out: list[str] = []

    @settings(
        max_examples=_FUZZ_PROGRAMS,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(_program())
    def collect(source: str) -> None:
        out.append(source)

    collect()
    return out


def _with_non_ascii(texts: list[str]) -> list[str]:
    """Each text with a two-byte and a three-byte letter in the middle and at the end."""
    out: list[str] = []
    for t in texts:
        mid = len(t) // 2
        out.append(t[:mid] + "é" + t[mid:])
        out.append(t + "漢")
    return out


def inputs() -> list[str]:
    base = [*_oils(), *_benches(), *_peers(), *_test_strings()]
    found = [*base, *_with_non_ascii(base), *_fuzz_programs()]
    return list(dict.fromkeys(found))  # each once, in a stable order


def outcome(text: str) -> str:
    from hookrun.shellsyntax import parser

    try:
        return repr(parser.parse(text))
    except Exception as exc:  # the record is of any outcome, a crash included
        return f"{type(exc).__name__}: {exc}"


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("record", "compare"):
        print(__doc__)
        return 2
    mode, file = argv
    texts = inputs()
    results = {t: outcome(t) for t in texts}
    if mode == "record":
        Path(file).write_text(json.dumps(results), encoding="utf-8")
        print(f"recorded {len(results)} inputs to {file}")
        return 0
    before: dict[str, str] = json.loads(Path(file).read_text(encoding="utf-8"))
    common = [t for t in texts if t in before]
    diffs = [t for t in common if before[t] != results[t]]
    for t in diffs[:20]:
        print(f"input:  {t!r}\nbefore: {before[t][:600]}\nafter:  {results[t][:600]}\n")
    print(
        f"{len(common)} inputs compared ({len(texts) - len(common)} new, "
        f"{len(before) - len(common)} recorded but not made now): {len(diffs)} differ"
    )
    return 1 if diffs or not common else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
