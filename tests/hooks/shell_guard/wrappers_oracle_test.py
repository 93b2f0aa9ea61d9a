"""Wrappers, package runners and rsync, with the real programs as the oracle.

* **Exec wrappers** (valgrind, gdb, perf, strace, setsid, flock, taskset, chrt, …): each
  line runs a probe — a tiny compiled program that writes its directory and arguments to
  a file and does nothing else — in the wrapped command's place. The probe must have run
  with exactly the arguments (and in the directory) of the layer shell-guard judges.
  Only the wrappers installed here run; the others are skipped.
* **rsync**: each argument form runs against a temp tree (an empty source, a receiving
  tree with files); the files it deleted must lie under the receiving directories
  :func:`~hookrun.hooks.shell_guard.rules.delete.rsync_reading` names, and it must have
  deleted something exactly when that reading names one. Runs when ``rsync`` is on PATH
  (or ``HOOKRUN_RSYNC`` names it).
* **Package runners**: npx/npm/pnpm/yarn run a package's bin on a temp victim
  directory; runs when ``HOOKRUN_NPM_ORACLE`` names a directory whose ``node_modules``
  holds rimraf, del-cli, shx, pnpm and yarn (none is fetched by the test).

Nothing outside the test's temp dir is touched: the probe deletes nothing, and rsync and
the package runners are given only paths inside it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookrun.hooks.shell_guard.model import Word
from hookrun.hooks.shell_guard.parse import parse_script
from hookrun.hooks.shell_guard.paths import cwd_of
from hookrun.hooks.shell_guard.rules.delete import rsync_reading
from hookrun.hooks.shell_guard.unwrap import unwrap

_PROBE_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    const char *log = getenv("PROBE_LOG");
    char cwd[4096];
    if (!log || !getcwd(cwd, sizeof cwd)) return 3;
    FILE *f = fopen(log, "w");
    if (!f) return 4;
    fprintf(f, "%s\n", cwd);
    for (int i = 1; i < argc; i++) fprintf(f, "%s\n", argv[i]);
    fclose(f);
    return 0;
}
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler for the probe")
    base = tmp_path_factory.mktemp("probe")
    (base / "probe.c").write_text(_PROBE_C)
    subprocess.run([cc, "-O", "-o", str(base / "probe"), str(base / "probe.c")], check=True)
    return base / "probe"


# {P}: the probe; {T}: a temp dir. The probe stands where the line's program would be.
EXEC_LINES = [
    "valgrind -q {P} -rf /",
    "valgrind --tool=memcheck --leak-check=full -q {P} -rf /",
    "gdb -batch -ex run --args {P} -rf /",
    "perf stat -e task-clock -o {T}/stat.txt {P} -rf /",
    "perf record -q -o {T}/perf.data -- {P} -rf /",
    "strace -f -o /dev/null {P} -rf /",
    "setsid -w {P} -rf /",
    "flock {T}/lk {P} -rf /",
    "taskset -c 0 {P} -rf /",
    "chrt -o 0 {P} -rf /",
    "ionice -c3 {P} -rf /",
    "nice -n 5 {P} -rf /",
    "timeout 5 {P} -rf /",
    "stdbuf -oL {P} -rf /",
    "nohup {P} -rf /",
    "prlimit --nofile=100 {P} -rf /",
    "time {P} -rf /",
    "env -C {T} {P} -rf x",
    "env --chdir={T} {P} -rf x",
    "setsid -w flock {T}/lk taskset -c 0 {P} -rf /",
    "cpulimit -l 50 -- {P} -rf /",
    "hyperfine --runs 1 '{P} -rf /'",
    # bubblewrap: its options take 0-3 words each; --chdir moves the command
    "bwrap --bind / / {P} -rf /",
    "bwrap --bind / / --chdir {T} {P} -rf x",
    "bwrap --ro-bind / / --bind {T} {T} --dev /dev --setenv A B --symlink a {T}/l -- {P} -rf /",
    "bwrap --dev-bind / / --unshare-pid --die-with-parent --perms 0700 --dir /tmp/q {P} -rf /",
    "unshare -r {P} -rf /",
    "chroot / {P} -rf /",
]


def _layer_for(line: str, probe: Path) -> tuple[list[str], str | None] | None:
    """The argv (after the program) and directory of the layer running ``probe``."""
    for cmd in parse_script(line).commands:
        layers, nested = unwrap(cmd)
        for layer in layers:
            if layer.argv and layer.argv[0].text == str(probe):
                return [w.text for w in layer.argv[1:]], _cwd(layer.cd)
        for n in nested:
            found = _layer_for(n.code, probe)
            if found is not None:
                return found
    return None


def _cwd(cd: tuple[Word, ...]) -> str | None:
    if not cd:
        return None
    from hookrun.hooks.shell_guard.judging import Where
    from hookrun.hooks.shell_guard.options import ShellGuardOptions

    where = Where("/start", None, None, ("/tmp",), (), ShellGuardOptions())
    return cwd_of(cd, where)


@pytest.mark.parametrize("template", EXEC_LINES)
def test_the_wrapper_runs_the_layer_shell_guard_judges(
    tmp_path: Path, probe: Path, template: str
) -> None:
    program = template.split()[0]
    if shutil.which(program) is None and program != "time":
        pytest.skip(f"{program} is not installed")
    line = template.format(P=probe, T=tmp_path)
    log = tmp_path / "probe.log"
    env = {**os.environ, "PROBE_LOG": str(log)}
    start = tmp_path / "start"  # (not {T}: a wrapper's directory option must show)
    start.mkdir()
    subprocess.run(
        ["bash", "-c", line],
        cwd=start,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )
    if not log.exists():  # (perf without perf_event access, a sandbox without userns…)
        pytest.skip(f"{program} did not run its command here")
    ran_in, *ran_args = log.read_text().splitlines()
    judged = _layer_for(line, probe)
    assert judged is not None, f"shell-guard sees no layer running the probe in {line!r}"
    args, cwd = judged
    assert args == ran_args
    assert os.path.realpath(cwd or str(start)) == os.path.realpath(ran_in)


def test_gdb_without_run_loads_the_program_and_runs_it_on_the_next_run(
    tmp_path: Path, probe: Path
) -> None:
    """``gdb --args CMD`` alone runs nothing (stdin at its end); shell-guard judges it as
    running CMD, which the next ``run`` does: conservative on purpose."""
    if shutil.which("gdb") is None:
        pytest.skip("gdb is not installed")
    log = tmp_path / "probe.log"
    env = {**os.environ, "PROBE_LOG": str(log)}
    line = f"gdb -q --args {probe} -rf /"
    subprocess.run(["bash", "-c", line], env=env, input=b"", capture_output=True, timeout=60)
    assert not log.exists()
    subprocess.run(["bash", "-c", line], env=env, input=b"run\n", capture_output=True, timeout=60)
    assert log.read_text().splitlines()[1:] == ["-rf", "/"]
    assert _layer_for(line, probe) == (["-rf", "/"], None)


# -- rsync ----------------------------------------------------------------------------

RSYNC_FORMS = [
    "-a --delete empty/ dest/",
    "-a --delete empty/ dest",
    "-a --delete empty dest/",
    "-a --del empty/ dest/",
    "-a --delete-after empty/ dest/",
    "-a --delete-delay empty/ dest/",
    "-a --delete-before empty/ dest/",
    "-r --delete empty/ dest/",
    "-d --delete empty/ dest/",
    "--recursive --delete empty/ dest/",
    "-a --delete empty/. dest/",
    "-a --delete -n empty/ dest/",
    "-an --delete empty/ dest/",
    "-a --dry-run --delete empty/ dest/",
    "--delete empty/ dest/",
    "-a --list-only --delete empty/ dest/",
    "-a --delete --max-delete=0 empty/ dest/",
    "-a --delete-excluded --exclude=* src/ dest/",
    "-a --delete empty/ src/ dest/",
    "-a --delete -e ssh empty/ dest/",
    "-a --delete --exclude keep empty/ dest/",
    "-a empty/ dest/",
    "-a --delete src/sub dest/",
]


def _rsync() -> str | None:
    return os.environ.get("HOOKRUN_RSYNC") or shutil.which("rsync")


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.skipif(_rsync() is None, reason="rsync is not installed")
@pytest.mark.parametrize("form", RSYNC_FORMS)
def test_rsync_deletes_under_the_receiving_directories_it_is_read_to(
    tmp_path: Path, form: str
) -> None:
    (tmp_path / "empty").mkdir()
    for d in ("src/sub", "dest/keep", "dest/empty", "dest/sub"):
        (tmp_path / d).mkdir(parents=True)
    for f in ("src/x", "src/sub/y", "dest/a", "dest/keep/b", "dest/empty/z", "dest/sub/w"):
        (tmp_path / f).write_text("data")
    before = _files(tmp_path / "dest")
    rsync = _rsync()
    assert rsync is not None
    subprocess.run(
        ["bash", "-c", f"{rsync} {form}"],
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
        check=False,
    )
    deleted = before - _files(tmp_path / "dest")
    script = parse_script(f"rsync {form}")
    reading = rsync_reading(script.commands[0].args)
    receiving = [w.text.rstrip("/").removeprefix("dest").lstrip("/") for w in reading.receiving]
    for path in deleted:
        assert any(r == "" or path == r or path.startswith(r + "/") for r in receiving), (
            form,
            path,
            receiving,
        )
    assert bool(deleted) == bool(receiving), (form, deleted, receiving)
    sources = [w.text for w in script.commands[0].args if not w.text.startswith("-")][:-1]
    if len(receiving) == 1 and len(sources) == 1 and "exclude" not in form:
        # One source: exactly what the receiving directory holds that the source lacks.
        r = receiving[0]
        src = sources[0].rstrip("/").removesuffix("/.") if r == "" or "/" in sources[0] else ""
        has = _files(tmp_path / src) if src else _files(tmp_path / sources[0])
        under = {f for f in before if r == "" or f.startswith(r + "/")}
        expected = {f for f in under if (f[len(r) + 1 :] if r else f) not in has}
        assert deleted == expected, (form, deleted, expected)


# rsync's remote shell (`-e CMD`, `--rsh=CMD`) runs CMD here with the host and the remote
# rsync's arguments after it. {P}: the probe as that shell.
RSH_LINES = [
    "rsync -e '{P} -rf' src/ host:dst",
    "rsync -avze '{P} -rf' src/ host:dst",
    "rsync --rsh='{P} -rf' src/ host:dst",
    "rsync --rsh '{P} -rf' host:src/ dst",
    "rsync -a -e '{P} -rf' src/ u@host:~",
    "rsync -e '{P} -rf' src/ host:",
    "rsync -a --delete -e '{P} -rf' src/ host:/srv/app",
    "RSYNC_RSH='{P} -rf' rsync -a src/ host:dst",
]


@pytest.mark.skipif(_rsync() is None, reason="rsync is not installed")
@pytest.mark.parametrize("template", RSH_LINES)
def test_rsync_runs_its_remote_shell_as_shell_guard_judges_it(
    tmp_path: Path, probe: Path, template: str
) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "f").write_text("data")
    log = tmp_path / "probe.log"
    rsync = _rsync()
    assert rsync is not None
    line = template.format(P=probe)
    subprocess.run(
        ["bash", "-c", line.replace("rsync ", f"{rsync} ", 1)],
        cwd=tmp_path,
        env={**os.environ, "PROBE_LOG": str(log)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        check=False,
    )
    _, *ran_args = log.read_text().splitlines()
    judged = _layer_for(line, probe)
    assert judged is not None, f"shell-guard sees no layer running the probe in {line!r}"
    # (the remote rsync's options, `-logDtpre.iLsfxCIvu`, `--delete`, are not spelled out)
    server = ran_args.index("--server")
    kept = [a for a in ran_args[server + 1 :] if a == "--sender" or not a.startswith("-")]
    assert judged[0] == [*ran_args[: server + 1], *kept]


# -- package runners ------------------------------------------------------------------

NPM_LINES = [
    # (line, bin the layer runs, deletes the victim)
    ("npx rimraf {V}", "rimraf", True),
    ("npm exec -- rimraf {V}", "rimraf", True),
    ("npm x rimraf {V}", "rimraf", True),
    ("npx shx rm -rf {V}", "shx", True),
    ("npx del-cli --force {V}", "del-cli", True),
    ("npx del-cli {V}", "del-cli", False),  # refused: outside its working directory
    ("npx del-cli -d --force {V}", "del-cli", False),  # a dry run
    ("pnpm exec rimraf {V}", "rimraf", True),
    ("pnpm rimraf {V}", "rimraf", True),
    ("yarn rimraf {V}", "rimraf", True),
    ("yarn exec rimraf {V}", "rimraf", True),
    ("yarn run rimraf {V}", "rimraf", True),
]


def _npm_dir() -> Path | None:
    value = os.environ.get("HOOKRUN_NPM_ORACLE")
    return Path(value) if value and (Path(value) / "node_modules" / ".bin").is_dir() else None


@pytest.mark.skipif(_npm_dir() is None, reason="HOOKRUN_NPM_ORACLE names no node_modules")
@pytest.mark.parametrize(("template", "program", "deletes"), NPM_LINES)
def test_package_runner_runs_the_bin_shell_guard_judges(
    tmp_path: Path, template: str, program: str, deletes: bool
) -> None:
    npm = _npm_dir()
    assert npm is not None
    project = tmp_path / "proj"
    project.mkdir()
    (project / "node_modules").symlink_to(npm / "node_modules")
    (project / "package.json").write_text('{"name": "p", "version": "1.0.0"}')
    victim = tmp_path / "victim"
    (victim / "a").mkdir(parents=True)
    (victim / "a" / "f").write_text("x")
    line = template.format(V=victim)
    env = {**os.environ, "PATH": f"{npm / 'node_modules' / '.bin'}:{os.environ['PATH']}"}
    subprocess.run(
        ["bash", "-c", line],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=180,
        check=False,
    )
    assert victim.exists() is not deletes
    layers = [
        [w.text for w in layer.argv]
        for cmd in parse_script(line).commands
        for layer in unwrap(cmd)[0]
    ]
    assert any(argv[:1] == [program] and str(victim) in argv for argv in layers), layers
