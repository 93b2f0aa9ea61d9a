"""``hookrun policies``: the built-in policies, or the prompt lines of those a config uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hookrun.cli.configfiles import config_files, load_config, resolve_cwd
from hookrun.cli.trace import table
from hookrun.hooks import registry

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams
    from hookrun.config.spec import Config


def policy_rows() -> list[list[str]]:
    """One row per built-in: name, aliases, events, summary — from the registry's table,
    so listing imports no policy."""
    rows = [["policy", "aliases", "events", "summary"]]
    for name in registry.names():
        entry = registry.entry(name)
        aliases = ", ".join(sorted(entry.aliases))
        rows.append([name, aliases or "-", ",".join(entry.events), entry.summary])
    return rows


def active_builtins(config: Config) -> list[str]:
    """Canonical names of the built-ins a config uses, in config order, once each."""
    seen: list[str] = []
    for specs in config.hooks.values():
        for spec in specs:
            if spec.builtin and spec.builtin not in seen:
                seen.append(spec.builtin)
    return seen


def policies_command(*, prompt: bool, configs: Sequence[str], streams: Streams) -> int:
    if not prompt:
        streams.stdout.write(table(policy_rows()) + "\n")
        return 0
    cwd = resolve_cwd()
    config = load_config(configs, cwd)
    names = active_builtins(config)
    if not names:
        files = ", ".join(config_files(configs, cwd)) or "no config found"
        streams.stderr.write(f"hookrun: no built-in policy is used by the config ({files})\n")
        return 0
    for name in names:
        line = registry.entry(name).prompt.strip()
        if line:
            streams.stdout.write(line + "\n")
    return 0
