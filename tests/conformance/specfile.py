"""The Oils spec-test format (``spec/*.test.sh``) → one :class:`Case` per ``####`` block.

The format, as Oils' own runner (test/sh_spec.py) reads it::

    ## compare_shells: bash dash       file metadata, before the first case
    #### name                          a case starts
    code lines …                       (comment lines outside STDOUT blocks are dropped)
    ## stdout: one line                newline implied
    ## stdout-json: "no newline"       JSON string
    ## STDOUT:                         multi-line, up to ``## END`` (optional)
    …
    ## END
    ## status: 2
    ## OK bash stdout: …               a qualifier (OK, OK-2, BUG, BUG-2, N-I) and
    ## N-I dash/mksh status: 2         a /-separated shell list: that shell's result

Only what decides bash's expected result is kept: the default ``stdout``/``status``
and the ones qualified for bash. The suite's expectation is bash's actual output
(oracle.py); the file's is used to report where bash itself disagrees with it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

_KEY_VALUE = re.compile(
    r"##\s+(?:(OK(?:-\d)?|BUG(?:-\d)?|N-I)\s+([\w+/]+)\s+)?([\w\-]+):\s*(.*)$", re.DOTALL
)
_END = re.compile(r"##\s+END")


class Expect(NamedTuple):
    """What the spec file says a shell prints; None where it says nothing."""

    stdout: str | None
    status: int
    qualifier: str | None  # "OK", "BUG", "N-I" … when bash has its own line


class Case(NamedTuple):
    file: str  # spec name: "quote", "case_"
    number: int  # 0-based, as Oils numbers them
    name: str
    line: int  # 1-based line of the "####"
    code: str
    bash: Expect  # the file's expectation for bash
    legacy_tmp_dir: bool  # file metadata: the case expects ./_tmp to exist

    @property
    def key(self) -> str:
        """Stable id used by the expected-failures list and the report."""
        return f"{self.file}#{self.number:02d}"


class SpecFormatError(ValueError):
    pass


def parse_file(path: Path) -> list[Case]:
    name = path.name.removesuffix(".test.sh")
    return parse_text(path.read_text(encoding="utf-8"), name)


def parse_text(text: str, name: str) -> list[Case]:
    lines = text.splitlines(keepends=True)
    meta: dict[str, str] = {}
    i = 0
    # File metadata: "## key: value" lines before the first case.
    while i < len(lines) and not lines[i].startswith("####"):
        m = _KEY_VALUE.match(lines[i].rstrip("\n"))
        if m and not m.group(1):
            meta[m.group(3)] = m.group(4).strip()
        i += 1
    legacy = meta.get("legacy_tmp_dir", "") in ("yes", "true", "1")
    cases: list[Case] = []
    while i < len(lines):
        start = i
        title = lines[i][4:].strip()
        i += 1
        block_end = i
        while block_end < len(lines) and not lines[block_end].startswith("####"):
            block_end += 1
        cases.append(_parse_case(name, len(cases), title, start + 1, lines[i:block_end], legacy))
        i = block_end
    return cases


def _parse_case(
    file: str, index: int, title: str, line: int, body: list[str], legacy: bool
) -> Case:
    code: list[str] = []
    default: dict[str, str] = {}
    for_bash: dict[str, str] = {}
    qualifier: str | None = None
    j = 0
    while j < len(body):
        raw = body[j]
        stripped = raw.rstrip("\n")
        m = _KEY_VALUE.match(stripped) if stripped.startswith("##") else None
        if m is None:
            if stripped.startswith("##") and not _END.match(stripped):
                raise SpecFormatError(f"{file}: line {line + 1 + j}: invalid ## line {stripped!r}")
            # Oils drops comment lines from code; blank lines are kept (they matter
            # inside here-documents and multi-line strings).
            if not stripped.lstrip().startswith("#") and not _END.match(stripped):
                code.append(raw)
            j += 1
            continue
        qual, shells, key, value = m.groups()
        j += 1
        if key in ("STDOUT", "STDERR"):
            block: list[str] = []
            while j < len(body):
                nxt = body[j]
                if nxt.startswith("##"):
                    break
                # As in Oils' tokenizer, a comment line inside the block is not output.
                if not nxt.lstrip().startswith("#"):
                    block.append(nxt if nxt.endswith("\n") else nxt + "\n")
                j += 1
            if j < len(body) and _END.match(body[j]):
                j += 1
            key, value = key.lower(), "".join(block)
        elif key in ("stdout", "stderr"):
            value += "\n"
        elif key.endswith("-json"):
            value = json.loads(value)
            key = key.removesuffix("-json")
        if key == "code":  # "## code: …" is a case whose code is one (broken) line
            code.append(value + "\n")
        elif qual is None:
            default[key] = value
        elif "bash" in shells.split("/"):
            for_bash[key] = value
            qualifier = qual.split("-")[0]
    # Trailing blank lines of the code are the gap before the next case.
    text = "".join(code).rstrip("\n") + "\n"
    merged = {**default, **for_bash}
    status = merged.get("status")
    expect = Expect(
        stdout=merged.get("stdout"),
        # Oils: "If not specified, the case must exit 0".
        status=int(status) if status is not None else 0,
        qualifier=qualifier,
    )
    return Case(file, index, title, line, text, expect, legacy)
