"""Labelled tables for each cause of issue 12: what shell-guard missed, and its look-alikes.

Each cause has at least ten commands that must be blocked (with the rule that
blocks them) and ten look-alikes that must pass. The project is /home/user/project
(HOME=/home/user) unless a case gives another working directory.
"""

from __future__ import annotations

import pytest

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY
from tests.hooks.shell_guard.cd_oracle_test import CD_TABLE

HOME = "/home/user"
PROJECT = "/home/user/project"
TMP_PROJECT = "/tmp/agent-run-1"

Block = tuple[str, str]  # (command, rule)

WRAPPERS: tuple[list[Block], list[str]] = (
    [
        ("parallel rm -rf {} ::: /", "delete.catastrophic"),
        ("echo / | parallel rm -rf", "delete.catastrophic"),
        ("parallel -j2 --eta rm -rf {} ::: build ~", "delete.catastrophic"),
        ("parallel ::: 'git reset --hard'", "git.reset-hard"),
        ("parallel bash -c ::: 'rm -rf /'", "delete.catastrophic"),
        ("echo / | xargs -i rm -rf", "delete.catastrophic"),
        ("echo / | xargs -J {} rm -rf {}", "delete.catastrophic"),
        ("echo / | xargs -I{} bash -c 'rm -rf {}'", "delete.catastrophic"),
        ("echo / | xargs --replace=FOO bash -c 'rm -rf FOO'", "delete.catastrophic"),
        ("env -P /usr/bin git reset --hard", "git.reset-hard"),
        ("env - git push --force", "git.force-push"),
        ("command -V git reset --hard", "git.reset-hard"),
        ("nice -n 5 ionice -c3 timeout 10 rm -rf ~", "delete.catastrophic"),
        ("stdbuf -oL nohup git clean -fdx", "git.clean-force"),
        ("doas -u root rm -rf /etc", "delete.catastrophic"),
        ("1A=2 git reset --hard", "git.reset-hard"),
    ],
    [
        "parallel rm -rf {} ::: build dist node_modules",
        "parallel gzip ::: *.log",
        "echo build | xargs rm -rf",
        "find . -name '*.py' | xargs -I{} wc -l {}",
        "echo ok | xargs -i echo {}",
        "env -P /usr/bin git status",
        "env - PATH=/usr/bin make test",
        "command -v rm",
        "nice -n 5 pytest -q",
        "timeout 60 git fetch --all",
        "sudo -u www-data ls /var/www",
        "stdbuf -oL tail -f log.txt",
    ],
)

CODE: tuple[list[Block], list[str]] = (
    [
        ("echo $(( $(rm -rf /) + 1 ))", "delete.catastrophic"),
        ("echo $((1+`git reset --hard`))", "git.reset-hard"),
        ("for ((i=0; i<$(git clean -fd); i++)); do :; done", "git.clean-force"),
        ("python3 -c 'import shutil; shutil.rmtree(\"/home/user\")'", "delete.catastrophic"),
        (
            'python -c \'import subprocess; subprocess.run(["rm","-rf","/"])\'',
            "delete.catastrophic",
        ),
        ("node -e \"require('child_process').execSync('rm -rf /')\"", "delete.catastrophic"),
        ("ruby -e \"require 'fileutils'; FileUtils.rm_rf('/home/user')\"", "delete.catastrophic"),
        ("perl -e \"system('rm -rf /home/user')\"", "delete.catastrophic"),
        ("perl -e 'print `git push --force`'", "git.force-push"),
        ("node -e \"require('fs').rmSync('/etc', {recursive: true})\"", "delete.catastrophic"),
        ("bash <<'EOF'\nrm -rf ~\nEOF", "delete.catastrophic"),
        ("python3 <<'EOF'\nimport shutil\nshutil.rmtree('/home/user')\nEOF", "delete.catastrophic"),
        ("node <<'EOF'\nrequire('child_process').execSync('rm -rf /')\nEOF", "delete.catastrophic"),
        ("echo \"import os; os.system('git push -f')\" | python3", "git.force-push"),
        ("sh -c \"$(printf 'rm -rf /')\"", "delete.catastrophic"),
    ],
    [
        "echo $(( 1 + 2 ))",
        'echo "$(( rm -rf /x ))"',
        "for ((i=0; i<3; i++)); do echo $i; done",
        "python3 -c 'print(\"rm -rf /\")'",
        "python -c 'import os; print(os.getcwd())'",
        "node -e \"console.log('rm -rf /')\"",
        "node -e \"require('fs').rmSync('dist', {recursive: true})\"",
        "ruby -e \"puts 'git push --force'\"",
        "perl -e 'print \"rm -rf /\\n\"'",
        "cat <<'EOF' > notes.md\nrm -rf / is dangerous\nEOF",
        "python3 <<'EOF'\nprint('rm -rf /')\nEOF",
        "ruby <<'EOF'\nputs 'git push --force'\nEOF",
        "git commit -m \"$(cat <<'EOF'\nfix: stop rm -rf / in the installer\nEOF\n)\"",
    ],
)

