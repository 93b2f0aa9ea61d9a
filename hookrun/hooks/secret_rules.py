"""The credential families the scrubber knows: one row per shape of secret.

Each :class:`Rule` is an RE2 pattern (no look-around, no back-references: the
whole table is joined into one alternation and run as a single linear-time
pass, see :mod:`hookrun.hooks.pii_patterns`). A pattern that must not start in
the middle of a word begins with ``\\b`` or names the characters that may not
come before it (``left``, checked in Python on the rare hit); a pattern that
must not stop in the middle of one ends with :func:`_end`, which consumes one
character outside the token's alphabet (or the end of the text) so that RE2
itself backs off to the right alternative. A pattern may name the redacted part
``(?P<v>…)`` — the rest is context such as ``discord_token =`` and is kept.

Every hit then passes :func:`looks_real`: a value that is mostly one repeated
character, or that spells a placeholder (``xxxx``, ``your``, ``example``,
``here``, ``token`` …), or whose Shannon entropy is below the rule's floor is
somebody's example, not a secret (``ghp_xxxxxxxx…``, ``xoxb-your-token-here``,
``AKIAIOSFODNN7EXAMPLE``). Real keys are random; random strings of 16+
characters sit well above 3 bits a character.

``gitleaks`` names the rules of gitleaks (gitleaks/gitleaks,
``cmd/generate/config/rules``) each family answers for; their published
samples are the yardstick in ``tests/hooks/secret_yardstick_test.py``.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

Check = Callable[[str, int, int], bool]  # (whole text, value start, value end) → really secret?

ALNUM = "A-Za-z0-9"
WORD = "A-Za-z0-9_"
DASH = "\\-"  # a literal dash inside a class, wherever it lands
WORD_DASH = "A-Za-z0-9_" + DASH


class Rule(NamedTuple):
    kind: str  # the [REDACTED:<kind>] marker
    pattern: str  # RE2 syntax; (?P<v>…) marks the redacted part when not all of it
    label: str  # "a GitHub token": for reasons given to the model
    env_var: str  # what secret-guard suggests instead of the value
    gitleaks: tuple[str, ...] = ()
    left: str = ""  # a regex class body: characters that may not come right before
    check: Check | None = None
    min_entropy: float = 3.0  # bits per character of the value; 0 = no floor
    placeholder: bool = True  # apply the placeholder-word test
    prefix: int = 0  # leading characters that are the format's own name, not tested for words
    # (class, n): the value begins n characters of [class] before the match. A row
    # that began with a counted class ([a-f0-9]{32}-us…) would make RE2's automaton
    # track every start inside every long word (a git log of hashes: 50x slower);
    # it matches from its literal part instead, and Python steps back.
    back: tuple[str, int] | None = None
    # A Python regex (bytes) of the row's opening and its first run, for a row whose
    # match is that run then a character not in it: where the row fails at a start
    # that ``run`` matches, it fails at every later start inside the run too (a match
    # there would end the run where this one does, and this start's longer run would
    # match as well). The pass then tries the row once a run, not once each start:
    # 50 KB of ``ey-ey-ey-…`` ran the JWT row to the end of the text from each ``ey``
    # (quadratic: a second of CPU, a 5 MB output hung the host).
    run: str = ""


def _end(cls: str) -> str:
    """The token stops here: the next character is not in ``[cls]``, or the text ends.

    RE2 has no look-ahead, so the character is consumed; it is captured as
    ``e`` and left out of the redacted span.
    """
    return f"(?P<e>[^{cls}]|$)"


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    if not value:
        return 0.0
    n = len(value)
    return math.log2(n) - sum(c * math.log2(c) for c in Counter(value).values()) / n


_PLACEHOLDER_WORDS = re.compile(
    r"(?i)xxxx|your|example|placeholder|redacted|changeme|dummy|here|token|secret|insert|replace"
)
_RUN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0*#._-")


@lru_cache(maxsize=4096)  # the same token recurs in a log; judge it once
def looks_real(value: str, min_entropy: float, placeholder: bool, prefix: int = 0) -> bool:
    """False for an example or a placeholder: repeated characters, telling words, low entropy.

    A run of six of one letter, ``0`` or ``*#._-`` is a mask (``xxxxxx``,
    ``000000``); other digits may repeat (a workspace id ``511111111``).
    """
    if placeholder:
        if _PLACEHOLDER_WORDS.search(value, prefix):
            return False
        body = value[prefix:]
        if any(c * 6 in body for c in set(body) & _RUN_CHARS):
            return False
    return not (min_entropy and len(value) >= 12 and entropy(value) < min_entropy)


def jwt_ok(text: str, start: int, end: int) -> bool:
    """Two base64url parts that both open a JSON object (``ey``), or a header with ``alg``."""
    parts = text[start:end].split(".")
    if len(parts) >= 3 and parts[1].startswith("ey") and min(len(parts[0]), len(parts[1])) >= 10:
        return True
    header = parts[0]
    try:
        raw = base64.urlsafe_b64decode(header + "=" * (-len(header) % 4))
        data = json.loads(raw)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and "alg" in data


def jwt_b64_ok(text: str, start: int, end: int) -> bool:
    """A JWT written out in base64 again (``ZXlK…``): decode it and judge the JWT."""
    value = text[start:end].replace("\r", "").replace("\n", "")
    value = value.replace("-", "+").replace("_", "/")
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4)).decode("ascii")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    return raw.count(".") >= 1 and jwt_ok(raw + ("." if raw.count(".") == 1 else ""), 0, len(raw))


_PLACEHOLDER_VALUE = re.compile(
    r"^(?:\$\{?[A-Za-z_][A-Za-z0-9_:.-]*\}?|\{env:[^}]*\}|<[^>]*>|[*x]+)$"
)


def password_ok(text: str, start: int, end: int) -> bool:
    return _PLACEHOLDER_VALUE.match(text[start:end]) is None


def url_password_ok(text: str, start: int, end: int) -> bool:
    nxt = text[end + 1 : end + 2]  # the character after the "@"
    return bool(nxt) and (nxt.isalnum() or nxt in ".-") and password_ok(text, start, end)


def openai_ok(text: str, start: int, end: int) -> bool:
    value = text[start:end]
    if value.startswith("sk-ant-"):
        return False  # an Anthropic key's shape gone wrong is not an OpenAI key
    if "T3BlbkFJ" in value:  # "OpenAI" in base64: every OpenAI key carries it
        return True
    return any(c.isdigit() for c in value) and any(c.isupper() for c in value)


def _legacy_vault(value: str) -> bool:
    """``s.`` + 24 characters is also ``s.AcceptanceTimeoutSecs``: real ones mix case and digits."""
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )


def mixed_case(text: str, start: int, end: int) -> bool:
    value = text[start:end]
    return any(c.isupper() for c in value) and any(c.islower() for c in value)


# keyword ... operator ... value: how a value is assigned to a named setting in
# config files and code (INI, YAML, JSON, XML, shell, Go, PHP, make).
_ASSIGN = r"[ \tA-Za-z0-9_.-]{0,20}[\s'\"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|\.=|,)[\s'\"`=]{0,5}"


def _named(keyword: str, value: str, cls: str) -> str:
    return rf"(?i:{keyword}){_ASSIGN}(?P<v>{value}){_end(cls)}"


_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_B64 = "A-Za-z0-9+/"

# Order matters where two rows can match at the same place: the first wins
# (RE2's leftmost-first alternation), so specific shapes come before general ones.
RULES: tuple[Rule, ...] = (
    # ---- keys with a body
    Rule(
        "private_key",
        # The header only; pii_patterns extends the span over the body (a header
        # with no body is a mention, not a key).
        r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----",
        "a private key",
        "PRIVATE_KEY",
        ("private-key",),
        min_entropy=0,
        placeholder=False,
    ),
    Rule(
        "onepassword_token",
        rf"\bops_eyJ[{_B64}]{{250,}}={{0,3}}|\bA3-[A-Z0-9]{{6}}-(?:[A-Z0-9]{{11}}|[A-Z0-9]{{6}}-"
        rf"[A-Z0-9]{{5}})-[A-Z0-9]{{5}}-[A-Z0-9]{{5}}-[A-Z0-9]{{5}}{_end(ALNUM)}",
        "a 1Password token",
        "OP_SERVICE_ACCOUNT_TOKEN",
        ("1password-service-account-token", "1password-secret-key"),
    ),
    Rule(
        "grafana_token",
        rf"\b(?:eyJrIjoi[{ALNUM}]{{70,400}}={{0,3}}|glc_[{_B64}]{{32,400}}={{0,3}}"
        rf"|glsa_[{ALNUM}]{{32}}_[A-Fa-f0-9]{{8}}){_end(_B64 + '=_')}",
        "a Grafana token",
        "GRAFANA_TOKEN",
        ("grafana-api-key", "grafana-cloud-api-token", "grafana-service-account-token"),
    ),
    Rule(
        "jwt",
        # three parts (JWS), or five (JWE: header.key.iv.ciphertext.tag)
        r"\bey[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_/\\-]{8,}\.[A-Za-z0-9_/\\-]*={0,2}"
        r"(?:\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)?",
        "a JSON Web Token",
        "TOKEN",
        ("jwt",),
        check=jwt_ok,
        min_entropy=0,
        placeholder=False,  # base64 of JSON spells words by chance; the shape check decides
        run=r"\bey[A-Za-z0-9_-]*",  # (then "."; header lengths are unbounded: x5c chains)
    ),
    Rule(
        "jwt",
        rf"\bZXlK[{_B64}_-]{{40,}}={{0,2}}",
        "a JSON Web Token",
        "TOKEN",
        ("jwt-base64",),
        check=jwt_b64_ok,
        min_entropy=0,
        placeholder=False,
    ),
    # ---- code hosts and package registries
    Rule(
        "github_token",
        rf"\b(?:gh[pousr]_[{ALNUM}]{{36,251}}|github_pat_[{WORD}]{{40,255}}){_end(WORD)}",
        "a GitHub token",
        "GITHUB_TOKEN",
        (
            "github-pat",
            "github-fine-grained-pat",
            "github-oauth",
            "github-app-token",
            "github-refresh-token",
        ),
    ),
    Rule(
        "gitlab_token",
        rf"\b(?:gl(?:pat|ptt|dt|ft|soat|ffct|imt|agent|oas|rt|cbt)-[{WORD_DASH}]{{20,300}}"
        rf"(?:\.[0-9a-z]{{9}})?|GR1348941[{WORD_DASH}]{{20}}){_end(WORD_DASH + '.')}"
        rf"|_gitlab_session=(?P<v>[0-9a-z]{{32}}){_end(ALNUM)}",
        "a GitLab token",
        "GITLAB_TOKEN",
        (
            "gitlab-pat",
            "gitlab-pat-routable",
            "gitlab-ptt",
            "gitlab-rrt",
            "gitlab-deploy-token",
            "gitlab-feed-token",
            "gitlab-scim-token",
            "gitlab-feature-flag-client-token",
            "gitlab-incoming-mail-token",
            "gitlab-kubernetes-agent-token",
            "gitlab-oauth-app-secret",
            "gitlab-runner-authentication-token",
            "gitlab-runner-authentication-token-routable",
            "gitlab-cicd-job-token",
            "gitlab-session-cookie",
        ),
    ),
    Rule(
        "npm_token",
        rf"\bnpm_[{ALNUM}]{{36}}{_end(ALNUM)}",
        "an npm access token",
        "NPM_TOKEN",
        ("npm-access-token",),
    ),
    Rule(
        "pypi_token",
        rf"\bpypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[{WORD_DASH}]{{50,1000}}",
        "a PyPI upload token",
        "PYPI_TOKEN",
        ("pypi-upload-token",),
    ),
    Rule(
        "rubygems_key",
        rf"\brubygems_[a-f0-9]{{48}}{_end(ALNUM)}",
        "a RubyGems API key",
        "GEM_HOST_API_KEY",
        ("rubygems-api-token",),
    ),
    # ---- AI providers
    Rule(
        "anthropic_key",
        rf"\bsk-ant-[a-z]+[0-9]*-[{WORD_DASH}]{{80,}}AA{_end(WORD_DASH)}",
        "an Anthropic API key",
        "ANTHROPIC_API_KEY",
        ("anthropic-api-key", "anthropic-admin-api-key"),
    ),
    Rule(
        "openai_key",
        rf"\bsk-(?:proj-|svcacct-|admin-)?[{WORD_DASH}]{{20,}}",
        "an OpenAI API key",
        "OPENAI_API_KEY",
        ("openai-api-key",),
        left=WORD_DASH,
        check=openai_ok,
    ),
    Rule(
        "huggingface_token",
        rf"\b(?:hf_|api_org_)[A-Za-z]{{34}}{_end(WORD)}",
        "a Hugging Face token",
        "HF_TOKEN",
        ("huggingface-access-token", "huggingface-organization-api-token"),
        check=mixed_case,
    ),
    Rule(
        "perplexity_key",
        rf"\bpplx-[{ALNUM}]{{48}}{_end(ALNUM)}",
        "a Perplexity API key",
        "PERPLEXITY_API_KEY",
        ("perplexity-api-key",),
    ),
    # ---- payments
    Rule(
        "stripe_key",
        rf"\b(?:[sr]k_(?:live|test|prod)_[{ALNUM}]{{10,99}}|whsec_[{ALNUM}]{{24,}}){_end(ALNUM)}",
        "a Stripe secret key",
        "STRIPE_SECRET_KEY",
        ("stripe-access-token",),
    ),
    Rule(
        "square_token",
        rf"\b(?:EAAA|sq0atp-|sq0csp-)[{WORD_DASH}]{{22,60}}{_end(WORD_DASH)}",
        "a Square token",
        "SQUARE_ACCESS_TOKEN",
        ("square-access-token", "square-secret"),
    ),
    Rule(
        "shopify_token",
        rf"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{{32}}{_end(ALNUM)}",
        "a Shopify token",
        "SHOPIFY_ACCESS_TOKEN",
        (
            "shopify-access-token",
            "shopify-custom-access-token",
            "shopify-private-app-access-token",
            "shopify-shared-secret",
        ),
    ),
    Rule(
        "shippo_key",
        rf"\bshippo_(?:live|test)_[a-fA-F0-9]{{40}}{_end(ALNUM)}",
        "a Shippo API token",
        "SHIPPO_API_TOKEN",
        ("shippo-api-token",),
    ),
    Rule(
        "easypost_key",
        rf"\bEZ[AT]K[{ALNUM}]{{54}}{_end(ALNUM)}",
        "an EasyPost API key",
        "EASYPOST_API_KEY",
        ("easypost-api-token", "easypost-test-api-token"),
        left=_B64,
    ),
    # ---- clouds
    Rule(
        "aws_access_key",
        rf"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{{16}}{_end(ALNUM)}",
        "an AWS access key id",
        "AWS_ACCESS_KEY_ID",
        ("aws-access-token",),
        min_entropy=2.6,
    ),
    Rule(
        "aws_bedrock_key",
        rf"\bABSK[{_B64}]{{109,269}}={{0,2}}{_end(_B64 + '=')}"
        rf"|\bbedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[{_B64}=%._-]*",
        "an Amazon Bedrock API key",
        "AWS_BEARER_TOKEN_BEDROCK",
        ("aws-amazon-bedrock-api-key-long-lived", "aws-amazon-bedrock-api-key-short-lived"),
    ),
    Rule(
        "aws_secret_key",
        r"(?i:aws_?secret_?access_?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
        rf"(?P<v>[A-Za-z0-9/+]{{40}}){_end(_B64 + '=')}",
        "an AWS secret access key",
        "AWS_SECRET_ACCESS_KEY",
    ),
    Rule(
        "google_api_key",
        rf"\bAIza[{WORD_DASH}]{{35}}{_end(WORD_DASH)}",
        "a Google API key",
        "GOOGLE_API_KEY",
        ("gcp-api-key",),
        min_entropy=3.5,
    ),
    Rule(
        "azure_secret",
        r"[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?P<e>[\\'\"`\s<),&]|$)",
        "an Azure AD client secret",
        "AZURE_CLIENT_SECRET",
        ("azure-ad-client-secret",),
        left="^\\\\'\"`\\s>=:(,)",  # a negated class: only these may come before
        back=("A-Za-z0-9_~.", 3),
    ),
    Rule(
        "digitalocean_token",
        rf"\bdo[opr]_v1_[a-f0-9]{{64}}{_end(ALNUM)}",
        "a DigitalOcean token",
        "DIGITALOCEAN_TOKEN",
        ("digitalocean-pat", "digitalocean-access-token", "digitalocean-refresh-token"),
    ),
    Rule(
        "heroku_key",
        rf"\bHRKU-AA[{WORD_DASH}]{{58}}{_end(WORD_DASH)}|" + _named("heroku", _UUID, ALNUM + "\\-"),
        "a Heroku API key",
        "HEROKU_API_KEY",
        ("heroku-api-key", "heroku-api-key-v2"),
    ),
    Rule(
        "databricks_token",
        rf"\bdapi[a-f0-9]{{32}}(?:-[0-9])?{_end(ALNUM + DASH)}",
        "a Databricks token",
        "DATABRICKS_TOKEN",
        ("databricks-api-token",),
    ),
    Rule(
        "flyio_token",
        rf"\b(?:fo1_[{WORD_DASH}]{{43}}|fm[12][ar]?_[{_B64}]{{100,}}={{0,3}})"
        rf"{_end(WORD_DASH + '+/=')}",
        "a Fly.io token",
        "FLY_API_TOKEN",
        ("flyio-access-token",),
    ),
    Rule(
        "planetscale_token",
        rf"\bpscale_(?:tkn|oauth|pw)_[{WORD}=.-]{{32,64}}{_end(WORD + '=.' + DASH)}",
        "a PlanetScale token",
        "PLANETSCALE_TOKEN",
        ("planetscale-api-token", "planetscale-oauth-token", "planetscale-password"),
    ),
    Rule(
        "doppler_token",
        rf"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[{ALNUM}]{{40,44}}{_end(ALNUM)}",
        "a Doppler token",
        "DOPPLER_TOKEN",
        ("doppler-api-token",),
    ),
    Rule(
        "vault_token",
        rf"\b(?:hvs\.[{WORD_DASH}]{{90,120}}|hvb\.[{WORD_DASH}]{{138,300}}|s\.[{ALNUM}]{{24}})"
        rf"{_end(WORD_DASH + '.')}",
        "a HashiCorp Vault token",
        "VAULT_TOKEN",
        ("vault-service-token", "vault-batch-token"),
        check=lambda text, start, end: (
            text[start : start + 2] != "s." or _legacy_vault(text[start + 2 : end])
        ),
    ),
    Rule(
        "terraform_token",
        rf"\.atlasv1\.[{WORD_DASH}=]{{60,70}}{_end(WORD_DASH + '=')}",
        "a Terraform Cloud token",
        "TF_TOKEN",
        ("hashicorp-tf-api-token",),
        left=ALNUM,
        back=(ALNUM, 14),
    ),
    Rule(
        "pulumi_token",
        rf"\bpul-[a-f0-9]{{40}}{_end(ALNUM)}",
        "a Pulumi access token",
        "PULUMI_ACCESS_TOKEN",
        ("pulumi-api-token",),
    ),
    # ---- messaging and mail
    Rule(
        "slack_token",
        # bot, user (also inside escaped URLs: ?t=xoxe-…), legacy, workspace,
        # configuration access/refresh, app-level: each with its own shape, so
        # "xoxb-your-token-here" and "xoxo" in prose never match.
        rf"\b(?:xoxe\.xox[bp]-[0-9]-[{ALNUM}]{{163,166}}|xoxe-[0-9]-[{ALNUM}]{{146}}"
        rf"|xox[pe](?:-[0-9]{{10,13}}){{3}}-[{ALNUM}-]{{28,34}}"
        rf"|xox[bpe]-[0-9]{{8,14}}-[0-9]{{8,14}}-[{ALNUM}-]{{16,}}"
        rf"|xoxb-[0-9]{{8,14}}-[{ALNUM}]{{16,26}}"
        rf"|xox[os]-[0-9]+-[0-9]+-[0-9]+-[a-fA-F0-9]+"
        rf"|xox[ar]-(?:[0-9]-)?[{ALNUM}-]{{8,72}}"
        rf"|(?i:xapp)-[0-9]-[{ALNUM}]+-[0-9]+-[{ALNUM}]+){_end(ALNUM + DASH)}",
        "a Slack token",
        "SLACK_TOKEN",
        (
            "slack-bot-token",
            "slack-user-token",
            "slack-app-token",
            "slack-config-access-token",
            "slack-config-refresh-token",
            "slack-legacy-bot-token",
            "slack-legacy-token",
            "slack-legacy-workspace-token",
        ),
        min_entropy=2.5,
    ),
    Rule(
        "slack_webhook",
        r"(?:https?:\\?/\\?/)?hooks\.slack\.com\\?/(?:services|workflows|triggers)\\?/"
        r"[A-Za-z0-9+/\\_-]{20,}",
        "a Slack webhook URL",
        "SLACK_WEBHOOK_URL",
        ("slack-webhook-url",),
    ),
    Rule(
        "discord_token",
        _named("discord", "[a-f0-9]{64}|[0-9]{17,19}|[a-z0-9=_-]{32}", "A-Za-z0-9=_\\-"),
        "a Discord token",
        "DISCORD_TOKEN",
        ("discord-api-token", "discord-client-id", "discord-client-secret"),
        min_entropy=2.5,
    ),
    Rule(
        "telegram_bot_token",
        _named("telegr", "[0-9]{5,16}:A[A-Za-z0-9_-]{34}", WORD_DASH),
        "a Telegram bot token",
        "TELEGRAM_BOT_TOKEN",
        ("telegram-bot-api-token",),
    ),
    Rule(
        "twilio_key",
        rf"\bSK[0-9a-fA-F]{{32}}{_end(ALNUM)}",
        "a Twilio API key",
        "TWILIO_API_KEY",
        ("twilio-api-key",),
    ),
    Rule(
        "sendgrid_key",
        rf"\bSG\.[{WORD}=.-]{{66}}{_end(WORD + '=.' + DASH)}",
        "a SendGrid API key",
        "SENDGRID_API_KEY",
        ("sendgrid-api-token",),
    ),
    Rule(
        "sendinblue_key",
        rf"\bxkeysib-[a-f0-9]{{64}}-[{ALNUM}]{{16}}{_end(ALNUM)}",
        "a Brevo (Sendinblue) API key",
        "BREVO_API_KEY",
        ("sendinblue-api-token",),
    ),
    Rule(
        "mailgun_key",
        rf"\b(?:pub)?key-[a-f0-9]{{32}}{_end(ALNUM)}|"
        + _named("mailgun", "[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}", ALNUM + "\\-"),
        "a Mailgun key",
        "MAILGUN_API_KEY",
        ("mailgun-private-api-token", "mailgun-pub-key", "mailgun-signing-key"),
    ),
    Rule(
        "mailchimp_key",
        rf"-us[0-9]{{1,2}}{_end(ALNUM)}",
        "a Mailchimp API key",
        "MAILCHIMP_API_KEY",
        ("mailchimp-api-key",),
        left=ALNUM,
        back=("a-f0-9", 32),
    ),
    # ---- developer tools
    Rule(
        "linear_key",
        rf"\blin_api_[{ALNUM}]{{40}}{_end(ALNUM)}",
        "a Linear API key",
        "LINEAR_API_KEY",
        ("linear-api-key",),
    ),
    Rule(
        "postman_key",
        rf"\bPMAK-[a-fA-F0-9]{{24}}-[a-fA-F0-9]{{34}}{_end(ALNUM)}",
        "a Postman API key",
        "POSTMAN_API_KEY",
        ("postman-api-token",),
    ),
    Rule(
        "sentry_token",
        rf"\bsntrys_eyJpYXQiO[{_B64}]{{10,400}}={{0,2}}_[{_B64}]{{43}}{_end(_B64)}"
        rf"|\bsntryu_[a-f0-9]{{64}}{_end(ALNUM)}|" + _named("sentry", "[a-f0-9]{64}", ALNUM),
        "a Sentry token",
        "SENTRY_AUTH_TOKEN",
        ("sentry-access-token", "sentry-org-token", "sentry-user-token"),
        min_entropy=3.5,
    ),
    Rule(
        "new_relic_key",
        rf"\b(?:NRAK-[{ALNUM}]{{27}}|NRII-[{ALNUM}-]{{32}}|NRJS-[a-f0-9]{{19}})"
        rf"{_end(ALNUM + DASH)}|" + _named("new[_-]?relic", "[a-z0-9]{64}", ALNUM),
        "a New Relic key",
        "NEW_RELIC_API_KEY",
        (
            "new-relic-user-api-key",
            "new-relic-insert-key",
            "new-relic-browser-api-token",
            "new-relic-user-api-id",
        ),
    ),
    Rule(
        "dynatrace_token",
        rf"\bdt0c01\.[{ALNUM}]{{24}}\.[{ALNUM}]{{64}}{_end(ALNUM)}",
        "a Dynatrace token",
        "DT_API_TOKEN",
        ("dynatrace-api-token",),
    ),
    Rule(
        "prefect_key",
        rf"\bpnu_[{ALNUM}]{{36}}{_end(ALNUM)}",
        "a Prefect API key",
        "PREFECT_API_KEY",
        ("prefect-api-token",),
    ),
    Rule(
        "readme_key",
        rf"\brdme_[a-z0-9]{{70}}{_end(ALNUM)}",
        "a ReadMe API key",
        "README_API_KEY",
        ("readme-api-token",),
    ),
    Rule(
        "notion_token",
        rf"\bntn_[0-9]{{11}}[{ALNUM}]{{35}}{_end(ALNUM)}",
        "a Notion token",
        "NOTION_TOKEN",
        ("notion-api-token",),
    ),
    Rule(
        "age_secret_key",
        r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        "an age secret key",
        "AGE_SECRET_KEY",
        # gitleaks' age-secret-key is left out of the yardstick: its only sample is
        # "AGE-SECRET-KEY-1" + 58 × "Q", a placeholder by our rule (see docs/policies.md).
        (),
        prefix=len("AGE-SECRET-KEY-"),
    ),
    # ---- generic shapes (after every specific one)
    Rule(
        "bearer_token",
        r"(?i:\bbearer\s+)(?P<v>[A-Za-z0-9._~+/-]{20,}=*)",
        "a bearer token",
        "TOKEN",
        check=password_ok,
        min_entropy=0,
        placeholder=False,
    ),
    Rule(
        "url_password",
        # (the user name may be empty: redis://:password@host, Redis's own form
        # for a password with no ACL user)
        r"://[^/\s:@\"'<>]*:(?P<v>[^/\s@\"'<>]{3,})@",
        "a password in a URL",
        "PASSWORD",
        check=url_password_ok,
        min_entropy=0,
        placeholder=False,
    ),
)

# What the scanner's table reads off a row's pattern (pii_patterns.derive).
Derived = tuple[
    str | None, tuple[bytes, ...] | None, tuple[bytes, ...] | None, frozenset[int] | None, bool
]

# ---- derived: written by scripts/pii_derived.py
# (each row's pattern: its head, literal openings, lower-cased openings, first
# bytes, and whether it counts word runs only: see pii_patterns.derive)
DERIVED: dict[str, Derived] = {
    "-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----": (
        "\\-\\-\\-\\-\\-BEGIN",
        (b"-----BEGIN",),
        None,
        frozenset({45}),
        False,
    ),
    "\\bops_eyJ[A-Za-z0-9+/]{250,}={0,3}|\\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}(?P<e>[^A-Za-z0-9]|$)": (  # noqa: E501
        "\\b(?:ops_eyJ|A3\\-)",
        (b"ops_eyJ", b"A3-"),
        None,
        frozenset({65, 111}),
        False,
    ),
    "\\b(?:eyJrIjoi[A-Za-z0-9]{70,400}={0,3}|glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?P<e>[^A-Za-z0-9+/=_]|$)": (  # noqa: E501
        "\\b(?:eyJrIjoi|glc_|glsa_)",
        (b"eyJrIjoi", b"glc_", b"glsa_"),
        None,
        frozenset({101, 103}),
        False,
    ),
    "\\bey[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_/\\\\-]{8,}\\.[A-Za-z0-9_/\\\\-]*={0,2}(?:\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)?": (  # noqa: E501
        "\\bey",
        (b"ey",),
        None,
        frozenset({101}),
        False,
    ),
    "\\bZXlK[A-Za-z0-9+/_-]{40,}={0,2}": ("\\bZXlK", (b"ZXlK",), None, frozenset({90}), False),
    "\\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{40,255})(?P<e>[^A-Za-z0-9_]|$)": (
        "\\bg(?:h[pousr]_|ithub_pat_)",
        (b"gh", b"github_pat_"),
        None,
        frozenset({103}),
        True,
    ),
    "\\b(?:gl(?:pat|ptt|dt|ft|soat|ffct|imt|agent|oas|rt|cbt)-[A-Za-z0-9_\\-]{20,300}(?:\\.[0-9a-z]{9})?|GR1348941[A-Za-z0-9_\\-]{20})(?P<e>[^A-Za-z0-9_\\-.]|$)|_gitlab_session=(?P<v>[0-9a-z]{32})(?P<e>[^A-Za-z0-9]|$)": (  # noqa: E501
        "(?:\\b(?:gl(?:pat|ptt|dt|ft|soat|ffct|imt|agent|oas|rt|cbt)\\-|GR1348941)|_gitlab_session\\=)",  # noqa: E501
        (
            b"glpat",
            b"glptt",
            b"gldt",
            b"glft",
            b"glsoat",
            b"glffct",
            b"glimt",
            b"glagent",
            b"gloas",
            b"glrt",
            b"glcbt",
            b"GR1348941",
            b"_gitlab_session=",
        ),
        None,
        frozenset({95, 71, 103}),
        False,
    ),
    "\\bnpm_[A-Za-z0-9]{36}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bnpm_",
        (b"npm_",),
        None,
        frozenset({110}),
        True,
    ),
    "\\bpypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_\\-]{50,1000}": (
        "\\bpypi\\-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)",
        (b"pypi-AgEIcHlwaS5vcmc", b"pypi-AgENdGVzdC5weXBpLm9yZw"),
        None,
        frozenset({112}),
        False,
    ),
    "\\brubygems_[a-f0-9]{48}(?P<e>[^A-Za-z0-9]|$)": (
        "\\brubygems_",
        (b"rubygems_",),
        None,
        frozenset({114}),
        True,
    ),
    "\\bsk-ant-[a-z]+[0-9]*-[A-Za-z0-9_\\-]{80,}AA(?P<e>[^A-Za-z0-9_\\-]|$)": (
        "\\bsk\\-ant\\-(?:[a-z]){1,}(?:[0-9]){0,}\\-",
        (b"sk-ant-",),
        None,
        frozenset({115}),
        False,
    ),
    "\\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\\-]{20,}": (
        "\\bsk\\-(?:(?:proj\\-|svcacct\\-|admin\\-)){0,1}",
        (b"sk-",),
        None,
        frozenset({115}),
        False,
    ),
    "\\b(?:hf_|api_org_)[A-Za-z]{34}(?P<e>[^A-Za-z0-9_]|$)": (
        "\\b(?:hf_|api_org_)",
        (b"hf_", b"api_org_"),
        None,
        frozenset({104, 97}),
        True,
    ),
    "\\bpplx-[A-Za-z0-9]{48}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bpplx\\-",
        (b"pplx-",),
        None,
        frozenset({112}),
        True,
    ),
    "\\b(?:[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,99}|whsec_[A-Za-z0-9]{24,})(?P<e>[^A-Za-z0-9]|$)": (  # noqa: E501
        "\\b(?:[sr]k_(?:live|test|prod)_|whsec_)",
        None,
        None,
        frozenset({114, 115, 119}),
        True,
    ),
    "\\b(?:EAAA|sq0atp-|sq0csp-)[A-Za-z0-9_\\-]{22,60}(?P<e>[^A-Za-z0-9_\\-]|$)": (
        "\\b(?:EAAA|sq0atp\\-|sq0csp\\-)",
        (b"EAAA", b"sq0atp-", b"sq0csp-"),
        None,
        frozenset({115, 69}),
        False,
    ),
    "\\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bshp(?:at|ca|pa|ss)_",
        (b"shpat", b"shpca", b"shppa", b"shpss"),
        None,
        frozenset({115}),
        True,
    ),
    "\\bshippo_(?:live|test)_[a-fA-F0-9]{40}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bshippo_(?:live|test)_",
        (b"shippo_live", b"shippo_test"),
        None,
        frozenset({115}),
        True,
    ),
    "\\bEZ[AT]K[A-Za-z0-9]{54}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bEZ[AT]K",
        (b"EZ",),
        None,
        frozenset({69}),
        True,
    ),
    "\\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bA(?:3T[A-Z0-9]|KIA|SIA|BIA|CCA)",
        (b"A3T", b"AKIA", b"ASIA", b"ABIA", b"ACCA"),
        None,
        frozenset({65}),
        True,
    ),
    "\\bABSK[A-Za-z0-9+/]{109,269}={0,2}(?P<e>[^A-Za-z0-9+/=]|$)|\\bbedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%._-]*": (  # noqa: E501
        "\\b(?:ABSK|bedrock\\-api\\-key\\-YmVkcm9jay5hbWF6b25hd3MuY29t(?:[A-Za-z0-9\\+\\/\\=\\%\\._\\-]){0,})",  # noqa: E501
        (b"ABSK", b"bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"),
        None,
        frozenset({65, 98}),
        False,
    ),
    "(?i:aws_?secret_?access_?key|secret_?access_?key)[\\\"']?\\s*[:=]\\s*[\\\"']?(?P<v>[A-Za-z0-9/+]{40})(?P<e>[^A-Za-z0-9+/=]|$)": (  # noqa: E501
        "(?i:(?:aws(?:_){0,1}secret(?:_){0,1}access(?:_){0,1}key|secret(?:_){0,1}access(?:_){0,1}key))(?:[\\\"\\']){0,1}(?:[\\s]){0,}[\\:\\=](?:[\\s]){0,}(?:[\\\"\\']){0,1}",  # noqa: E501
        None,
        (b"aws", b"secret"),
        frozenset({65, 97, 83, 115}),
        False,
    ),
    "\\bAIza[A-Za-z0-9_\\-]{35}(?P<e>[^A-Za-z0-9_\\-]|$)": (
        "\\bAIza",
        (b"AIza",),
        None,
        frozenset({65}),
        False,
    ),
    "[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?P<e>[\\\\'\\\"`\\s<),&]|$)": (
        "[0-9]Q\\~",
        None,
        None,
        frozenset({48, 49, 50, 51, 52, 53, 54, 55, 56, 57}),
        False,
    ),
    "\\bdo[opr]_v1_[a-f0-9]{64}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bdo[opr]_v1_",
        (b"do",),
        None,
        frozenset({100}),
        True,
    ),
    "\\bHRKU-AA[A-Za-z0-9_\\-]{58}(?P<e>[^A-Za-z0-9_\\-]|$)|(?i:heroku)[ \\tA-Za-z0-9_.-]{0,20}[\\s'\\\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|\\.=|,)[\\s'\\\"`=]{0,5}(?P<v>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?P<e>[^A-Za-z0-9\\-]|$)": (  # noqa: E501
        "(?:\\bHRKU\\-AA|(?i:heroku))",
        None,
        (b"hrku-aa", b"heroku"),
        frozenset({72, 104}),
        False,
    ),
    "\\bdapi[a-f0-9]{32}(?:-[0-9])?(?P<e>[^A-Za-z0-9\\-]|$)": (
        "\\bdapi",
        (b"dapi",),
        None,
        frozenset({100}),
        True,
    ),
    "\\b(?:fo1_[A-Za-z0-9_\\-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})(?P<e>[^A-Za-z0-9_\\-+/=]|$)": (  # noqa: E501
        "\\bf(?:o1_|m[12](?:[ar]){0,1}_)",
        (b"fo1_", b"fm"),
        None,
        frozenset({102}),
        False,
    ),
    "\\bpscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}(?P<e>[^A-Za-z0-9_=.\\-]|$)": (
        "\\bpscale_(?:tkn|oauth|pw)_",
        (b"pscale_tkn", b"pscale_oauth", b"pscale_pw"),
        None,
        frozenset({112}),
        False,
    ),
    "\\bdp\\.(?:pt|st|sa|ct|scim|audit)\\.[A-Za-z0-9]{40,44}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bdp\\.(?:pt|st|sa|ct|scim|audit)\\.",
        (b"dp.pt", b"dp.st", b"dp.sa", b"dp.ct", b"dp.scim", b"dp.audit"),
        None,
        frozenset({100}),
        True,
    ),
    "\\b(?:hvs\\.[A-Za-z0-9_\\-]{90,120}|hvb\\.[A-Za-z0-9_\\-]{138,300}|s\\.[A-Za-z0-9]{24})(?P<e>[^A-Za-z0-9_\\-.]|$)": (  # noqa: E501
        "\\b(?:hvs\\.|hvb\\.|s\\.)",
        (b"hvs.", b"hvb.", b"s."),
        None,
        frozenset({104, 115}),
        False,
    ),
    "\\.atlasv1\\.[A-Za-z0-9_\\-=]{60,70}(?P<e>[^A-Za-z0-9_\\-=]|$)": (
        "\\.atlasv1\\.",
        (b".atlasv1.",),
        None,
        frozenset({46}),
        False,
    ),
    "\\bpul-[a-f0-9]{40}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bpul\\-",
        (b"pul-",),
        None,
        frozenset({112}),
        True,
    ),
    "\\b(?:xoxe\\.xox[bp]-[0-9]-[A-Za-z0-9]{163,166}|xoxe-[0-9]-[A-Za-z0-9]{146}|xox[pe](?:-[0-9]{10,13}){3}-[A-Za-z0-9-]{28,34}|xox[bpe]-[0-9]{8,14}-[0-9]{8,14}-[A-Za-z0-9-]{16,}|xoxb-[0-9]{8,14}-[A-Za-z0-9]{16,26}|xox[os]-[0-9]+-[0-9]+-[0-9]+-[a-fA-F0-9]+|xox[ar]-(?:[0-9]-)?[A-Za-z0-9-]{8,72}|(?i:xapp)-[0-9]-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+)(?P<e>[^A-Za-z0-9\\-]|$)": (  # noqa: E501
        "\\b(?:xoxe\\.xox[bp]\\-[0-9]\\-|xoxe\\-[0-9]\\-|xox[pe]|xox[bpe]\\-|xoxb\\-|xox[os]\\-(?:[0-9]){1,}\\-(?:[0-9]){1,}\\-(?:[0-9]){1,}\\-(?:[a-fA-F0-9]){1,}|xox[ar]\\-(?:[0-9]\\-){0,1}|(?i:xapp)\\-[0-9]\\-(?:[A-Za-z0-9]){1,}\\-(?:[0-9]){1,}\\-(?:[A-Za-z0-9]){1,})",  # noqa: E501
        None,
        (b"xoxe.xox", b"xoxe-", b"xox", b"xox", b"xoxb-", b"xox", b"xox", b"xapp"),
        frozenset({120, 88}),
        False,
    ),
    "(?:https?:\\\\?/\\\\?/)?hooks\\.slack\\.com\\\\?/(?:services|workflows|triggers)\\\\?/[A-Za-z0-9+/\\\\_-]{20,}": (  # noqa: E501
        "(?:http(?:s){0,1}\\:(?:\\\\){0,1}\\/(?:\\\\){0,1}\\/){0,1}hooks\\.slack\\.com(?:\\\\){0,1}\\/(?:services|workflows|triggers)(?:\\\\){0,1}\\/",  # noqa: E501
        None,
        None,
        frozenset({104}),
        False,
    ),
    "(?i:discord)[ \\tA-Za-z0-9_.-]{0,20}[\\s'\\\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|\\.=|,)[\\s'\\\"`=]{0,5}(?P<v>[a-f0-9]{64}|[0-9]{17,19}|[a-z0-9=_-]{32})(?P<e>[^A-Za-z0-9=_\\-]|$)": (  # noqa: E501
        "(?i:discord)",
        None,
        (b"discord",),
        frozenset({100, 68}),
        False,
    ),
    "(?i:telegr)[ \\tA-Za-z0-9_.-]{0,20}[\\s'\\\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|\\.=|,)[\\s'\\\"`=]{0,5}(?P<v>[0-9]{5,16}:A[A-Za-z0-9_-]{34})(?P<e>[^A-Za-z0-9_\\-]|$)": (  # noqa: E501
        "(?i:telegr)",
        None,
        (b"telegr",),
        frozenset({116, 84}),
        False,
    ),
    "\\bSK[0-9a-fA-F]{32}(?P<e>[^A-Za-z0-9]|$)": ("\\bSK", (b"SK",), None, frozenset({83}), True),
    "\\bSG\\.[A-Za-z0-9_=.-]{66}(?P<e>[^A-Za-z0-9_=.\\-]|$)": (
        "\\bSG\\.",
        (b"SG.",),
        None,
        frozenset({83}),
        False,
    ),
    "\\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bxkeysib\\-",
        (b"xkeysib-",),
        None,
        frozenset({120}),
        True,
    ),
    "\\b(?:pub)?key-[a-f0-9]{32}(?P<e>[^A-Za-z0-9]|$)|(?i:mailgun)[ \\tA-Za-z0-9_.-]{0,20}[\\s'\\\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|\\.=|,)[\\s'\\\"`=]{0,5}(?P<v>[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8})(?P<e>[^A-Za-z0-9\\-]|$)": (  # noqa: E501
        "(?:\\b(?:pub){0,1}key\\-|(?i:mailgun))",
        None,
        None,
        frozenset({112, 107, 77, 109}),
        False,
    ),
    "-us[0-9]{1,2}(?P<e>[^A-Za-z0-9]|$)": (
        "\\-us(?:[0-9]){1,2}(?:(?:[^A-Za-z0-9]|$))",
        (b"-us",),
        None,
        frozenset({45}),
        False,
    ),
    "\\blin_api_[A-Za-z0-9]{40}(?P<e>[^A-Za-z0-9]|$)": (
        "\\blin_api_",
        (b"lin_api_",),
        None,
        frozenset({108}),
        True,
    ),
    "\\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bPMAK\\-",
        (b"PMAK-",),
        None,
        frozenset({80}),
        True,
    ),
    "\\bsntrys_eyJpYXQiO[A-Za-z0-9+/]{10,400}={0,2}_[A-Za-z0-9+/]{43}(?P<e>[^A-Za-z0-9+/]|$)|\\bsntryu_[a-f0-9]{64}(?P<e>[^A-Za-z0-9]|$)|(?i:sentry)[ \\tA-Za-z0-9_.-]{0,20}[\\s'\\\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|\\.=|,)[\\s'\\\"`=]{0,5}(?P<v>[a-f0-9]{64})(?P<e>[^A-Za-z0-9]|$)": (  # noqa: E501
        "(?:\\bsntrys_eyJpYXQiO|\\bsntryu_|(?i:sentry))",
        None,
        (b"sntrys_eyjpyxqio", b"sntryu_", b"sentry"),
        frozenset({83, 115}),
        False,
    ),
    "\\b(?:NRAK-[A-Za-z0-9]{27}|NRII-[A-Za-z0-9-]{32}|NRJS-[a-f0-9]{19})(?P<e>[^A-Za-z0-9\\-]|$)|(?i:new[_-]?relic)[ \\tA-Za-z0-9_.-]{0,20}[\\s'\\\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|\\.=|,)[\\s'\\\"`=]{0,5}(?P<v>[a-z0-9]{64})(?P<e>[^A-Za-z0-9]|$)": (  # noqa: E501
        "(?:\\bNR(?:AK\\-|II\\-|JS\\-)|(?i:new(?:[_\\-]){0,1}relic))",
        None,
        (b"nrak-", b"nrii-", b"nrjs-", b"new"),
        frozenset({110, 78}),
        False,
    ),
    "\\bdt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bdt0c01\\.",
        (b"dt0c01.",),
        None,
        frozenset({100}),
        True,
    ),
    "\\bpnu_[A-Za-z0-9]{36}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bpnu_",
        (b"pnu_",),
        None,
        frozenset({112}),
        True,
    ),
    "\\brdme_[a-z0-9]{70}(?P<e>[^A-Za-z0-9]|$)": (
        "\\brdme_",
        (b"rdme_",),
        None,
        frozenset({114}),
        True,
    ),
    "\\bntn_[0-9]{11}[A-Za-z0-9]{35}(?P<e>[^A-Za-z0-9]|$)": (
        "\\bntn_",
        (b"ntn_",),
        None,
        frozenset({110}),
        True,
    ),
    "\\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}": (
        "\\bAGE\\-SECRET\\-KEY\\-1",
        (b"AGE-SECRET-KEY-1",),
        None,
        frozenset({65}),
        True,
    ),
    "(?i:\\bbearer\\s+)(?P<v>[A-Za-z0-9._~+/-]{20,}=*)": (
        "(?i:\\bbearer(?:[\\s]){1,})",
        None,
        (b"bearer",),
        frozenset({98, 66}),
        False,
    ),
    "://[^/\\s:@\\\"'<>]*:(?P<v>[^/\\s@\\\"'<>]{3,})@": (
        "\\:\\/\\/(?:[^\\/\\s\\:\\@\\\"\\'\\<\\>]){0,}\\:",
        (b"://",),
        None,
        frozenset({58}),
        False,
    ),
}
