"""secret-guard (seed 000 P12, H5): no hardcoded secrets in MCP configs.

A write tool aimed at an MCP config (``mcp*.json``, ``.mcp.json``,
``.vscode/mcp.json``, at any depth; ``paths`` changes the list) is denied when
its new content holds a literal secret, with the fix in the reason::

    secret-guard: .vscode/mcp.json line 7 holds what looks like a GitHub token
    in "servers.github.env.GITHUB_TOKEN" — use "${GITHUB_TOKEN}" instead

Two ways a value counts as a secret:

1. it has the shape of a known credential (the pii-scrubber's detectors except
   email: GitHub/OpenAI/Anthropic/AWS/Slack/Google/Stripe keys, JWTs, private
   keys, bearer tokens, URL passwords) — anywhere, ``args`` arrays included;
2. it sits under a secret-sounding key (``*TOKEN*``, ``*SECRET*``,
   ``*PASSWORD*``, ``*API_KEY*``, ``Authorization``…) and, once variable
   references and an auth scheme (``Bearer``) are taken out, 12+ characters
   without spaces remain — so ``"changeme"``-style placeholders, booleans and
   prose pass.

References pass: ``${VAR}``, ``$VAR``, ``{env:VAR}``, ``${env:VAR}``,
``${input:id}`` (VS Code), also inside a longer value (``"Bearer ${TOKEN}"``).
The content is parsed as JSON when it can be (full dotted paths in the
reason); JSONC with comments and ``Edit`` fragments are read key by key.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, NamedTuple

from hookrun.hooks.base import Policy, PolicyContext, Verdict
from hookrun.hooks.options import Check
from hookrun.hooks.paths import glob_match, tool_target
from hookrun.hooks.pii import line_of, written_texts
from hookrun.hooks.pii_patterns import BY_KIND, KINDS, scanner
from hookrun.hooks.write_guard import WRITE_TOOLS, tool_listed

SECRET_KINDS = tuple(k for k in KINDS if k != "email")


def _regex(value: str) -> None:
    try:
        re.compile(value)
    except re.error as exc:
        raise ValueError(f"invalid regex {value!r}: {exc}") from None


class SecretGuardOptions(NamedTuple):
    paths: tuple[str, ...] = ("**/mcp*.json", "**/.mcp.json")
    tools: tuple[str, ...] = WRITE_TOOLS
    secret_keys: Annotated[str, Check(_regex)] = (
        r"(?i)(token|secret|passw(or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|"
        r"credential|authorization|auth[_-]?header|^pat$|_pat$|session[_-]?key)"
    )
    min_length: int = 12
    workspace: str | None = None


_REF = re.compile(
    r"\$\{(?:env:|input:)?[A-Za-z_][A-Za-z0-9_.:-]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\{env:[^}]+\}"
)
_SCHEME = re.compile(r"^(?i:bearer|basic|token|bot)\s+")
_PAIR = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)"')
_KEY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:')
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")


@dataclass(frozen=True)
class Hit:
    path: str  # dotted JSON path, or the key alone when the text is not whole JSON
    offset: int
    label: str
    env_var: str
    scheme: str  # "Bearer " when the value had one, to keep it in the suggestion


def _walk(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _walk(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]")


def _pairs(text: str) -> tuple[bool, list[tuple[str, str, int]]]:
    """Whether ``text`` is whole JSON, and ``(path, value, offset)`` of its string values."""
    try:
        data = json.loads(text)
        strings = list(_walk(data)) if isinstance(data, (dict, list)) else None
    except (ValueError, RecursionError):  # not JSON, or nested past any real config
        strings = None
    if strings is not None:
        out = []
        pos = 0
        for path, value in strings:
            encoded = json.dumps(value, ensure_ascii=False)[1:-1]
            found = text.find(encoded, pos)
            if found < 0:
                found = max(text.find(encoded), 0)
            else:
                pos = found + len(encoded)
            out.append((path, value, found))
        return True, out
    return False, [(m.group(1), m.group(2), m.start(2)) for m in _PAIR.finditer(text)]


def _last_key(path: str) -> str:
    return re.split(r"[.\[]", path)[-1].rstrip("]")


def _env_var_for(path: str, fallback: str, secret_key: re.Pattern[str]) -> str:
    """The variable to suggest: the key itself when it reads like one, else the kind's."""
    key = _last_key(path)
    if _ENV_NAME.match(key) and key != "AUTHORIZATION":
        return key
    if secret_key.search(key) and key.lower() not in ("authorization", "auth"):
        snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key).replace("-", "_").upper()
        if _ENV_NAME.match(snake):
            return snake
    return fallback


