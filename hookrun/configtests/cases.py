"""Reading test files: each case's event, payload and expectation, checked at the door.

Every problem names the file, the case and the field, the way config errors do, so a
typo in a test file is never a silently passing case.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import yaml

from hookrun.config.quote import quote

SUFFIXES = (".yaml", ".yml", ".json")
DEFAULT_DIR = os.path.join(".hookrun", "tests")

# What a case may say; anything else is a typo until proven otherwise.
CASE_KEYS = frozenset(
    {"name", "event", "payload", "tool", "input", "prompt", "sub_agent", "cwd", "expect"}
)
EXPECT_KEYS = frozenset(
    {
        "decision",
        "halt",
        "exit_code",
        "reason_contains",
        "context_contains",
        "system_message_contains",
        "updated_input",
        "updated_prompt",
        "updated_output",
        "context_files",
        "hooks_ran",
        "hooks_not_ran",
        "no_errors",
    }
)
DECISIONS = ("allow", "deny", "ask", "none")


class CaseFileError(Exception):
    """A test file that cannot be read as test cases; the message says where and why."""


class Case(NamedTuple):
    """One test case, as written: run ``event`` with ``payload``, compare with ``expect``."""

    file: str
    position: int  # the case's index in its file
    name: str
    event: str
    payload: Mapping[str, Any]
    expect: Mapping[str, Any]
    config: tuple[str, ...]  # the file's own `config` paths (absolute); () = the caller's

    @property
    def label(self) -> str:
        return f"{os.path.basename(self.file)}: {self.name}"

    @classmethod
    def create(cls, file: str, index: int, raw: object, config: tuple[str, ...] = ()) -> Case:
        where = f"{file}: cases[{index}]"
        if not isinstance(raw, Mapping):
            raise CaseFileError(f"{where}: a case is an object, got {type(raw).__name__}")
        unknown = sorted(str(k) for k in raw if k not in CASE_KEYS)
        if unknown:
            raise CaseFileError(f"{where}: {_unknown(unknown[0], CASE_KEYS)}")
        name = raw.get("name", f"case {index + 1}")
        where = f"{file}: cases[{index}] ({name})"
        event = raw.get("event")
        if not isinstance(event, str) or not event.strip():
            raise CaseFileError(f'{where}: "event" is required (e.g. "PreToolUse")')
        payload = _payload(raw, where)
        expect = raw.get("expect")
        if not isinstance(expect, Mapping) or not expect:
            raise CaseFileError(f'{where}: "expect" is required: an object of expected outcomes')
        _check_expect(expect, where)
        return cls(file, index, str(name), event, payload, dict(expect), config)


def _payload(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    payload = raw.get("payload", {})
    if not isinstance(payload, Mapping):
        raise CaseFileError(f'{where}: "payload" must be an object')
    out = dict(payload)
    if "tool" in raw:
        out["tool_name"] = str(raw["tool"])
    if "input" in raw:
        value = raw["input"]
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError as exc:
                raise CaseFileError(f'{where}: "input" is not a JSON object: {exc}') from None
        if not isinstance(value, Mapping):
            raise CaseFileError(f'{where}: "input" must be an object (the tool input)')
        out["tool_input"] = dict(value)
    if "prompt" in raw:
        out["prompt"] = str(raw["prompt"])
    if "sub_agent" in raw:
        out["is_sub_agent"] = bool(raw["sub_agent"])
    if "cwd" in raw:
        out["cwd"] = str(raw["cwd"])
    return out


def _check_expect(expect: Mapping[str, Any], where: str) -> None:
    unknown = sorted(str(k) for k in expect if k not in EXPECT_KEYS)
    if unknown:
        raise CaseFileError(f"{where}: expect: {_unknown(unknown[0], EXPECT_KEYS)}")
    decision = expect.get("decision", "none")
    if decision is None:
        decision = "none"
    if decision not in DECISIONS:
        raise CaseFileError(
            f"{where}: expect.decision: {quote(str(decision))} is not one of {', '.join(DECISIONS)}"
        )
    for key in ("halt", "no_errors"):
        if key in expect and not isinstance(expect[key], bool):
            raise CaseFileError(f"{where}: expect.{key}: true or false")
    if "exit_code" in expect and not isinstance(expect["exit_code"], int):
        raise CaseFileError(f"{where}: expect.exit_code: an integer")
    for key in ("reason_contains", "context_contains", "system_message_contains"):
        if key in expect and not _texts(expect[key]):
            raise CaseFileError(f"{where}: expect.{key}: a text or a list of texts")
    for key in ("hooks_ran", "hooks_not_ran", "context_files"):
        if key in expect and not _texts(expect[key], allow_empty=True):
            raise CaseFileError(f"{where}: expect.{key}: a list of names")
    if "updated_input" in expect and not isinstance(expect["updated_input"], (Mapping, type(None))):
        raise CaseFileError(f"{where}: expect.updated_input: an object (or null for none)")


def _texts(value: object, *, allow_empty: bool = False) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, list) and (value or allow_empty):
        return all(isinstance(v, str) for v in value)
    return False


def _unknown(key: str, known: frozenset[str]) -> str:
    close = difflib.get_close_matches(key, sorted(known), n=1)
    hint = f' — did you mean "{close[0]}"?' if close else f" (known: {', '.join(sorted(known))})"
    return f"unknown key {quote(key)}{hint}"


def load_file(path: str) -> list[Case]:
    """The cases of one test file; raises :class:`CaseFileError` naming what is wrong."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFileError(f"{path}: cannot read: {exc}") from None
    try:
        data = json.loads(text) if path.endswith(".json") else yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        at = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        raise CaseFileError(f"{path}{at}: not valid YAML: {exc.problem}") from None
    except (ValueError, yaml.YAMLError) as exc:
        raise CaseFileError(f"{path}: not valid {_kind(path)}: {exc}") from None
    if isinstance(data, list):
        data = {"cases": data}
    if not isinstance(data, Mapping) or not isinstance(data.get("cases"), list):
        raise CaseFileError(f'{path}: expected an object with a "cases" list (or a list of cases)')
    extra = sorted(str(k) for k in data if k not in ("cases", "config"))
    if extra:
        raise CaseFileError(f"{path}: {_unknown(extra[0], frozenset({'cases', 'config'}))}")
    config = _config_paths(path, data.get("config"))
    return [Case.create(path, i, raw, config) for i, raw in enumerate(data["cases"])]


