"""Texts tree-sitter-bash misread (gap 39 in hookrun.shellsyntax.gaps), each run by bash
and by the in-process shell: status and output must be bash's.

Each was a wrong answer or a syntax error for the whole script (exit 2, which a host
reads as a block on every call). They are written several lines long, or with other
text around them, so that tree-sitter's path reads them (the fast path refuses most):
each runs as it is, and after a line only tree-sitter's path reads (``${x/a/b}``).
"""

from __future__ import annotations

import shutil

import pytest

from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is the oracle")

LINES = [
    # `_=1`: a command name to the grammar ("command not found")
    "_=1\necho $?",
    "_=1 ; _+=2 ; echo $?",
    '_="a b"\necho "$?"',
    "_=$(echo hi)\necho $?",
    "if true; then _=1; fi\necho $?",
    # a special parameter after another expansion, left as text
    "v=1\necho a$v$?x",
    "set -- p q\nv=1\necho a$v$1x$2",
    # `$(( ))`: an empty body swallows the next arithmetic
    "echo $(( )) $(( ))",
    'echo "$(( ))" "$(( 1 ))" $(( ))',
    # the right side of =~ as one word
    '[[ "a]b" =~ []] ]] && echo y || echo n',
    '[[ "ab" =~ []] ]] && echo y || echo n',
    '[[ "ab" =~ [a]] ]] && echo y || echo n',
    '[[ "a]" =~ [a]] ]] && echo y || echo n',
    '[[ x =~ [" "] ]] && echo y || echo n',
    '[[ " " =~ [" "] ]] && echo y || echo n',
    '[[ x =~ [" "]x ]] && echo y || echo n',
    '[[ "ab" =~ a\\${x} ]] && echo y || echo n',
    "[[ 'a${x}' =~ a\\${x} ]] && echo y || echo n",
    'c="rm -rf /"\nif [[ $c =~ rm[" "]+-rf ]]; then echo block; exit 2; fi\necho allow',
    'c="git push --force"\n[[ $c =~ push[" "]+(-f|--force) ]] && echo "${BASH_REMATCH[1]}"',
    # a case pattern in pieces: `*"rm -rf"*` read as `*`, `"rm -rf"`, `*` (anything)
    'c=ls\ncase $c in *"rm -rf"*) echo deny; exit 2;; *) echo allow;; esac',
    "c='git push --force'\ncase $c in *'push -f'*|*\"push --force\") exit 2;; esac\necho allow",
    "v=b; c=abc\ncase $c in a${v}c) echo var;; *) echo none;; esac",
    "c=abc\ncase $c in a$(echo b)c) echo sub;; *) echo none;; esac",
    # an array element's key cut at a `]=` inside it
    "a=([$(a=([3]=rm); echo 3)]=1)\ndeclare -p a",
    "a=([$(b=([2]=y); echo 1)]=rm)\ndeclare -p a",
    'declare -A m=(["a]=b"]=1)\ndeclare -p m',
    "declare -A m=(['k]=v']=1 [$(echo q)]=2)\ndeclare -p m",
    # `esac` as an argument
    "case x in x) echo esac;; esac\necho after",
    "case x in x) echo hi; echo esac ;; esac\necho after",
    "x=rm\ncase $x in rm) echo blocked esac; exit 2;; esac\necho allowed",
    "case x in\n  x) printf '%s\\n' esac ;;\n  *) echo other ;;\nesac",
]

# Shapes next to those, which were read right before and must stay so.
CONTROLS = [
    "v=1\necho a$v$#/b",
    'v=1\necho "[$v$?]" a$v$?',
    "v=1\nfalse\necho $v$?$v",
    'x=$(( ))\necho "[$x]" $((  ))',
    "x=b\n[[ 'a$x' =~ a\\$x ]] && echo y || echo n",
    "case x in esac\necho empty",
    "case x in x) esac\necho ok",
    'c=x\ncase $c in a"b"c|x) echo one;; *) echo other;; esac',
]

# A line the fast path leaves to tree-sitter, so that the whole text is read there.
TREE_ONLY = ': "${x/a/b}"\n'


@pytest.mark.parametrize("prefix", ["", TREE_ONLY])
@pytest.mark.parametrize("line", LINES + CONTROLS)
def test_read_as_bash_reads_it(run: Runner, line: str, prefix: str) -> None:
    source = prefix + line
    env = base_env()
    ran = run(source, env=env)
    assert (ran.code, ran.out) == bash_result(source, env), ran.err
