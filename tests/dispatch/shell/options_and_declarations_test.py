"""``set``/``shopt`` options, ``$-``, and what declare/local/readonly/export keep and print.

Every row was run through bash 5.2 as ``bash -c SOURCE hookrun`` in an empty directory
(bash_confirm_test.py reruns them): bash gives the same exit code and stdout. stderr is
hookrun's own wording and is not compared.
"""

from __future__ import annotations

import pytest

from tests.dispatch.shell.shellrun import Runner


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        # $- lists the single-letter options in bash's order, then "c" (a command string).
        ("set -o pipefail -o nounset; echo $-", 0, "huBc\n"),
        ("set -efuC; echo $-", 0, "efhuBCc\n"),
        # set -n: later commands are read, not run (set +n included).
        ("echo 1; set -n; echo 2; set +n; echo 3", 0, "1\n"),
        # shopt -p -o prints `set` options as set commands.
        ("shopt -po nounset; set -u; shopt -po nounset", 0, "set +o nounset\nset -o nounset\n"),
        ("shopt -p -o errexit nosuch; echo $?", 0, "set +o errexit\n1\n"),
        # set -C refuses to truncate with >, &> and >&; <> opens for reading and writing.
        (
            "set -C; echo foo >| f; exec 3<> f; read -n 1 <&3; echo -n . >&3; exec 3>&-; cat f",
            0,
            "f.o\n",
        ),
        # A redirection's word is expanded like a command word and must stay one word.
        (
            "touch one-bar; echo hi > one-*; cat one-bar; echo esc > one-\\*; cat one-\\*",
            0,
            "hi\nesc\n",
        ),
        ("f='foo bar'; echo hi > $f; echo $?", 0, "1\n"),
        ("echo hi > a-{one,two}; echo $?", 0, "1\n"),
        ("touch foo-bar foo-spam; echo hi > foo-*; echo $?", 0, "1\n"),
        ("echo hi > $nosuch; echo $?", 0, "1\n"),
        ("set -C; echo a > g; echo b &> g; echo $?; echo c >& g; echo $?; cat g", 0, "1\n1\na\n"),
        # A readonly assignment skips the rest of its line, not the script.
        ("readonly a=1\na=2; echo no\necho st=$?", 0, "st=1\n"),
        ("readonly a=1; f() { a=3; echo in; }\nf; echo no\necho next", 0, "next\n"),
        # …but a readonly loop variable only ends the loop.
        ("readonly a=1; for a in 1; do :; done; echo st=$?", 0, "st=1\n"),
        # set lists variables quoted only where the shell needs it.
        (
            "x=1 y='a b' z=$'q\\n' w='~h' v=a#; set | grep '^[vwxyz]='",
            0,
            "v=a#\nw='~h'\nx=1\ny='a b'\nz=$'q\\n'\n",
        ),
        ("declare -a __arr=(1 '3 4'); set | grep ^__", 0, '__arr=([0]="1" [1]="3 4")\n'),
        # Declared without a value: unset, but declare -p lists it.
        ("declare -a arr; declare -p arr", 0, "declare -a arr\n"),
        ("readonly -a r; declare -p r", 0, "declare -r r\n"),
        ("declare x; declare -p x; echo ${x-unset}", 0, "declare -- x\nunset\n"),
        ("declare -p nosuch; echo $?", 0, "1\n"),
        # A new local starts unset and leaves the caller's value alone.
        ('x=g; f() { local x; echo "[${x-unset}]"; }; f; echo $x', 0, "[unset]\ng\n"),
        (
            "a=(1 2); f() { local a; a[5]=x; declare -p a; }; f; declare -p a",
            0,
            'declare -a a=([5]="x")\ndeclare -a a=([0]="1" [1]="2")\n',
        ),
        ("f() { local x=1 y; local; }; f", 0, 'declare -- x="1"\ndeclare -- y\n'),
        # -u / -l convert on every assignment.
        ("declare -u u=abc; echo $u; u=def; declare -p u", 0, 'ABC\ndeclare -u u="DEF"\n'),
        ("declare -l l=ABC; l+=DEF; echo $l", 0, "abcdef\n"),
        # Attribute letters in bash's order; export -p / readonly -p / declare -x filter.
        ("declare -xr q=5; declare -p q; readonly -p | grep ' q='", 0, 'declare -rx q="5"\n' * 2),
        ('export v; export -p | grep " v$"', 0, "declare -x v\n"),
        ("declare -x e=1; declare -x | grep ' e='", 0, 'declare -x e="1"\n'),
        # Associative arrays list in bash's hash-table order.
        (
            'declare -A A=([a]=1 [b]=2 [c]=3 [one]=x [two]=y ["k e y"]=z); echo "${!A[@]}"; '
            "declare -p A",
            0,
            'c b a k e y two one\ndeclare -A A=([c]="3" [b]="2" [a]="1" ["k e y"]="z" '
            '[two]="y" [one]="x" )\n',
        ),
    ],
)
def test_options_and_declarations_agree_with_bash(
    run: Runner, source: str, code: int, stdout: str
) -> None:
    ran = run(source)
    assert (ran.code, ran.out) == (code, stdout), ran.err


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        # cd: the path as written must exist; -- ends options; one operand only.
        ("cd nosuch/..; echo $?", 0, "1\n"),
        ("cd a b; echo $?", 0, "1\n"),
        ("cd -- /; echo $PWD", 0, "/\n"),
        # -L (the default) keeps symlinks in $PWD, -P resolves them; so does pwd -P.
        (
            "mkdir -p t/sub; ln -s t l; cd l/sub; basename $PWD; cd ..; basename $PWD; "
            "cd -P ..; cd -P l; basename $PWD; basename $(pwd -P)",
            0,
            "sub\nl\nt\nt\n",
        ),
        # $CDPATH finds the directory (and cd prints it).
        ("mkdir -p p/q; CDPATH=p; cd q >/dev/null; echo $?; basename $PWD", 0, "0\nq\n"),
        # OLDPWD is exported once cd has run.
        ('cd /; env | grep -c "^OLDPWD="', 0, "1\n"),
        # trap lists by signal number; a subshell lists the traps it inherited.
        (
            "trap 'echo bye' EXIT; ( trap ); echo $(trap -p EXIT); trap | cat",
            0,
            "trap -- 'echo bye' EXIT\n" * 3 + "bye\n",
        ),
        (
            "trap 'echo T' TERM; trap 'echo E' EXIT; trap 'echo I' INT; trap 'echo R' ERR; "
            "trap; trap - INT; trap -p",
            0,
            "trap -- 'echo E' EXIT\ntrap -- 'echo I' SIGINT\ntrap -- 'echo T' SIGTERM\n"
            "trap -- 'echo R' ERR\ntrap -- 'echo E' EXIT\ntrap -- 'echo T' SIGTERM\n"
            "trap -- 'echo R' ERR\nE\n",
        ),
        # Real-time signals by number; an unsigned number first resets, " 42 " is an action.
        (
            "trap 'echo x' 42; trap -p; trap ' 42 ' 42; trap",
            0,
            "trap -- 'echo x' SIGRTMIN+8\ntrap -- ' 42 ' SIGRTMIN+8\n",
        ),
        ("trap 'echo e' EXIT; trap 07 EXIT; echo ok", 0, "ok\n"),
        ("trap -1 EXIT; echo $?", 0, "2\n"),
        # Extended globs: always in [[ ]], with extglob in words, case patterns, redirects.
        (
            "[[ --verbose == --@(help|verbose) ]] && echo T; [[ -- == --?(help) ]] && echo T2; "
            "[[ --x == --+(help) ]] || echo F",
            0,
            "T\nT2\nF\n",
        ),
        (
            "shopt -s extglob\ng=--@(help|verbose); [[ --help == $g ]] && echo T; "
            "case -zz in -+(x|z)) echo C;; esac",
            0,
            "T\nC\n",
        ),
        ("shopt -s extglob\ntouch foo-bar; echo hi > @(*-bar|other); cat foo-bar", 0, "hi\n"),
        # shopt -u globskipdots lets .* match . and ..; two ** reach a file once.
        (
            "touch .a b; shopt -u globskipdots; echo .*; shopt -s globskipdots; echo .*",
            0,
            ". .. .a\n.a\n",
        ),
        (
            "shopt -s globstar\nmkdir -p c/s; touch l.md c/l.md c/s/l.md; echo **/**/*.*",
            0,
            "c/l.md c/s/l.md l.md\n",
        ),
        # test -v knows variables and array elements.
        (
            "declare -A A=([e]= [k]=v); test -v A[e]; echo $?; test -v A[k]; echo $?; "
            "test -v A[no]; echo $?; test -v HOME; echo $?; [ ! -v nosuch ]; echo $?",
            0,
            "0\n0\n1\n0\n0\n",
        ),
        # A #!-less script found on PATH runs as a shell script.
        (
            "mkdir one two; echo 'echo one' > one/c; echo 'echo two' > two/c; "
            "chmod +x one/c two/c; PATH=one:two; c",
            0,
            "one\n",
        ),
        # The command hash: a command keeps running from where it was first found.
        (
            'PATH="one:two:$PATH"; mkdir -p one two; echo "echo two" > two/c; chmod +x two/c; '
            'c; echo "echo one" > one/c; chmod +x one/c; c; hash -r; c',
            0,
            "two\ntwo\none\n",
        ),
        (
            "hash -p /bin/true t; hash -t t; hash; hash -d t; hash",
            0,
            "/bin/true\nhits\tcommand\n   1\t/bin/true\nhash: hash table empty\n",
        ),
        ("hash -r; hash", 0, "hash: hash table empty\n"),
        ("hash nosuch_zz; echo $?", 0, "1\n"),
        # set -e: a compound command fails through a command inside it, which is exempt
        # on the left of && / ||; its own failed redirection counts.
        ("set -e; { test no = yes && echo hi; }; echo status=$?", 0, "status=1\n"),
        ("set -e; if true; then false && x; fi; echo st=$?", 0, "st=1\n"),
        ("set -e; case a in a) false && x;; esac; echo st=$?", 0, "st=1\n"),
        ("set -e; f() { false && x; }; f; echo no", 1, ""),
        ("set -e; { :; } < nosuch; echo no", 1, ""),
        # $( ) runs without set -e; a subshell in a condition keeps it off.
        ('set -e; x=$(false; echo hi); echo "$x"', 0, "hi\n"),
        ("set -e; if ( echo 1; false; echo 2 ); then echo 5; fi; echo 6", 0, "1\n2\n5\n6\n"),
    ],
)
def test_cd_and_trap_agree_with_bash(run: Runner, source: str, code: int, stdout: str) -> None:
    ran = run(source)
    assert (ran.code, ran.out) == (code, stdout), ran.err
