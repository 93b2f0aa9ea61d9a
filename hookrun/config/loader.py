"""load(): config files → one validated, compiled :class:`Config`.

Each file is read by a :class:`FileReader` that walks the parsed JSONC, validates
each part (plain checks first; the pydantic models when something is off, so that
they explain it), applies the rules that span fields, and turns every problem
into a :class:`ConfigIssue` at the line:column of the value at fault. Files
merge in the order given: hook lists concatenate per event, the last
``audit_log`` wins.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence

from hookrun.boundedio import ReadRefused, read_regular_file
from hookrun.config import jsonc, plain
from hookrun.config.discovery import absolute_config_path
from hookrun.config.errors import ConfigError, format_path
from hookrun.config.events import host_alias, is_known_event, normalize_event, suggest_event
from hookrun.config.matchers import Matcher, claude_to_regex, compile_matcher
from hookrun.config.spec import Config, ConfigIssue, HookSpec
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Literal

    from hookrun.config.spec import OnError, ShellMode

    Dialect = Literal["hookrun", "claude", "crush"]
    Severity = Literal["error", "warning"]

DEFAULT_TIMEOUT = 30.0  # seconds; Crush's default, so Crush configs keep their meaning
# No hook should run for an hour; a bigger number is almost surely milliseconds (Claude Code's
# and many hosts' own timeouts are in ms, so this mistake is common when copying configs).
MS_LOOKING_TIMEOUT = 3600

# Top-level keys of other tools' files that tell their dialect (and are ignored silently).
_CRUSH_KEYS = frozenset({"lsp", "mcp", "providers", "options", "models", "tools", "attribution"})
_CLAUDE_KEYS = frozenset(
    {
        "permissions",
        "env",
        "model",
        "apiKeyHelper",
        "statusLine",
        "enabledPlugins",
        "includeCoAuthoredBy",
        "cleanupPeriodDays",
        "outputStyle",
        "disableAllHooks",
        "enableAllProjectMcpServers",
        "enabledMcpjsonServers",
        "disabledMcpjsonServers",
        "forceLoginMethod",
        "awsAuthRefresh",
        "awsCredentialExport",
        "spinnerTipsEnabled",
        "alwaysThinkingEnabled",
        "sandbox",
        "companyAnnouncements",
        "feedbackSurveyState",
    }
)
# A pattern string, compiled (and cached by re) on first use: module-level compiles
# run on every `hookrun run` start, whether or not the pattern is ever needed.
_ASSIGNMENT = r"[A-Za-z_][A-Za-z0-9_]*="


def load(
    paths: Sequence[str | os.PathLike[str]], *, cwd: str | os.PathLike[str] | None = None
) -> Config:
    """Read, validate and merge ``paths`` (relative ones against ``cwd``).

    Raises :class:`ConfigError` listing every error found (not just the first);
    warnings of a usable config are in ``Config.warnings``.
    """
    config, issues, _ = read_all(paths, cwd=cwd)
    if config is None:
        raise ConfigError(issues)
    return config


def read_all(
    paths: Sequence[str | os.PathLike[str]], *, cwd: str | os.PathLike[str] | None = None
) -> tuple[Config | None, list[ConfigIssue], list[FileReader]]:
    """Every file read: the merged Config (None when there are errors), all issues, the readers."""
    base = os.fspath(cwd) if cwd is not None else getcwd_or_empty()
    hooks: dict[str, list[HookSpec]] = {}
    issues: list[ConfigIssue] = []
    readers: list[FileReader] = []
    audit_log: str | None = None
    audit_payload = False
    telemetry: bool | Mapping[str, Any] | None = None
    for path in paths:
        given = os.fspath(path)
        reader = FileReader(given, absolute_config_path(base, given))
        reader.read()
        readers.append(reader)
        issues.extend(reader.sorted_issues())
        for spec in reader.specs:
            hooks.setdefault(spec.event, []).append(spec)
        if reader.audit_log is not None:
            audit_log = reader.audit_log
        if reader.telemetry is not None:
            telemetry = reader.telemetry
        if reader.audit_payload is not None:
            audit_payload = reader.audit_payload
    if any(issue.severity == "error" for issue in issues):
        return None, issues, readers
    config = Config(
        hooks={event: tuple(specs) for event, specs in hooks.items()},
        audit_log=audit_log,
        telemetry=telemetry,
        audit_payload=audit_payload,
        paths=tuple(os.fspath(path) for path in paths),
        warnings=tuple(issues),
    )
    return config, issues, readers


def sub_agent_default(
    explicit: bool | None, *, dialect: Dialect, builtin: bool, file_default: bool
) -> bool:
    """Whether a hook runs for a sub-agent's calls, each dialect keeping its own meaning.

    An entry's own ``include_sub_agents`` always wins. Otherwise: a built-in policy runs
    (a guard a sub-agent can bypass is no guard); an entry in a host's own config shape
    (Claude Code's nested ``hooks``) runs, as that host runs it for sub-agents; a flat
    hookrun/Crush entry takes the file's ``include_sub_agents`` (default false: the
    opt-in of Crush's design).
    """
    if explicit is not None:
        return explicit
    if builtin or dialect == "claude":
        return True
    return file_default


def detect_dialect(path: str | os.PathLike[str], top: dict[str, Any]) -> Dialect:
    """Which tool wrote this file: by its name first, then by the keys only that tool uses."""
    folder, name = os.path.split(os.fspath(path))
    if name in ("crush.json", ".crush.json"):
        return "crush"
    if os.path.basename(folder) == ".claude" and name.startswith("settings"):
        return "claude"
    if _CRUSH_KEYS & top.keys() or "crush" in str(top.get("$schema", "")):
        return "crush"
    if _CLAUDE_KEYS & top.keys():
        return "claude"
    return "hookrun"


def command_name(command: str) -> str:
    """The basename of the command's first word (after ``VAR=value`` prefixes)."""
    plain = _plain_first_word(command)
    if plain is not None:
        return _basename(plain)
    import shlex  # only for quoted or assigning first words: shlex is not free at start-up

    try:
        # POSIX quoting would eat the backslashes of a Windows path (C:\\hooks\\x.exe).
        posix = "\\" not in command
        words = [word.strip("\"'") for word in shlex.split(command, posix=posix)]
    except ValueError:  # unbalanced quotes: the shell will say so at run time
        words = command.split()
    while words and re.match(_ASSIGNMENT, words[0]):
        words.pop(0)
    if not words:
        return command.strip() or "hook"
    return _basename(words[0])


def _basename(word: str) -> str:
    """The part of ``word`` after its last ``/`` or ``\\`` (trailing ones dropped), else
    ``word``; by hand, not by a regex split, which every run would compile (~1% of a
    bare Python start)."""
    stripped = word.rstrip("\\/")
    return stripped[max(stripped.rfind("/"), stripped.rfind("\\")) + 1 :] or word


_SHELL_BLANKS = " \t\r\n"  # shlex's whitespace


def _plain_first_word(command: str) -> str | None:
    """The first word when shlex could only split it off as is (no quote, backslash,
    assignment or unusual blank in it), else None."""
    head = command.lstrip(_SHELL_BLANKS)
    ends = [i for i in map(head.find, _SHELL_BLANKS) if i >= 0]
    word = head[: min(ends)] if ends else head
    if not word or any(c in "\"'\\=" or c.isspace() for c in word):
        return None
    return word


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    import difflib  # only for messages: kept off the import path

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.7)
    return f' — did you mean "{close[0]}"?' if close else ""


