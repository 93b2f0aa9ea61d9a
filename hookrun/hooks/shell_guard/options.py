"""What a user can configure in shell-guard (``"with": {…}`` / ``--option``)."""

# On the start-up path of every call shell-guard judges (issue 8; tests/cli/import_set_test.py,
# bench/startup_bench.py): no typing here. The annotations stay strings (hookrun.records
# compiles none) until hookrun.hooks.option_types evaluates them for options given.
from __future__ import annotations

from collections.abc import Mapping

from hookrun.hooks.options import Check, Doc
from hookrun.records import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from typing import Annotated

# Every rule id, with the one line `docs/shell-guard.md` expands on.
RULES: dict[str, str] = {
    "delete.catastrophic": "recursive rm of /, system dirs, home, the workspace root, .., .git",
    "delete.recursive-force": "rm -rf of a workspace path that is not a regenerable artifact",
    "delete.unresolved": "recursive rm of a target only the running shell knows ($VAR, $(…))",
    "git.force-push": "git push --force / -f / +refspec / --mirror",
    "git.reset-hard": "git reset --hard",
    "git.clean-force": "git clean -f",
    "git.rebase": "starting a git rebase",
    "git.read-email": "reading git's user.email (PII)",
    "disk.mkfs": "mkfs* / mkswap",
    "disk.dd-device": "dd of=<block device>",
    "disk.device-write": "redirecting or copying output onto a block device",
    "supply-chain.pipe-to-shell": "downloaded content run by a shell or interpreter",
    "supply-chain.publish": "npm/yarn/pnpm publish, npm unpublish",
    "misc.fork-bomb": "a self-replicating shell function",
    "misc.too-deep": "substitutions nested too deep to judge",
    "misc.too-long": "a command over 256 KiB, too long to judge",
    "user.deny": "a command shape from the deny option",
}

# Directories a build or a package manager recreates. Not `bin`, `lib`, `pkg`, `env`
# or `site`: many projects keep sources or settings there.
DEFAULT_ARTIFACT_DIRS: tuple[str, ...] = (
    "node_modules", "dist", "build", "target", "out", ".venv", "venv", ".tox", ".nox",
    "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "coverage",
    "htmlcov", ".coverage", ".next", ".nuxt", ".svelte-kit", ".turbo", ".parcel-cache",
    ".cache", ".gradle", ".eggs", "*.egg-info", ".terraform", "tmp", ".tmp", "_build",
    ".angular", ".expo", "storybook-static", ".docusaurus",
)  # fmt: skip
DEFAULT_TEMP_DIRS: tuple[str, ...] = ("/tmp", "/var/tmp", "/private/tmp", "/dev/shm")


def _known_rules(value: Mapping[str, bool]) -> None:
    for key in value:
        if key not in RULES:
            import difflib  # only for this message: every shell-guard call imports this module

            near = difflib.get_close_matches(key, list(RULES), n=1)
            hint = f' (did you mean "{near[0]}"?)' if near else ""
            raise ValueError(
                f'unknown shell-guard rule "{key}"{hint}; known rules: {", ".join(RULES)}'
            )


def _shapes_split(value: tuple[str, ...]) -> None:
    if not value:
        return
    import shlex  # only for configured shapes: every shell-guard call imports this module

    for shape in value:
        try:
            words = shlex.split(shape)
        except ValueError as err:
            raise ValueError(f"command shape {shape!r} does not split into words: {err}") from None
        if not words:
            raise ValueError("an empty command shape would match every command")


class ShellGuardOptions(NamedTuple):
    """Options of the shell-guard policy. Every field is documented in docs/shell-guard.md."""

    allow_force_with_lease: Annotated[
        bool, Doc("git push --force-with-lease (without --force) is allowed.")
    ] = True
    block_rebase: Annotated[bool, Doc("Starting a git rebase is blocked.")] = True
    artifact_dirs: Annotated[
        tuple[str, ...],
        Doc("Extra regenerable directory names/globs rm -rf may delete in the workspace."),
    ] = ()
    temp_dirs: Annotated[tuple[str, ...], Doc("Extra directories rm -rf may delete under.")] = ()
    deny: Annotated[
        tuple[str, ...],
        Check(_shapes_split),
        Doc('Command shapes to block, e.g. "terraform destroy", "kubectl delete ns *".'),
    ] = ()
    allow: Annotated[
        tuple[str, ...],
        Check(_shapes_split),
        Doc("Command shapes that are never blocked (they win over every rule)."),
    ] = ()
    rules: Annotated[
        Mapping[str, bool],
        Check(_known_rules),
        Doc('Switch rules off by id: {"git.rebase": false}.'),
    ] = {}  # never mutated
    workspace: Annotated[
        str | None, Doc("Workspace root (default: the project dir, else the payload cwd).")
    ] = None

    def enabled(self, rule: str) -> bool:
        return self.rules.get(rule, True)