PATHS: tuple[list[tuple[str, str, str]], list[tuple[str, str]]] = (
    [
        ("cd .. && rm -rf build", "delete.recursive-force", TMP_PROJECT),
        ("rm -rf ../other", "delete.recursive-force", TMP_PROJECT),
        ("( cd ..; rm -rf build )", "delete.recursive-force", TMP_PROJECT),
        ("{ cd ..; echo ok; } && rm -rf build", "delete.recursive-force", TMP_PROJECT),
        ("builtin cd .. && rm -rf build", "delete.recursive-force", TMP_PROJECT),
        ("cd /tmp && bash -c 'rm -rf foo'", "delete.recursive-force", TMP_PROJECT),
        ("cd ~ && rm -rf projects", "delete.catastrophic", PROJECT),
        ("cd / && rm -rf usr", "delete.catastrophic", PROJECT),
        ("pushd /etc && rm -rf ssl", "delete.catastrophic", PROJECT),
        ("cd src && rm -rf ../..", "delete.catastrophic", PROJECT),
        ("rm -rf ../../shared", "delete.catastrophic", PROJECT),
    ],
    [
        ("rm -rf /tmp/build-cache", PROJECT),
        ('rm -rf "$TMPDIR/work"', PROJECT),
        ("rm -rf /tmp", PROJECT),
        ("rm -rf build", TMP_PROJECT),
        ("rm -rf ./subdir 2>/dev/null", TMP_PROJECT),
        ("cd web && rm -rf node_modules", PROJECT),
        ("$( cd ..; echo ok ) && rm -rf build", TMP_PROJECT),
        ("(cd packages/app && rm -rf dist)", PROJECT),
        ("cd /tmp && ls", PROJECT),
        ("cd .. && ls -la", TMP_PROJECT),
        ("rm -r docs/old", PROJECT),
    ],
)

GIT: tuple[list[Block], list[str]] = (
    [
        ("git push --force=true origin main", "git.force-push"),
        ("git push --force=1", "git.force-push"),
        ("git push -uf origin main", "git.force-push"),
        ("git push origin +main", "git.force-push"),
        ("git push --force --force-with-lease", "git.force-push"),
        ("git reset --merge", "git.reset-hard"),
        ("git reset --merge HEAD~1", "git.reset-hard"),
        ("git -c clean.requireForce=false clean -d", "git.clean-force"),
        ("git -c clean.requireforce=0 clean", "git.clean-force"),
        ("git clean -xdf", "git.clean-force"),
        ("git -C ../repo reset --hard", "git.reset-hard"),
    ],
    [
        "git push --force-with-lease",
        "git push --force-with-lease-if-includes",
        "git push --force-if-includes --force-with-lease",
        "git push --no-force origin main",
        "git push --force=false origin main",
        "git reset --keep HEAD~1",
        "git reset --soft HEAD~1",
        "git clean -n",
        "git -c clean.requireForce=true clean -n",
        "git merge --abort",
        "git fetch --force",
    ],
)

