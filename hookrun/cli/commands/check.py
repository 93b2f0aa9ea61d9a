"""``hookrun check``: every issue of a config, with its location, without running it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hookrun.cli.configfiles import config_files, resolve_cwd, where_discovery_looks

if TYPE_CHECKING:
    from hookrun.cli.commands.run import Streams


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def check_command(configs: Sequence[str], streams: Streams) -> int:
    """Print every issue with its location; exit 1 when any is an error."""
    cwd = resolve_cwd()
    files = config_files(configs, cwd)
    if not files:
        looked = " and ".join(where_discovery_looks(cwd))
        streams.stdout.write(f"no config found (looked for {looked}); nothing to check\n")
        return 0
    from hookrun.checks import check

    issues = check(files, cwd=cwd)
    for issue in issues:
        streams.stdout.write(f"{issue}\n")
    errors = sum(1 for issue in issues if issue.severity == "error")
    warnings = len(issues) - errors
    streams.stdout.write(
        f"checked {', '.join(files)}: {_plural(errors, 'error')}, {_plural(warnings, 'warning')}\n"
    )
    return 1 if errors else 0
