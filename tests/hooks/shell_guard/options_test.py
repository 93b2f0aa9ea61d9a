"""Options: allow wins, deny shapes, rules switched off, git switches, dirs, workspace/home."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from hookrun.hooks.shell_guard import POLICY
from hookrun.hooks.shell_guard.options import RULES

from .conftest import PROJECT, Judge


@pytest.mark.parametrize(
    ("allow", "command"),
    [
        (["rm -rf src"], "rm -rf src"),
        (["rm -rf generated/*"], "rm -rf generated/a"),
        (["git push --force origin feature/*"], "git push --force origin feature/login"),
        (["git reset --hard"], "git reset --hard"),
        (["curl -fsSL https://sh.rustup.rs"], "curl -fsSL https://sh.rustup.rs | sh"),
        (["npm publish **"], "cd pkg && npm publish --access public"),
    ],
)
def test_allow_shape_wins_over_every_rule(judge: Judge, allow: list[str], command: str) -> None:
    assert judge(command).decision == "deny"
    assert judge(command, {"allow": allow}).decision is None


@pytest.mark.parametrize(
    ("allow", "command"),
    [
        (["rm -rf src"], "rm -rf src /"),
        (["rm -rf src"], "rm -rf src && git push --force"),
        (["git push --force origin feature/*"], "git push --force origin main"),
    ],
)
def test_allow_shape_is_exact_and_excuses_only_the_command_it_names(
    judge: Judge, allow: list[str], command: str
) -> None:
    assert judge(command, {"allow": allow}).decision == "deny"


@pytest.mark.parametrize(
    ("deny", "command"),
    [
        (["terraform destroy"], "terraform destroy -auto-approve"),
        (["terraform destroy"], "/usr/local/bin/terraform destroy"),
        (["terraform destroy"], "sudo terraform destroy"),
        (["terraform destroy"], "bash -c 'terraform destroy'"),
        (["terraform destroy"], "t''erraform destroy"),
        (["kubectl delete namespace *"], "kubectl delete namespace prod"),
        (["kubectl ** delete namespace **"], "kubectl -n x delete namespace prod"),
        (["docker system prune"], "make && docker system prune -af"),
    ],
)
def test_deny_shape_blocks_the_parsed_unwrapped_command(
    judge: Judge, deny: list[str], command: str
) -> None:
    verdict = judge(command, {"deny": deny})
    assert verdict.rule == "user.deny"
    assert f'the deny shape "{deny[0]}"' in (verdict.reason or "")


@pytest.mark.parametrize(
    ("deny", "command"),
    [
        (["terraform destroy"], "terraform plan"),
        (["terraform destroy"], 'echo "terraform destroy"'),
        (["terraform destroy"], "grep -r 'terraform destroy' docs"),
        (["kubectl delete namespace *"], "kubectl delete pod web-1"),
        (["kubectl delete namespace *"], "kubectl delete namespace"),
    ],
)
def test_deny_shape_ignores_mentions_and_other_commands(
    judge: Judge, deny: list[str], command: str
) -> None:
    assert judge(command, {"deny": deny}).decision is None


def test_switched_off_rule_stops_blocking_and_the_others_still_block(judge: Judge) -> None:
    opts = {"rules": {"git.rebase": False, "supply-chain.publish": False}}
    assert judge("git rebase -i HEAD~2", opts).decision is None
    assert judge("npm publish", opts).decision is None
    assert judge("git reset --hard", opts).rule == "git.reset-hard"


def test_rule_switched_on_explicitly_still_blocks(judge: Judge) -> None:
    assert judge("git rebase main", {"rules": {"git.rebase": True}}).rule == "git.rebase"


def test_force_with_lease_is_allowed_by_default_and_blockable(judge: Judge) -> None:
    assert judge("git push --force-with-lease").decision is None
    verdict = judge("git push --force-with-lease", {"allow_force_with_lease": False})
    assert verdict.rule == "git.force-push"
    assert "allow_force_with_lease: false" in (verdict.reason or "")


def test_rebase_blocking_can_be_turned_off(judge: Judge) -> None:
    assert judge("git rebase main").rule == "git.rebase"
    assert judge("git rebase main", {"block_rebase": False}).decision is None


def test_extra_artifact_dirs_may_be_force_deleted(judge: Judge) -> None:
    assert judge("rm -rf generated").rule == "delete.recursive-force"
    assert judge("rm -rf generated", {"artifact_dirs": ["generated"]}).decision is None
    assert judge("rm -rf gen-1 gen-2", {"artifact_dirs": ["gen-*"]}).decision is None
    # an artifact name never excuses the catastrophic targets
    assert judge("rm -rf .", {"artifact_dirs": ["proj"]}).rule == "delete.catastrophic"


def test_extra_temp_dirs_may_be_force_deleted_under(judge: Judge) -> None:
    assert judge("rm -rf /scratch/run-1").rule == "delete.recursive-force"
    assert judge("rm -rf /scratch/run-1", {"temp_dirs": ["/scratch"]}).decision is None


def test_temp_dirs_may_name_places_under_home(judge: Judge) -> None:
    assert judge("rm -rf ~/.cache/pip").rule == "delete.catastrophic"
    assert judge("rm -rf ~/.cache/pip", {"temp_dirs": ["~/.cache"]}).decision is None
    assert judge("rm -rf ~/.cache", {"temp_dirs": ["~/.cache"]}).decision == "deny"


def test_tmpdir_from_the_environment_is_a_temp_dir(judge: Judge) -> None:
    env = {"TMPDIR": "/scratch/tmp/"}
    assert judge('rm -rf "$TMPDIR/x"', env=env).decision is None
    assert judge("rm -rf /scratch/tmp/x", env=env).decision is None
    assert judge("rm -rf /scratch/tmp/x").rule == "delete.recursive-force"


def test_workspace_defaults_to_the_project_dir_even_from_a_subdirectory(judge: Judge) -> None:
    assert judge("rm -rf ..", cwd=f"{PROJECT}/pkg").rule == "delete.catastrophic"
    assert "the workspace root itself" in (judge("rm -rf ..", cwd=f"{PROJECT}/pkg").reason or "")


def test_workspace_option_relative_to_the_project_dir(judge: Judge) -> None:
    opts = {"workspace": "pkg"}
    verdict = judge("rm -rf .", opts, cwd=f"{PROJECT}/pkg")
    assert "the workspace root itself" in (verdict.reason or "")
    # the project root is now outside the workspace, a parent of it
    assert "a parent of the workspace" in (judge(f"rm -r {PROJECT}", opts).reason or "")


def test_workspace_option_with_tilde_uses_home(judge: Judge) -> None:
    verdict = judge("rm -r ~/other/src", {"workspace": "~/other"})
    assert verdict.decision is None  # rm -r without -f inside the workspace
    assert judge("rm -r ~/other/src").rule == "delete.catastrophic"  # home, outside


def test_home_comes_from_the_context_environment(judge: Judge) -> None:
    assert judge("rm -r /data/me/notes").decision is None
    verdict = judge("rm -r /data/me/notes", env={"HOME": "/data/me"})
    assert verdict.rule == "delete.catastrophic"
    assert "home directory" in (verdict.reason or "")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"rules": {"git.rebse": False}}, 'did you mean "git.rebase"'),
        ({"rules": {"nonsense": False}}, "known rules: delete.catastrophic"),
        ({"deny": ["rm 'unbalanced"]}, "does not split into words"),
        ({"allow": [""]}, "would match every command"),
        ({"allow_force_with_lease": "maybe"}, "allow_force_with_lease"),
        ({"block_rebas": True}, "block_rebas"),
    ],
)
def test_bad_options_are_rejected_with_a_message_that_says_what(
    raw: dict[str, Any], message: str
) -> None:
    with pytest.raises(pydantic.ValidationError) as err:
        POLICY.bind(raw)
    assert message in str(err.value)


def test_every_rule_id_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "shell-guard.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"`{rule}`" in doc, rule


def test_every_option_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "shell-guard.md").read_text(encoding="utf-8")
    for name in POLICY.options._fields:
        assert f"`{name}`" in doc, name
