"""pii-scrubber and pii-write-guard.

Every fake secret is assembled in code ("ghp_" + …) so that no live-looking
token sits verbatim in the repository for a secret scanner to flag.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun import fields
from hookrun.hooks.base import PolicyContext, Verdict
from hookrun.hooks.pii import SCRUBBER, WRITE_GUARD, PiiWriteGuardOptions, judge_write, note, scrub
from hookrun.hooks.pii_patterns import scanner


def rand(n: int, seed: int | str, alphabet: str = string.ascii_letters + string.digits) -> str:
    """Random-looking characters, the same on every run: real keys are random, and a
    periodic stand-in ("Ab9Ab9…") is below the scrubber's entropy floor, as in gitleaks."""
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64url(obj: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


GH = "ghp_" + "Ab3De6Gh9Jk2" * 3
GHO = "gho_" + "Zz9Yy8Xx7Ww6" * 3
GHS = "ghs_" + "Q1w2E3r4T5y6" * 3
GHU = "ghu_" + "M0n9B8v7C6x5" * 3
GHR = "ghr_" + "P0o9I8u7Y6t5" * 3
GH_FINE = "github_pat_" + "11ABCDEFG0" + "aB3" * 4 + "_" + "Zq7Wp2" * 10
OPENAI = "sk-" + "Ab3Cd4Ef5Gh6" * 4
OPENAI_PROJ = "sk-proj-" + "Xy7_Zw8-Qa9B" * 5
ANTHROPIC = "sk-ant-api03-" + "Kq8_Lm3-Np5R" * 7 + "AA"
AWS_ID = "AKIA" + "Z7Q2" * 4
AWS_STS = "ASIA" + "M4N8" * 4
AWS_SECRET = "Zx9/Qw8+" * 5
JWT = (
    b64url({"alg": "HS256", "typ": "JWT"})
    + "."
    + b64url({"sub": "42", "n": "x"})
    + ".sIg_n4ture-Value0123"
)
JWT_NONE = b64url({"alg": "none"}) + "." + b64url({"sub": "1", "admin": True}) + "."
PEM = (
    "-----BEGIN " + "RSA PRIVATE KEY-----\n" + "MIIEowIBAAKCAQEA7v" * 3 + "\n"
    "-----END " + "RSA PRIVATE KEY-----"
)
PEM_OPENSSH = (
    "-----BEGIN "
    + "OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----"
)
PEM_CUT = "-----BEGIN " + "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC"
SLACK = "xox" + "b-" + "1234567890-0987654321-" + "AbCdEf" * 4
SLACK_USER = "xox" + "p-" + "1111111111-2222222222-" + "ZyXwVu" * 4
SLACK_HOOK = "https://hooks.slack.com/services/" + "T0000AAAA/B0000BBBB/" + "Xk9" * 8
GOOGLE = "AIza" + "Sy" + rand(33, "google")
STRIPE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
STRIPE_RK = "rk_" + "test_" + "51HxYzAbCdEfGhIjKlMn"
BEARER = "abc123DEF456" * 3


def email(user: str, domain: str = "corp-mail.io") -> str:
    return f"{user}@{domain}"


# (label, text, expected kinds in order of appearance)
POSITIVE: list[tuple[str, str, list[str]]] = [
    ("git log author", f"Author: Jane Doe <{email('jane.doe')}>", ["email"]),
    (
        "git shortlog",
        f"  12  Bob <{email('bob')}>\n   3  Al <{email('al', 'gmail.com')}>",
        ["email", "email"],
    ),
    ("email with plus", f"cc {email('first.last+ci')}", ["email"]),
    ("email upper case", f"FROM: {email('OPS', 'CORP.COM')}", ["email"]),
    ("email subdomain", email("x", "mail.eu.corp.co.uk"), ["email"]),
    ("email sentence end", f"write to {email('hr')}.", ["email"]),
    ("email in quotes json", json.dumps({"email": email("u1")}), ["email"]),
    ("mailto link", f'<a href="mailto:{email("sales")}">', ["email"]),
    ("email in parentheses", f"(contact: {email('dev', 'startup.ai')})", ["email"]),
    ("email after colon", f"user.email={email('me', 'home.net')}", ["email"]),
    ("git config output", f"user.name=Me\nuser.email={email('me.myself')}", ["email"]),
    ("ghp token", f"token: {GH}", ["github_token"]),
    ("gho token", GHO, ["github_token"]),
    ("ghs token", f"GITHUB_TOKEN={GHS}", ["github_token"]),
    ("ghu token", f"'{GHU}'", ["github_token"]),
    ("ghr token", f"refresh={GHR}", ["github_token"]),
    ("fine-grained pat", f"export GH_TOKEN={GH_FINE}", ["github_token"]),
    ("token in remote url", f"https://x-access-token:{GH}@github.com/o/r.git", ["github_token"]),
    ("openai legacy", f"OPENAI_API_KEY={OPENAI}", ["openai_key"]),
    ("openai project", f'key = "{OPENAI_PROJ}"', ["openai_key"]),
    ("anthropic", f"ANTHROPIC_API_KEY={ANTHROPIC}", ["anthropic_key"]),
    ("aws access key id", f"aws_access_key_id = {AWS_ID}", ["aws_access_key"]),
    ("aws sts key", f'"AccessKeyId": "{AWS_STS}"', ["aws_access_key"]),
    ("aws secret ini", f"aws_secret_access_key = {AWS_SECRET}", ["aws_secret_key"]),
    ("aws secret env", f"AWS_SECRET_ACCESS_KEY={AWS_SECRET}", ["aws_secret_key"]),
    ("aws secret json", f'"SecretAccessKey": "{AWS_SECRET}"', ["aws_secret_key"]),
    (
        "aws credentials file",
        f"[default]\naws_access_key_id={AWS_ID}\naws_secret_access_key={AWS_SECRET}\n",
        ["aws_access_key", "aws_secret_key"],
    ),
    ("jwt", f"id_token={JWT}", ["jwt"]),
    ("jwt alg none", JWT_NONE, ["jwt"]),
    (
        "jwt without alg: two JSON parts are gitleaks' jwt shape",
        b64url({"typ": "x", "kid": "1"}) + "." + b64url({"a": 1}) + ".sig0123456",
        ["jwt"],
    ),
    ("jwt in cookie", f"Set-Cookie: session={JWT}; HttpOnly", ["jwt"]),
    ("bearer header", f"Authorization: Bearer {BEARER}", ["bearer_token"]),
    ("bearer jwt: the more specific kind", f"authorization: bearer {JWT}", ["jwt"]),
    ("rsa private key", f"key:\n{PEM}\nend", ["private_key"]),
    ("openssh private key", PEM_OPENSSH, ["private_key"]),
    ("truncated private key", f"cat key.pem\n{PEM_CUT}", ["private_key"]),
    ("slack bot token", f"SLACK_BOT_TOKEN={SLACK}", ["slack_token"]),
    ("slack user token", SLACK_USER, ["slack_token"]),
    ("slack webhook", f"curl -X POST {SLACK_HOOK}", ["slack_webhook"]),
    ("google api key", f"?key={GOOGLE}&q=1", ["google_api_key"]),
    ("stripe live", f"Stripe.api_key = '{STRIPE}'", ["stripe_key"]),
    ("stripe restricted", STRIPE_RK, ["stripe_key"]),
    (
        "postgres dsn",
        "DATABASE_URL=postgres://app:" + "s3cr3tPa55" + "@db.internal:5432/app",
        ["url_password"],
    ),
    ("redis url", "redis://default:" + "hunter2hunter2" + "@cache:6379/0", ["url_password"]),
    (
        "redis url, no user name",
        "REDIS_URL=redis://:" + "Xk29fjQpL0aZ8mNvB3tY" + "@10.0.0.5:6379/0",
        ["url_password"],
    ),
    ("amqp url, no user name", "amqp://:" + "pW9xLq2rTz" + "@rabbit:5672", ["url_password"]),
    ("mixed line", f"{email('a')} {GH} {AWS_ID}", ["email", "github_token", "aws_access_key"]),
    (
        "env dump",
        f"HOME=/home/u\nGITHUB_TOKEN={GHO}\nOPENAI_API_KEY={OPENAI}\nUSER=u",
        ["github_token", "openai_key"],
    ),
    (
        "stack trace",
        f"AuthError: invalid key {ANTHROPIC} for {email('svc', 'corp.dev')}",
        ["anthropic_key", "email"],
    ),
    ("npm author", f'"author": "Jo <{email("jo", "jo.dev")}>"', ["email"]),
    ("email next to version", f"{email('rel')} released pkg@1.2.3", ["email"]),
    ("two adjacent emails", f"{email('a')},{email('b')}", ["email", "email"]),
    ("unicode around", f"→ {email('zoë', 'corp.io')} ←", ["email"]),
]

NEGATIVE: list[tuple[str, str]] = [
    ("git sha", "commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39"),
    ("short shas", "a1b2c3d fix: x\n9f8e7d6 feat: y"),
    ("uuid", "request-id: 123e4567-e89b-12d3-a456-426614174000"),
    ("npm package@version", "npm install lodash@4.17.21 react@18.2.0"),
    ("scoped package", "added @types/node@20.11.5 and @babel/core@7.23.0"),
    ("python decorators", "@functools.cache\n@pytest.mark.parametrize('x', [1])\ndef f(): ..."),
    ("java annotation", "@Override public String toString()"),
    ("css at-rules", "@media (max-width: 600px) { @import url(x.css); }"),
    ("github mention", "thanks @octocat and @jane-doe for the review"),
    ("scp remote", "origin\tgit@github.com:org/repo.git (fetch)"),
    ("ssh url", "ssh://git@gitlab.com/group/repo.git"),
    ("retina image", "![logo](assets/logo@2x.png) and icon@3x.webp"),
    ("action ref", "uses: actions/checkout@v4.1.1"),
    (
        "image digest",
        "nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
    ),
    ("reflog", "HEAD@{1}: reset: moving to HEAD~1"),
    ("no tld", "ping user@localhost"),
    ("numeric domain", "price 5@3.50 each"),
    ("example.com", "set user.email to jane@example.com"),
    ("example subdomain", "ops@mail.example.com"),
    ("github noreply", "noreply@github.com"),
    ("users noreply", "12345+octo@users.noreply.github.com"),
    ("bot address", "41898282+github-actions[bot]@users.noreply.github.com"),
    ("dependabot", "Bump lodash from 4.17.20 to 4.17.21 (dependabot[bot])"),
    ("aws doc example id", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"),
    ("aws doc example secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("aws secret key name only", "set aws_secret_access_key in ~/.aws/credentials"),
    ("base64 blob", "data: SGVsbG8gV29ybGQhIFRoaXMgaXMgYmFzZTY0IGRhdGE="),
    ("eyJ prefix junk", "eyJhbGciOi.notajwt.x"),
    ("public key", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0B\n-----END PUBLIC KEY-----"),
    ("certificate", "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE\n-----END CERTIFICATE-----"),
    ("sk slug", "see sk-learn-docs-for-more-information-here"),
    ("task id", "task-1234567890abcdefghijKLMN"),
    ("short ghp", "ghp_short and gho_"),
    ("xoxo", "xoxo, the team"),
    ("url user no password", "https://user@host.example.org/path"),
    ("url password placeholder", "postgres://app:${DB_PASSWORD}@db/app"),
    ("url password masked", "postgres://app:***@db/app"),
    ("bearer word", "use a Bearer token for auth"),
    ("bearer placeholder", "Authorization: Bearer $TOKEN"),
    ("version triple", "python 3.11.7, node v20.11.1, 1.2.3.4"),
    ("integrity hash", "sha512-Yd3mQ9bL0fJ7h2e9Wk1xZ4vT6rP8sN0cA5uB3gD7iK2oE1lM9nQ4pR6sT8uV0w=="),
    ("hex digest", "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("AIza short", "AIzaSomething"),
    ("stripe publishable", "pk_live_" + "51HxYzAbCdEfGhIjKlMn"),
    ("stripe short", "sk_test_abc"),
    ("ipv6 zone", "fe80::1%lo0"),
    ("email spelled out", "bob at corp dot com"),
    ("at in shell", "echo $@ && ${arr[@]}"),
    ("pip direct ref", "pkg @ git+https://github.com/o/r@v1.0"),
    ("empty", ""),
]


def test_corpus_has_at_least_80_labelled_texts() -> None:
    assert len(POSITIVE) + len(NEGATIVE) >= 80


@pytest.mark.parametrize(("text", "kinds"), [c[1:] for c in POSITIVE], ids=[c[0] for c in POSITIVE])
def test_scrubber_redacts_every_seeded_value(text: str, kinds: list[str]) -> None:
    got = SCRUBBER.decide({"tool_output": text}, SCRUBBER.bind({}), CTX)
    out = got.updated_output
    assert isinstance(out, str)
    assert re.findall(r"\[REDACTED:([a-z_]+)\]", out) == kinds
    for secret in (
        GH,
        GHO,
        GHS,
        GHU,
        GHR,
        GH_FINE,
        OPENAI,
        OPENAI_PROJ,
        ANTHROPIC,
        AWS_ID,
        AWS_STS,
        AWS_SECRET,
        JWT,
        SLACK,
        SLACK_USER,
        GOOGLE,
        STRIPE,
        STRIPE_RK,
        BEARER,
    ):
        assert secret not in out
    assert "@corp-mail.io" not in out and "PRIVATE KEY-----\nMII" not in out


@pytest.mark.parametrize("text", [c[1] for c in NEGATIVE], ids=[c[0] for c in NEGATIVE])
def test_scrubber_leaves_look_alikes_alone(text: str) -> None:
    assert SCRUBBER.decide({"tool_output": text}, SCRUBBER.bind({}), CTX) == Verdict()


CTX = PolicyContext(cwd="/nonexistent-ws", project_dir="/nonexistent-ws", state_dir="/s", env={})


def test_url_password_keeps_user_and_host() -> None:
    out = scrub("postgres://app:" + "s3cr3tPa55" + "@db:5432/x", scanner(), Counter())
    assert out == "postgres://app:[REDACTED:url_password]@db:5432/x"


def test_aws_secret_keeps_its_key_name() -> None:
    out = scrub(f"aws_secret_access_key = {AWS_SECRET}\n", scanner(), Counter())
    assert out == "aws_secret_access_key = [REDACTED:aws_secret_key]\n"


# --- shapes: whichever field the host sent, the same shape back.


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"tool_output": f"by {email('x')}"}, "tool_output"),
        ({"tool_response": {"stdout": f"by {email('x')}", "exit_code": 0}}, "tool_response"),
        ({"toolResult": {"textResultForLlm": f"by {email('x')}"}}, "toolResult"),
        ({"result": [f"by {email('x')}", 3, None, True]}, "result"),
    ],
)
def test_scrubber_answers_in_the_shape_of_the_field_the_host_sent(
    payload: dict[str, Any], field: str
) -> None:
    got = SCRUBBER.decide(payload, SCRUBBER.bind({}), CTX)
    original = payload[field]
    assert type(got.updated_output) is type(original)
    assert json.dumps(got.updated_output) == json.dumps(original).replace(
        email("x"), "[REDACTED:email]"
    )
    assert got.context == ("pii-scrubber: 1 value to redact in this output (email ×1)",)


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"tool_output": None},
        {"tool_output": 3},
        {"tool_response": {"ok": True}},
        {"tool_output": "all clean"},
    ],
)
def test_scrubber_has_no_opinion_when_nothing_to_redact(payload: dict[str, Any]) -> None:
    assert SCRUBBER.decide(payload, SCRUBBER.bind({}), CTX) == Verdict()


