"""What importing and using the front end loads (start-up cost, see grammar.py)."""

from __future__ import annotations

import subprocess
import sys


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print('\\n'.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(out.split())


def test_importing_the_package_loads_no_native_code() -> None:
    mods = _modules_after("import hookrun.shellsyntax, hookrun.shellsyntax.nodes")
    assert "tree_sitter" not in mods
    assert not any(m.startswith("tree_sitter_bash") for m in mods)


def test_a_plain_line_is_parsed_without_native_code() -> None:
    # The fast path (plain.py) reads it, for the interpreter and shell-guard alike.
    mods = _modules_after(
        "from hookrun.shellsyntax import parse\n"
        "parse('rm -rf \"$TMPDIR/x\" && for d in a b; do (cd $d && make); done | tee l')"
    )
    assert not any(m.startswith("tree_sitter") for m in mods)
    assert "hookrun.shellsyntax.parser" not in mods


def test_a_plain_line_read_before_the_grammar_loads_is_kept() -> None:
    # An embedding runner whose hooks are all plain never loads tree-sitter: a repeated
    # line must not be read again (s13-run measured run("true;") 151k -> 192k
    # instructions without this), and what is kept stays bounded.
    mods = _modules_after(
        "import hookrun.shellsyntax as s\n"
        "a = s.parse('rm -rf \"$TMPDIR/x\" && echo done')\n"
        "assert s.parse('rm -rf \"$TMPDIR/x\" && echo done') is a\n"
        "for i in range(2000): s.parse(f'echo {i}')\n"
        "assert 0 < len(s._plain_read) <= s._PLAIN_KEPT, len(s._plain_read)\n"
        "assert s.parse('echo 1999') is s.parse('echo 1999')\n"
    )
    assert not any(m.startswith("tree_sitter") for m in mods)


def test_parsing_loads_the_grammar_binding_without_its_package_init() -> None:
    # (a here-document: a plain line, `echo ${hi} | cat`, is read without the grammar, see
    # plain.py)
    mods = _modules_after("import hookrun.shellsyntax as s; s.parse('cat <<E | cat\\nhi\\nE\\n')")
    assert "tree_sitter_bash._binding" in mods
    # The package __init__ would import importlib.resources for its highlight queries.
    assert "tree_sitter_bash" not in mods
    assert "importlib.resources" not in mods


def test_the_shell_path_leaves_out_the_random_module() -> None:
    # $RANDOM reads os.urandom: importing `random` (hashlib, math, bisect) cost ~1.5 ms
    # of the shell path's start-up.
    mods = _modules_after(
        "from hookrun.dispatch.shell.expand import _DYNAMIC\n"
        "import hookrun.dispatch.shell.interp, hookrun.shellsyntax.parser as p\n"
        "p.parse('echo $RANDOM $((1 + 2))')\n"
        "assert 0 <= int(_DYNAMIC['RANDOM']()) <= 32767\n"
    )
    assert "hookrun.dispatch.shell.interp" in mods
    assert "random" not in mods


def test_the_shell_path_runs_neither_typing_nor_the_tree_sitter_package_init() -> None:
    # typing is ~3-4 ms of a cold start (hookrun.records); tree_sitter/__init__.py imports
    # it only for a Protocol hookrun never uses, so its compiled binding is loaded alone.
    # The importlib package (with warnings, ~0.6 ms) is not needed to find it, and fnmatch
    # (~0.4 ms) only for patterns hookrun's own translation refuses.
    mods = _modules_after(
        "import hookrun.dispatch.api\n"
        "import hookrun.dispatch.shell, hookrun.dispatch.shell.expand\n"
        "import hookrun.dispatch.shell.interp, hookrun.shellsyntax.parser as p\n"
        "p.parse('cat <<EOF | grep \"$x\" && [[ `echo a` == b ]]\\nhi\\nEOF\\n')\n"
    )
    assert "tree_sitter._binding" in mods
    assert "tree_sitter" not in mods
    assert not {"typing", "_typing", "importlib", "warnings", "fnmatch"} & mods


def test_the_tree_sitter_package_imported_later_shares_the_loaded_binding() -> None:
    # Another library (or a test) importing tree_sitter after the front end must see the
    # very classes the front end made its parser from.
    mods = _modules_after(
        "import hookrun.shellsyntax.parser as p, hookrun.shellsyntax.grammar as g\n"
        "p.parse('echo hi')\n"
        "import tree_sitter\n"
        "assert type(g.new_parser()) is tree_sitter.Parser\n"
        "assert isinstance(g.LANGUAGE, tree_sitter.Language)\n"
    )
    assert "tree_sitter" in mods


def test_the_shell_path_leaves_out_re_until_a_pattern_is_needed() -> None:
    # `re` is ~6M instructions (~1.8 ms) of the shell path's start-up over
    # hookrun.dispatch.api: tree-sitter's binding imports it only for query predicates
    # (grammar._DeferredRe), the shell's own patterns compile on first use, and the
    # parser's gap-10 screen for a `[` command is read by hand.
    code = (
        "import sys, hookrun.dispatch.api\n"
        "from hookrun.dispatch import run\n"
        'r = run(\'x=1; test -n "$x" && echo "$x" >/dev/null; test -d / || exit 3; '
        'f() { echo -n $1; }; f $x; printf "%s\\\\n" b; export y=$x; [ -n "$y" ]\','
        " cwd='/', env={}, stdin=b'', timeout=30)\n"
        "assert r.exit_code == 0 and r.stdout == b'1b\\n', r\n"
    )
    mods = _modules_after(code)
    assert "re" not in mods
    # nor the importlib package (with warnings) for the builtins that load on first use
    assert not {"importlib", "warnings"} & mods
    # nor what only some scripts need: `[[ ]]`, arithmetic, `set`/`shopt`/`$-`, `<<`, `…`
    lazy = {"condition", "arith", "options", "heredocs", "backquotes"}
    assert not {m for m in mods if m.rsplit(".", 1)[-1] in lazy and m.startswith("hookrun")}
    # …and a pattern loads it when one is needed, for the shell and for a tree-sitter
    # query's #match? (the compile the binding kept is the deferred one).
    mods = _modules_after(
        "from hookrun.dispatch import run\n"
        "r = run('case ab in a*) echo y;; esac', cwd='/', env={}, stdin=b'', timeout=30)\n"
        "assert r.stdout == b'y\\n', r\n"
        "import tree_sitter, hookrun.shellsyntax.grammar as g\n"
        "q = tree_sitter.Query(g.LANGUAGE, '((word) @w (#match? @w \"^ec\"))')\n"
        "t = g.new_parser().parse(b'echo hi; ls')\n"
        "found = tree_sitter.QueryCursor(q).captures(t.root_node)['w']\n"
        "assert [n.text for n in found] == [b'echo'], found\n"
    )
    assert "re" in mods


def test_a_thread_that_imported_re_while_the_binding_loaded_gets_the_real_module() -> None:
    # grammar._binding puts a stand-in in sys.modules["re"] while tree-sitter's binding
    # loads; an `import re` elsewhere at that moment gets the stand-in, which must act as
    # re (and hand sys.modules the real module once used).
    _modules_after(
        "import sys\n"
        "from types import ModuleType\n"
        "import hookrun.shellsyntax.grammar as g\n"
        "sys.modules.pop('re', None)\n"
        "stub = sys.modules['re'] = ModuleType('re')\n"
        "vars(stub).update(compile=g._compile_pattern, __getattr__=g._re_attribute)\n"
        "import re\n"
        "assert re is stub\n"
        "assert re.compile('a+').match('aa').group() == 'aa'\n"
        "assert re.escape('a.b') == 'a\\\\.b' and re.fullmatch('x', 'x')\n"
        "assert sys.modules['re'] is not stub and sys.modules['re'].escape is re.escape\n"
    )


def test_the_checks_read_by_hand_agree_with_the_patterns_they_replace() -> None:
    # is_name and _var_name_end stand for regexes so that a plain script needs no `re`.
    import itertools
    import re

    from hookrun.dispatch.shell.state import is_name
    from hookrun.shellsyntax.convert import _var_name_end

    name = re.compile(r"[A-Za-z_]\w*\Z")
    texts = ["", "a", "_", "a__", "1a", "aé", "é", "a-b", "a\n", "a٣", "a²", "a\u0301", "if"]
    texts += ["".join(t) for n in range(4) for t in itertools.product("aZ_9-é ", repeat=n)]
    for text in texts:
        assert is_name(text) == bool(name.match(text)), text
    var = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-]")
    for n in range(5):
        for combo in itertools.product(b"aZ_09$-@ .\xc3", repeat=n):
            src = bytes(combo)
            for end in range(len(src) + 1):
                m = var.match(src, 0, end)
                assert _var_name_end(src, 0, end) == (m.end() if m else -1), (src, end)


