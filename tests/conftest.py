"""Shared set-up for the whole suite."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile

# A suite started as a background job of a shell without job control (`cmd &` in a
# script, nohup, some CI runners) inherits SIGINT and SIGQUIT *ignored*, and so does
# every process it starts: the tests that deliver a real Ctrl-C to a host or to
# `hookrun run` would then test nothing but the ignore. Give this process, and through
# it every child, the interactive default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if hasattr(signal, "SIGQUIT") and signal.getsignal(signal.SIGQUIT) is signal.SIG_IGN:
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
# nohup starts it with SIGHUP ignored: bash then lists that inherited ignore in `trap -p`
# and the bash-confirmed tables compare it with an in-process shell that never saw it;
# the SIGHUP tests of `hookrun run` would test the ignore too.
if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

# Every `hookrun run`, and every in-process load through hookrun.config.cache, stores the
# compiled config under the user cache dir ($XDG_CACHE_HOME, else ~/.cache; on Windows
# there is no cache). A test that does not pick its own would write into the real
# ~/.cache/hookrun of whoever runs the suite: the session gets a throw-away one,
# inherited by every process it starts. Tests of the cache itself set theirs (or remove
# this one to reach the ~/.cache default under a HOME of their own).
_SESSION_CACHE = tempfile.mkdtemp(prefix="hookrun-test-cache-")
os.environ["XDG_CACHE_HOME"] = _SESSION_CACHE
# Likewise the user config ($XDG_CONFIG_HOME/hookrun/hooks.json, else ~/.config/...):
# every `hookrun run` without --config merges it, so a developer's own hooks would run
# inside the suite's tests and change their answers. The session points it at an empty
# dir; tests of the user config set theirs.
_SESSION_CONFIG = tempfile.mkdtemp(prefix="hookrun-test-config-")
os.environ["XDG_CONFIG_HOME"] = _SESSION_CONFIG


def pytest_unconfigure() -> None:
    shutil.rmtree(_SESSION_CACHE, ignore_errors=True)
    shutil.rmtree(_SESSION_CONFIG, ignore_errors=True)
