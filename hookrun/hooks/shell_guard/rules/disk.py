"""disk.*: formatting filesystems and writing raw block devices."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from hookrun.hooks.shell_guard.heads import COPIERS, FORMATTERS
from hookrun.hooks.shell_guard.judging import Call, Finding
from hookrun.hooks.shell_guard.model import Word
from hookrun.lazyre import compile as lazy_compile

# Block devices (Linux, macOS, BSD). /dev/null, /dev/zero, ttys, fds are not among them.
_DEVICE = lazy_compile(
    r"/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|r?disk\d|md\d|dm-\d|mapper/|"
    r"loop\d|sr\d|nbd\d|zd\d|mtdblock\d|ada\d|da\d|root\b|[a-z]+/by-(id|uuid|path|label)/)"
)
_WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})


def is_device(word: Word) -> bool:
    if not word.static:
        return False
    return bool(_DEVICE.match(posixpath.normpath(word.text) + "/"))


def check(call: Call) -> Iterator[Finding]:
    cmd = call.cmd
    name = cmd.name
    if name.startswith("mkfs") or name in FORMATTERS or _windows_format(cmd.args, name):
        yield call.finding(
            "disk.mkfs",
            f"{name} formats a filesystem and destroys what is on it; never run it from an agent",
        )
        return
    if name == "dd":
        for a in cmd.args:
            if a.text.startswith("of=") and is_device(Word.lit(a.text[3:])):
                yield call.finding(
                    "disk.dd-device",
                    f"dd {a.text} overwrites a block device; write to a file (of=./image.bin)",
                )
                return
    for r in cmd.redirects:
        if r.op in _WRITE_REDIRECTS and r.target is not None and is_device(r.target):
            yield call.finding(
                "disk.device-write",
                f"output redirected onto the block device {r.target.text}; write to a file",
            )
            return
    if name in COPIERS and name != "cat":
        operands = [a for a in cmd.args if not a.text.startswith("-")]
        dest = operands if name in ("tee", "shred", "blkdiscard") else operands[-1:]
        for word in dest:
            if is_device(word):
                yield call.finding(
                    "disk.device-write",
                    f"{name} writes onto the block device {word.text}; write to a file",
                )
                return


def _windows_format(args: tuple[Word, ...], name: str) -> bool:
    """``format C:`` (cmd.exe) formats a drive."""
    return name.lower() == "format" and any(re.fullmatch(r"[A-Za-z]:", a.text) for a in args)
