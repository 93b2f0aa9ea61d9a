"""The programs that run another program, and how their own options look.

:mod:`~hookrun.hooks.shell_guard.unwrap` peels these (``sudo -u x env -i timeout 5 rm``
is judged as ``rm`` too); :mod:`~hookrun.hooks.shell_guard.heads` reads their names for
the screen. Data only, and light (no typing, no dataclasses): the screen imports it on
every call.
"""

from __future__ import annotations

from hookrun.records import NamedTuple


class Spec(NamedTuple):
    """How a wrapper's own options look, and what precedes the wrapped command."""

    short_arg: str = ""  # short options that take a value (`-u root`, `-uroot`)
    long_arg: frozenset[str] = frozenset()  # long options that take a value
    operands: int = 0  # operands before the command (timeout's DURATION)
    code_opts: frozenset[str] = frozenset()  # options whose value is shell code


def spec(short: str = "", long: str = "", operands: int = 0, code: str = "") -> Spec:
    return Spec(short, frozenset(long.split()), operands, frozenset(code.split()))


WRAPPERS: dict[str, Spec] = {
    "sudo": spec("ugpChDrRtTU", "--user --group --prompt --close-from --host --chdir --role"),
    "doas": spec("uC"),
    "pkexec": spec("", "--user"),
    "runuser": spec("ugG", "--user --group --supp-group", code="-c --command"),
    "su": spec("gGs", "--group --supp-group --shell", code="-c --command"),
    "sg": spec("", "", code="-c"),
    "env": spec("uCSP", "--unset --chdir --split-string", code="-S --split-string"),
    "command": spec(),
    "builtin": spec(),
    "exec": spec("a"),
    "nohup": spec(),
    "time": spec("fo", "--format --output"),
    "nice": spec("n", "--adjustment"),
    "ionice": spec("cnp", "--class --classdata --pid"),
    "timeout": spec("sk", "--signal --kill-after", operands=1),
    "stdbuf": spec("ioe", "--input --output --error"),
    "setsid": spec(),
    "unbuffer": spec(),
    "caffeinate": spec("tw"),
    "chroot": spec("", "--userspec --groups", operands=1),
    "flock": spec("wEc", "--timeout --conflict-exit-code --command", 1, code="-c --command"),
    # `taskset [-c] MASK|LIST CMD`: -c only says how the operand reads
    "taskset": spec("", "", operands=1),
    # `chrt [-o|-b|-f|-i|-r|-d] PRIORITY CMD`
    "chrt": spec("TPD", "--sched-runtime --sched-period --sched-deadline", operands=1),
    "prlimit": spec("po", "--pid --output"),  # (limits: `--nofile=N`, `-nN`, attached)
    "fakeroot": spec("lsib", "--lib --faked"),
    "unshare": spec(
        "SGRw",
        "--setuid --setgid --root --wd --map-user --map-group --map-users --map-groups "
        "--propagation",
    ),
    "nsenter": spec("tSGrwT", "--target --setuid --setgid --root --wd"),
    "setpriv": spec(
        "",
        "--reuid --regid --groups --inh-caps --ambient-caps --bounding-set "
        "--securebits --selinux-label --apparmor-profile --pdeathsig",
    ),
    "systemd-run": spec(
        "upEM",
        "--unit --property --description --slice --uid --gid "
        "--setenv --machine --working-directory --on-calendar",
    ),
    "firejail": spec(),
    "eatmydata": spec(),
    "faketime": spec("p", "--date-prog", operands=1),
    "cgexec": spec("g"),
    "numactl": spec(
        "CNmiplP", "--cpunodebind --membind --interleave --preferred --physcpubind --localalloc"
    ),
    "trickle": spec("udwtlsn"),
    "tsp": spec(),
    "sem": spec("jN", "--jobs --id"),
    "strace": spec("abeEIoOpPsSuUX"),
    "ltrace": spec("aAeEnoOpsSuX"),
    "proxychains": spec("f"),
    "proxychains4": spec("f"),
    "torsocks": spec("aPiu"),
    "xvfb-run": spec("fnspwe", "--server-args --server-num --auth-file --error-file"),
    "dbus-run-session": spec(),
    "chronic": spec(),
    "ifne": spec(),
    "catchsegv": spec(),
    "busybox": spec(),
    "script": spec(
        "cEIOBTmo",
        "--command --echo --log-in --log-out --log-io --log-timing --logging-format --output-limit",
        code="-c --command",
    ),
}
# `tool run CMD…` / `tool exec CMD…`: development-environment runners.
RUNNERS: dict[tuple[str, str], Spec] = {
    ("uv", "run"): spec(
        "p",
        "--with --python --project --directory --env-file --group "
        "--extra --package --from --index --script --only-group",
    ),
    ("poetry", "run"): spec("C", "--directory --project"),
    ("pipenv", "run"): spec(),
    ("pdm", "run"): spec("p", "--project"),
    ("hatch", "run"): spec(),
    ("bundle", "exec"): spec(),
    ("conda", "run"): spec("np", "--name --prefix --cwd"),
    ("mise", "exec"): spec("C", "--cd"),
    ("direnv", "exec"): spec(operands=1),
    ("nix", "develop"): spec("", "", code="-c --command"),
    ("devbox", "run"): spec(),
}
# Interpreters whose inline-code option runs shell commands as a string.
WINDOWS_SHELLS = {
    "cmd": ("/c", "/k", "/C", "/K"),
    "powershell": ("-Command", "-c"),
    "pwsh": ("-Command", "-c"),
}