def test_the_bracket_command_screen_finds_what_its_pattern_found() -> None:
    # parser._bracket_command_starts stands for this pattern (gap 10's screen), so that a
    # `[ … ]` script needs no `re`: the same `[` offsets as finditer, over every text of up
    # to five pieces (overlaps, keywords inside words, blanks, lookbehind cases).
    import itertools
    import re

    from hookrun.shellsyntax.parser import _bracket_command_starts

    pattern = re.compile(
        rb"(?:^|[;&|(){}!\n]|(?:^|(?<=[ \t;&|(){}\n]))(?:if|then|else|elif|while|until|do)[ \t])"
        rb"[ \t]*(\[)[ \t\n]"
    )
    pieces = [b"[", b" ", b"\t", b"\n", b";", b"!", b"}", b"x", b"if", b"elif", b"do", b"e"]
    texts = [b"".join(t) for n in range(6) for t in itertools.product(pieces, repeat=n)]
    texts += [b"if [ -n x ]; then [ a ]; fi", b"while [ 1 ] && [ 2 ]; do [[ x ]]; done"]
    texts += [b"echo [ x ]; ! [ y ]\n[\t1 ]|[ 2 ]", b"undo [ a ]", b"(\t[ a ])", b"{ [ b ]; }"]
    for src in texts:
        want = [m.start(1) for m in pattern.finditer(src)]
        assert _bracket_command_starts(src) == want, src