def test_note_counts_each_kind_in_order_of_appearance() -> None:
    got = SCRUBBER.decide(
        {"tool_output": f"{email('a')} {GH} {email('b')}"}, SCRUBBER.bind({}), CTX
    )
    assert got.context == (
        "pii-scrubber: 3 values to redact in this output (email ×2, github_token ×1)",
    )


def test_note_lists_kinds_in_order_of_first_appearance_not_by_name() -> None:
    # (the kinds are counted from the scrubbed string's list of kinds, each once, in
    # the order the first of each comes: a token before the addresses comes first)
    got = SCRUBBER.decide(
        {"tool_output": f"{GH} {email('a')} {email('b')} {GH}"}, SCRUBBER.bind({}), CTX
    )
    assert got.context == (
        "pii-scrubber: 4 values to redact in this output (github_token ×2, email ×2)",
    )


def test_dict_keys_are_scrubbed_and_colliding_keys_both_survive() -> None:
    out = scrub({email("a"): 1, email("b"): 2, "n": email("c")}, scanner(), Counter())
    assert out == {"[REDACTED:email]": 1, "[REDACTED:email]#": 2, "n": "[REDACTED:email]"}


def test_unchanged_subtrees_are_returned_as_the_same_objects() -> None:
    clean = {"a": [1, "x"], "b": {"c": "y"}}
    value = {"clean": clean, "dirty": email("q")}
    out = scrub(value, scanner(), Counter())
    assert out["clean"] is clean


