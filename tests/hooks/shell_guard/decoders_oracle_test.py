"""The filter decoders write what the real programs write — bad input included.

shell-guard reads ``… | base64 -d | sh`` through :mod:`hookrun.hooks.shell_guard.decoders`.
The oracle is the program itself: each text (hand-picked, then generated from the
alphabet plus the characters that go wrong — a "=" out of place, a blank, a "!", a
line break, a short last block) is piped through the real ``base64 -d``,
``basenc``, ``base32 -d``, ``xxd -r -p``, ``tr`` and ``rev``, and the decoder must give
its stdout exactly — or None where it does not model the call. GNU's decoders write
every whole byte before the first bad character and only then fail, so
``echo cm0gLXJmIC8 | base64 -d | sh`` (no padding) runs ``rm -rf /``: with Python's
strict decoding the line went unjudged and was allowed. Where GNU stops at a character
out of the alphabet (or, for base32, reads no short last block), the decoder gives
GNU's output and then, on a line of its own, what a decoder that skips such characters
and pads the end writes (macOS's and busybox's are not GNU's): the guard judges both.
"""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from hookrun.hooks.shell_guard import decoders
from tests.hooks.shell_guard.conftest import Judge

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _real(argv: list[str], text: str) -> str:
    ran = subprocess.run(argv, input=text.encode(), capture_output=True, timeout=30, check=False)
    return ran.stdout.decode("utf-8", "replace")


def _gnu_then_more(got: str | None, real: str) -> bool:
    """``got`` is GNU's output, or GNU's output and a line of what a lenient decoder adds."""
    return got is not None and (got == real or got.startswith(real + "\n"))


def _needs(program: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(shutil.which(program) is None, reason=f"{program} is the oracle")


def _generated(seed: int, pieces: str, count: int) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 18))) for _ in range(count)]


# base64 of "rm -rf /" is cm0gLXJmIC8=
BASE64_TEXTS = [
    "cm0gLXJmIC8=\n",
    "cm0gLXJmIC8",  # no padding: written whole, then "invalid input"
    "cm0gLXJmIC8\n",
    "cm0gLXJmIC",
    "cm0gLXJm\nIC8=",  # a line break inside: skipped
    "cm0=LXJmIC8=",  # a padded block, then more
    "cm0g!LXJmIC8=",  # stops at the "!"
    "cm0g LXJmIC8=",  # a blank is out of place too
    "cm0gLX=JmIC8=",
    "c===",
    "=cm0g",
    "",
    "//79/w==",  # bytes that are not UTF-8
    "cm0gLXJmIC8K/w==",  # rm -rf / and a line of one bad byte
]
BASE64_NOISE = B64[:8] + "cm0gLXJf+/=!\n \t-_"
BASE32_TEXTS = [
    "OJWSALLSMYQC6===\n",
    "OJWSALLSMYQC6",
    "OJWSALLSMYQC6=",  # bad padding
    "OJWSA LLSMYQC6===",
    "OJ======",
    "OJW=====",
    "oj======",  # lower case is not base32
]
BASE32_NOISE = "OJWSALMYQC26=!\n 7a"
XXD_TEXTS = [
    "726d202d7266202f",
    "726d202d7266202f0",  # an odd last digit: dropped
    "72 6d 20 2d 72 66 20 2f",
    "0x72 0x6d",
    "72:6d",
    "7g26d",
    "zz726d",
    "xx:\n726d",
    "ff",
]
XXD_NOISE = "0127adfFx g:\n\r\t"


@_needs("base64")
@pytest.mark.parametrize("text", BASE64_TEXTS + _generated(1, BASE64_NOISE, 120))
def test_base64_d_as_gnu_base64(text: str) -> None:
    real = _real(["base64", "-d"], text)
    assert decoders._gnu_decode(text, decoders._BASE64).decode("utf-8", "replace") == real
    assert _gnu_then_more(decoders.transformed("base64", ["-d"], text), real)


@_needs("base64")
@pytest.mark.parametrize("text", BASE64_TEXTS[:9] + _generated(2, BASE64_NOISE, 30))
@pytest.mark.parametrize("args", [["-di"], ["-i", "--decode"], ["--ignore-garbage", "-d"]])
def test_base64_ignoring_garbage_as_gnu_base64(text: str, args: list[str]) -> None:
    assert _gnu_then_more(
        decoders.transformed("base64", args, text), _real(["base64", *args], text)
    )


@_needs("basenc")
@pytest.mark.parametrize("text", BASE64_TEXTS + _generated(3, BASE64_NOISE, 40))
def test_basenc_base64_as_gnu_basenc(text: str) -> None:
    args = ["--base64", "-d"]
    assert _gnu_then_more(
        decoders.transformed("basenc", args, text), _real(["basenc", *args], text)
    )