FIND: tuple[list[Block], list[str]] = (
    [
        ("find . -name '*.tmp' -exec rm -r --force {} \\;", "delete.recursive-force"),
        ("find . -exec rm --recursive -f {} \\;", "delete.catastrophic"),
        ("find src -type d -exec rm -rf {} +", "delete.recursive-force"),
        ("find /tmp -execdir rm -rf {} +", "delete.catastrophic"),
        ("find /tmp -execdir env rm -rf {} +", "delete.catastrophic"),
        ("find ~ -name '*.log' -delete", "delete.catastrophic"),
        ("find / -delete", "delete.catastrophic"),
        ("find . -delete", "delete.catastrophic"),
        ("find /etc -name '*.conf' -exec rm -f {} \\;", "delete.catastrophic"),
        ("find ~/Documents -exec rm -rf {} +", "delete.catastrophic"),
    ],
    [
        "find . -exec echo -delete \\; -print",
        "find . -exec echo -delete + -print",
        "find . -name '*.pyc' -delete",
        "find . -name __pycache__ -type d -exec rm -rf {} +",
        "find . -name node_modules -prune -exec rm -rf {} +",
        "find /tmp/work -name '*.o' -delete",
        "find . -type f -name '*.md' -exec grep -l TODO {} +",
        "find . -name '*.orig' -exec rm {} \\;",
        "find build -type f -delete",
        "find . -maxdepth 1 -print",
    ],
)

FORK_BOMBS: tuple[list[Block], list[str]] = (
    [
        (":(){ :|:& };:", "misc.fork-bomb"),
        ("bomb() { bomb | bomb & }; bomb", "misc.fork-bomb"),
        ("bash -c ':(){ :|:& };:'", "misc.fork-bomb"),
        ("perl -e 'fork while fork'", "misc.fork-bomb"),
        ("python3 -c 'import os\nwhile True: os.fork()'", "misc.fork-bomb"),
        ("python -c 'import os\nwhile 1:\n    os.fork()'", "misc.fork-bomb"),
        ("ruby -e 'loop { fork }'", "misc.fork-bomb"),
        ("ruby -e 'loop do fork end'", "misc.fork-bomb"),
        ("node -e 'while(true) require(\"child_process\").fork(__filename)'", "misc.fork-bomb"),
        ("perl -e 'for(;;){fork()}'", "misc.fork-bomb"),
    ],
    [
        "echo ':(){ :|:& };:'",
        "printf '%s\\n' ':(){ :|:& };:'",
        "grep -F ':(){ :|:& };:' notes.md",
        "git commit -m 'guard against :(){ :|:& };:'",
        "python3 -c 'import os; pid = os.fork()'",
        "perl -e 'my $pid = fork; waitpid($pid, 0)'",
        "ruby -e 'pid = fork { puts 1 }; Process.wait(pid)'",
        "f() { echo hi; }; f",
        "countdown() { [ $1 -gt 0 ] && countdown $(( $1 - 1 )); }; countdown 3",
        "node -e \"console.log('fork while fork')\"",
    ],
)


# Package runners (npx & co.) run a package's program with the words after it: labels
# confirmed with the real npx/npm/pnpm/yarn on temp trees (wrappers_oracle_test.py);
# rimraf 6 refuses `/` itself (--preserve-root), rimraf 3 — what `npx rimraf@3` or an old
# local install runs — does not; del-cli refuses its working directory and anything
# outside it without --force.
RUNNERS: tuple[list[Block], list[str]] = (
    [
        ("npx rimraf ~", "delete.catastrophic"),
        ("npx -y rimraf@3 /", "delete.catastrophic"),
        ("npx --package=rimraf rimraf ~/Documents", "delete.catastrophic"),
        ("npm exec -- rimraf ~", "delete.catastrophic"),
        ("npm x rimraf /etc", "delete.catastrophic"),
        ("pnpm dlx rimraf ~", "delete.catastrophic"),
        ("pnpm exec rimraf ../other", "delete.catastrophic"),
        ("pnpm rimraf ~", "delete.catastrophic"),
        ("pnpm -C /etc exec rimraf ssl", "delete.catastrophic"),
        ("yarn dlx rimraf /etc", "delete.catastrophic"),
        ("yarn rimraf ~", "delete.catastrophic"),
        ("yarn run rimraf ~", "delete.catastrophic"),
        ("bunx rimraf ~", "delete.catastrophic"),
        ("bun x rimraf ~", "delete.catastrophic"),
        ("npx -c 'rm -rf ~'", "delete.catastrophic"),
        ("npx shx rm -rf ~", "delete.catastrophic"),
        ("npx del-cli --force ~", "delete.catastrophic"),
        ("npx del-cli src", "delete.recursive-force"),
        ("npx rimraf src", "delete.recursive-force"),
        ("npx @scope/tool@1 && npx rimraf@latest ~/.ssh", "delete.catastrophic"),
    ],
    [
        "npx rimraf dist",
        "npx rimraf node_modules build",
        "npx del-cli ~",  # refused: outside its working directory, no --force
        "npx del-cli /",
        "npx del-cli -d -f ~",  # a dry run
        "npx tsc --noEmit",
        "npx prettier --write src",
        "pnpm dlx create-vite app",
        "npm exec -- eslint .",
        "yarn dlx rimraf /tmp/cache",
        "npx shx rm -rf dist",
        "npm install rimraf",
        "npm run clean",
        "pnpm run build",
        "npx -c 'echo hello'",
    ],
)