def test_pathologically_deep_output_is_redacted_not_leaked() -> None:
    value: Any = email("deep")
    for _ in range(300):
        value = [value]
    out = json.dumps(scrub(value, scanner(), Counter()))
    assert email("deep") not in out and "[REDACTED:unscanned]" in out


def test_json_inside_a_string_is_scrubbed_and_keeps_its_formatting() -> None:
    text = json.dumps({"user": {"mail": email("j")}, "tok": GH}, indent=2)
    out = scrub(text, scanner(), Counter())
    assert json.loads(out) == {
        "user": {"mail": "[REDACTED:email]"},
        "tok": "[REDACTED:github_token]",
    }
    assert out.count("\n") == text.count("\n")


def test_fifty_plus_seeded_values_in_nested_tool_outputs_zero_leaks() -> None:
    # Seed 000's success metric: 50+ tool calls with seeded PII, nothing reaches the model.
    seeded: list[str] = []

    def secret(i: int) -> str:
        pick = i % 10
        tail = f"{i:04d}"
        value = [
            email(f"user{tail}.name", f"dept{i}.corp.io"),
            "ghp_" + rand(32, i) + tail,
            "sk-proj-" + rand(24, i) + tail,
            "AKIA" + rand(12, i, string.ascii_uppercase + string.digits) + tail,
            "xox" + "b-" + "1029384756-" + rand(12, i) + tail,
            "AIza" + "Sy" + rand(29, i) + tail,
            "sk_" + "live_" + rand(20, i) + tail,
            b64url({"alg": "RS256"}) + "." + b64url({"sub": tail}) + ".Sg" + tail * 3,
            "github_pat_" + "11AB" * 6 + "_" + "Cd3E" * 14 + tail,
            email(f"first.last+{tail}", "gmail.com"),
        ][pick]
        seeded.append(value)
        return value

    calls = []
    n = 0
    for call in range(12):
        out = {
            "stdout": f"line {secret(n)}\nmore {secret(n + 1)}",
            "meta": {"authors": [secret(n + 2), {"who": secret(n + 3)}], secret(n + 4): "key"},
            "nested_json": json.dumps({"a": [secret(n + 5)]}),
            "count": call,
        }
        n += 6
        calls.append(out)
    assert len(seeded) >= 50
    leaks = []
    total = 0
    for out in calls:
        got = SCRUBBER.decide({"tool_response": out}, SCRUBBER.bind({}), CTX)
        text = json.dumps(got.updated_output)
        leaks += [s for s in seeded if s in text or json.dumps(s)[1:-1] in text]
        total += sum(int(x) for x in re.findall(r"×(\d+)", got.context[0]))
    assert leaks == []
    assert total == len(seeded)