def ms_hint(seconds: float) -> str:
    """``timeout 5000 is in seconds — did you mean 5?`` for a millisecond-looking value."""
    return f"timeout {seconds:.15g} is in seconds — did you mean {seconds / 1000:.15g}?"


class FileReader:
    """Reads one config file into HookSpecs, collecting positioned issues."""

    def __init__(self, given: str, full: str) -> None:
        self.given = given  # as the user wrote it: what messages and sources show
        self.full = full  # absolute
        self.doc: jsonc.Document | None = None
        self.dialect: Dialect = "hookrun"
        self.specs: list[HookSpec] = []
        self.spec_paths: list[jsonc.JsonPath] = []  # where each spec was written, for check()
        self.audit_log: str | None = None
        self.telemetry: bool | Mapping[str, Any] | None = None
        self.audit_payload: bool | None = None
        self.default_timeout = DEFAULT_TIMEOUT
        self.default_include = False
        self.default_shell: ShellMode = "auto"
        self._issues: list[tuple[tuple[int, int], ConfigIssue]] = []

    # -- issues -----------------------------------------------------------------------

    def report(
        self,
        severity: Severity,
        path: jsonc.JsonPath,
        message: str,
        *,
        key: bool = False,
        at: jsonc.Position | None = None,
    ) -> None:
        """Record an issue at the value (or, with ``key``, the key) found at ``path``."""
        if at is None and self.doc is not None:
            positions = self.doc.positions
            at = positions.of_key(path) if key else positions.of_value(path)
        location = f"{at[0]}:{at[1]}" if at else ""
        issue = ConfigIssue(
            severity, self.given, location, _printable(format_path(path)), _printable(message)
        )
        self._issues.append((at or (0, 0), issue))

    def error(self, path: jsonc.JsonPath, message: str, **kw: Any) -> None:
        self.report("error", path, message, **kw)

    def warning(self, path: jsonc.JsonPath, message: str, **kw: Any) -> None:
        self.report("warning", path, message, **kw)

    def sorted_issues(self) -> list[ConfigIssue]:
        return [issue for _, issue in sorted(self._issues, key=lambda pair: pair[0])]

    # -- the file ---------------------------------------------------------------------

    def read(self) -> None:
        try:
            data = read_regular_file(self.full)
        except ReadRefused as exc:  # a FIFO, /dev/zero, a directory, a huge file
            self.error((), exc.message)
            return
        except FileNotFoundError:
            self.error((), f"file not found (looked for {self.full})")
            return
        except IsADirectoryError:
            self.error((), "is a directory: expected a JSON config file")
            return
        except OSError as exc:
            self.error((), f"cannot read the file: {exc.strerror or exc}")
            return
        except ValueError:  # a NUL byte in the path: no such file can exist
            self.error((), "file not found (the path contains a NUL character)")
            return
        try:
            self.doc = jsonc.parse(jsonc.decode(data))
        except jsonc.JsoncError as exc:
            self.error((), exc.message, at=(exc.line, exc.column))
            return
        for dup in self.doc.duplicates:
            line, column = dup.first
            self.error(
                dup.path,
                f"duplicate key {_q(str(dup.path[-1]))} (first at {line}:{column})",
                at=dup.at,
            )
        top = self.doc.value
        if not isinstance(top, dict):
            json_type = plain.json_type
            self.error((), f"expected a JSON object at the top level, got {json_type(top)}")
            return
        self.dialect = detect_dialect(self.full, top)
        self.read_settings(top)
        self.read_hooks(top.get("hooks"))

    def read_settings(self, top: dict[str, Any]) -> None:
        if self.dialect == "hookrun":
            self.warn_unknown_keys(top, plain.FILE_KEYS | {"$schema"}, ())
        raw = {key: top[key] for key in plain.FILE_KEYS - {"hooks", "telemetry"} if key in top}
        if "telemetry" in top:
            self.read_telemetry(top["telemetry"])
        settings = plain.settings(raw)
        if settings is None:
            model = self.validate("FileSettings", raw, ())
            if model is None:
                return
            settings = plain.from_model(model, plain.Settings)
        if settings.timeout is not None:
            self.default_timeout = settings.timeout
            if settings.timeout > MS_LOOKING_TIMEOUT:
                self.warning(("timeout",), ms_hint(settings.timeout))
        if settings.include_sub_agents is not None:
            self.default_include = settings.include_sub_agents
        if settings.shell is not None:
            self.default_shell = settings.shell
        if settings.audit_log is not None and not settings.audit_log.strip():
            self.error(("audit_log",), 'empty "audit_log": give a file path, or leave it out')
        elif settings.audit_log is not None and "\0" in settings.audit_log:
            self.error(("audit_log",), '"audit_log" holds a NUL byte: no file can have that name')
        elif settings.audit_log is not None:
            self.audit_log = self.resolve_audit_log(settings.audit_log)
        self.audit_payload = settings.audit_payload

    def read_telemetry(self, value: object) -> None:
        """``telemetry``: true, false, or an object saying where to send (hookrun.telemetry)."""
        if value is None or isinstance(value, bool):
            self.telemetry = value
        elif not isinstance(value, dict):
            self.error(
                ("telemetry",), f"expected true, false or an object, got {plain.json_type(value)}"
            )
        else:
            self.warn_unknown_keys(value, plain.TELEMETRY_KEYS, ("telemetry",))
            value = {k: v for k, v in value.items() if k in plain.TELEMETRY_KEYS}
            if plain.telemetry(value) is not None:
                self.telemetry = value
                return
            model = self.validate("TelemetryModel", value, ("telemetry",))
            if model is not None:
                self.telemetry = model.model_dump(exclude_none=True)

    def resolve_audit_log(self, audit_log: str) -> str:
        """Relative to the project (the directory holding ``.hookrun/`` or ``.claude/``),
        else to the config file's directory."""
        folder = os.path.dirname(self.full)
        if os.path.basename(folder) in (".hookrun", ".claude"):
            folder = os.path.dirname(folder)
        return os.path.abspath(os.path.join(folder, os.path.expanduser(audit_log)))

    def read_hooks(self, hooks: object) -> None:
        json_type = plain.json_type
        if hooks is None:
            return
        if not isinstance(hooks, dict):
            self.error(
                ("hooks",),
                f"expected an object mapping event names to lists of hooks, got {json_type(hooks)}",
            )
            return
        for written, entries in hooks.items():
            path: jsonc.JsonPath = ("hooks", written)
            if not written.strip():
                self.error(path, 'empty event name: use an event such as "PreToolUse"', key=True)
                continue
            alias = host_alias(written)
            if alias is not None:
                self.warning(
                    path,
                    f'{_q(written)} is {alias[1]}\'s name for "{alias[0]}": its hooks run for '
                    f'"{alias[0]}" of every host (write "{alias[0]}" to say so)',
                    key=True,
                )
            elif not is_known_event(written):
                hint = suggest_event(written)
                if hint:
                    tail = f' — did you mean "{hint}"?'
                else:
                    tail = ": hooks run only for a host that sends this exact event name"
                self.warning(path, f"custom event {_q(written)}{tail}", key=True)
            if not isinstance(entries, list):
                self.error(path, f"expected a list of hooks, got {json_type(entries)}")
                continue
            event = normalize_event(written)
            for i, entry in enumerate(entries):
                entry_path = (*path, i)
                source = f"{self.given}#{written}[{i}]"
                if not isinstance(entry, dict):
                    self.error(entry_path, f"expected a hook object, got {json_type(entry)}")
                elif "hooks" in entry:
                    self.read_claude_entry(event, entry, entry_path, source)
                else:
                    self.read_flat_entry(event, entry, entry_path, source)

    def read_flat_entry(
        self, event: str, entry: dict[str, Any], path: jsonc.JsonPath, source: str
    ) -> None:
        self.warn_unknown_keys(entry, plain.HOOK_KEYS, path)
        model = plain.hook(entry)
        if model is None:
            validated = self.validate("HookModel", entry, path)
            if validated is None:
                return
            model = plain.from_model(validated, plain.Hook)
        try:
            compiled = compile_matcher(model.matcher)
        except ValueError as exc:
            self.error((*path, "matcher"), str(exc))
            return
        dialect: Dialect = "crush" if self.dialect == "crush" else "hookrun"
        self.add_spec(event, model, path, source, model.matcher, compiled, dialect)

    def read_claude_entry(
        self, event: str, entry: dict[str, Any], path: jsonc.JsonPath, source: str
    ) -> None:
        self.warn_unknown_keys(entry, plain.CLAUDE_ENTRY_KEYS, path)
        if isinstance(entry["hooks"], list):
            for j, raw in enumerate(entry["hooks"]):
                if isinstance(raw, dict):
                    self.warn_unknown_keys(raw, plain.CLAUDE_HOOK_KEYS, (*path, "hooks", j))
        model = plain.claude_entry(entry)
        if model is None:
            validated = self.validate("ClaudeEntryModel", entry, path)
            if validated is None:
                return
            model = plain.ClaudeEntry(
                validated.matcher, [plain.from_model(h, plain.Hook) for h in validated.hooks]
            )
        try:
            compiled = compile_matcher(claude_to_regex(model.matcher))
        except ValueError as exc:
            self.error((*path, "matcher"), str(exc))
            return
        for j, inner in enumerate(model.hooks):
            inner_path = (*path, "hooks", j)
            if inner.type not in (None, "command"):
                self.warning(
                    (*inner_path, "type"),
                    f"hook type {_q(inner.type)} is not run by "
                    'hookrun (only "command" hooks are): skipped',
                )
                continue
            self.add_spec(
                event,
                inner,
                inner_path,
                f"{source}.hooks[{j}]",
                model.matcher,
                compiled,
                "claude",
            )

    def add_spec(
        self,
        event: str,
        model: plain.Hook,
        path: jsonc.JsonPath,
        source: str,
        matcher: str | None,
        compiled_matcher: Matcher | None,
        dialect: Dialect,
    ) -> None:
        command, builtin = model.command, model.builtin
        if command is not None and builtin is not None:
            self.error(path, 'hook has both "command" and "builtin": keep one')
            return
        if command is None and builtin is None:
            self.error(path, 'hook needs "command" or "builtin"')
            return
        if command is not None and not command.strip():
            self.error((*path, "command"), 'empty "command": give a shell command to run')
            return
        canonical: str | None = None
        if builtin is not None:
            canonical = self.canonical_builtin(builtin, (*path, "builtin"))
            if canonical is None:
                return
        elif model.with_ is not None:
            self.warning(
                (*path, "with"), '"with" is ignored: it holds the options of a "builtin"', key=True
            )
        if model.timeout is not None and model.timeout > MS_LOOKING_TIMEOUT:
            self.warning((*path, "timeout"), ms_hint(model.timeout))
        if builtin is not None and model.shell is not None:
            self.warning(
                (*path, "shell"),
                '"shell" is ignored: it says how a "command" runs, and a builtin runs none',
                key=True,
            )
        on_error: OnError = model.on_error or (
            _policy_on_error(canonical) if canonical is not None else "allow"
        )
        self.spec_paths.append(path)
        self.specs.append(
            HookSpec(
                event=event,
                source=source,
                name=model.name or canonical or command_name(command or ""),
                command=command,
                builtin=canonical,
                options=dict(model.with_ or {}),
                matcher=matcher,
                compiled_matcher=compiled_matcher,
                timeout=model.timeout if model.timeout is not None else self.default_timeout,
                on_error=on_error,
                env=dict(model.env or {}),
                include_sub_agents=sub_agent_default(
                    model.include_sub_agents,
                    dialect=dialect,
                    builtin=canonical is not None,
                    file_default=self.default_include,
                ),
                config_path=self.full,
                dialect=dialect,
                shell=(model.shell or self.default_shell) if command is not None else "auto",
            )
        )

    def canonical_builtin(self, name: str, path: jsonc.JsonPath) -> str | None:
        # The registry is a static table: resolving a name imports no policy. It is
        # imported here, not at the top, so a config without built-ins never loads it.
        from hookrun.hooks import registry

        canonical = registry.canonical(name)
        if canonical is None:
            known = [*registry.names(), *registry.ALIASES]
            self.error(
                path,
                f"unknown builtin {_q(name)}{did_you_mean(name, known)} "
                "(`hookrun policies` lists them)",
            )
        return canonical

    # -- helpers ----------------------------------------------------------------------

    def warn_unknown_keys(
        self, obj: dict[str, Any], known: Iterable[str], path: jsonc.JsonPath
    ) -> None:
        known = list(known)
        for key in obj:
            if key not in known:
                self.warning(
                    (*path, key),
                    f"unknown key {_q(key)} is ignored{did_you_mean(key, known)}",
                    key=True,
                )

    def validate(self, model_name: str, raw: dict[str, Any], path: jsonc.JsonPath) -> Any:
        """Validate with the pydantic model ``model_name``: the validated model, or None after
        reporting each error at its position. Only reached when the plain checks declined."""
        from pydantic import BaseModel, ValidationError

        from hookrun.config import models

        model: type[BaseModel] = getattr(models, model_name)
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            for err in exc.errors():
                self.error((*path, *err["loc"]), models.describe(err))
            return None


def _printable(text: str) -> str:
    """``text`` with lone surrogates (JSON allows "\\ud800") escaped, so that printing a
    message can never fail with UnicodeEncodeError."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def getcwd_or_empty() -> str:
    """The working directory, or "" when it was deleted under us.

    With "" a relative path is looked up as given (and is then reported as not
    found), instead of the whole load failing with a traceback.
    """
    try:
        return os.getcwd()
    except OSError:
        return ""


def _policy_on_error(name: str) -> OnError:
    """The policy's own fail mode, from its registry entry (its module is not imported)."""
    from hookrun.hooks import registry  # see canonical_builtin

    return registry.entry(name).on_error


def _q(text: str) -> str:
    from hookrun.config.quote import quote

    return quote(text)
