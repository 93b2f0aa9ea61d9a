"""The compiled-config cache: what :func:`hookrun.config.loader.load` made of a set of
config files, kept in the user cache dir for the next ``hookrun run``.

A host starts ``hookrun run`` once per tool call with the same config every time, and
reading it — the JSONC parser, the plain checks, the loader and the modules they import —
is about a quarter of a bare Python start (callgrind). A hit reads one small file and
rebuilds the :class:`Config` from it; the matchers compile on their first search.

What a hit must never do is change what the config means, so the key holds everything
the loader's answer depends on: each file's path as given, its absolute path (the
working directory counts through it) and its exact bytes; the home directory ``~``
expands to; hookrun's version, the Python version (marshal's format and
``re``'s syntax) and the size and time stamp of the loader's own source files (an
editable install keeps its version number while its code changes). The cache file is
the key and the config together, after a check of both (:func:`_check`); a file that
does not read back whole, does not match the key exactly or does not rebuild is a miss,
and the config is loaded as if there were no cache. So is every error of the cache's
own — a directory that cannot be made or written, a full disk: the cache is only ever a
shortcut.

Writers write a file of their own and rename it over the entry, so a reader sees a
whole old entry or a whole new one, whatever number of runs write at once. A write
also keeps the directory to :data:`MAX_ENTRIES` entries, dropping the least recently
written, and removes temporary files a dead writer left.

``HOOKRUN_CONFIG_CACHE=off`` turns it off. It is off where the user cache dir cannot be
found cheaply (Windows; a POSIX system without a usable ``$HOME``): asking platformdirs
would cost more than the cache saves.
"""

from __future__ import annotations

import marshal
import os
import sys
import time

from hookrun import __version__
from hookrun.boundedio import read_regular_file
from hookrun.config.discovery import absolute_config_path, cheap_user_dir
from hookrun.config.matchers import Matcher
from hookrun.config.spec import Config, ConfigIssue, HookSpec
from hookrun.records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

# Bumped when what is stored changes shape in a way the field names below do not show.
FORMAT = 2
# The largest prime below 2**64. Not zlib's CRC: loading zlib's extension module costs
# more than a cache hit saves of some configs (~0.6-1M instructions, every run).
_PRIME = (1 << 64) - 59
_MATCHER = HookSpec._fields.index("compiled_matcher")
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_HERE = os.path.dirname(os.path.abspath(__file__))
# The sources whose code decides what a config means (besides this package's own files).
_REGISTRY = os.path.join(os.path.dirname(_HERE), "hooks", "registry.py")


def load(paths: Sequence[str | os.PathLike[str]], *, cwd: str) -> Config:
    """:func:`hookrun.config.loader.load`, answered from the cache when it holds these files.

    Raises :class:`~hookrun.config.errors.ConfigError` exactly as the loader does.
    """
    entry = _entry_path(os.environ, sys.platform)
    key = _key(paths, cwd) if entry is not None else None
    if entry is not None and key is not None:
        cached = _read(entry, key)
        if cached is not None:
            return cached
    from hookrun.config import loader  # only on a miss: this is what a hit saves

    config = loader.load(paths, cwd=cwd)
    if entry is not None and key is not None and _key(paths, cwd) == key:
        # (Read again after the load: a file changed in between is not stored under
        # the bytes it had before.)
        _write(entry, key, config)
    return config


# -- where ----------------------------------------------------------------------------


def _entry_path(env: Mapping[str, str], platform: str) -> str | None:
    """Where entries go: ``<platformdirs user cache dir>/hookrun/configs``, found without
    importing platformdirs (:func:`~hookrun.config.discovery.cheap_user_dir`), else none."""
    if env.get("HOOKRUN_CONFIG_CACHE", "").lower() == "off":
        return None
    folder = cheap_user_dir("cache", env, platform)
    return None if folder is None else os.path.join(folder, "configs")


def _name(text: str) -> str:
    """A file name for ``text`` (its bytes as one integer, modulo a 64-bit prime). Not a
    proof of anything: the entry holds its whole key, and a collision is only a miss."""
    data = text.encode("utf-8", "surrogatepass")
    return f"{int.from_bytes(data, 'big') % _PRIME:016x}.bin"


# -- the key --------------------------------------------------------------------------


def _stamps() -> tuple[tuple[str, int, int], ...]:
    found = []
    for path in (*(e.path for e in os.scandir(_HERE) if e.name.endswith(".py")), _REGISTRY):
        st = os.stat(path)
        found.append((os.path.basename(path), st.st_size, st.st_mtime_ns))
    return tuple(sorted(found))