# rsync --delete: what the receiving directory holds that the source lacks is deleted
# (rsync 3.5.0 on temp trees: wrappers_oracle_test.py).
RSYNC: tuple[list[Block], list[str]] = (
    [
        ("rsync -a --delete empty/ /", "delete.catastrophic"),
        ("rsync -a --delete empty/ ~", "delete.catastrophic"),
        ("rsync -a --delete empty/ ~/", "delete.catastrophic"),
        ("rsync -av --delete-after empty/ /etc/", "delete.catastrophic"),
        ("rsync -a --del empty/ ../other/", "delete.catastrophic"),
        ("rsync -rd --delete-excluded --exclude='*' src/ ~/Documents/", "delete.catastrophic"),
        ("rsync -a --delete empty/ ./", "delete.catastrophic"),
        ("rsync -a --delete empty/ .git/", "delete.catastrophic"),
        ("rsync -a --delete empty/ host:", "delete.catastrophic"),
        ("rsync -a --delete -e ssh empty/ root@host:/", "delete.catastrophic"),
        ("rsync -a --remove-source-files ~/ /mnt/backup/", "delete.catastrophic"),
        ("cd ~ && rsync -a --delete empty/ .", "delete.catastrophic"),
        ("rsync -a --delete empty/. /usr/local", "delete.catastrophic"),
        ("sudo rsync -aHAX --delete /srv/empty/ /var/", "delete.catastrophic"),
    ],
    [
        "rsync -an --delete empty/ /",
        "rsync -a --dry-run --delete empty/ ~",
        "rsync --delete empty/ /",  # no -r/-a/-d: rsync refuses
        "rsync -a --delete --max-delete=0 empty/ ~",
        "rsync -a --list-only --delete empty/ /",
        "rsync -av src/ backup/",
        "rsync -a --delete public/ dist/",
        "rsync -a --delete src/ build/out/",
        "rsync -a --delete empty ./",  # mirrors ./empty only
        "rsync -a --delete empty/ /tmp/scratch/",
        "rsync -a --delete dist/ host:app/",
        "rsync -a --delete build/ www:/srv/site",  # a deploy (examples/tests/demo.yaml)
        "rsync -a --delete build host:/",  # mirrors host:/build only
        "rsync -a --remove-source-files build/ /tmp/out/",
        "cd /tmp && rsync -a --delete empty/ scratch/",
    ],
)

# Debuggers, profilers, benchmarkers, limiters and exec wrappers run the command given
# them (each confirmed with the real program where installed: wrappers_oracle_test.py).
EXEC_WRAPPERS: tuple[list[Block], list[str]] = (
    [
        ("valgrind rm -rf ~", "delete.catastrophic"),
        ("valgrind --tool=memcheck --leak-check=full rm -rf /", "delete.catastrophic"),
        ("gdb -batch -ex run --args rm -rf ~", "delete.catastrophic"),
        ("gdb -ex 'shell rm -rf ~'", "delete.catastrophic"),
        ("lldb -o run -- rm -rf ~", "delete.catastrophic"),
        ("perf record -- rm -rf ~", "delete.catastrophic"),
        ("perf stat -e task-clock rm -rf ~", "delete.catastrophic"),
        ("rr record rm -rf ~", "delete.catastrophic"),
        ("hyperfine 'rm -rf ~'", "delete.catastrophic"),
        ("hyperfine --prepare 'git clean -fdx' 'make'", "git.clean-force"),
        ("cpulimit -l 50 -- rm -rf ~", "delete.catastrophic"),
        ("arch -arm64 rm -rf ~", "delete.catastrophic"),
        ("gosu root rm -rf /", "delete.catastrophic"),
        ("cross-env CI=1 git push --force", "git.force-push"),
        ("dotenv -e .env -- git reset --hard", "git.reset-hard"),
        ("tini -- rm -rf ~", "delete.catastrophic"),
        ("heaptrack rm -rf ~", "delete.catastrophic"),
        ("env -C ~ rm -rf notes", "delete.catastrophic"),
        ("sudo -D / rm -rf etc", "delete.catastrophic"),
        ("setsid -w flock /tmp/lk taskset -c 0 chrt -o 0 rm -rf ~", "delete.catastrophic"),
    ],
    [
        "valgrind ./a.out",
        "valgrind --leak-check=full python3 -m pytest",
        "gdb ./server core",
        "gdb -batch -ex bt -p 1234",
        "perf report",
        "perf stat make",
        "hyperfine 'make -j4' 'make -j8'",
        "rr replay",
        "cpulimit -l 50 -- make",
        "arch -arm64 brew install jq",
        "cross-env NODE_ENV=production webpack",
        "gosu app node server.js",
        "env -C /tmp rm -rf scratch",
        "lldb ./a.out",
        "perf record -g ./bench",
    ],
)


