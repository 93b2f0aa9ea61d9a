"""What a file-writing tool call is about to do, read the same way for every host.

Claude Code says ``Write{file_path, content}`` / ``Edit{file_path, old_string,
new_string, replace_all}`` / ``MultiEdit{file_path, edits: [...]}``; Crush uses the
same keys in lower case tools; Squad says ``edit{path, old_str, new_str}`` and
``create{path, file_text}``; Copilot says ``replace_string_in_file{filePath,
oldString, newString}``. Policies that care about the *content* of a write
(append-only, ssot-guard, signal-schema) see one :class:`WriteCall` and can
compute the file as it will be after the call with :func:`apply`.

Paths are normalised by :mod:`hookrun.hooks.paths` (the same rules as write-guard),
globs follow seed 001's table (``*`` one segment, ``**`` any depth, ``*.md`` = root
only).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from hookrun import fields as pl
from hookrun.hooks import paths
from hookrun.hooks.base import PolicyContext

# Tool names that create or change files, compared case-insensitively. Claude Code
# (Write, Edit, MultiEdit, NotebookEdit), Crush (write, edit, multiedit), Squad
# (edit, create, write_file, create_file), Copilot (create_file,
# replace_string_in_file, insert_edit_into_file), Anthropic's text editor tool.
WRITE_TOOLS: tuple[str, ...] = (
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "create",
    "write_file",
    "create_file",
    "replace_string_in_file",
    "insert_edit_into_file",
    "multi_replace_string_in_file",
    "edit_file",
    "str_replace_editor",
    "str_replace_based_edit_tool",
)

_CONTENT_KEYS = ("content", "file_text", "contents", "text", "new_source")
_OLD_KEYS = ("old_string", "old_str", "oldString", "old_text")
_NEW_KEYS = ("new_string", "new_str", "newString", "new_text")
_ALL_KEYS = ("replace_all", "replaceAll")


def tool_in(name: str, tools: Iterable[str]) -> bool:
    """Is ``name`` one of ``tools`` (case-insensitive, as hosts disagree on case)?"""
    folded = name.casefold()
    return any(folded == t.casefold() for t in tools)


def any_tool_in(names: Iterable[str], tools: Iterable[str]) -> bool:
    """Is any of ``names`` (a tool's name and its kind: ``payload.tool_names``) in ``tools``?"""
    listed = {t.casefold() for t in tools}
    return any(name.casefold() in listed for name in names)


@dataclass(frozen=True)
class Edit:
    old: str
    new: str
    replace_all: bool = False


@dataclass(frozen=True)
class WriteCall:
    """One write tool call. ``kind`` says which fields mean something."""

    kind: Literal["write", "edit", "other"]
    path: str  # as the tool got it
    content: str | None = None  # kind == "write": the whole new file
    edits: tuple[Edit, ...] = ()  # kind == "edit": applied in order (MultiEdit)

    @property
    def new_text(self) -> str:
        """Everything the call writes: the content, or the edits' new strings."""
        if self.content is not None:
            return self.content
        return "\n".join(e.new for e in self.edits)


def _first_str(data: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str):
            return value
    return None


def _edit(data: Mapping[str, Any]) -> Edit | None:
    old = _first_str(data, _OLD_KEYS)
    new = _first_str(data, _NEW_KEYS)
    if old is None or new is None:
        return None
    return Edit(old, new, any(data.get(k) is True for k in _ALL_KEYS))


def parse(payload: Mapping[str, Any]) -> WriteCall | None:
    """The write this payload asks for, or None when it names no target path."""
    path = pl.file_path(payload)
    if not path:
        return None
    args = pl.tool_input(payload)
    raw_edits = args.get("edits")
    if isinstance(raw_edits, list):
        edits = [_edit(e) if isinstance(e, Mapping) else None for e in raw_edits]
        if edits and all(e is not None for e in edits):
            return WriteCall("edit", path, edits=tuple(e for e in edits if e is not None))
        return WriteCall("other", path)
    single = _edit(args)
    if single is not None:
        return WriteCall("edit", path, edits=(single,))
    content = _first_str(args, _CONTENT_KEYS)
    if content is not None:
        return WriteCall("write", path, content=content)
    return WriteCall("other", path)


def apply(current: str, edits: Iterable[Edit]) -> str | None:
    """``current`` after the edits, as the edit tools apply them; None if one cannot apply.

    An edit whose ``old`` is absent makes the real tool fail, so there is nothing to
    judge. Without ``replace_all`` only the first occurrence changes (hosts that
    demand a unique match fail instead, which is never more permissive).
    """
    text = current
    for edit in edits:
        if edit.old == "":
            if text != "":
                return None
            text = edit.new
            continue
        if edit.old not in text:
            return None
        text = text.replace(edit.old, edit.new, -1 if edit.replace_all else 1)
    return text


# --- paths (delegated to hookrun.hooks.paths, the one normalisation every policy shares) ---


def target(payload: Mapping[str, Any], ctx: PolicyContext) -> paths.NormPath | None:
    """The normalised path of the file the call names, or None when it names none."""
    found = paths.tool_target(payload, ctx)
    return None if found is None else found.norm


def locate(path: str, *, cwd: str, project_dir: str) -> paths.NormPath:
    """``path`` (relative to ``cwd``) normalised against the project root."""
    return paths.normalize(path, workspace=project_dir, cwd=cwd)


def payload_cwd(payload: Mapping[str, Any], default: str) -> str:
    value = payload.get("cwd")
    return value if isinstance(value, str) and value else default


def is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[{")


def matches_any(rel: str, patterns: Iterable[str], *, ignore_case: bool = False) -> str | None:
    """The first glob of ``patterns`` that ``rel`` matches, or None."""
    for pattern in patterns:
        if paths.glob_match(rel, pattern, ignore_case=ignore_case):
            return pattern
    return None


def read_text(path: str) -> str | None:
    """The file's text as the edit tools see it (no newline translation); None if absent."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
