"""The scrubber measured on gitleaks' published samples, per family.

``data/gitleaks/samples.json`` holds, for each rule of gitleaks
(gitleaks/gitleaks at b58d3f10, MIT, licence beside it), the samples its own
generator checks: ``tps`` it must flag, ``fps`` it must not (extracted by
``scripts/gitleaks_samples.py``).

- A true sample counts as caught when the scrubber redacts something and the
  secret — what gitleaks' own regex captures in it — is gone from the output.
- A false sample counts as flagged when the scrubber redacts anything in it.
  "Restricted" leaves out a rule's false sample that a sibling rule of the same
  family must flag (gitleaks' anthropic-api-key lists an admin key as "not an
  API key"; the anthropic_key family rightly redacts both).
- A false sample that gitleaks' source marks ``// False Negative``
  (:data:`LABELLED_FALSE_NEGATIVES`) is a secret gitleaks' regex misses, by its
  own word: it is judged as a true sample of the family.
- A flagged false sample that gitleaks' own regex matches ("same shape") has the
  shape of a secret: gitleaks keeps quiet about it by a list of values or a
  filter after the match, not by its shape (gcp-api-key: sixteen keys from
  firebase-android-sdk, listed one by one). Those are counted apart.

Run ``python -m tests.hooks.secret_yardstick`` for the table (also our own
labelled samples, precision and recall per family).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple

import re2

from hookrun.hooks.pii_patterns import redact, scanner
from hookrun.hooks.secret_rules import RULES

DATA = Path(__file__).parent / "data" / "gitleaks" / "samples.json"
_OPTIONS = re2.Options()
_OPTIONS.log_errors = False


# gitleaks at b58d3f10, cmd/generate/config/rules/mailchimp.go:28: "// False Negative"
# above the rule's only false sample (a real key shape its keyword regex misses).
LABELLED_FALSE_NEGATIVES: dict[str, tuple[str, ...]] = {
    "mailchimp-api-key": ("MailchimpSDK.initialize(token: 3012a5754bbd716926f99c028f7ea428-us18)",),
}


class Score(NamedTuple):
    caught: int
    true: int
    flagged: int
    false: int
    same_shape: int = 0  # of the flagged: samples gitleaks' own regex matches

    @property
    def recall(self) -> float:
        return self.caught / self.true if self.true else 1.0

    @property
    def fp_rate(self) -> float:
        return self.flagged / self.false if self.false else 0.0


def samples() -> dict[str, Any]:
    rules: dict[str, Any] = json.loads(DATA.read_text())["rules"]
    return rules


def families() -> dict[str, tuple[str, ...]]:
    """kind → the gitleaks rule ids it answers for."""
    out: dict[str, tuple[str, ...]] = {}
    for rule in RULES:
        if rule.gitleaks:
            out[rule.kind] = out.get(rule.kind, ()) + rule.gitleaks
    return out


def _secret(regex: Any, text: str) -> str | None:
    m = regex.search(text)
    if m is None:
        return None
    for i in range(1, (regex.groups or 0) + 1):
        if m.group(i):
            return str(m.group(i))
    return str(m.group(0))


def caught(text: str, gitleaks_regex: Any) -> bool:
    out = redact(text, scanner().find(text))
    secret = _secret(gitleaks_regex, text)
    return out != text and (secret is None or secret not in out)


def per_family() -> tuple[dict[str, Score], dict[str, Score]]:
    """(all samples, restricted) scores per family."""
    data = samples()
    scan = scanner()
    regexes = {
        rid: re2.compile(rule["regex"], _OPTIONS) for rid, rule in data.items() if rule.get("regex")
    }
    plain: dict[str, Score] = {}
    restricted: dict[str, Score] = {}
    for kind, ids in families().items():
        c = t = f = n = rf = rn = same = rsame = 0
        for rid in ids:
            rule = data[rid]
            relabelled = LABELLED_FALSE_NEGATIVES.get(rid, ())
            for text in (*rule["tps"], *relabelled):
                t += 1
                c += caught(text, regexes[rid])
            siblings = [regexes[s] for s in ids if s != rid and s in regexes]
            for text in rule["fps"]:
                if text in relabelled:
                    continue
                hit = bool(scan.find(text))
                shaped = hit and regexes[rid].search(text) is not None
                n += 1
                f += hit
                same += shaped
                if not any(r.search(text) for r in siblings):
                    rn += 1
                    rf += hit
                    rsame += shaped
        plain[kind] = Score(c, t, f, n, same)
        restricted[kind] = Score(c, t, rf, rn, rsame)
    return plain, restricted


def all_false_samples() -> tuple[int, int]:
    """(flagged, total) over every "must not flag" sample of every gitleaks rule
    (less the ones gitleaks itself marks as missed secrets)."""
    scan = scanner()
    texts = [
        text
        for rid, rule in samples().items()
        for text in rule["fps"]
        if text not in LABELLED_FALSE_NEGATIVES.get(rid, ())
    ]
    return sum(1 for text in texts if scan.find(text)), len(texts)


def own_tables() -> dict[str, tuple[float, float]]:
    """kind → (precision, recall) on tests/hooks/secret_families_test.py's samples."""
    from tests.hooks.secret_families_test import FAMILIES

    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # tp, fn, fp
    scan = scanner()
    for kind, (tps, fps) in FAMILIES.items():
        for text in tps:
            kinds = [f.kind for f in scan.find(text)]
            counts[kind][0 if kind in kinds else 1] += 1
            for other in kinds:
                if other != kind:
                    counts[other][2] += 1
        for text in fps:
            for f in scan.find(text):
                counts[f.kind][2] += 1
    out = {}
    for kind, (tp, fn, fp) in counts.items():
        out[kind] = (tp / (tp + fp) if tp + fp else 1.0, tp / (tp + fn) if tp + fn else 1.0)
    return out


