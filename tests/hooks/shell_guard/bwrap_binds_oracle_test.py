"""bwrap's writable bind mounts: a path inside the sandbox is the host path bound there.

``bwrap --bind / /x rm -rf /x`` was judged as ``rm -rf /x`` (outside the workspace), and
``bwrap --bind /tmp/x / rm -rf /`` as ``rm -rf /``. Now each absolute argument of the
command bwrap runs stands for the host path the writable bind (``--bind``, ``--dev-bind``,
their ``-try`` forms) holding it maps it to, and for each writable bind's source mounted
below it (rm recurses into a mount). A read-only bind is not followed (rm fails there); a
path no writable bind reaches is judged as the host's.

The oracle is bwrap 0.8 running real rm on a temp tree (``--dev-bind / /`` so the host is
seen, every bind inside the temp dir): which of the dirs a, b, c lost their file ``f``
must be exactly the dirs the judged command's targets reach. Runs when bwrap can make a
sandbox here.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.shell_guard.parse import parse_script
from hookrun.hooks.shell_guard.unwrap import unwrap

from .redteam import judge


def _bwrap_works() -> bool:
    if shutil.which("bwrap") is None:
        return False
    probe = subprocess.run(
        ["bwrap", "--dev-bind", "/", "/", "true"], capture_output=True, timeout=60, check=False
    )
    return probe.returncode == 0


# {T}: the temp root (a, b, c hold a file f; m is an empty mount point; a/x too)
ORACLE_ROWS = [
    "bwrap --dev-bind / / --bind {T}/a {T}/m rm -rf {T}/m",
    "bwrap --dev-bind / / --bind {T}/a {T}/m rm -f {T}/m/f",
    "bwrap --dev-bind / / --bind {T}/a {T}/m rm -rf {T}/b",
    "bwrap --dev-bind / / --bind {T}/b {T}/a/x rm -rf {T}/a",
    "bwrap --dev-bind / / --bind {T}/a {T}/m --bind {T}/b {T}/m/x rm -rf {T}/m",
    "bwrap --dev-bind / / --ro-bind {T}/a {T}/m rm -rf {T}/m",
    "bwrap --dev-bind / / --bind-try {T}/c {T}/m rm -rf {T}/m/f {T}/b/f",
    "bwrap --dev-bind / / --bind {T}/a {T}/m --chdir {T}/m rm -rf {T}/m",
]

# judged (HOME /home/dev, the project /home/dev/proj): (line, rule)
BLOCKED = [
    ("bwrap --bind / /x rm -rf /x", "delete.catastrophic"),
    ("bwrap --dev-bind / /host rm -rf /host/etc", "delete.catastrophic"),
    ("bwrap --ro-bind / / --bind /home/dev /h rm -rf /h", "delete.catastrophic"),
    ("bwrap --bind /tmp/x / --bind /home /home rm -rf /", "delete.catastrophic"),
    ("bwrap --bind /usr /mnt/usr rm -rf /mnt/usr", "delete.catastrophic"),
    ("bwrap --ro-bind / / --bind /home/dev/proj /w rm -rf /w/src", "delete.recursive-force"),
    ("bwrap --bind /etc /sandbox/etc rm -rf /sandbox", "delete.catastrophic"),
    ("bwrap --dev-bind / / rm -rf /etc", "delete.catastrophic"),
    ("bwrap --bind-try /var /v rm -rf /v/lib", "delete.catastrophic"),
    ("bwrap --unshare-all --bind /srv /data -- rm -rf /data", "delete.catastrophic"),
]
ALLOWED = [
    "bwrap --bind /tmp/x / rm -rf /",
    "bwrap --ro-bind / / --bind /tmp/w /home/dev/proj rm -rf /home/dev/proj",
    "bwrap --ro-bind / / --bind /tmp/s /s rm -rf /s/build",
    "bwrap --bind /home/dev /h rm -rf /h/proj/dist",
    "bwrap --ro-bind / / --bind /home/dev/proj /w rm -rf /w/node_modules",
    "bwrap --bind /tmp/root / --ro-bind /usr /usr rm -rf /work",
    "bwrap --ro-bind / / --tmpfs /tmp rm -rf /tmp/x",
    "bwrap --bind /tmp/a /a --bind /tmp/b /a/b rm -rf /a",
    "bwrap --ro-bind / / --bind /tmp/w /w ls -la /w",
    "bwrap --dev-bind / / rm -rf /tmp/build",
]


def _tree(root: Path) -> None:
    for name in ("a", "b", "c"):
        (root / name).mkdir()
        (root / name / "f").write_text(name)
    (root / "a" / "x").mkdir()
    (root / "m").mkdir()


def _reached(line: str, dirs: list[Path]) -> set[str]:
    """The dirs whose file ``f`` the judged layer's targets reach."""
    [cmd] = parse_script(line).commands
    layers, _ = unwrap(cmd)
    targets = [w.text for w in layers[-1].argv[1:] if w.static and w.text.startswith("/")]
    return {
        d.name
        for d in dirs
        for t in targets
        if str(d / "f") == t or str(d).startswith(t.rstrip("/") + "/") or str(d) == t
    }


@pytest.mark.skipif(not _bwrap_works(), reason="bwrap cannot make a sandbox here")
@pytest.mark.parametrize("template", ORACLE_ROWS)
def test_rm_in_bwrap_deletes_what_the_binds_map_its_targets_to(
    tmp_path: Path, template: str
) -> None:
    _tree(tmp_path)
    line = template.replace("{T}", str(tmp_path))
    subprocess.run(["bash", "-c", line], capture_output=True, timeout=60, check=False)
    dirs = [tmp_path / n for n in ("a", "b", "c")]
    emptied = {d.name for d in dirs if not (d / "f").exists()}
    assert emptied == _reached(line, dirs), (line, emptied)


@pytest.mark.parametrize(("line", "rule"), BLOCKED, ids=[r[0] for r in BLOCKED])
def test_a_delete_through_a_bind_is_judged_on_the_host_path(line: str, rule: str) -> None:
    verdict = judge(line)
    assert verdict.decision == "deny", line
    assert f"[{rule}]" in (verdict.reason or ""), verdict.reason


@pytest.mark.parametrize("line", ALLOWED)
def test_a_delete_the_binds_keep_off_the_host_passes(line: str) -> None:
    verdict = judge(line)
    assert verdict.decision is None, verdict.reason
