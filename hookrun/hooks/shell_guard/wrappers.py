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
    chdir_opts: frozenset[str] = frozenset()  # options whose value is where the command runs


def spec(
    short: str = "", long: str = "", operands: int = 0, code: str = "", chdir: str = ""
) -> Spec:
    return Spec(
        short, frozenset(long.split()), operands, frozenset(code.split()), frozenset(chdir.split())
    )


WRAPPERS: dict[str, Spec] = {
    "sudo": spec(
        "ugpChDrRtTU",
        "--user --group --prompt --close-from --host --chdir --role",
        chdir="-D --chdir",
    ),
    "doas": spec("uC"),
    "pkexec": spec("", "--user"),
    "runuser": spec("ugG", "--user --group --supp-group", code="-c --command"),
    "su": spec("gGs", "--group --supp-group --shell", code="-c --command"),
    "sg": spec("", "", code="-c"),
    "env": spec(
        "uCSP", "--unset --chdir --split-string", code="-S --split-string", chdir="-C --chdir"
    ),
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
        chdir="-w --wd",
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
        chdir="--working-directory",
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
    # debuggers, profilers and tracers that run the program given them
    "valgrind": spec(),  # (its options are all --name=value)
    "perf": spec(),  # (`perf record|stat|trace …`: unwrap reads the subcommand)
    "rr": spec(),  # `rr record CMD`
    "heaptrack": spec("o", "--output"),
    "uftrace": spec(),
    "hyperfine": spec(),  # (unwrap: each operand is shell code)
    "gdb": spec(),  # (`gdb --args CMD…`: unwrap)
    "lldb": spec(),  # (`lldb -- CMD…`: unwrap)
    # process supervisors, limiters and privilege droppers that exec their command
    "cpulimit": spec("lpe", "--limit --pid --exe"),
    "tini": spec("spwe"),
    "dumb-init": spec("r", "--rewrite"),
    "gosu": spec(operands=1),  # `gosu USER CMD`
    "su-exec": spec(operands=1),
    "setuidgid": spec(operands=1),
    "chpst": spec("ugUe/nlLmdosaprcft"),
    "nocache": spec(),
    "torify": spec(),
    "tsocks": spec(),
    "arch": spec("e"),  # macOS `arch -arm64 CMD`, `arch -arch x86_64 CMD` (unwrap)
    "sandbox-exec": spec("fpD"),
    "shx": spec(),  # npm's portable shell commands: `shx rm -rf dist`
    "cross-env": spec(),  # `cross-env A=1 CMD` (NAME=value words are skipped)
    "dotenv": spec("ecv"),  # dotenv-cli: `dotenv -e .env -- CMD`
    "env-cmd": spec("fer", "--file --environments"),
    "script": spec(
        "cEIOBTmo",
        "--command --echo --log-in --log-out --log-io --log-timing --logging-format --output-limit",
        code="-c --command",
    ),
}
# `tool run CMD…` / `tool exec CMD…`: development-environment runners.
RUNNERS: dict[tuple[str, str], Spec] = {
    # (uv 0.13's `uv run --help`: every option that takes a value, the global ones too)
    ("uv", "run"): spec(
        "wipfPC",
        "--extra --no-extra --group --no-group --only-group --no-editable-package --env-file "
        "--with --with-editable --with-requirements --package --python-platform --index "
        "--default-index --index-url --extra-index-url --find-links --index-strategy "
        "--keyring-provider --upgrade-package --upgrade-group --resolution --prerelease "
        "--prerelease-package --fork-strategy --exclude-newer --exclude-newer-package "
        "--no-sources-package --reinstall-package --link-mode --config-setting "
        "--config-settings-package --no-build-isolation-package --no-build-package "
        "--no-binary-package --cache-dir --refresh-package --python --color "
        "--allow-insecure-host --directory --project --config-file",
        chdir="--directory",
    ),
    ("poetry", "run"): spec("C", "--directory --project", chdir="-C --directory"),
    ("pipenv", "run"): spec(),
    ("pdm", "run"): spec("p", "--project"),
    ("hatch", "run"): spec(),
    ("bundle", "exec"): spec(),
    ("conda", "run"): spec("np", "--name --prefix --cwd", chdir="--cwd"),
    ("mise", "exec"): spec("C", "--cd", chdir="-C --cd"),
    ("direnv", "exec"): spec(operands=1),
    ("nix", "develop"): spec("", "", code="-c --command"),
    ("devbox", "run"): spec(),
}
# Package runners: run a package's program, fetched when missing (`npx rimraf ~` runs
# rimraf). The first operand is a package spec (`rimraf@3`, `@scope/pkg`): its bin.
# Their own options; `code`: an option whose value is shell code (`npx -c 'cmd'`).
PACKAGE_RUNNERS: dict[tuple[str, str], Spec] = {
    ("npx", ""): spec(
        "pcw",
        "--package --call --registry --cache --prefix --userconfig --workspace --loglevel "
        "--node-options --script-shell",
        code="-c --call",
    ),
    ("npm", "exec"): spec(
        "pcw",
        "--package --call --registry --cache --prefix --userconfig --workspace --loglevel "
        "--node-options --script-shell",
        code="-c --call",
    ),
    ("pnpx", ""): spec("", "--package"),
    ("pnpm", "dlx"): spec("", "--package --reporter"),  # (-c/--shell-mode: the rest is code)
    ("pnpm", "exec"): spec("", "--filter --reporter --workspace-concurrency"),
    ("yarn", "dlx"): spec("p", "--package"),
    ("yarn", "exec"): spec(),
    ("bunx", ""): spec("p", "--package"),
    ("bun", "x"): spec("p", "--package"),
}
PACKAGE_RUNNERS[("npm", "x")] = PACKAGE_RUNNERS[("npm", "exec")]
# Python's: `uvx TOOL ARGS` (`uv tool run`; `--from PKG CMD`: CMD is the program), `pipx
# run APP ARGS` (`--spec PKG APP`). Their options that take a value (uv 0.9's and pipx
# 1.8's --help); a tool spec's version or extras are cut off (`ruff==0.6`, `black[d]`).
PACKAGE_RUNNERS[("uvx", "")] = spec(
    "wcbCpPif",
    "--from --with --with-editable --with-requirements --constraints --build-constraints "
    "--overrides --env-file --python-platform --torch-backend --index --default-index "
    "--index-url --extra-index-url --find-links --index-strategy --keyring-provider "
    "--upgrade-package --upgrade-group --resolution --prerelease --prerelease-package "
    "--fork-strategy --exclude-newer --exclude-newer-package --no-sources-package "
    "--reinstall-package --link-mode --config-setting --config-settings-package "
    "--no-build-isolation-package --no-build-package --no-binary-package --cache-dir "
    "--refresh-package --python --color --allow-insecure-host --directory --project "
    "--config-file",
    chdir="--directory",
)
PACKAGE_RUNNERS[("pipx", "run")] = spec(
    "",
    "--python-args --with --spec --python --fetch-python --index-url --pip-args --cooldown "
    "--backend",
)
# The options after which the first operand names the program, not a package.
NAMED_PROGRAM = frozenset({"--from", "--spec"})


