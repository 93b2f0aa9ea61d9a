"""Program names the rules and the screen both need (kept apart: the screen is
imported on every call and must stay cheap)."""

from __future__ import annotations

SHELLS = frozenset(
    ["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "csh", "tcsh", "rbash", "yash"]
)
DOWNLOADERS = frozenset(
    [
        "curl", "wget", "wget2", "fetch", "http", "https", "xh", "aria2c", "lwp-request",
        "lwp-download", "GET", "iwr", "irm", "Invoke-WebRequest", "Invoke-RestMethod",
    ]
)  # fmt: skip


def command_name(text: str) -> str:
    """The base name of a program as written: ``/usr/bin/rm`` and ``rm.exe`` are ``rm``."""
    if "/" not in text and "\\" not in text and "." not in text:
        return text  # (most names: nothing to strip)
    base = text.replace("\\", "/").rsplit("/", 1)[-1]
    if base.lower().endswith(".exe"):
        base = base[:-4]
    return base
