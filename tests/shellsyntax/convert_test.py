"""The converter's tables of the grammar's node types agree with the grammar itself."""

from __future__ import annotations

from hookrun.shellsyntax import convert
from hookrun.shellsyntax.grammar import LANGUAGE


def _kinds(named: bool) -> set[str]:
    return {
        LANGUAGE.node_kind_for_id(i)
        for i in range(LANGUAGE.node_kind_count)
        if LANGUAGE.node_kind_is_visible(i) and LANGUAGE.node_kind_is_named(i) == named
    }


def test_named_types_are_the_grammars_named_node_types() -> None:
    # `t in convert._NAMED` stands for `node.is_named`: exact only while the set is the
    # grammar's named types (plus ERROR, which tree-sitter adds) and no anonymous token
    # is spelled like one of them.
    assert _kinds(named=True) | {"ERROR"} == convert._NAMED
    assert not convert._NAMED & _kinds(named=False)


def test_word_nodes_are_named_and_no_statement_or_redirect() -> None:
    assert convert._WORD_NODES <= convert._NAMED
    assert not convert._WORD_NODES & (convert._REDIRECTS | {"command_name", "ERROR"})