def markdown_table(restricted: dict[str, Score]) -> str:
    """The per-family figures as docs/policies.md shows them (a test compares the two)."""
    lines = [
        "| kind | gitleaks true samples redacted | must-not-flag redacted (same shape) |",
        "|---|---|---|",
    ]
    for kind in sorted(restricted):
        s = restricted[kind]
        lines.append(
            f"| `{kind}` | {s.caught}/{s.true} ({100 * s.recall:.1f}%) "
            f"| {s.flagged}/{s.false} ({s.same_shape}) |"
        )
    return "\n".join(lines)


def main() -> None:
    plain, restricted = per_family()
    own = own_tables()
    print(
        f"{'family':22} {'gitleaks ids':>4}  recall          must-not-flag (same shape)   own P / R"
    )
    fam = families()
    for kind in sorted(plain):
        s, r = plain[kind], restricted[kind]
        p, rc = own.get(kind, (1.0, 1.0))
        print(
            f"{kind:22} {len(fam[kind]):>4}  {s.caught:>4}/{s.true:<4} {100 * s.recall:5.1f}%"
            f"   {r.flagged:>2}/{r.false:<3} ({r.same_shape:>2})"
            f"              {100 * p:5.1f}% / {100 * rc:5.1f}%"
        )
    tot = [sum(x[i] for x in restricted.values()) for i in range(5)]
    raw = [sum(x[i] for x in plain.values()) for i in range(5)]
    flagged, total = all_false_samples()
    print(
        f"families: {len(plain)}; true samples caught {tot[0]}/{tot[1]} "
        f"({100 * tot[0] / tot[1]:.1f}%)"
    )
    print(
        f"must-not-flag of these families flagged: {tot[2]}/{tot[3]} "
        f"({100 * tot[2] / tot[3]:.1f}%) "
        f"restricted, {raw[2]}/{raw[3]} raw; of all gitleaks rules: {flagged}/{total} "
        f"({100 * flagged / total:.1f}%)"
    )
    print(
        f"of the flagged in these families, gitleaks' own regex matches {tot[4]} (same shape); "
        f"the others: {tot[2] - tot[4]}/{tot[3] - tot[4]}"
    )
    for kind in sorted(k for k in own if k not in plain):
        p, rc = own[kind]
        print(f"{kind:22} (no gitleaks rule)  own P / R {100 * p:5.1f}% / {100 * rc:5.1f}%")


if __name__ == "__main__":
    main()