def _arity(count: int, names: str) -> dict[str, int]:
    return dict.fromkeys(names.split(), count)


# bubblewrap: `bwrap [OPTIONS] [--] CMD ARGS`; how many words each option takes (bwrap
# 0.8's --help; the overlay options and --argv0 from 0.9+). `--chdir DIR` moves CMD.
BWRAP_ARGS: dict[str, int] = {
    **_arity(
        1,
        "--args --userns --userns2 --pidns --uid --gid --hostname --chdir --unsetenv "
        "--lock-file --sync-fd --remount-ro --exec-label --file-label --proc --dev --tmpfs "
        "--mqueue --dir --seccomp --add-seccomp-fd --block-fd --userns-block-fd --info-fd "
        "--json-status-fd --cap-add --cap-drop --perms --size --overlay-src --tmp-overlay "
        "--ro-overlay --argv0",
    ),
    **_arity(
        2,
        "--setenv --bind --bind-try --dev-bind --dev-bind-try --ro-bind --ro-bind-try "
        "--bind-fd --ro-bind-fd --file --bind-data --ro-bind-data --symlink --chmod",
    ),
    "--overlay": 3,
}
# nix's options that take one or two words (`--arg NAME EXPR`), before or among the
# installables of `nix run` / `nix shell` and in `nix-shell`'s (nix 2.x manual).
NIX_ARGS: dict[str, int] = {
    **_arity(
        1,
        "-I --include -f --file --expr --inputs-from --update-input --reference-lock-file "
        "--output-lock-file --store --eval-store -j --max-jobs --cores --log-format -k "
        "--keep -u --unset --profile --priority --out-link -o -A --attr",
    ),
    **_arity(2, "--override-input --option --arg --argstr --override-flake"),
}
# Package managers' own options before the subcommand that take a value (`pnpm -C dir dlx`).
MANAGER_ARG = frozenset(
    ["-C", "--dir", "--prefix", "--cwd", "-w", "--workspace", "--filter", "-F", "--registry"]
    + ["--directory", "--project", "--cache-dir", "--config-file", "--color"]  # (uv's)
    + ["--allow-insecure-host", "--loglevel", "--reporter", "--userconfig", "--cache"]
)
# npm packages whose program deletes what it is given, that `yarn NAME`/`pnpm NAME` run
# from node_modules/.bin without `exec` (a script of that name would run first).
PACKAGE_DELETERS = frozenset({"rimraf", "del", "del-cli", "shx"})
# Interpreters whose inline-code option runs shell commands as a string.
WINDOWS_SHELLS = {
    "cmd": ("/c", "/k", "/C", "/K"),
    "powershell": ("-Command", "-c"),
    "pwsh": ("-Command", "-c"),
}
