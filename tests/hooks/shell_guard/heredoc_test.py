"""Here-documents: a body written to a file is text; a body a shell or interpreter reads is code.

Agents write scripts and configs with ``cat > f <<'EOF' … EOF`` and then ``chmod``
or ``git add`` them on the same line; the body may well mention ``rm -rf``. Those
lines pass. A body fed to ``bash``/``sh``/``python``/``node``, or a substitution in
an unquoted body (it runs while the document is read), is judged like any command.
Each line is confirmed as valid syntax by bash (``bash -n``), so every allow below
is a line bash runs. The project is /home/user/project (HOME=/home/user).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from hookrun.hooks.base import PolicyContext
from hookrun.hooks.shell_guard import POLICY

HOME = "/home/user"
PROJECT = "/home/user/project"

ALLOWED = [
    # written, made executable, added: the body is never run here
    "cat > scripts/run.sh <<'EOF' && chmod +x scripts/run.sh\n#!/bin/sh\nset -e\n"
    'rm -rf ~/.cache/myapp\nexec python -m app "$@"\nEOF',
    "cat > cleanup.sh <<'EOF' && chmod +x cleanup.sh && git add cleanup.sh\n"
    "#!/usr/bin/env bash\nrm -rf /tmp/build-*\ngit clean -fdx\nEOF",
    "cat <<'EOF' > .github/workflows/ci.yml && git add .github/workflows/ci.yml\n"
    "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
    "      - run: rm -rf node_modules && npm ci\nEOF",
    "mkdir -p hooks && cat > hooks/pre-push <<'EOF' && chmod +x hooks/pre-push\n"
    "#!/bin/sh\ngit reset --hard origin/main\nEOF",
    "tee docs/uninstall.md <<'EOF' >/dev/null && git add docs/uninstall.md\n# Uninstall\n"
    "Run `sudo rm -rf /opt/tool` and `rm -rf ~/.tool`.\nEOF",
    "cat > Makefile <<'EOF' && make -n clean\nclean:\n\trm -rf build dist\n\tgit clean -fdX\nEOF",
    "python3 - <<'EOF' && echo ok\nimport json\nprint(json.dumps({'cmd': 'rm -rf /'}))\nEOF",
    "cat > k8s/job.yaml <<EOF && kubectl apply --dry-run=client -f k8s/job.yaml\n"
    "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: cleanup-$USER\nspec:\n  template:\n"
    '    spec:\n      containers:\n      - name: c\n        command: ["sh", "-c", "rm -rf /data"]\n'
    "EOF",
    "git commit -F - <<'EOF' && git push origin HEAD\nfix: stop `rm -rf $DIR` when DIR is empty\n"
    "\nThe cleanup ran rm -rf / on empty input.\nEOF",
    "cat <<'EOF' > fork_bomb_test.txt && wc -l fork_bomb_test.txt\n:(){ :|:& };:\nEOF",
    "cat > a.sh <<'A' && cat > b.sh <<'B'\nrm -rf ~\nA\ngit push -f origin main\nB",
    "cat > notes.md <<-'EOF' && git add notes.md\n\tnever run rm -rf /\n\tEOF",
    # (the shared front end reads these without an && after the here-document)
    "cat > run.sh <<'EOF'\n#!/bin/sh\nrm -rf ~/old\nEOF",
    "cat > .env.example <<EOF\nDATABASE_URL=postgres://localhost/$USER\nEOF",
]

BLOCKED = [
    ("bash <<'EOF' && echo done\nrm -rf /\nEOF", "delete.catastrophic"),
    ("sh <<'EOF' && echo ok\ngit push --force origin main\nEOF", "git.force-push"),
    (
        "python3 <<'EOF' && echo done\nimport shutil\nshutil.rmtree('/home/user')\nEOF",
        "delete.catastrophic",
    ),
    ("cat > f.txt <<EOF && echo ok\n$(rm -rf ~)\nEOF", "delete.catastrophic"),
    ("sudo bash <<'EOF' && reboot\nrm -rf /etc\nEOF", "delete.catastrophic"),
    ("bash -s <<'EOF' && echo ok\ngit reset --hard HEAD~3\nEOF", "git.reset-hard"),
    (
        "node <<'EOF' && echo ok\nrequire('child_process').execSync('rm -rf /')\nEOF",
        "delete.catastrophic",
    ),
    ("cat > notes.md <<EOF && git add notes.md\n`git clean -fdx`\nEOF", "git.clean-force"),
    ("bash <<-'EOF' && echo ok\n\trm -rf ~\n\tEOF", "delete.catastrophic"),
    ("cat <<'A' > a.txt && bash <<'B'\nsafe text\nA\nrm -rf /\nB", "delete.catastrophic"),
    ("sh <<EOF && echo ok\nrm -rf $HOME\nEOF", "delete.catastrophic"),
    # an unterminated here-document: bash reads the rest as its body (and warns); the
    # guard reads on as commands, the reading that misses nothing
    ("cat > f <<'EOF' && true\nrm -rf /", "delete.catastrophic"),
    # (and through the shared front end)
    ("bash <<'EOF'\nrm -rf ~\nEOF", "delete.catastrophic"),
    ("cat > f.txt <<EOF\n$(git push --force)\nEOF", "git.force-push"),
]


def _judge(command: str) -> tuple[str | None, str | None]:
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": PROJECT}
    ctx = PolicyContext(PROJECT, PROJECT, "/nonexistent", {"HOME": HOME})
    verdict = POLICY.decide(payload, POLICY.bind({}), ctx)
    return verdict.decision, verdict.reason


def test_each_table_holds_at_least_ten_field_like_lines() -> None:
    assert len(ALLOWED) >= 10
    assert len(BLOCKED) >= 10


@pytest.mark.parametrize("command", ALLOWED, ids=[c.split("\n")[0][:60] for c in ALLOWED])
def test_a_here_document_written_to_a_file_passes(command: str) -> None:
    decision, reason = _judge(command)
    assert decision is None, reason


@pytest.mark.parametrize(
    ("command", "rule"), BLOCKED, ids=[c.split("\n")[0][:60] for c, _ in BLOCKED]
)
def test_a_here_document_that_runs_is_judged(command: str, rule: str) -> None:
    decision, reason = _judge(command)
    assert decision == "deny", command
    assert reason is not None and f"[{rule}]" in reason.splitlines()[0], reason


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is the oracle for the syntax")
@pytest.mark.parametrize(
    "command",
    [*ALLOWED, *(c for c, _ in BLOCKED)],
    ids=[c.split("\n")[0][:60] for c in [*ALLOWED, *(c for c, _ in BLOCKED)]],
)
def test_bash_accepts_the_line(command: str) -> None:
    result = subprocess.run(["bash", "-n", "-c", command], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