@_needs("base32")
@_needs("basenc")
@pytest.mark.parametrize("text", BASE32_TEXTS + _generated(4, BASE32_NOISE, 80))
def test_base32_as_gnu_base32_and_basenc(text: str) -> None:
    real = _real(["base32", "-d"], text)
    assert decoders._gnu_decode(text, decoders._BASE32).decode("utf-8", "replace") == real
    assert _gnu_then_more(decoders.transformed("base32", ["-d"], text), real)
    args = ["--base32", "-d"]
    assert _gnu_then_more(
        decoders.transformed("basenc", args, text), _real(["basenc", *args], text)
    )


@_needs("xxd")
@pytest.mark.parametrize("text", XXD_TEXTS + _generated(5, XXD_NOISE, 150))
def test_xxd_r_p_as_xxd(text: str) -> None:
    assert decoders.transformed("xxd", ["-r", "-p"], text) == _real(["xxd", "-r", "-p"], text)


TR_CALLS = [
    (["a-z", "n-za-m"], "ez ngz"),
    (["A-Z", "a-z"], "RM -RF /"),
    (["-d", "x"], "rxm -rxf /"),
    (["-d", "a-c"], "abcdrm"),
    (["abc", "x"], "abcabc"),  # SET2 padded with its last character
    (["\\n", " "], "rm\n-rf\n/\n"),
    (["\\t\\\\", "_/"], "a\tb\\c"),
    (["a-", "xy"], "a-b"),
]


@_needs("tr")
@pytest.mark.parametrize(("args", "text"), TR_CALLS)
def test_tr_as_tr(args: list[str], text: str) -> None:
    assert decoders.transformed("tr", args, text) == _real(["tr", *args], text)


# Calls the decoder leaves unmodelled (None): the real tr fails or reads its sets
# otherwise (classes, repeats), or the call is no plain transformation.
UNMODELLED = [
    ("tr", ["[:upper:]", "[:lower:]"]),
    ("tr", ["z-a", "x"]),  # a range in reverse: tr fails
    ("tr", ["a", ""]),  # an empty SET2: tr fails
    ("tr", ["-s", "a"]),
    ("tr", ["a\u0000-\u0300", "x"]),  # a range wider than tr's byte sets
    ("rev", ["-"]),
    ("xxd", ["-r"]),  # not the plain format
    ("base64", []),  # encoding
    ("base64", ["-d", "payload.b64"]),  # a file operand: the file is decoded, not stdin
    ("basenc", ["-d"]),  # no alphabet named
    ("openssl", ["base64"]),
    ("openssl", ["base64", "-d"]),  # (with text that is not base64: see the test)
]


@pytest.mark.parametrize(("name", "args"), UNMODELLED)
def test_a_call_the_decoder_does_not_model_gives_none(name: str, args: list[str]) -> None:
    assert decoders.transformed(name, args, "b!@#") is None


def test_base64_with_a_wrap_width_before_the_decode_flag_is_read() -> None:
    assert decoders.transformed("base64", ["-w", "0", "-d"], "cm0gLXJmIC8=") == "rm -rf /"


@pytest.mark.parametrize(
    "command",
    [
        "echo cm0gLXJmIC8 | base64 -d | sh",  # unpadded: GNU writes it, then fails
        "echo cm0gLXJmIC8 | basenc --base64 -d | sh",
        "echo 'cm0g LXJmIC8=' | base64 -di | bash",  # -i: the blank is dropped
        "echo 'cm0g!LXJm!IC8=' | base64 --decode --ignore-garbage | sh",
        "echo cm0gLXJmIC8K/w== | base64 -d | sh",  # then a byte that is not UTF-8
        "echo 726d202d7266202f0 | xxd -r -p | sh",  # an odd last digit
        "echo 0x72,0x6d,0x20,0x2d,0x72,0x66,0x20,0x2f | xxd -r -p | sh",
        "echo OJWSALLSMYQC6=== | base32 -d | sh",
        "echo 'cm0g LXJmIC8=' | base64 -d | sh",  # GNU stops at the blank; macOS's does not
        "echo 'cm0g!LXJmIC8=' | base64 -d | sh",
        "echo OJWSALLSMYQC6 | base32 -d | sh",  # GNU reads no short last block; others do
    ],
)
def test_a_decoded_delete_fed_to_a_shell_is_denied(judge: Judge, command: str) -> None:
    verdict = judge(command)
    assert verdict.decision == "deny", verdict
    assert verdict.rule == "delete.catastrophic", verdict


@pytest.mark.parametrize(
    "command",
    [
        "echo bHMgLWxh | base64 -d | sh",  # ls -la
        "echo 'bHMg LWxh' | base64 -d | sh",
        "echo 726d202d72 | xxd -r -p | sh",
        "echo cm0gLXJmIC8= | base64 | sh",  # encoding, not decoding
    ],
)
def test_a_decoded_harmless_line_is_allowed(judge: Judge, command: str) -> None:
    assert judge(command).decision != "deny"