def _kind(path: str) -> str:
    return "JSON" if path.endswith(".json") else "YAML"


def _config_paths(path: str, value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(v, str) and v for v in items):
        raise CaseFileError(
            f'{path}: "config" is a path or a list of paths (relative to this file)'
        )
    folder = os.path.dirname(os.path.abspath(path))
    return tuple(os.path.normpath(os.path.join(folder, os.path.expanduser(v))) for v in items)


def find_files(paths: Sequence[str], project_dir: str) -> list[str]:
    """The test files to run: the given files, the test files in the given folders, or
    ``.hookrun/tests`` of the project when none is given. Sorted within a folder."""
    if not paths:
        paths = [os.path.join(project_dir, DEFAULT_DIR)]
        if not os.path.isdir(paths[0]):
            raise CaseFileError(
                f"no test files: {paths[0]} does not exist — create it with *.yaml test files, "
                "or name the files: hookrun test PATH…"
            )
    found: list[str] = []
    for given in paths:
        if os.path.isdir(given):
            names = sorted(n for n in os.listdir(given) if n.endswith(SUFFIXES))
            found.extend(os.path.join(given, n) for n in names)
        elif os.path.exists(given):
            found.append(given)
        else:
            raise CaseFileError(f"{given}: no such file or folder")
    if not found:
        raise CaseFileError(f"no test files (*.yaml, *.yml, *.json) in {', '.join(paths)}")
    return found