# --- options


def test_user_pattern_group_v_redacts_only_that_part() -> None:
    opts = SCRUBBER.bind({"patterns": [{"name": "sid", "regex": r"session=(?P<v>[0-9a-f]{8})"}]})
    got = SCRUBBER.decide({"tool_output": "ok session=deadbeef;"}, opts, CTX)
    assert got.updated_output == "ok session=[REDACTED:sid];"


def test_jwe_five_parts_are_redacted_whole() -> None:
    jwe = b64url({"alg": "RSA-OAEP", "enc": "A256GCM"}) + ".a1b2c3d4e5f6.g7h8i9j0k1.l2m3n4o5p6.q7r8"
    got = SCRUBBER.decide({"tool_output": f"token={jwe} end"}, SCRUBBER.bind({}), CTX)
    assert got.updated_output == "token=[REDACTED:jwt] end"


def test_user_patterns_redact_with_their_name() -> None:
    opts = SCRUBBER.bind({"patterns": [{"name": "ticket", "regex": r"TCK-\d{6}"}]})
    got = SCRUBBER.decide({"tool_output": "see TCK-123456"}, opts, CTX)
    assert got.updated_output == "see [REDACTED:ticket]"


@pytest.mark.parametrize(
    "bad",
    [
        {"patterns": [{"name": "Bad Name", "regex": "x"}]},
        {"patterns": [{"name": "x", "regex": "(unclosed"}]},
        {"patterns": [{"name": "x", "regex": "a*"}]},  # matches the empty string
        {"kinds": ["emial"]},
        {"exclude_typo": []},
    ],
)
def test_bad_options_are_rejected_with_a_reason(bad: dict[str, Any]) -> None:
    with pytest.raises(pydantic.ValidationError):
        SCRUBBER.bind(bad)


