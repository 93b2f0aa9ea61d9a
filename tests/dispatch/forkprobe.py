"""A probe for Python code run in a forked child (tests of :mod:`hookrun.dispatch.fdpass`)."""

from __future__ import annotations

import os

from hookrun.dispatch.sentinel import SENTINEL


class ForkProbe:
    """A Python at-fork handler that writes to a pipe in every forked child it runs in:
    a ``preexec_fn`` child runs it (as it runs threading's and the sentinel's); a vfork
    or posix_spawn child, and the exec helper, do not. Handlers cannot be removed: a
    disarmed one does nothing."""

    def __init__(self) -> None:
        SENTINEL.ready()  # its own start forks (os.fork runs the handlers): before
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        self.armed = True
        os.register_at_fork(after_in_child=self._in_child)

    def _in_child(self) -> None:
        if self.armed:
            os.write(self.w, b"x")

    def written(self) -> bytes:
        try:
            return os.read(self.r, 100)
        except BlockingIOError:
            return b""

    def close(self) -> None:
        self.armed = False
        os.close(self.r)
        os.close(self.w)
