from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.dispatch.shebang import Shebang, ShebangError, parse_shebang, split_env_string


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        # literal path, no argument
        (b"#!/bin/sh\necho hi\n", Shebang("/bin/sh")),
        # kernel semantics: the rest of the line is ONE argument, not split
        (b"#!/bin/sh -e -u\n", Shebang("/bin/sh", ("-e -u",))),
        (b"#!/usr/bin/python3 -u\n", Shebang("/usr/bin/python3", ("-u",))),
        # a space (or tab) after #! is allowed
        (b"#! /bin/bash\n", Shebang("/bin/bash")),
        (b"#!\t/bin/bash\t-x \n", Shebang("/bin/bash", ("-x",))),
        # CRLF: the \r is part of the line ending, not of the name or argument
        (b"#!/bin/bash\r\necho hi\r\n", Shebang("/bin/bash")),
        (b"#!/usr/bin/env python3\r\n", Shebang("python3", lookup=True)),
        (b"#!/bin/sh -e\r\n", Shebang("/bin/sh", ("-e",))),
        # no newline at all: the whole (short) file is the line
        (b"#!/bin/sh", Shebang("/bin/sh")),
        # env NAME [one arg]
        (b"#!/usr/bin/env python3\n", Shebang("python3", lookup=True)),
        (b"#!/usr/bin/env node --harmony\n", Shebang("node", ("--harmony",), lookup=True)),
        (b"#!/usr/bin/env bash -e -x\n", Shebang("bash", ("-e -x",), lookup=True)),
        (b"#!/bin/env python3\n", Shebang("python3", lookup=True)),
        # bare env
        (b"#!env python3\n", Shebang("python3", lookup=True)),
        (b"#! env  python3 \n", Shebang("python3", lookup=True)),
        # env -S: split into words
        (b"#!/usr/bin/env -S node --foo --bar\n", Shebang("node", ("--foo", "--bar"), True)),
        (b"#!/usr/bin/env -S python3 -u -X dev\r\n", Shebang("python3", ("-u", "-X", "dev"), True)),
        (b"#!/usr/bin/env -Spython3 -u\n", Shebang("python3", ("-u",), True)),
        (b"#!/usr/bin/env --split-string=python3 -u\n", Shebang("python3", ("-u",), True)),
        (b"#!/usr/bin/env --split-string python3 -u\n", Shebang("python3", ("-u",), True)),
        # env -S quoting and escapes, as GNU env does them
        (b"#!/usr/bin/env -S sh -c 'echo a b'\n", Shebang("sh", ("-c", "echo a b"), True)),
        (b'#!/usr/bin/env -S sh -c "x y"\n', Shebang("sh", ("-c", "x y"), True)),
        (b"#!/usr/bin/env -S perl -w\\_-T\n", Shebang("perl", ("-w -T",), True)),
        (b"#!/usr/bin/env -S python3 # comment\n", Shebang("python3", (), True)),
        (b"#!/usr/bin/env -S python3 -u \\c ignored\n", Shebang("python3", ("-u",), True)),
        (b"#!/usr/bin/env -S sh -c ''\n", Shebang("sh", ("-c", ""), True)),
        # Windows-written interpreter path
        (b"#!C:\\Python311\\python.exe\n", Shebang("C:\\Python311\\python.exe")),
        (b"#!C:\\Windows\\env.exe python\n", Shebang("python", lookup=True)),
        # non-UTF-8 bytes do not crash the parser
        (b"#!/opt/\xff/interp\n", Shebang("/opt/\udcff/interp")),
    ],
)
def test_parse_shebang_accepts_each_form(head: bytes, expected: Shebang) -> None:
    assert parse_shebang(head, script="./hook") == expected


@pytest.mark.parametrize(
    ("head", "problem"),
    [
        (b"#!\n", "empty #! line"),
        (b"#!", "empty #! line"),
        (b"#!   \r\n", "empty #! line"),
        (b"#!/usr/bin/env\n", "names no command"),
        (b"#!/usr/bin/env   \n", "names no command"),
        (b"#!env\n", "names no command"),
        (b"#!/usr/bin/env -S\n", "-S names no command"),
        (b"#!/usr/bin/env -S   # only a comment\n", "-S names no command"),
        (b"#!/usr/bin/env -i python3\n", "unsupported env option '-i'"),
        (b"#!/usr/bin/env -u HOME python3\n", "unsupported env option '-u'"),
        (b"#!/usr/bin/env --ignore-environment python3\n", "unsupported env option"),
        (b"#!/usr/bin/env FOO=1 python3\n", "variable assignment 'FOO=1'"),
        (b"#!/usr/bin/env -S FOO=1 python3\n", "'FOO=1' is not supported"),
        (b"#!/usr/bin/env -S -i python3\n", "'-i' is not supported"),
        (b"#!/usr/bin/env -S python3 'unterminated\n", "unterminated ' quote"),
        (b'#!/usr/bin/env -S python3 "unterminated\n', 'unterminated " quote'),
        (b"#!/usr/bin/env -S python3 ${HOME}/x\n", "${VAR} expansion is not supported"),
        (b"#!/usr/bin/env -S python3 \\q\n", "unknown escape \\q"),
        (b"#!/usr/bin/env -S python3 \\", "a backslash ends the line"),
    ],
)
def test_parse_shebang_rejects_malformed_lines_with_126_naming_script(
    head: bytes, problem: str
) -> None:
    result = parse_shebang(head, script="./hooks/check.sh")
    assert isinstance(result, ShebangError)
    assert result.exit_code == 126
    assert result.message.startswith("./hooks/check.sh: ")
    assert problem in result.message


@pytest.mark.parametrize(
    "head",
    [b"", b"echo hi\n", b" #!/bin/sh\n", b"\xef\xbb\xbf#!/bin/sh\n", b"#/bin/sh\n", b"\x7fELF"],
)
def test_parse_shebang_returns_none_without_leading_hash_bang(head: bytes) -> None:
    assert parse_shebang(head, script="x") is None


@pytest.mark.parametrize(
    ("shebang", "name"),
    [
        (Shebang("/usr/bin/python3"), "python3"),
        (Shebang("python3", lookup=True), "python3"),
        (Shebang("C:\\Program Files\\Git\\bin\\bash.exe"), "bash.exe"),
        (Shebang("/bin/sh/"), "sh"),
    ],
)
def test_shebang_name_is_the_interpreter_base_name(shebang: Shebang, name: str) -> None:
    assert shebang.name == name


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", []),
        ("a b\tc", ["a", "b", "c"]),
        ("'a\\'b' \"c\\\"d\"", ["a'b", 'c"d']),
        ("a\\tb", ["a\tb"]),
        ("'$HOME'", ["$HOME"]),
        ("a#b", ["a#b"]),
        ("a #b", ["a"]),
    ],
)
def test_split_env_string_splits_like_gnu_env(text: str, words: list[str]) -> None:
    assert split_env_string(text) == words


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=140))
def test_parse_shebang_never_raises_on_any_bytes(tail: bytes) -> None:
    result = parse_shebang(b"#!" + tail, script="./x")
    assert isinstance(result, (Shebang, ShebangError))
    if isinstance(result, ShebangError):
        assert result.exit_code == 126 and result.message.startswith("./x: ")