def test_exclusions_are_configurable() -> None:
    text = f"{email('bot', 'ci.corp.io')} and {email('jane', 'corp.io')}"
    opts = SCRUBBER.bind({"also_exclude": ["@ci.corp.io"]})
    out = SCRUBBER.decide({"tool_output": text}, opts, CTX).updated_output
    assert out == f"{email('bot', 'ci.corp.io')} and [REDACTED:email]"


def test_replacing_exclude_drops_the_defaults() -> None:
    opts = SCRUBBER.bind({"exclude": []})
    got = SCRUBBER.decide({"tool_output": "jane@example.com"}, opts, CTX)
    assert got.updated_output == "[REDACTED:email]"


def test_kinds_limit_what_is_redacted() -> None:
    opts = SCRUBBER.bind({"kinds": ["github_token"]})
    got = SCRUBBER.decide({"tool_output": f"{email('a')} {GH}"}, opts, CTX)
    assert got.updated_output == f"{email('a')} [REDACTED:github_token]"


def test_note_singular_and_plural() -> None:
    assert (
        note(Counter({"email": 1})) == "pii-scrubber: 1 value to redact in this output (email ×1)"
    )
    assert note(Counter({"jwt": 2})) == "pii-scrubber: 2 values to redact in this output (jwt ×2)"


