"""The ``run`` fixture: run a script in a fresh in-process shell, in ``tmp_path``."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import pytest

from hookrun.dispatch.streams import BufferSource
from tests.dispatch.shell.shellrun import Ran, Runner, base_env, make_shell_and_input


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
        stdin_source = BufferSource(stdin)
        shell, out, err, procs = make_shell_and_input(
            cwd=cwd or str(tmp_path),
            env=base_env() if env is None else env,
            stdin=stdin_source,
            timeout=timeout,
            platform=platform,
        )
        try:
            code = shell.run_script(source, args=args)
        finally:
            started = len(procs.procs)
            procs.end_all()
            stdin_source.close()  # a child's stdin pipe: one descriptor per run otherwise
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
