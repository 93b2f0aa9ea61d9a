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


def test_word_nodes_are_named_and_no_statement_or_redirect() -> None:
    # Converter.command takes a child of one of these types as an argument without
    # asking the binding whether it is named: exact only while each is a named type of
    # the grammar that no anonymous token shares.
    assert _kinds(named=True) >= convert._WORD_NODES
    assert not convert._WORD_NODES & _kinds(named=False)
    assert not convert._WORD_NODES & (convert._REDIRECTS | {"command_name", "ERROR"})


def test_parameter_operators_are_anonymous_tokens() -> None:
    # Converter.param_exp reads a named node after the name as no operator because no
    # operator is spelled like a named type.
    assert not convert._PARAM_OPS & _kinds(named=True)
