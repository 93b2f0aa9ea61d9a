"""pii-scrubber (seed 000 P4, R2; seed 004) and pii-write-guard (P18).

pii-scrubber is a PostToolUse policy. It reads the tool's output from whichever
field the host sent — ``tool_output`` (hookrun, Crush), ``tool_response``
(Claude Code), ``toolResult`` (Copilot SDK), ``result`` (Squad) — in that
order, and answers with ``updated_output``: the *same shape* with every
sensitive value replaced by ``[REDACTED:<kind>]``, plus a context note
``pii-scrubber: 3 values to redact in this output (email ×2, github_token ×1)``. Strings are
scanned wherever they are: top level, nested dict values, list items, and dict
keys (a map keyed by addresses leaks as much as one that holds them). A string
that itself holds JSON is scanned as text: JSON escaping leaves every value
the detectors look for intact, and the output keeps its exact bytes around
the redactions instead of being re-serialised. Nothing found → no opinion.

pii-write-guard is a PreToolUse policy: a write tool whose new content
(``content``, ``new_string``, ``edits[].new_string``, ``new_source``,
Copilot's ``file_text``/``new_str``) would put an email address into a
protected path (default ``.squad/**``, ``.ai-team/**``) is denied. ``kinds``
widens it to other detectors (tokens, keys).

What counts as PII, and the exclusions (``@example.com``, GitHub no-reply and
bot addresses), live in :mod:`hookrun.hooks.pii_patterns`; the credential
families in :mod:`hookrun.hooks.secret_rules`.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Any, NamedTuple

from hookrun import fields as P
from hookrun.hooks import pii_escaped as escaped
from hookrun.hooks.base import Policy, PolicyContext, Verdict
from hookrun.hooks.options import Check, Doc
from hookrun.hooks.paths import glob_match, tool_target
from hookrun.hooks.pii_patterns import (
    BY_KIND,
    DEFAULT_EXCLUDE,
    KINDS,
    Finding,
    Scanner,
    scanner,
    user_rule,
)
from hookrun.hooks.write_guard import WRITE_TOOLS, tool_listed

OUTPUT_FIELDS = ("tool_output", "tool_response", "toolResult", "result")
_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


def _pattern_name(value: str) -> None:
    if not _NAME.match(value):
        raise ValueError(
            f"pattern name {value!r} must be lower-case letters, digits, _ or - "
            "(it becomes the [REDACTED:<name>] marker)"
        )


def _pattern_regex(value: str) -> None:
    try:
        user_rule("x", value)
    except re.error as exc:
        raise ValueError(f"invalid regex {value!r}: {exc}") from None


class UserPattern(NamedTuple):
    """A pattern of the user's: ``{"name": "ticket", "regex": "TCK-\\\\d{6}"}``.

    The whole match is redacted, or only a group named ``v`` when the regex has
    one (``"regex": "session=(?P<v>[0-9a-f]{32})"`` keeps ``session=``).
    """

    name: Annotated[str, Check(_pattern_name)]
    regex: Annotated[str, Check(_pattern_regex)]


def _check_kinds(value: tuple[str, ...]) -> None:
    unknown = [k for k in value if k not in BY_KIND]
    if unknown:
        raise ValueError(f"unknown kinds {unknown}; known: {', '.join(KINDS)}")


# The detection options both policies share (NamedTuples do not inherit fields).
_EXCLUDE_DOC = Doc("globs over found values that are not PII")
_ALSO_EXCLUDE_DOC = Doc("added to exclude")


def detection_scanner(
    kinds: tuple[str, ...],
    exclude: tuple[str, ...],
    also_exclude: tuple[str, ...],
    patterns: tuple[UserPattern, ...],
) -> Scanner:
    user = tuple((p.name, p.regex) for p in patterns)
    return scanner(kinds, exclude + also_exclude, user)


class ScrubberOptions(NamedTuple):
    exclude: Annotated[tuple[str, ...], _EXCLUDE_DOC] = DEFAULT_EXCLUDE
    also_exclude: Annotated[tuple[str, ...], _ALSO_EXCLUDE_DOC] = ()
    patterns: tuple[UserPattern, ...] = ()
    kinds: Annotated[tuple[str, ...], Check(_check_kinds)] = KINDS

    def scanner(self, kinds: tuple[str, ...]) -> Scanner:
        return detection_scanner(kinds, self.exclude, self.also_exclude, self.patterns)


class PiiWriteGuardOptions(NamedTuple):
    exclude: Annotated[tuple[str, ...], _EXCLUDE_DOC] = DEFAULT_EXCLUDE
    also_exclude: Annotated[tuple[str, ...], _ALSO_EXCLUDE_DOC] = ()
    patterns: tuple[UserPattern, ...] = ()
    kinds: Annotated[tuple[str, ...], Check(_check_kinds)] = ("email",)
    paths: tuple[str, ...] = (".squad/**", ".ai-team/**")
    tools: tuple[str, ...] = WRITE_TOOLS
    workspace: str | None = None

    def scanner(self, kinds: tuple[str, ...]) -> Scanner:
        return detection_scanner(kinds, self.exclude, self.also_exclude, self.patterns)


# ---------------------------------------------------------------- scrubber


def scrub(value: Any, scan: Scanner, counts: Counter[str], depth: int = 0) -> Any:
    """``value`` with every finding redacted; the same object when nothing changed."""
    if isinstance(value, str):
        redacted, kinds = escaped.redacted(scan, value)
        if not kinds:
            return value
        for kind in dict.fromkeys(kinds):  # (each kind once, in order: a few)
            counts[kind] += kinds.count(kind)
        return redacted
    if depth > 200:
        # Deeper than any real tool output; refusing beats leaking what we did not read.
        counts["unscanned"] += 1
        return "[REDACTED:unscanned]"
    if isinstance(value, list):
        items = [scrub(v, scan, counts, depth + 1) for v in value]
        same = all(a is b for a, b in zip(items, value, strict=True))
        return value if same else items
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        changed = False
        for k, v in value.items():
            nk = scrub(k, scan, counts, depth + 1) if isinstance(k, str) else k
            nv = scrub(v, scan, counts, depth + 1)
            changed = changed or nk is not k or nv is not v
            while nk in out:  # two keys redacted alike must both survive
                nk = f"{nk}#"
            out[nk] = nv
        return out if changed else value
    return value


def note(counts: Counter[str]) -> str:
    total = sum(counts.values())
    kinds = ", ".join(f"{kind} ×{n}" for kind, n in counts.items())
    noun = "value" if total == 1 else "values"
    # Worded so that it stays true where the host cannot apply the rewrite (the host
    # module then says the output was NOT redacted): it names what was found.
    return f"pii-scrubber: {total} {noun} to redact in this output ({kinds})"


def _output_field(payload: Mapping[str, Any]) -> str | None:
    for key in OUTPUT_FIELDS:
        if key in payload:
            return key
    return None


def _decide_scrub(payload: Mapping[str, Any], opts: ScrubberOptions, ctx: PolicyContext) -> Verdict:
    key = _output_field(payload)
    if key is None:
        return Verdict()
    original = payload[key]
    counts: Counter[str] = Counter()
    cleaned = scrub(original, opts.scanner(opts.kinds), counts)
    if not counts:
        return Verdict()
    return Verdict(updated_output=cleaned, context=(note(counts),), rule="pii.redacted")


SCRUBBER: Policy[ScrubberOptions] = Policy(
    name="pii-scrubber",
    options=ScrubberOptions,
    decide=_decide_scrub,
)


# ---------------------------------------------------------------- write guard

_CONTENT_KEYS = ("content", "new_string", "new_str", "file_text", "new_source", "text")


def written_texts(payload: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(field, text)`` for the new content a write tool call carries."""
    data = P.tool_input(payload)
    texts = [(k, v) for k in _CONTENT_KEYS if isinstance(v := data.get(k), str)]
    edits = data.get("edits")
    if isinstance(edits, list):
        for i, edit in enumerate(edits):
            if isinstance(edit, Mapping):
                for k in ("new_string", "new_str"):
                    if isinstance(v := edit.get(k), str):
                        texts.append((f"edits[{i}].{k}", v))
    return texts


