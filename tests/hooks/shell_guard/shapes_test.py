"""User command shapes match parsed argv, word by word."""

from __future__ import annotations

import pytest

from hookrun.hooks.shell_guard.shapes import matches


@pytest.mark.parametrize(
    ("shape", "argv", "prefix", "hit"),
    [
        ("terraform destroy", "terraform destroy", True, True),
        ("terraform destroy", "terraform destroy -auto-approve", True, True),
        ("terraform destroy", "terraform destroy -auto-approve", False, False),
        ("terraform destroy", "/opt/bin/terraform destroy", True, True),
        ("terraform destroy", "terraform plan", True, False),
        ("kubectl delete ns *", "kubectl delete ns prod", False, True),
        ("kubectl delete ns *", "kubectl delete ns", True, False),
        ("kubectl ** delete ns **", "kubectl -n x delete ns a b", False, True),
        ("rm -rf build/*", "rm -rf build/out", False, True),
        ("rm -rf build/*", "rm -rf build/out /", False, False),
        ("git push ** --force **", "git push origin --force", False, True),
        ("tf*", "tfsec .", True, True),
    ],
)
def test_shape_matches_word_by_word(shape: str, argv: str, prefix: bool, hit: bool) -> None:
    assert matches(shape.split(), argv.split(), prefix=prefix) is hit