# --- pii-write-guard (P18)


def wcall(tool: str, path: str, **args: Any) -> dict[str, Any]:
    return {"tool_name": tool, "tool_input": {"file_path": path, **args}}


def wguard(payload: Mapping[str, Any], opts: Mapping[str, Any] | None = None) -> Verdict:
    return WRITE_GUARD.decide(payload, WRITE_GUARD.bind(opts or {}), CTX)


WRITE_CASES: list[tuple[str, dict[str, Any], dict[str, Any], str | None]] = [
    ("Write content", wcall("Write", ".squad/team.md", content=f"lead: {email('jo')}"), {}, "deny"),
    (
        "Edit new_string",
        wcall("Edit", ".squad/decisions.md", old_string="x", new_string=f"by {email('jo')}"),
        {},
        "deny",
    ),
    (
        "MultiEdit edits[]",
        wcall(
            "MultiEdit",
            ".squad/a.md",
            edits=[
                {"old_string": "a", "new_string": "b"},
                {"old_string": "c", "new_string": email("q")},
            ],
        ),
        {},
        "deny",
    ),
    (
        "NotebookEdit new_source",
        {
            "tool_name": "NotebookEdit",
            "tool_input": {"notebook_path": ".squad/n.ipynb", "new_source": email("nb")},
        },
        {},
        "deny",
    ),
    (
        "Squad create file_text",
        {
            "toolName": "create",
            "arguments": {"path": ".ai-team/agents/x/history.md", "file_text": email("h")},
        },
        {},
        "deny",
    ),
    (
        "Copilot edit new_str",
        {"toolName": "edit", "arguments": {"path": ".squad/x.md", "new_str": email("h")}},
        {},
        "deny",
    ),
    (
        "absolute path inside",
        wcall("Write", "/nonexistent-ws/.squad/t.md", content=email("a")),
        {},
        "deny",
    ),
    ("unprotected path", wcall("Write", "src/app.py", content=email("jo")), {}, None),
    ("excluded address", wcall("Write", ".squad/t.md", content="jane@example.com"), {}, None),
    (
        "bot address",
        wcall("Write", ".squad/t.md", content="github-actions[bot]@users.noreply.github.com"),
        {},
        None,
    ),
    (
        "package@version is not an email",
        wcall("Write", ".squad/t.md", content="pin lodash@4.17.21"),
        {},
        None,
    ),
    (
        "old_string with an email is being removed",
        wcall("Edit", ".squad/t.md", old_string=email("gone"), new_string="[removed]"),
        {},
        None,
    ),
    ("not a write tool", wcall("Read", ".squad/t.md", content=email("a")), {}, None),
    ("no content", wcall("Write", ".squad/t.md"), {}, None),
    ("token not checked by default", wcall("Write", ".squad/t.md", content=GH), {}, None),
    (
        "token checked when asked",
        wcall("Write", ".squad/t.md", content=GH),
        {"kinds": ["email", "github_token"]},
        "deny",
    ),
    (
        "custom paths",
        wcall("Write", "docs/people.md", content=email("a")),
        {"paths": ["docs/**"]},
        "deny",
    ),
    (
        "custom paths drop default",
        wcall("Write", ".squad/x.md", content=email("a")),
        {"paths": ["docs/**"]},
        None,
    ),
    ("outside workspace is write-guard's", wcall("Write", "/etc/x", content=email("a")), {}, None),
]


