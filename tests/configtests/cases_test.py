"""Reading `hookrun test` files: shorthands, and an error naming file, case and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookrun.configtests.cases import CaseFileError, find_files, load_file


def _write(tmp_path: Path, text: str, name: str = "t.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_shorthands_fill_the_payload(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "cases:\n"
        "  - name: n\n    event: PreToolUse\n    tool: Bash\n"
        '    input: \'{"command": "ls"}\'\n    sub_agent: true\n'
        "    payload: {session_id: s, tool_name: overridden}\n"
        "    expect: {decision: allow}\n"
        "  - event: UserPromptSubmit\n    prompt: hi\n    expect: {context_contains: x}\n",
    )
    first, second = load_file(path)
    assert first.payload == {
        "session_id": "s",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "is_sub_agent": True,
    }
    assert (second.name, second.payload) == ("case 2", {"prompt": "hi"})


def test_a_json_file_and_a_bare_list_of_cases_are_read_too(tmp_path: Path) -> None:
    cases = [{"event": "Stop", "expect": {"decision": "none"}}]
    path = _write(tmp_path, json.dumps(cases), "t.json")
    assert [c.event for c in load_file(path)] == ["Stop"]


def test_a_file_config_is_resolved_against_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "config: ../c.json\ncases: [{event: Stop, expect: {halt: false}}]\n")
    assert load_file(path)[0].config == (str(tmp_path.parent / "c.json"),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "cases: [{event: PreToolUse, expect: {decison: deny}}]",
            'unknown key "decison" — did you mean "decision"?',
        ),
        ("cases: [{event: PreToolUse, tol: Bash, expect: {halt: true}}]", 'did you mean "tool"?'),
        ("cases: [{name: x, expect: {halt: true}}]", 'cases[0] (x): "event" is required'),
        ("cases: [{event: Stop}]", '"expect" is required'),
        (
            "cases: [{event: Stop, expect: {decision: block}}]",
            '"block" is not one of allow, deny, ask, none',
        ),
        ("cases: [{event: Stop, expect: {halt: 'yes please'}}]", "expect.halt: true or false"),
        ("cases: [{event: Stop, expect: {reason_contains: 3}}]", "a text or a list of texts"),
        ("cases: [{event: Stop, input: '[1]', expect: {halt: true}}]", '"input" must be an object'),
        (
            "cases: [{event: Stop, input: '{', expect: {halt: true}}]",
            '"input" is not a JSON object',
        ),
        ("cases: [3]", "a case is an object, got int"),
        ("tests: []", 'expected an object with a "cases" list'),
        ("cases: []\nextra: 1", 'unknown key "extra"'),
        ("cases: [\n  {event: a\n", "t.yaml:3:1: not valid YAML"),
    ],
)
def test_a_broken_test_file_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(CaseFileError) as info:
        load_file(path)
    assert message in str(info.value)
    assert str(info.value).startswith(path)


def test_files_default_to_the_projects_test_folder_sorted(tmp_path: Path) -> None:
    folder = tmp_path / ".hookrun" / "tests"
    folder.mkdir(parents=True)
    for name in ("b.yaml", "a.json", "notes.txt", "c.yml"):
        (folder / name).write_text("cases: []")
    assert [Path(p).name for p in find_files([], str(tmp_path))] == ["a.json", "b.yaml", "c.yml"]


def test_no_test_folder_or_a_missing_path_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError, match="create it with"):
        find_files([], str(tmp_path))
    with pytest.raises(CaseFileError, match="no such file or folder"):
        find_files([str(tmp_path / "nope.yaml")], str(tmp_path))
