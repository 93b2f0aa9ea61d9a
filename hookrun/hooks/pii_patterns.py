"""What counts as PII or a secret in text, and how to find it fast.

Each :class:`Detector` is a regex plus *needles*: substrings at least one of
which every match must contain (``ghp_``, ``@``, ``eyJ``…). A string is first
checked for needles (a C-speed ``in``); only the detectors whose needles occur
run, each one ``finditer`` of a regex that starts with its literal prefix, so
the engine jumps from candidate to candidate. (One alternation of all
detectors was tried first: CPython's regex engine cannot skip ahead in an
alternation of groups and paid a lookbehind at every position — ~50 ns a
character.) Emails are found from each ``@`` outwards. Most tool outputs hold
no needle at all and cost a handful of ``in`` tests; user patterns have no
needle and always run.

Precision choices (seed 000 R2 — a false positive is a bug too):

- email: the top-level domain must be letters and not a file extension, so
  ``icon@2x.png``, ``lodash@4.17.21``, ``@types/node``, ``@decorator`` and
  ``HEAD@{1}`` survive; ``user@host:path`` (scp/ssh remotes such as
  ``git@github.com:org/repo.git``) and ``scheme://user@host`` name an account on
  a host, not a mailbox, and survive too.
- AWS's documented example keys (``…EXAMPLE``, ``…EXAMPLEKEY``) survive.
- a JWT must have a header that base64url-decodes to a JSON object with
  ``alg``; other dotted base64 survives.
- OpenAI-style ``sk-`` keys need 20+ characters with a digit, so
  ``sk-learn-style-slugs`` survive; git SHAs and UUIDs match nothing.
- a PEM block is a *private* key (public keys and certificates survive); one
  cut off before its END line is redacted to the end of the string.
- a password in a URL (``postgres://u:pw@db``) is redacted, the user name kept;
  placeholders (``$VAR``, ``${VAR}``, ``<password>``, ``***``) survive.
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

Check = Callable[[str, int, int], bool]  # (whole text, value start, value end) → really PII?


@dataclass(frozen=True)
class Detector:
    """One kind of sensitive value.

    ``regex`` may name the part to redact ``(?P<v>…)`` (the rest is context,
    such as ``aws_secret_access_key=``). It starts with its literal prefix
    (``eyJ``, ``sk-``…) so the regex engine can jump between candidates;
    ``left`` — characters that must not come right before a match (a token is
    not a token in the middle of a longer word) — is checked in Python on the
    rare candidates instead of by a lookbehind at every position.
    """

    kind: str
    regex: str
    needles: tuple[str, ...]
    label: str  # "a GitHub token": for reasons given to the model
    env_var: str = "SECRET"  # what secret-guard suggests instead of the value
    check: Check | None = None
    left: str = ""


_EXTENSIONS = """
png jpg jpeg gif svg webp ico bmp tif tiff avif js mjs cjs ts tsx jsx json md txt css scss
html htm xml yml yaml toml lock py rb go rs java kt c h cpp hpp cs php sh ps1 bat zip gz tgz
tar whl jar pdf csv log ini cfg conf map wasm woff woff2 ttf otf mp3 mp4 mov webm
"""
FILE_EXTENSIONS = frozenset(_EXTENSIONS.split())


def _email_ok(text: str, start: int, end: int) -> bool:
    value = text[start:end]
    tld = value.rsplit(".", 1)[-1].lower()
    if tld in FILE_EXTENSIONS:
        return False
    if text[max(0, start - 3) : start] == "://":
        return False  # ssh://git@host/…, https://user@host: a login, not a mailbox
    nxt = text[end : end + 2]
    return not (len(nxt) == 2 and nxt[0] == ":" and (nxt[1] in "/~" or nxt[1].isalnum()))


def _not_example(text: str, start: int, end: int) -> bool:
    return "EXAMPLE" not in text[start:end]


def _jwt_ok(text: str, start: int, end: int) -> bool:
    header = text[start:end].split(".", 1)[0]
    try:
        raw = base64.urlsafe_b64decode(header + "=" * (-len(header) % 4))
        data = json.loads(raw)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and "alg" in data


_PLACEHOLDER = re.compile(r"^(?:\$\{?[A-Za-z_][A-Za-z0-9_:.-]*\}?|\{env:[^}]*\}|<[^>]*>|[*x]+)$")


def _password_ok(text: str, start: int, end: int) -> bool:
    return _PLACEHOLDER.match(text[start:end]) is None


# \w, not [A-Za-z0-9]: internationalised addresses (zoë@…, 用户@…) are PII too.
EMAIL_DOMAIN = r"[^\W_](?:[\w-]*[^\W_])?(?:\.[^\W_](?:[\w-]*[^\W_])?)*\.[^\W\d_]{2,24}(?![\w-])"
_B62 = "A-Za-z0-9"
_WORD = "A-Za-z0-9_"
_WORD_DASH = "A-Za-z0-9_-"
DETECTORS: tuple[Detector, ...] = (
    Detector(
        "private_key",
        r"-----BEGIN (?P<pem>(?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)"
        r"-----"
        r"[\s\S]*?(?:-----END (?P=pem)-----|\Z)",
        ("PRIVATE KEY",),
        "a private key",
        "PRIVATE_KEY",
    ),
    Detector(
        "jwt",
        # three parts (JWS), or five (JWE: header.key.iv.ciphertext.tag)
        r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"
        r"(?:\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)?",
        ("eyJ",),
        "a JSON Web Token",
        "TOKEN",
        _jwt_ok,
        _WORD_DASH,
    ),
    Detector(
        "github_token",
        rf"(?:gh[pousr]_[{_B62}]{{36,251}}|github_pat_[{_B62}_]{{40,255}})(?![{_B62}_])",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        "a GitHub token",
        "GITHUB_TOKEN",
        left=_WORD,
    ),
    Detector(
        "anthropic_key",
        r"sk-ant-[A-Za-z0-9]+-[A-Za-z0-9_-]{20,}",
        ("sk-ant-",),
        "an Anthropic API key",
        "ANTHROPIC_API_KEY",
        left=_WORD_DASH,
    ),
    Detector(
        "openai_key",
        r"sk-(?!ant-)(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{20,}",
        ("sk-",),
        "an OpenAI API key",
        "OPENAI_API_KEY",
        left=_WORD_DASH,
    ),
    Detector(
        "stripe_key",
        rf"(?:[sr]k_(?:live|test)_[{_B62}]{{16,}}|whsec_[{_B62}]{{24,}})",
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"),
        "a Stripe secret key",
        "STRIPE_SECRET_KEY",
        left=_WORD,
    ),
    Detector(
        "aws_access_key",
        r"A(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16}(?![A-Z0-9])",
        ("AKIA", "ASIA", "ABIA", "ACCA"),
        "an AWS access key id",
        "AWS_ACCESS_KEY_ID",
        _not_example,
        "A-Z0-9",
    ),
    Detector(
        "aws_secret_key",
        r"(?i:aws_?secret_?access_?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
        r"(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        ("ecret_access_key", "ECRET_ACCESS_KEY", "ecretAccessKey", "ecretaccesskey"),
        "an AWS secret access key",
        "AWS_SECRET_ACCESS_KEY",
        _not_example,
    ),
    Detector(
        "slack_token",
        r"x(?:ox[baprs]-[A-Za-z0-9-]{10,}|app-\d-[A-Za-z0-9-]{10,})",
        ("xox", "xapp-"),
        "a Slack token",
        "SLACK_TOKEN",
        left="A-Za-z0-9",
    ),
    Detector(
        "slack_webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}",
        ("hooks.slack.com",),
        "a Slack webhook URL",
        "SLACK_WEBHOOK_URL",
    ),
    Detector(
        "google_api_key",
        r"AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])",
        ("AIza",),
        "a Google API key",
        "GOOGLE_API_KEY",
        left=_WORD_DASH,
    ),
    Detector(
        "bearer_token",
        r"(?i:\bbearer\s+)(?P<v>[A-Za-z0-9._~+/-]{20,}=*)",
        ("earer ", "EARER "),
        "a bearer token",
        "TOKEN",
        _password_ok,
    ),
    Detector(
        "url_password",
        r"://[^/\s:@\"'<>]+:(?P<v>[^/\s@\"'<>]{3,})@(?=[A-Za-z0-9.-])",
        ("://",),
        "a password in a URL",
        "PASSWORD",
        _password_ok,
    ),
    Detector(
        "email",
        # Documentation only: Scanner.find anchors emails on "@" (_email_spans).
        r"(?<![\w.%+-])\w[\w.%+-]*@" + EMAIL_DOMAIN,
        ("@",),
        "an email address",
        "EMAIL",
        _email_ok,
    ),
)
BY_KIND = {d.kind: d for d in DETECTORS}
KINDS: tuple[str, ...] = tuple(d.kind for d in DETECTORS)

# Not personal: documentation domains, GitHub's no-reply and bot addresses.
DEFAULT_EXCLUDE: tuple[str, ...] = (
    "*@example.com",
    "*@example.org",
    "*@example.net",
    "*@*.example.com",
    "noreply@github.com",
    "*@users.noreply.github.com",
    "noreply@*",
    "no-reply@*",
    "*[bot]@*",
)


@dataclass(frozen=True)
class Finding:
    kind: str
    start: int
    end: int  # the redacted span (the value), not its context


@dataclass(frozen=True)
class Scanner:
    """A compiled set of detectors and exclusions; build once per options (cached).

    Each detector whose needles occur gets one ``finditer`` over the string (a
    literal-prefixed regex: the engine skips between candidates); emails are
    found from each ``@``. Overlaps resolve to the earlier, then longer, find.
    """

    detectors: tuple[Detector, ...]
    exclude: re.Pattern[str] | None
    _compiled: dict[int, re.Pattern[str]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def find(self, text: str) -> list[Finding]:
        """Every sensitive value in ``text``, left to right, never overlapping."""
        found: list[Finding] = []
        email: Detector | None = None
        for i, det in enumerate(self.detectors):
            if det.needles and not any(n in text for n in det.needles):
                continue
            if det.kind == "email":
                email = det
                continue
            regex = self._compiled.get(i)
            if regex is None:
                regex = self._compiled[i] = re.compile(det.regex)
            left = _left_class(det.left)
            for m in regex.finditer(text):
                if left is not None and m.start() and left.match(text, m.start() - 1):
                    continue
                v = m.span("v") if "v" in regex.groupindex and m.group("v") else m.span()
                self._keep(found, det, text, v)
        if len(found) > 1:
            # Stable sort: on the very same span the earlier (more specific) detector wins.
            found.sort(key=lambda f: (f.start, -f.end))
            found = _disjoint(found)
        if email is not None:
            # A more specific find wins over an address around it: the token in
            # https://x:ghp_…@github.com is a URL password, not an "email".
            taken = found
            found = list(found)
            for span in _email_spans(text):
                if not any(f.start < span[1] and span[0] < f.end for f in taken):
                    self._keep(found, email, text, span)
            found.sort(key=lambda f: f.start)
        return found

    def _keep(self, found: list[Finding], det: Detector, text: str, span: tuple[int, int]) -> None:
        if det.check is not None and not det.check(text, *span):
            return
        if self.exclude is not None and self.exclude.fullmatch(text[span[0] : span[1]]):
            return
        found.append(Finding(det.kind, *span))


def _disjoint(found: list[Finding]) -> list[Finding]:
    kept: list[Finding] = []
    for f in found:
        if not kept or f.start >= kept[-1].end:
            kept.append(f)
    return kept


@lru_cache(maxsize=32)
def _left_class(chars: str) -> re.Pattern[str] | None:
    return re.compile(f"[{chars}]") if chars else None


def user_detector(name: str, regex: str) -> Detector:
    """A detector for a user pattern: always run (no needle), redacts the whole match."""
    if re.fullmatch(regex, ""):
        raise re.error(f"pattern {name!r} matches the empty string")
    return Detector(name, f"(?:{regex})", (), f"a {name} value")


_LOCAL_PUNCT = frozenset("._%+-")
_DOMAIN = re.compile(EMAIL_DOMAIN)


def _email_spans(text: str) -> Iterator[tuple[int, int]]:
    """Spans of addresses, found from each ``@`` outwards.

    Anchoring on ``@`` (a C-speed ``find``) instead of trying a local part at
    every word start makes a 4 KB ``git log`` several times cheaper to scan.
    The local part is the run of word characters and ``._%+-`` before the
    ``@``, less any leading punctuation.
    """
    at = text.find("@")
    while at >= 0:
        start = at
        while start > 0 and (
            text[start - 1].isalnum() or text[start - 1] in _LOCAL_PUNCT or text[start - 1] == "_"
        ):
            start -= 1
        while start < at and not (text[start].isalnum() or text[start] == "_"):
            start += 1
        if start < at:
            m = _DOMAIN.match(text, at + 1)
            if m is not None:
                yield start, m.end()
        at = text.find("@", at + 1)


def exclusion_regex(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """Globs over a found value (``*@corp.com``; ``@corp.com`` means the same), no case."""
    globs = ["*" + p if p.startswith("@") else p for p in patterns]
    if not globs:
        return None
    # fnmatch treats [bot] as a class; the brackets are meant literally in addresses.
    body = "|".join(fnmatch.translate(g.replace("[", "[[]")) for g in globs)
    return re.compile(body, re.IGNORECASE)


@lru_cache(maxsize=64)
def scanner(
    kinds: tuple[str, ...] = KINDS,
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE,
    user: tuple[tuple[str, str], ...] = (),
) -> Scanner:
    dets = tuple(BY_KIND[k] for k in kinds if k in BY_KIND)
    dets += tuple(user_detector(n, r) for n, r in user)
    return Scanner(dets, exclusion_regex(exclude))


def redact(text: str, findings: list[Finding]) -> str:
    """``text`` with each finding replaced by ``[REDACTED:<kind>]``."""
    out: list[str] = []
    pos = 0
    for f in findings:
        out.append(text[pos : f.start])
        out.append(f"[REDACTED:{f.kind}]")
        pos = f.end
    out.append(text[pos:])
    return "".join(out)
