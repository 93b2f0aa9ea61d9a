"""The suite's own hygiene: what it starts caches configs in a throw-away dir."""

from __future__ import annotations

import os
import sys
import tempfile

from hookrun.config.discovery import cheap_user_dir


def test_the_session_cache_dir_is_a_temporary_one_not_the_users() -> None:
    """tests/conftest.py points $XDG_CACHE_HOME, inherited by every hookrun the suite
    starts, at a temporary dir: a run of the suite leaves nothing in ~/.cache/hookrun."""
    folder = cheap_user_dir("cache", os.environ, sys.platform)
    if sys.platform == "win32":
        assert folder is None  # no config cache on Windows
        return
    assert folder is not None
    temp = os.path.realpath(tempfile.gettempdir())
    assert os.path.realpath(folder).startswith(temp + os.sep)
    home_cache = os.path.join(os.path.expanduser("~"), ".cache")
    assert not os.path.realpath(folder).startswith(os.path.realpath(home_cache) + os.sep)
