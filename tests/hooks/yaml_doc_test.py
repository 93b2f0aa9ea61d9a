"""Ralph's YAML files read with PyYAML, with YAML 1.2's plain-scalar meanings.

These cases were the hand-written subset's (hooks/ralph_yaml.py, replaced by PyYAML
in issue 8). What reads the same is kept as it was; what a real YAML library reads
differently is listed apart, with the meaning now given.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookrun.hooks.yaml_doc import YamlError, dig, parse


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("", None),
        ("# only a comment\n", None),
        ("a: 1", {"a": 1}),
        ("---\na: 1\n...\n", {"a": 1}),
        ("a: 1.5\nb: -2\nc: +3", {"a": 1.5, "b": -2, "c": 3}),
        (
            "a: true\nb: False\nc: ~\nd: null\ne:",
            {"a": True, "b": False, "c": None, "d": None, "e": None},
        ),
        ("a: hello world  # trailing comment", {"a": "hello world"}),
        ("a: 'it''s # not a comment'", {"a": "it's # not a comment"}),
        ('a: "tab\\tand \\"quote\\""', {"a": 'tab\tand "quote"'}),
        ("a: http://x.y/z#frag", {"a": "http://x.y/z#frag"}),
        ("time: 2026-02-15T17:33:19Z", {"time": "2026-02-15T17:33:19Z"}),
        ("id: 260215-173319", {"id": "260215-173319"}),
        (
            "o:\n  s: PLANNING\n  n:\n    deep: 1\nz: 2",
            {"o": {"s": "PLANNING", "n": {"deep": 1}}, "z": 2},
        ),
        ("l:\n  - a\n  - 'b'\n  - 3", {"l": ["a", "b", 3]}),
        ("l:\n- a\n- b\nk: v", {"l": ["a", "b"], "k": "v"}),
        ("l:\n  - id: 1\n    s: x\n  - id: 2", {"l": [{"id": 1, "s": "x"}, {"id": 2}]}),
        ("- a\n- b", ["a", "b"]),
        (
            "f: [a, 'b, c', 3]\ng: {x: 1, y: two}\nh: []",
            {"f": ["a", "b, c", 3], "g": {"x": 1, "y": "two"}, "h": []},
        ),
        ("m: |\n  line 1\n  line 2\n\nn: 1", {"m": "line 1\nline 2\n", "n": 1}),
        ("m: |-\n  keep\n   indent\n", {"m": "keep\n indent"}),
        ("m: >\n  folded\n  text\n\n  para\n", {"m": "folded text\npara\n"}),
        ("\"quoted key\": 1\n'k2': 2", {"quoted key": 1, "k2": 2}),
        ("just a scalar", "just a scalar"),
        # YAML 1.1 would read these as a date, booleans, octal 493 and 90: Ralph's files
        # mean the text and the decimal number, as YAML 1.2 does and the subset did.
        ("d: 2026-02-15", {"d": "2026-02-15"}),
        ("a: yes\nb: off\nc: On", {"a": "yes", "b": "off", "c": "On"}),
        ("iteration: 0755", {"iteration": 755}),
        ("t: 1:30", {"t": "1:30"}),
    ],
)
def test_yaml_reads_as_ralphs_files_mean_it(text: str, value: Any) -> None:
    assert parse(text) == value


# What the subset refused and a real YAML library reads (documented change).
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a: &anchor 1\nb: *anchor", {"a": 1, "b": 1}),
        ("a: !!str 1", {"a": "1"}),
        ("a: [1, [2]]", {"a": [1, [2]]}),
        ("base: &b {x: 1}\nmore:\n  <<: *b\n  y: 2", {"base": {"x": 1}, "more": {"x": 1, "y": 2}}),
    ],
)
def test_what_only_the_subset_refused_is_now_read_as_yaml(text: str, value: Any) -> None:
    assert parse(text) == value


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: 1\na: 2", 2, "duplicate key 'a'"),
        ("a:\n\tb: 1", 2, "cannot start any token"),
        ("a: 1\n  b: 2", 2, "mapping values are not allowed"),
        ("a: *ref", 1, "undefined alias"),
        ("a: [1, 2", 2, "did not find expected ',' or ']'"),
        ("a: 'open", 1, "unexpected end of stream"),
        ('a: "bad \\q"', 1, "unknown escape character"),
        ("a: 1\n---\nb: 2", 2, "another document"),
        ("a: 1\nnot a mapping line", 3, "could not find expected ':'"),
        ("a: @x", 1, "cannot start any token"),
        ("? [1]\n: 2", 1, "a mapping key must be a plain value"),
        ("a: !!python/object:os.system x", 1, "could not determine a constructor"),
    ],
)
def test_what_is_not_yaml_is_an_error_with_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(YamlError) as info:
        parse(text)
    assert info.value.line == line
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("path", "found", "value"),
    [
        ("a.b", True, 1),
        ("a", True, {"b": 1, "c": None}),
        ("a.c", True, None),
        ("a.x", False, None),
        ("a.b.c", False, None),
    ],
)
def test_dig_finds_dotted_fields(path: str, found: bool, value: Any) -> None:
    assert dig({"a": {"b": 1, "c": None}}, path) == (found, value)


_YAMLISH = st.lists(
    st.sampled_from(
        [
            "a:", "  b: 1", "- x", "  - y: 2", "k: |", "k: >-", "   text", "", "#c", "---",
            "...", "'q': \"v\"", "f: [1, 'a,b']", "m: {x: 1}", "\t- t", "- ", "-", "z: 'un",
            "x: &a", "y: *a", "[[[[[[[[",
        ]
    ),
    max_size=12,
).map("\n".join)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(_YAMLISH, st.text(max_size=80)))
def test_any_text_parses_or_is_a_yaml_error_never_a_crash(text: str) -> None:
    try:
        parse(text)
    except YamlError as e:
        assert e.line >= 0


def test_only_the_ralph_policies_import_pyyaml() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from hookrun.hooks import registry\n"
        "for name in registry.names():\n"
        "    if name not in ('ssot-guard', 'signal-schema'):\n"
        "        registry.get(name)\n"
        "print('yaml' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "False"
