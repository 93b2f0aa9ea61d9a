"""``hookrun policies``: the built-in policies, or the prompt lines of those a config uses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hookrun.cli.commands.policy import load_policy
from hookrun.cli.trace import table

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams
    from hookrun.config.spec import Config


def policy_rows() -> list[list[str]]:
    """One row per built-in: name, aliases, events, summary (or why it cannot load)."""
    from hookrun.hooks import registry

    rows = [["policy", "aliases", "events", "summary"]]
    for name in registry.names():
        aliases = ", ".join(a for a, target in sorted(registry.ALIASES.items()) if target == name)
        try:
            policy = registry.get(name)
        except (ImportError, AttributeError) as exc:
            rows.append([name, aliases or "-", "?", f"(not available: {exc})"])
            continue
        rows.append([name, aliases or "-", ",".join(policy.events), policy.summary])
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
    from hookrun.cli.configfiles import config_files, load_config, resolve_cwd

    cwd = resolve_cwd()
    config = load_config(configs, cwd)
    names = active_builtins(config)
    if not names:
        files = ", ".join(config_files(configs, cwd)) or "no config found"
        streams.stderr.write(f"hookrun: no built-in policy is used by the config ({files})\n")
        return 0
    for name in names:
        line = load_policy(name).prompt.strip()
        if line:
            streams.stdout.write(line + "\n")
    return 0
