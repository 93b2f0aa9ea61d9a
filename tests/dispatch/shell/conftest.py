"""The ``run`` fixture: run a script in a fresh in-process shell, in ``tmp_path``."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import pytest

from tests.dispatch.shell.shellrun import Ran, Runner, base_env, make_shell


@pytest.fixture
def run(tmp_path: os.PathLike[str]) -> Runner:
    """``run(source, stdin=b"", env=None, args=(), cwd=tmp_path)`` → :class:`Ran`."""

    def go(
        source: str,
        *,
        stdin: bytes = b"",
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
        cwd: str | None = None,
        timeout: float | None = 30.0,
        platform: str | None = None,
    ) -> Ran:
        shell, out, err, procs = make_shell(
            cwd=cwd or str(tmp_path),
            env=base_env() if env is None else env,
            stdin=stdin,
            timeout=timeout,
            platform=platform,
        )
        try:
            code = shell.run_script(source, args=args)
        finally:
            started = len(procs.procs)
            procs.end_all()
        out.finish(10)
        err.finish(10)
        return Ran(
            code,
            out.data.decode("utf-8", "replace"),
            err.data.decode("utf-8", "replace"),
            shell.route,
            started,
        )

    return go
