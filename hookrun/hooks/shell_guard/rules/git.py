"""git.*: history rewrites, destructive resets and cleans, and reading the user's email."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from hookrun.hooks.shell_guard.heads import GIT_READERS
from hookrun.hooks.shell_guard.judging import Call, Finding
from hookrun.hooks.shell_guard.model import Word
from hookrun.hooks.shell_guard.paths import cwd_of, resolve
from hookrun.hooks.shell_guard.unwrap import git_split

_EMAIL_KEYS = frozenset({"user.email", "author.email", "committer.email"})
_CONFIG_WRITES = frozenset(
    [
        "--unset",
        "--unset-all",
        "--add",
        "--replace-all",
        "--rename-section",
        "--remove-section",
        "-e",
        "--edit",
    ]
)
_CONFIG_READS = frozenset(["--get", "--get-all", "--get-regexp", "--get-urlmatch"])
_REBASE_CONTROL = frozenset(
    ["--continue", "--abort", "--skip", "--quit", "--edit-todo", "--show-current-patch"]
)


def check(call: Call) -> Iterator[Finding]:
    name = call.cmd.name
    if name in GIT_READERS:
        yield from _gitconfig_read(call)
        return
    if name != "git":
        return
    globals_, i = git_split(call.cmd.args)
    if i >= len(call.cmd.args):
        return
    sub = call.cmd.args[i].text
    args = call.cmd.args[i + 1 :]
    texts = [a.text for a in args]
    opts = call.where.opts
    if sub == "push":
        problem = push_problem(texts, allow_lease=opts.allow_force_with_lease)
        if problem:
            yield call.finding("git.force-push", problem)
    elif sub == "reset" and ("--hard" in texts or "--merge" in texts):
        mode = "--hard" if "--hard" in texts else "--merge"
        yield call.finding(
            "git.reset-hard",
            f"git reset {mode} throws away uncommitted work; use git stash, or "
            "git reset --keep / --soft / --mixed",
        )
    elif sub == "clean" and (_short_or_long(texts, "f", "--force") or _no_require_force(globals_)):
        if not _short_or_long(texts, "n", "--dry-run"):
            yield call.finding(
                "git.clean-force",
                "git clean -f deletes untracked files for good; run git clean -n to list "
                "them and delete the ones you created by name",
            )
    elif sub == "rebase" and opts.block_rebase and not _REBASE_CONTROL & set(texts):
        yield call.finding(
            "git.rebase",
            "starting a rebase rewrites history and conflicts across worktrees; use git merge "
            "(git rebase --continue/--abort and git pull --rebase stay allowed)",
        )
    elif sub == "config" and _reads_email(texts):
        yield call.finding(
            "git.read-email",
            "reading git's user.email collects PII; do not read it (setting it is allowed, "
            "and git commit fills it in by itself)",
        )
    elif sub == "var" and any(
        t in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT", "-l") for t in texts
    ):
        yield call.finding(
            "git.read-email", "git var prints the author's email (PII); do not read it"
        )


def _no_require_force(globals_: Sequence[Word]) -> bool:
    """``git -c clean.requireForce=false clean``: the config makes -f unnecessary."""
    texts = [w.text for w in globals_]
    for k, t in enumerate(texts[:-1]):
        if t == "-c":
            key, _, value = texts[k + 1].partition("=")
            if key.lower() == "clean.requireforce" and value.lower() in ("false", "no", "off", "0"):
                return True
    return False


def _short_or_long(texts: Sequence[str], letter: str, long: str) -> bool:
    return any(
        t == long or (t.startswith("-") and not t.startswith("--") and letter in t[1:])
        for t in texts
    )


def push_problem(texts: Sequence[str], *, allow_lease: bool) -> str | None:
    """Why this ``git push`` argument list force-pushes, or None."""
    force = lease = mirror = False
    plus: str | None = None
    skip = False
    for t in texts:
        if skip:
            skip = False
            continue
        if t == "--force":
            force = True
        elif t.startswith("--force="):  # --force=true: git takes no value; it is still --force
            force = t.partition("=")[2].lower() not in ("false", "no", "off", "0")
        elif t == "--no-force":
            force = False
        elif t.startswith("--force-with-lease") or t.startswith("--force-if-includes"):
            # (--force-with-lease-if-includes and other spellings git refuses are
            # treated as the lease they imitate: still not a plain force push)
            lease = True
        elif t == "--mirror":
            mirror = True
        elif t in ("-o", "--push-option", "--repo", "--receive-pack", "--exec"):
            skip = True
        elif t.startswith("-") and not t.startswith("--"):
            letters = t[1:].split("o", 1)[0]  # `-o value` ends the cluster
            force |= "f" in letters
            skip = t[1:].endswith("o")
        elif t.startswith("+") and len(t) > 1:
            plus = t
    if force and lease:
        return (
            "--force together with --force-with-lease is a plain force push (the --force "
            "disables the lease); drop --force"
        )
    if force:
        return "force push is blocked; use --force-with-lease"
    if plus is not None:
        return f'the "+" in {plus} force-pushes that ref; drop the "+" (or use --force-with-lease)'
    if mirror:
        return "--mirror overwrites and deletes remote refs; push the branches you mean by name"
    if lease and not allow_lease:
        return (
            "--force-with-lease is blocked by this configuration (allow_force_with_lease: "
            "false); push without force, or ask the user"
        )
    return None


def _reads_email(texts: Sequence[str]) -> bool:
    positional = [t for t in texts if not t.startswith("-")]
    flags = {t.split("=", 1)[0] for t in texts if t.startswith("-")}
    if "--list" in flags or "-l" in flags or positional[:1] == ["list"]:
        return True
    if flags & _CONFIG_WRITES:
        return False
    for flag in ("--file", "-f", "--blob", "--type", "--default", "--comment"):
        if flag in texts:  # these take a value that is not the key
            k = texts.index(flag)
            if k + 1 < len(texts) and texts[k + 1] in positional:
                positional.remove(texts[k + 1])
    if positional[:1] == ["get"]:
        positional = positional[1:]
        flags.add("--get")
    if not positional:
        return False
    key = positional[0]
    if "--get-regexp" in flags:
        try:
            return any(re.search(key, k, re.IGNORECASE) for k in _EMAIL_KEYS)
        except re.error:
            return True
    if key.lower() not in _EMAIL_KEYS:
        return False
    return bool(flags & _CONFIG_READS) or len(positional) == 1


def _gitconfig_read(call: Call) -> Iterator[Finding]:
    home = call.where.home
    if home is None:
        return
    cwd = cwd_of(call.cmd.cd, call.where)
    secrets = {home + "/.gitconfig", home + "/.config/git/config"}
    for word in call.cmd.args:
        if _is(word, secrets, call, cwd):
            yield call.finding(
                "git.read-email",
                f"{word.raw} holds your git email (PII); do not read it",
            )
            return


def _is(word: Word, secrets: set[str], call: Call, cwd: str | None) -> bool:
    path = resolve(word, call.where, cwd)
    return path is not None and path in secrets