@pytest.mark.parametrize(
    ("payload", "opts", "decision"), [c[1:] for c in WRITE_CASES], ids=[c[0] for c in WRITE_CASES]
)
def test_pii_write_guard_decides(
    payload: dict[str, Any], opts: dict[str, Any], decision: str | None
) -> None:
    assert wguard(payload, opts).decision == decision


def test_pii_write_guard_reason_masks_the_address_and_says_where() -> None:
    text = f"# Team\n\nlead: {email('jo')}\nqa: {email('al')}\n"
    got = wguard(wcall("Write", ".squad/team.md", content=text))
    assert got.rule == "pii.email-in-write"
    assert got.reason == (
        "pii-write-guard: .squad/team.md would receive an email address (j***@corp-mail.io, "
        "content line 3) and 1 more — PII and secrets must not be committed to repository "
        "files; remove it or write a placeholder such as name@example.com"
    )
    assert email("jo") not in (got.reason or "")


def test_pii_write_guard_on_windows_paths_ignores_case() -> None:
    got = judge_write(
        {
            "tool_name": "Write",
            "tool_input": {"file_path": "C:\\Repo\\.SQUAD\\t.md", "content": email("w")},
        },
        PiiWriteGuardOptions(),
        PolicyContext(cwd="C:\\Repo", project_dir="C:\\Repo", state_dir="", env={}),
        platform="win32",
    )
    assert got.decision == "deny"


# --- never raises, whatever the host sends


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(output=_json, field=st.sampled_from(["tool_output", "tool_response", "result"]))
def test_scrubber_never_raises_and_keeps_the_shape(output: Any, field: str) -> None:
    got = SCRUBBER.decide({field: output}, SCRUBBER.bind({}), CTX)
    if got.has_updated_output:
        assert type(got.updated_output) is type(output)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_redaction_is_idempotent(text: str) -> None:
    once = scrub(text, scanner(), Counter())
    assert scrub(once, scanner(), Counter()) == once


@settings(max_examples=200, deadline=None)
@given(tool_input=_json)
def test_pii_write_guard_raises_nothing_but_unreadable(tool_input: Any) -> None:
    try:
        got = wguard({"tool_name": "Write", "tool_input": tool_input})
    except fields.Unreadable:  # its input or path has the wrong type: the hook's error
        return
    assert got.decision in (None, "deny")