def _judge(command: str, cwd: str = PROJECT) -> tuple[str | None, str | None]:
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": cwd}
    # (TMPDIR set, as the cd table assumes: unset, `cd "$TMPDIR"` stays where it is)
    env = {"HOME": HOME, "TMPDIR": "/tmp"}
    ctx = PolicyContext(cwd=cwd, project_dir=cwd, state_dir="/nonexistent", env=env)
    verdict = POLICY.decide(payload, POLICY.bind({}), ctx)
    return verdict.decision, verdict.reason


SIMPLE = {
    "wrappers": WRAPPERS,
    "code": CODE,
    "git": GIT,
    "find": FIND,
    "fork-bombs": FORK_BOMBS,
    "package-runners": RUNNERS,
    "rsync": RSYNC,
    "exec-wrappers": EXEC_WRAPPERS,
}
BLOCKS = [(cause, c, r, PROJECT) for cause, (b, _) in SIMPLE.items() for c, r in b]
BLOCKS += [("paths", c, r, cwd) for c, r, cwd in PATHS[0]]
BLOCKS += [("cd", c, r, cwd) for c, r, cwd in CD_TABLE if r]
ALLOWS = [(cause, c, PROJECT) for cause, (_, a) in SIMPLE.items() for c in a]
ALLOWS += [("paths", c, cwd) for c, cwd in PATHS[1]]
ALLOWS += [("cd", c, cwd) for c, r, cwd in CD_TABLE if not r]


def test_every_cause_has_ten_blocks_and_ten_look_alikes() -> None:
    for cause in [*SIMPLE, "paths", "cd"]:
        assert sum(1 for b in BLOCKS if b[0] == cause) >= 10, cause
        assert sum(1 for a in ALLOWS if a[0] == cause) >= 10, cause


@pytest.mark.parametrize(
    ("cause", "command", "rule", "cwd"), BLOCKS, ids=[f"{b[0]}:{b[1][:50]}" for b in BLOCKS]
)
def test_blocked_with_the_rule_named_and_the_offending_part_quoted(
    cause: str, command: str, rule: str, cwd: str
) -> None:
    decision, reason = _judge(command, cwd)
    assert decision == "deny", command
    assert reason is not None and f"[{rule}]" in reason.splitlines()[0], reason
    assert '"' in reason  # the offending part is quoted


@pytest.mark.parametrize(
    ("cause", "command", "cwd"), ALLOWS, ids=[f"{a[0]}:{a[1][:50]}" for a in ALLOWS]
)
def test_look_alike_passes(cause: str, command: str, cwd: str) -> None:
    decision, reason = _judge(command, cwd)
    assert decision is None, reason


def test_inline_single_file_deletes_are_read_as_rm_without_recursion() -> None:
    from hookrun.hooks.shell_guard.inline_code import reads

    shell, argvs = reads("File.delete('/etc/hosts.bak'); fs.unlinkSync('x')")
    assert shell == []
    assert [[w.text for w in a] for a in argvs] == [
        ["rm", "-f", "/etc/hosts.bak"],
        ["rm", "-f", "x"],
    ]