def _key(paths: Sequence[str | os.PathLike[str]], cwd: str) -> tuple[Any, ...] | None:
    """Everything the loader's answer depends on, or None when it cannot be known (a file
    that cannot be read: the loader says why)."""
    files = []
    try:
        for path in paths:
            given = os.fspath(path)
            full = absolute_config_path(cwd, given)
            files.append((given, full, read_regular_file(full)))
        stamps = _stamps()
    except Exception:  # noqa: BLE001 — missing, refused, unreadable: the loader reports it
        return None
    return (
        FORMAT,
        __version__,
        sys.version,
        stamps,
        (HookSpec._fields, Config._fields, ConfigIssue._fields),
        os.path.expanduser("~"),
        tuple(files),  # the working directory counts only through the absolute paths
    )


# -- the file -------------------------------------------------------------------------


def _file_of(folder: str, key: tuple[Any, ...]) -> str:
    return os.path.join(folder, _name("\0".join(f"{given}\0{full}" for given, full, _ in key[-1])))


def _check(data: bytes) -> bytes:
    """A torn or damaged entry is a miss, not a config: the length (a torn entry), and the
    bytes as one integer modulo a prime of 64 bits, which any damage confined to 63
    consecutive bits changes (the difference is that burst shifted: no multiple of p)."""
    residue = int.from_bytes(data, "big") % _PRIME
    return (len(data) & 0xFFFFFFFF).to_bytes(4, "big") + residue.to_bytes(8, "big")


def _read(folder: str, key: tuple[Any, ...]) -> Config | None:
    try:
        with open(_file_of(folder, key), "rb") as fh:
            data = fh.read()
        check, body = data[:12], data[12:]
        if _check(body) != check:
            return None
        stored_key, payload = marshal.loads(body)
        if stored_key != key:
            return None
        return _rebuild(payload)
    except Exception:  # noqa: BLE001 — missing, unreadable, torn, foreign: a miss
        return None


def _write(folder: str, key: tuple[Any, ...], config: Config) -> None:
    try:
        body = marshal.dumps((key, _flatten(config)))
    except ValueError:  # a value marshal cannot write: not cached
        return
    # folder is <base>/hookrun/configs, base ~/.cache or $XDG_CACHE_HOME: what is made
    # is at most the base and below it, never the directory holding it (a HOME that
    # does not exist — a sandbox's, a test's — stays so, whoever runs hookrun).
    base = os.path.dirname(os.path.dirname(folder))
    if not os.path.isdir(os.path.dirname(base)):
        return
    target = _file_of(folder, key)
    temporary = f"{target}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        # The user's own, like the config files it copies (their env values may be
        # secrets): a private directory, and files only the user can read.
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(_check(body) + body)
        os.replace(temporary, target)  # atomic: readers see a whole entry
    except OSError:  # read-only, full, gone: the cache is a shortcut only
        _remove(temporary)
        return
    _prune(folder)


# Entries kept: one per set of config files, and tests or benches in temporary
# directories make new sets all the time. On a write (a miss), past this many the
# least recently written go; a config still in use is simply written again.
MAX_ENTRIES = 128
# A temporary file older than this is a writer's that died before its rename.
STALE_SECONDS = 600.0


def _prune(folder: str) -> None:
    entries: list[tuple[float, str]] = []
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                stamp = item.stat().st_mtime
                if item.name.endswith(".bin"):
                    entries.append((stamp, item.path))
                elif item.name.endswith(".tmp") and stamp < time.time() - STALE_SECONDS:
                    _remove(item.path)
    except OSError:
        return
    entries.sort()
    for _, path in entries[: max(0, len(entries) - MAX_ENTRIES)]:
        _remove(path)


def _remove(path: str) -> None:
    try:  # noqa: SIM105 - contextlib is not imported for one line on the start-up path
        os.unlink(path)
    except OSError:  # gone already (another writer pruned it), or not ours to remove
        pass


# -- config ↔ plain data (what marshal writes) ----------------------------------------


def _flatten(config: Config) -> tuple[Any, ...]:
    hooks = []
    for event, specs in config.hooks.items():
        rows = []
        for spec in specs:
            row: list[Any] = list(spec)
            matcher = spec.compiled_matcher
            row[_MATCHER] = None if matcher is None else (matcher.pattern, matcher.plain)
            rows.append(tuple(row))
        hooks.append((event, tuple(rows)))
    return (
        tuple(hooks),
        config.audit_log,
        config.paths,
        tuple(tuple(issue) for issue in config.warnings),
        config.telemetry,
        config.audit_payload,
    )


def _rebuild(payload: tuple[Any, ...]) -> Config:
    hooks, audit_log, paths, warnings, telemetry, audit_payload = payload
    events: dict[str, tuple[HookSpec, ...]] = {}
    for event, rows in hooks:
        specs = []
        for row in rows:
            fields = list(row)
            matcher = fields[_MATCHER]
            if matcher is not None:
                fields[_MATCHER] = Matcher.restored(matcher[0], plain=matcher[1])
            specs.append(HookSpec(*fields))
        events[event] = tuple(specs)
    return Config(
        hooks=events,
        audit_log=audit_log,
        paths=paths,
        warnings=tuple(ConfigIssue(*issue) for issue in warnings),
        telemetry=telemetry,
        audit_payload=audit_payload,
    )
