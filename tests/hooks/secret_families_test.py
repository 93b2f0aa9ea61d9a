"""Every credential family of the scrubber, on labelled samples of our own.

For each family: real-shaped secrets in the places tool output shows them (an
env dump, a JSON config, a log line, a curl command, an escaped URL) that must
be redacted with the family's marker, and look-alikes that must survive — the
placeholders people write in docs (``xxxx``, ``your-token-here``), the wrong
length, the prefix inside a longer word, a neighbouring format. Precision and
recall per family are printed by ``scripts/secret_yardstick.py``; here every
sample must come out right.

Fake secrets are assembled from a seeded generator (``rand``), never written
out whole, so no live-looking token sits in the repository.
"""

from __future__ import annotations

import base64
import json
import random
import string

import pytest

from hookrun.hooks.pii_patterns import KINDS, redact, scanner

ALNUM = string.ascii_letters + string.digits
LOWER = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
UPPER = string.ascii_uppercase + string.digits


def rand(n: int, seed: str, alphabet: str = ALNUM) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64url(obj: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


JWT = (
    b64url({"alg": "RS256", "kid": "k1"})
    + "."
    + b64url({"sub": "u-42", "exp": 1})
    + "."
    + rand(43, "sig")
)
PEM_BODY = "\n".join(rand(64, f"pem{i}", ALNUM + "+/") for i in range(4))
ANTHROPIC = "sk-ant-" + "api03-" + rand(93, "ant", ALNUM + "-_") + "AA"

# kind → (secrets that must be redacted, look-alikes that must survive)
FAMILIES: dict[str, tuple[list[str], list[str]]] = {
    "private_key": (
        [
            "-----BEGIN " + "RSA PRIVATE KEY-----\n" + PEM_BODY + "\n-----END RSA PRIVATE KEY-----",
            "$ cat id_ed25519\n-----BEGIN " + "OPENSSH PRIVATE KEY-----\n" + PEM_BODY + "\n-----END"
            " OPENSSH PRIVATE KEY-----\n$ ",
            "key = '''-----BEGIN " + "PRIVATE KEY-----\n" + PEM_BODY[:100],  # cut off
        ],
        [
            "-----BEGIN " + "RSA PRIVATE KEY-----",  # a mention, no body
            "grep -r 'BEGIN RSA PRIVATE KEY' .",
            "-----BEGIN PUBLIC KEY-----\n" + PEM_BODY + "\n-----END PUBLIC KEY-----",
            "-----BEGIN CERTIFICATE-----\n" + PEM_BODY + "\n-----END CERTIFICATE-----",
            "-----BEGIN " + "PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
        ],
    ),
    "jwt": (
        [
            f"Authorization: Bearer {JWT}",
            f"id_token={JWT}&state=x",
            base64.b64encode(JWT.encode()).decode(),  # a JWT base64'd again (k8s secret)
        ],
        [
            "eyJhbGciOi.notajwt.x",
            "version: eyes.only.here",
            "ZXlKbm90IGEgand0IGF0IGFsbCwganVzdCB0ZXh0IHRoYXQgc3RhcnRzIHdpdGggZXlK",
        ],
    ),
    "github_token": (
        [
            "GITHUB_TOKEN=ghp_" + rand(36, "gh1"),
            '{"token": "gho_' + rand(36, "gh2") + '"}',
            "github_pat_" + rand(22, "gh3") + "_" + rand(59, "gh4"),
            "https://x-access-token:ghs_" + rand(36, "gh5") + "@github.com/o/r.git",
        ],
        [
            "ghp_" + "x" * 36,
            "GITHUB_TOKEN=ghp_your_token_here",
            "ghp_" + rand(12, "short"),
            "nghp_" + rand(36, "gh6") + "x",
        ],
    ),
    "gitlab_token": (
        [
            "CI_JOB_TOKEN: glcbt-" + rand(5, "gl0", LOWER) + "_" + rand(20, "gl1"),
            "export GITLAB_TOKEN=glpat-" + rand(20, "gl2"),
            "glrt-t1_" + rand(27, "gl3") + "." + rand(9, "gl4", LOWER),
            "deploy token gldt-" + rand(20, "gl5"),
            "Cookie: _gitlab_session=" + rand(32, "gl6", LOWER),
        ],
        [
            "glpat-XXXXXXXXXXX-XXXXXXXX",
            "glpat-" + rand(8, "gl7"),
            "see the glpat- prefix in the docs",
            "GR1348941" + "0" * 20,
        ],
    ),
    "npm_token": (
        [
            "//registry.npmjs.org/:_authToken=npm_" + rand(36, "npm1"),
            "NPM_TOKEN=npm_" + rand(36, "npm2"),
        ],
        ["npm_" + rand(20, "npm3"), "npm_config_cache=/tmp/.npm", "npm_" + "x" * 36],
    ),
    "pypi_token": (
        ["password = pypi-AgEIcHlwaS5vcmc" + rand(70, "pypi1", ALNUM + "-_")],
        ["pypi-AgEIcHlwaS5vcmc" + rand(10, "pypi2"), "pip install pypi-simple"],
    ),
    "rubygems_key": (
        ["GEM_HOST_API_KEY: rubygems_" + rand(48, "rg1", HEX)],
        ["rubygems_" + rand(20, "rg2", HEX), "rubygems_org_mirror"],
    ),
    "anthropic_key": (
        [f"ANTHROPIC_API_KEY={ANTHROPIC}", f"x-api-key: {ANTHROPIC}"],
        [
            "sk-ant-api03-...",
            "sk-ant-" + "api03-" + rand(30, "ant2") + "AA",
            "sk-ant-your-key-here",
        ],
    ),
    "openai_key": (
        [
            "OPENAI_API_KEY=sk-proj-" + rand(74, "oa1") + "T3BlbkFJ" + rand(74, "oa2"),
            "openai.api_key = 'sk-" + rand(48, "oa3") + "'",
        ],
        ["sk-learn-docs-for-more-information", "sk-" + "x" * 48, "task-" + rand(40, "oa4")],
    ),
    "huggingface_token": (
        [
            "HF_TOKEN=hf_" + rand(34, "hf1", string.ascii_letters),
            "api_org_" + rand(34, "hf2", string.ascii_letters),
        ],
        [
            "hf_" + "x" * 34,
            "&hf_servingcellpriorityparametersdescription_h_prio",
            "rhf_SponsoredProductsRemoteRHFSearch",
        ],
    ),
    "perplexity_key": (
        ["PPLX_API_KEY=pplx-" + rand(48, "pp1")],
        ["pplx-" + "x" * 48, "pplx-" + rand(20, "pp2")],
    ),
    "stripe_key": (
        [
            "Stripe.api_key = 'sk_" + "live_" + rand(24, "st1") + "'",
            "rk_" + "prod_" + rand(99, "st2"),
            "sk_" + "test_" + rand(40, "st3"),
            "STRIPE_WEBHOOK_SECRET=whsec_" + rand(32, "st4"),
        ],
        ["pk_" + "live_" + rand(24, "st5"), "sk_test_abc", "task_test_" + rand(30, "st6")],
    ),
    "square_token": (
        [
            "SQUARE_TOKEN=EAAA" + rand(60, "sq1", ALNUM + "-_"),
            "sq0csp-" + rand(43, "sq2", ALNUM + "-_"),
        ],
        ["aws-cli@sha256:eaaa7b11777babe28e6133a8b19ff71c", "EAAA" + rand(10, "sq3")],
    ),
    "shopify_token": (
        ["X-Shopify-Access-Token: shpat_" + rand(32, "sh1", HEX), "shpss_" + rand(32, "sh2", HEX)],
        ["shpat_" + "x" * 32, "shpat_" + rand(16, "sh3", HEX)],
    ),
    "shippo_key": (
        ["Authorization: ShippoToken shippo_" + "live_" + rand(40, "sp1", HEX)],
        [
            "shippo_live_" + rand(20, "sp2", HEX),
            "shippo_test_0000000000000000000000000000000000000000",
        ],
    ),
    "easypost_key": (
        ["EASYPOST_API_KEY=EZAK" + rand(54, "ep1"), "EZTK" + rand(54, "ep2")],
        ["EZAK" + rand(20, "ep3"), "+EZAK" + rand(54, "ep4")],
    ),
    "aws_access_key": (
        [
            "aws_access_key_id = AKIA" + rand(16, "aws1", UPPER),
            '"AccessKeyId": "ASIA' + rand(16, "aws2", UPPER) + '"',
        ],
        [
            "AKIAIOSFODNN7EXAMPLE",
            "AKIA" + "X" * 16,
            "TODAYINASIAASACKOFRICEFELLOVER",
            "AKIA" + rand(10, "aws3", UPPER),
        ],
    ),
    "aws_bedrock_key": (
        [
            "AWS_BEARER_TOKEN_BEDROCK=ABSK" + rand(132, "br1", ALNUM + "+/") + "=",
            "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t" + rand(200, "br2", ALNUM + "+/"),
        ],
        [
            "ABSK" + rand(20, "br3"),
            "bedrock-api-key-",
            "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29x",
        ],
    ),
    "aws_secret_key": (
        [
            "aws_secret_access_key = " + rand(40, "awss1", ALNUM + "/+"),
            '"SecretAccessKey": "' + rand(40, "awss2", ALNUM + "/+") + '"',
        ],
        [
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "set aws_secret_access_key in ~/.aws",
        ],
    ),
    "google_api_key": (
        [
            "?key=AIza" + "Sy" + rand(33, "gg1", ALNUM + "-_") + "&q=1",
            'apiKey: "AIza' + rand(35, "gg2") + '"',
        ],
        ['apiKey: "AIza' + "a" * 35 + '"', "AIzaSomething", "AIZASY" + rand(33, "gg3", UPPER)],
    ),
    "azure_secret": (
        [
            "client_secret=" + rand(3, "az1") + "8Q~" + rand(34, "az2", ALNUM + "_~.-"),
            '"CLIENT_SECRET": "' + rand(3, "az3") + "7Q~" + rand(31, "az4") + '"',
        ],
        ["~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~", "client_secret=bP88Q~" + "x" * 34],
    ),
    "digitalocean_token": (
        ["DIGITALOCEAN_TOKEN=dop_v1_" + rand(64, "do1", HEX), "dor_v1_" + rand(64, "do2", HEX)],
        ["dop_v1_" + "0" * 64, "dop_v1_" + rand(30, "do3", HEX)],
    ),
    "heroku_key": (
        [
            "HEROKU_API_KEY=" + "-".join(rand(n, f"hk{n}", HEX) for n in (8, 4, 4, 4, 12)),
            "HRKU-AA" + rand(58, "hk2", ALNUM + "_-"),
        ],
        [
            "request-id: " + "-".join(rand(n, f"id{n}", HEX) for n in (8, 4, 4, 4, 12)),
            "HRKU-AA" + rand(20, "hk3"),
        ],
    ),
    "databricks_token": (
        [
            "DATABRICKS_TOKEN=dapi" + rand(32, "db1", HEX),
            "token: dapi" + rand(32, "db2", HEX) + "-2",
        ],
        ["dapi123456789012345678a9bc01234defg5", "dapi" + rand(10, "db3", HEX)],
    ),
    "flyio_token": (
        [
            "FLY_API_TOKEN=fo1_" + rand(43, "fl1", ALNUM + "_-"),
            "FlyV1 fm2_" + rand(160, "fl2", ALNUM + "+/"),
        ],
        ['api_key = "fo1_' + "x" * 43 + '"', "MINIDUMP_SYSMEMINFO1_PERF_CCTOTALDIRTYPAGES"],
    ),
    "planetscale_token": (
        [
            "PLANETSCALE_TOKEN=pscale_tkn_" + rand(43, "ps1", ALNUM + "_"),
            "pscale_pw_" + rand(43, "ps2"),
        ],
        ["pscale_tkn_" + rand(10, "ps3"), "pscale_pw_your_password_here_0000000000"],
    ),
    "doppler_token": (
        ["DOPPLER_TOKEN=dp.pt." + rand(43, "dp1"), "dp.st." + rand(43, "dp2")],
        ["dp.pt." + "x" * 43, "dp.pt.example"],
    ),
    "vault_token": (
        ["VAULT_TOKEN=hvs." + rand(95, "vt1", ALNUM + "_-"), "X-Vault-Token: s." + rand(24, "vt2")],
        ["s.AcceptanceTimeoutSeconds", "s.makeKubeConfigController = args", "hvs." + "x" * 95],
    ),
    "terraform_token": (
        ['token = "' + rand(14, "tf1") + ".atlasv1." + rand(67, "tf2", ALNUM + "_-") + '"'],
        ['token = "xxxxxxxxxxxxxx.atlasv1.' + "x" * 67 + '"', "atlasv1 is the token version"],
    ),
    "pulumi_token": (
        ["PULUMI_ACCESS_TOKEN=pul-" + rand(40, "pu1", HEX)],
        [
            '<img src="./assets/vipul-f0eb1acf0da84c06a50c5b2c59932001997786b176dec02bd161'
            '28ee9ea83628.png">',
            "pul-" + rand(12, "pu2", HEX),
        ],
    ),
    "slack_token": (
        [
            "SLACK_BOT_TOKEN=xoxb-"
            + rand(12, "sl1", string.digits)
            + "-"
            + rand(13, "sl2", string.digits)
            + "-"
            + rand(24, "sl3"),
            "xoxp-"
            + "-".join(rand(12, f"sl{i}", string.digits) for i in range(4, 7))
            + "-"
            + rand(32, "sl7", HEX),
            '"url_private": "https:\\/\\/files.slack.com\\/files-pri\\/T04-F04\\/image.png?t=xoxe-'
            + "-".join(rand(13, f"sl{i}", string.digits) for i in range(8, 11))
            + "-"
            + rand(32, "sl11", HEX)
            + '"',
            "xoxe-1-" + rand(146, "sl12"),
            "SLACK_APP_TOKEN=xapp-1-A"
            + rand(10, "sl13", UPPER)
            + "-"
            + rand(13, "sl14", string.digits)
            + "-"
            + rand(64, "sl15", HEX),
        ],
        [
            "xoxb-your-token-here",
            "xoxo, the team",
            "xoxp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d",
            "https://indieweb.org/images/3/35/2018-250-xoxo-indieweb-1.jpg",
            "xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere",
        ],
    ),
    "slack_webhook": (
        [
            "https://hooks.slack.com/services/T"
            + rand(8, "wh1", UPPER)
            + "/B"
            + rand(8, "wh2", UPPER)
            + "/"
            + rand(24, "wh3"),
            '"webhook": "https:\\/\\/hooks.slack.com\\/services\\/T'
            + rand(8, "wh4", UPPER)
            + "\\/B"
            + rand(8, "wh5", UPPER)
            + "\\/"
            + rand(24, "wh6")
            + '"',
        ],
        ["https://hooks.slack.com/", "see https://api.slack.com/messaging/webhooks"],
    ),
    "discord_token": (
        [
            'DISCORD_TOKEN = "' + rand(64, "dc1", HEX) + '"',
            "discord_client_id: " + rand(18, "dc2", string.digits),
        ],
        ["discord=000000000000000000", "discord.gg/" + rand(8, "dc3")],
    ),
    "telegram_bot_token": (
        [
            "TELEGRAM_BOT_TOKEN="
            + rand(10, "tg1", string.digits)
            + ":A"
            + rand(34, "tg2", ALNUM + "_-")
        ],
        ['telegram_api_token = "5323:A' + rand(34, "tg3") + '"', "telegram: @my_channel"],
    ),
    "twilio_key": (
        ["TWILIO_API_KEY=SK" + rand(32, "tw1", HEX)],
        ["SK" + rand(16, "tw2", HEX), "TASK" + rand(32, "tw3", HEX)],
    ),
    "sendgrid_key": (
        [
            "SENDGRID_API_KEY=SG."
            + rand(22, "sg1", ALNUM + "_-")
            + "."
            + rand(43, "sg2", ALNUM + "_-")
        ],
        ["SG." + rand(20, "sg3"), "SG.setting.enabled=true"],
    ),
    "sendinblue_key": (
        ["api-key: xkeysib-" + rand(64, "sb1", HEX) + "-" + rand(16, "sb2")],
        ["xkeysib-" + rand(20, "sb3", HEX), "xkeysib-" + "0" * 64 + "-" + "x" * 16],
    ),
    "mailgun_key": (
        [
            "MAILGUN_API_KEY=key-" + rand(32, "mg1", HEX),
            "mailgun_signing_key: "
            + rand(32, "mg2", "abcdefgh0123456789")
            + "-"
            + rand(8, "mg3", "abcdefgh0123")
            + "-"
            + rand(8, "mg4", "abcdefgh0123"),
        ],
        ["key-value store", "monkey-" + rand(32, "mg5", HEX)],
    ),
    "mailchimp_key": (
        ["MAILCHIMP_KEY=" + rand(32, "mc1", HEX) + "-us18"],
        [rand(32, "mc2", HEX) + "-usage", "us18 region"],
    ),
    "linear_key": (
        ["LINEAR_API_KEY=lin_api_" + rand(40, "ln1")],
        ["lin_api_" + "x" * 40, "lin_api_" + rand(12, "ln2")],
    ),
    "postman_key": (
        ["x-api-key: PMAK-" + rand(24, "pm1", HEX) + "-" + rand(34, "pm2", HEX)],
        ["PMAK-" + rand(10, "pm3", HEX), "PMAK-" + "0" * 24 + "-" + "0" * 34],
    ),
    "sentry_token": (
        [
            "SENTRY_AUTH_TOKEN=sntryu_" + rand(64, "se1", HEX),
            "sntrys_"
            + base64.b64encode(
                b'{"iat":1700000000.1,"url":"https://sentry.io","region_url":"https://us.sentry.io","org":"acme"}'
            ).decode()
            + "_"
            + rand(43, "se2", ALNUM + "+/"),
            'sentry_token = "' + rand(64, "se3", HEX) + '"',
        ],
        [
            "sntryu_" + "a" * 64,
            "sntrys_" + rand(90, "se4") + "_" + rand(43, "se5"),
            "sentry_dsn = https://public@sentry.io/1",
        ],
    ),
    "new_relic_key": (
        ["NEW_RELIC_API_KEY=NRAK-" + rand(27, "nr1", UPPER), "NRJS-" + rand(19, "nr2", HEX)],
        ["NRAK-" + rand(10, "nr3", UPPER), "new_relic_app_name = checkout"],
    ),
    "dynatrace_token": (
        ["DT_API_TOKEN=dt0c01." + rand(24, "dt1", UPPER) + "." + rand(64, "dt2", UPPER)],
        ["dt0c01." + rand(10, "dt3"), "dt0c01 is the token prefix"],
    ),
    "prefect_key": (
        ["PREFECT_API_KEY=pnu_" + rand(36, "pf1")],
        ['PREFECT_API_KEY = "pnu_' + "X" * 36 + '"', "pnu_" + rand(10, "pf2")],
    ),
    "readme_key": (
        ["README_API_KEY=rdme_" + rand(70, "rd1", LOWER)],
        ["const API_KEY = 'rdme_" + "X" * 70 + "';", "rdme_" + rand(20, "rd2", LOWER)],
    ),
    "notion_token": (
        ["NOTION_TOKEN=ntn_" + rand(11, "nt1", string.digits) + rand(35, "nt2")],
        ["ntn_12345678901", "ntn_12345678901abc"],
    ),
    "onepassword_token": (
        [
            "OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ" + rand(300, "op1", ALNUM + "+/"),
            "A3-"
            + rand(6, "op2", UPPER)
            + "-"
            + rand(11, "op3", UPPER)
            + "-"
            + "-".join(rand(5, f"op{i}", UPPER) for i in range(4, 7)),
        ],
        ["ops_eyJzaWduSW5B..[Redacted]", "A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX"],
    ),
    "grafana_token": (
        [
            "GRAFANA_TOKEN=glsa_" + rand(32, "gf1") + "_" + rand(8, "gf2", HEX),
            "loki_key: glc_" + rand(80, "gf3", ALNUM + "+/") + "==",
        ],
        ["glc_" + "x" * 64, "static void GLC_CreateLightmapTextureArray(void);"],
    ),
    "age_secret_key": (
        ["AGE-SECRET-KEY-1" + rand(58, "age1", "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")],
        ["AGE-SECRET-KEY-1" + "Q" * 58, "AGE-SECRET-KEY-1..."],
    ),
    "bearer_token": (
        [
            "Authorization: Bearer " + rand(40, "be1", ALNUM + "._-"),
            "curl -H 'authorization: bearer " + rand(32, "be2") + "'",
        ],
        ["Authorization: Bearer $TOKEN", "use a Bearer token for auth", "Bearer ${API_TOKEN}"],
    ),
    "url_password": (
        [
            "DATABASE_URL=postgres://app:" + rand(16, "up1") + "@db.internal:5432/app",
            "redis://default:" + rand(12, "up2") + "@cache:6379/0",
            "REDIS_URL=redis://:" + rand(20, "up3") + "@10.0.0.5:6379/0",
        ],
        [
            "postgres://app:${DB_PASSWORD}@db/app",
            "redis://:${REDIS_PASSWORD}@cache:6379/0",
            "http://[::1]:8080/x@y",
            "postgres://app:***@db/app",
            "https://user@host.example.org/path",
        ],
    ),
    "email": (
        [
            "Author: Jane Doe <jane.doe@corp-mail.io>",
            "contact: zoë@corp.io",
            "git config user.email=me.myself+ci@gmail.com",
        ],
        [
            "jane@example.com",
            "npm install lodash@4.17.21",
            "git@github.com:org/repo.git",
            "icon@2x.png",
        ],
    ),
}


def test_every_kind_has_a_labelled_family() -> None:
    assert sorted(FAMILIES) == sorted(KINDS)


def test_at_least_thirty_credential_families() -> None:
    assert len([k for k in KINDS if k not in ("email", "url_password", "bearer_token")]) >= 30


CASES_TP = [(kind, text) for kind, (tps, _) in FAMILIES.items() for text in tps]
CASES_FP = [(kind, text) for kind, (_, fps) in FAMILIES.items() for text in fps]


@pytest.mark.parametrize(
    ("kind", "text"), CASES_TP, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES_TP)]
)
def test_a_real_shaped_secret_is_redacted_with_its_familys_marker(kind: str, text: str) -> None:
    found = scanner().find(text)
    assert [f.kind for f in found] == [kind] or (
        kind == "jwt" and [f.kind for f in found][-1:] == ["jwt"]
    )
    out = redact(text, found)
    assert f"[REDACTED:{kind}]" in out


@pytest.mark.parametrize(
    ("kind", "text"), CASES_FP, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES_FP)]
)
def test_a_look_alike_survives(kind: str, text: str) -> None:
    assert scanner().find(text) == []


def test_entropy_of_nothing_is_zero_and_of_distinct_characters_is_log2() -> None:
    from hookrun.hooks.secret_rules import entropy

    assert entropy("") == 0.0
    assert entropy("abcd") == 2.0


@pytest.mark.parametrize(
    "text",
    [
        "eyJ" + "a" * 8 + "." + "b" * 8 + ".c",  # header is not base64 JSON
        "ZXlK" + "!" * 2 + rand(44, "jb"),  # not base64 at all
        "ZXlK" + base64.b64encode(b"\xff\xfe not ascii").decode() + rand(40, "jb2"),
    ],
)
def test_jwt_shapes_that_do_not_decode_survive(text: str) -> None:
    assert "jwt" not in [f.kind for f in scanner().find(text)]