def find_secrets(text: str, opts: SecretGuardOptions) -> list[Hit]:
    scan = scanner(SECRET_KINDS, (), ())
    secret_key = re.compile(opts.secret_keys)
    whole_json, pairs = _pairs(text)
    hits: list[Hit] = []
    for path, value, offset in pairs:
        bare = _REF.sub("", value)
        scheme_m = _SCHEME.match(value)
        scheme = scheme_m.group(0) if scheme_m else ""
        found = scan.find(bare)
        if found:
            det = BY_KIND[found[0].kind]
            hits.append(
                Hit(path, offset, det.label, _env_var_for(path, det.env_var, secret_key), scheme)
            )
            continue
        rest = _SCHEME.sub("", bare).strip()
        if (
            secret_key.search(_last_key(path))
            and len(rest) >= opts.min_length
            and not any(c.isspace() for c in rest)
            and not rest.startswith(("http://", "https://", "/", "./"))
        ):
            env = _env_var_for(path, "TOKEN" if scheme else "SECRET", secret_key)
            hits.append(Hit(path, offset, "a hardcoded secret", env, scheme))
    if not whole_json:
        # JSONC or an Edit fragment: values outside "key": "value" pairs (args
        # arrays) are only found by scanning the text itself.
        spans = [(o, o + len(v)) for _, v, o in pairs]
        for f in scan.find(text):
            if any(a <= f.start < b for a, b in spans):
                continue  # judged above, with its key
            keys = list(_KEY.finditer(text, 0, f.start))
            path = keys[-1].group(1) if keys else "?"
            det = BY_KIND[f.kind]
            hits.append(
                Hit(path, f.start, det.label, _env_var_for(path, det.env_var, secret_key), "")
            )
        hits.sort(key=lambda h: h.offset)
    return hits


def judge(
    payload: Mapping[str, Any],
    opts: SecretGuardOptions,
    ctx: PolicyContext,
    *,
    platform: str = sys.platform,
) -> Verdict:
    if not tool_listed(payload, opts.tools):
        return Verdict()
    target = tool_target(payload, ctx, workspace=opts.workspace, platform=platform)
    if target is None:
        return Verdict()
    # An MCP config outside the workspace (~/.cursor/mcp.json) is guarded too: a
    # secret is as hardcoded there; where it may be written is write-guard's call.
    name = target.norm.rel or target.norm.absolute.lstrip("/")
    fold = target.norm.ignore_case
    if not any(glob_match(name, p, ignore_case=fold) for p in opts.paths):
        return Verdict()
    shown = target.norm.rel or target.raw
    for field, text in written_texts(payload):
        hits = find_secrets(text, opts)
        if not hits:
            continue
        hit = hits[0]
        where = f"line {line_of(text, hit.offset)}"
        if field != "content":
            where = f"({field} line {line_of(text, hit.offset)})"
        more = f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""
        return Verdict(
            decision="deny",
            reason=(
                f'secret-guard: {shown} {where} holds what looks like {hit.label} in "{hit.path}"'
                f'{more} — use "{hit.scheme}${{{hit.env_var}}}" instead and keep the value in '
                "the environment"
            ),
            rule="secret.hardcoded",
        )
    return Verdict()


def _decide(payload: Mapping[str, Any], opts: SecretGuardOptions, ctx: PolicyContext) -> Verdict:
    return judge(payload, opts, ctx)


POLICY: Policy[SecretGuardOptions] = Policy(
    name="secret-guard",
    options=SecretGuardOptions,
    decide=_decide,
)
