"""What a user can configure in shell-guard (``"with": {…}`` / ``--option``)."""

from __future__ import annotations

import difflib
import shlex

from pydantic import Field, field_validator

from hookrun.hooks.base import Options

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


class ShellGuardOptions(Options):
    """Options of the shell-guard policy. Every field is documented in docs/shell-guard.md."""

    allow_force_with_lease: bool = Field(
        default=True, description="git push --force-with-lease (without --force) is allowed."
    )
    block_rebase: bool = Field(default=True, description="Starting a git rebase is blocked.")
    artifact_dirs: list[str] = Field(
        default_factory=list,
        description="Extra regenerable directory names/globs rm -rf may delete in the workspace.",
    )
    temp_dirs: list[str] = Field(
        default_factory=list, description="Extra directories rm -rf may delete under."
    )
    deny: list[str] = Field(
        default_factory=list,
        description='Command shapes to block, e.g. "terraform destroy", "kubectl delete ns *".',
    )
    allow: list[str] = Field(
        default_factory=list,
        description="Command shapes that are never blocked (they win over every rule).",
    )
    rules: dict[str, bool] = Field(
        default_factory=dict, description='Switch rules off by id: {"git.rebase": false}.'
    )
    workspace: str | None = Field(
        default=None, description="Workspace root (default: the project dir, else the payload cwd)."
    )

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, value: dict[str, bool]) -> dict[str, bool]:
        for key in value:
            if key not in RULES:
                near = difflib.get_close_matches(key, list(RULES), n=1)
                hint = f' (did you mean "{near[0]}"?)' if near else ""
                raise ValueError(
                    f'unknown shell-guard rule "{key}"{hint}; known rules: {", ".join(RULES)}'
                )
        return value

    @field_validator("deny", "allow")
    @classmethod
    def _shapes_split(cls, value: list[str]) -> list[str]:
        for shape in value:
            try:
                words = shlex.split(shape)
            except ValueError as err:
                raise ValueError(
                    f"command shape {shape!r} does not split into words: {err}"
                ) from None
            if not words:
                raise ValueError("an empty command shape would match every command")
        return value

    def enabled(self, rule: str) -> bool:
        return self.rules.get(rule, True)