def mask(value: str) -> str:
    """Enough of a value to recognise it, not enough to leak it: ``j***@corp.io``."""
    if "@" in value:
        local, _, domain = value.partition("@")
        return f"{local[:1]}***@{domain}"
    return f"{value[:4]}…" if len(value) > 8 else "…"


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _decide_write(
    payload: Mapping[str, Any], opts: PiiWriteGuardOptions, ctx: PolicyContext
) -> Verdict:
    return judge_write(payload, opts, ctx)


def judge_write(
    payload: Mapping[str, Any],
    opts: PiiWriteGuardOptions,
    ctx: PolicyContext,
    *,
    platform: str = sys.platform,
) -> Verdict:
    if not tool_listed(payload, opts.tools):
        return Verdict()
    target = tool_target(payload, ctx, workspace=opts.workspace, platform=platform)
    if target is None or target.norm.rel is None:
        return Verdict()  # outside the workspace is write-guard's call
    rel = target.norm.rel
    if not any(glob_match(rel, p, ignore_case=target.norm.ignore_case) for p in opts.paths):
        return Verdict()
    scan = opts.scanner(opts.kinds)
    for field, text in written_texts(payload):
        found = scan.find(text)
        if found:
            return _denial(rel, field, text, found[0], len(found))
    return Verdict()


def _denial(rel: str, field: str, text: str, first: Finding, count: int) -> Verdict:
    det = BY_KIND.get(first.kind)
    label = det.label if det else f"a {first.kind} value"
    more = f" and {count - 1} more" if count > 1 else ""
    shown = mask(text[first.start : first.end])
    if first.kind == "email":
        fix = "remove it or write a placeholder such as name@example.com"
    else:
        fix = "remove it and reference it from the environment instead"
    return Verdict(
        decision="deny",
        reason=(
            f"pii-write-guard: {rel} would receive {label} ({shown}, {field} line "
            f"{line_of(text, first.start)}){more} — PII and secrets must not be committed to "
            f"repository files; {fix}"
        ),
        rule=f"pii.{first.kind}-in-write",
    )


WRITE_GUARD: Policy[PiiWriteGuardOptions] = Policy(
    name="pii-write-guard",
    options=PiiWriteGuardOptions,
    decide=_decide_write,
)
