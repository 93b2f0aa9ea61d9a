"""check(): everything load() reports, plus the deeper checks of ``hookrun check``."""

from __future__ import annotations

import os
from collections.abc import Sequence

from hookrun.config.spec import ConfigIssue


def check(
    paths: Sequence[str | os.PathLike[str]], *, cwd: str | os.PathLike[str] | None = None
) -> list[ConfigIssue]:
    from hookrun.config.loader import read_all

    _, issues, _ = read_all(paths, cwd=cwd)
    return issues
