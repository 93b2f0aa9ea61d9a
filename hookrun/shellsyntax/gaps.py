"""Where tree-sitter-bash (0.25) misreads valid bash: each gap, and its handling, here.

Found by running mvdan/sh's and Oils' conformance inputs and hook snippets through the
grammar; each has a test in ``tests/shellsyntax/gaps_test.py``.

1. ``cmd 2>&1 <<<word``: after another redirection, ``<<<`` comes out as an ERROR
   ``<<`` followed by a ``<word`` redirect. Read as the here-string it is.
2. ``n<>file``: comes out as ``<`` followed by an ERROR ``>``. Read as ``<>``.
3. ``{name}>file`` (a descriptor chosen by the shell): comes out as a word ``{name}``
   right before the redirect. Read as the redirect's ``fd_var``. Likewise ``cat 0<f``:
   the grammar never reads ``0`` as a descriptor (a word); digits right before a
   redirect are its descriptor.
4. ``a\\<newline>b`` (a line continuation inside a word): comes out as two words.
   Joined into one, as bash reads it.
5. Here-documents: the grammar misreads many ordinary shapes (``<<EOF;``, two on one
   line, ``<<EOF && cmd``, an indented ``<<-`` end line, ``0<<EOF``). They are found,
   delimited and blanked out of the parsed copy by :mod:`hookrun.shellsyntax.heredocs`
   before the grammar reads the rest.
6. ``! a | b && c``: comes out as ``(! a) | (b && c)``. Rebuilt as ``(! a | b) && c``
   (in :meth:`hookrun.shellsyntax.convert.Converter.pipeline`).
7. Unquoted here-document bodies: the grammar misses ``$1``, backquotes and reads
   ``$((…))`` as a command substitution there. Each expansion in a body is re-read on
   its own (:meth:`hookrun.shellsyntax.convert.Converter.heredoc_parts`).
8. Backquotes: the grammar misreads them with backslashes inside (``echo `echo \\$```),
   reads ``$``` as one token and two in one word list (```a` `b```) as one. They
   are found as bash finds them and taken out of the parsed copy by
   :mod:`hookrun.shellsyntax.backquotes`. Not handled (Unsupported, so a real shell
   runs the script when there is one): ``\\(`` inside ``[ … ]``.
9. ``$(( … ))``: the grammar reads a nested ``$((2))`` as a command substitution and
   gives an ERROR for arithmetic it cannot parse (``$((1 + ))``, which bash reports when
   it runs). Arithmetic text is read by hookrun's evaluator instead; only the
   expansions in it are found with the grammar (as in gap 7).
10. ``[ … ]``: the grammar parses the words of a ``[`` command as an expression, and
   gets it wrong (``-d /`` reads ``/`` as division, ``\\( … \\)`` is an ERROR, and a
   wrong reading can swallow ``&& next``). In bash ``[`` is an ordinary command, so
   the text is parsed again with each such ``[`` read as a plain word (the byte is
   swapped for a letter in the copy that is parsed; every word's text, ``[`` included,
   is still taken from the user's source), until none is left
   (:func:`hookrun.shellsyntax.parser._read_brackets_as_words`). A ``/`` standing
   alone as a word of ``[[ … ]]`` (``[[ -d / ]]``, read as division) is swapped the
   same way.
11. ``${%}``, ``${#x-y}`` and other ``${…}`` forms bash refuses only when it runs them
   ("bad substitution"): the grammar gives an ERROR; read as a parameter expansion
   that fails with that message when expanded.
12. Quotes and backquotes inside a ``${x<op>…}`` operand (``${x#*'"'}``,
   ``${x:-`cmd`}``): left as one literal leaf by the grammar; the operand is parsed
   again on its own as a word at the same offsets (as in gap 10).
14. ``$()`` and ``for x in; do`` (empty, valid in bash) come out with a MISSING word and
   an ERROR ``in``: read as an empty substitution and an empty word list.
15. ``a=1 b=2⏎cmd`` (two or more assignments, then a command on the next line, at the
   end of the input): comes out as one command ``a=1 b=2 cmd``, so the assignments
   would hold for ``cmd`` only. Read as the two statements it is
   (:func:`assignments_line`).
16. A line that starts with a backslash-escaped word (``\\exit 5``, ``\\rm x``) comes
   out as more words of the command on the line before (a word starting with the
   newline). Parsed again with that newline byte read as ``;`` (in the copy that is
   parsed, as in gap 10), which ends a command the same way.
17. Extended globs (``--@(help|verbose)``, ``?(a|b)``, ``+(x)``, ``*(x)``, ``a!(b)``):
   the grammar reads ``@`` as a word and ``(…)`` as a subshell (``g=--@(a|b)`` silently
   becomes an assignment and a subshell), a parenthesised ``[[`` expression, a broken
   case item or an ERROR. They are found in the first tree, by its tokens
   (:func:`extglobs`): a token starting with ``(`` right after a word token ending
   with the operator, up to the ``)`` that balances it in the tokens' text. In the copy
   that is parsed again, their parentheses and bars are swapped for a letter
   (:func:`mask_extglobs`), outside the quotes and expansions the tree shows, so each
   parses as one word whose text is still the user's. Not after ``$@`` and the like,
   not in arithmetic (``2*(3+1)``); ``!(`` only inside a word (at its start it is
   ``!`` and a subshell, which bash reads the same way without extglob).
21. ``echo \\ `` and ``echo \\ \\(``: the grammar drops a backslash-escaped blank
   before a newline or the end of the text. The blank is read as a letter in the
   copy that is parsed (:func:`escaped_blanks`).
13. ``rm$IFS-rf$IFS~``: the grammar ends the first word at the second ``$`` and reads
   ``IFS~`` as another word, so ``$IFS`` would be literal text. An unquoted ``$name``
   left in literal text is read as the expansion it is
   (:meth:`hookrun.shellsyntax.convert.Converter.lits`).
18. ``echo ==`` / ``echo a =~ b``: the grammar reads ``==``/``=~`` as a test operator
   in a plain command (an ERROR at the command's end). Swapped for a word in the
   parsed copy, as in gap 10 (:func:`hookrun.shellsyntax.grammar.bracket_commands`).
19. Words after a redirect's target (``echo >f b c``; ``cat <<EOF 1>&2 a``) come out
   as more targets of the redirect: read as the command's arguments, as bash does.
20. A redirect after the last command of a pipeline or list (``a | b <f``,
   ``a && b >f``) comes out on the whole pipeline or list: moved to that command.
22. ``\v``, ``\f`` and a ``\r`` are word characters to bash (``echo a<CR>b`` is one
   word, ``-<CR>`` at a line end keeps it); the grammar reads them as blanks. Each is
   read as a letter in the copy that is parsed (:func:`control_blanks`), as in gap 21.
   A ``\r`` right before a newline stays a blank on purpose: an inline hook command
   pasted from a Windows editor (CRLF) runs as its author meant.
23. ``for`` headers: ``for x do`` (no ``in``, ``do`` on the same line) is an ERROR, and
   a name that is no identifier (``for - in a``, ``for a-b in a``), which bash refuses
   only when it runs the loop, is an ERROR or a broken name. In the copy that is
   parsed, the blank before ``do`` is read as ``;`` and the bad name's bytes as letters
   (:func:`for_headers`); the name is still read from the user's text, and the
   interpreter reports it as bash does.
24. ``!`` before a compound command (``! { a; } || b``, ``! if …``, ``! while …``): the
   grammar negates a command named ``{``/``if``/… and reads the rest as more
   commands. The ``!`` is read as a blank in the copy that is parsed
   (:func:`negated_compounds`) and the converter negates the pipeline that starts
   there.
25. A backslash-escaped character in the pattern of ``${x#…}``/``${x%…}``
   (``"${var#\\}}"``, ``${foo%d\\'}``): the grammar ends the pattern at the backslash,
   so ``}`` closes the expansion early and a quote opens a string. The escaped byte is
   read as a letter in the copy that is parsed (:func:`escaped_in_patterns`); the
   pattern's text is the user's.
26. ``$(( a[1][1] ))``, ``$(( x$foo[5] = 42 ))``, ``(( a[i[0]] ))``: the grammar's own
   arithmetic gives up on such subscripts and ends the expansion early (a MISSING
   ``))``, the rest read as words). Arithmetic text is read by hookrun's evaluator
   anyway (gap 9), so in the copy that is parsed the body of such an expansion (up to
   the ``))`` whose parentheses match, as bash finds it) is read as ``0``
   (:func:`broken_arithmetic`).
27. ``#`` after an expansion or a non-decimal number in arithmetic (``$(( ${b}#a ))``,
   ``$(( 0x2#1 ))``): the grammar starts a comment there, which swallows the closing
   ``))``. Arithmetic has no comments; the ``#`` is read as a letter in the copy that
   is parsed (:func:`arithmetic_hashes`) and hookrun's evaluator reads the user's text.
28. ``${a&}``, ``${a;}``: an operator byte after the name ends the grammar's ``${``
   there, and the rest becomes other commands. bash reads up to the ``}`` and reports a
   bad substitution when it runs it. The byte is read as ``|`` in the copy that is
   parsed (:func:`operators_in_braces`), which the grammar keeps inside one ERROR, so
   it is read as gap 11 reads any ``${…}`` it refuses (with the user's text). An
   unknown transform letter (``${x@Z}``) is read as ``Q`` there; the letter is the
   user's and fails when it runs, as in bash.
29. ``echo foo\\⏎$``: a lone ``$`` continuing a word after a line continuation is an
   ERROR. It is read as a letter in the copy that is parsed (:func:`continued_dollars`)
   and joined to the word as gap 4 joins any continued word; its text, ``$``, is literal.
30. A bracket expression that starts with ``]`` in a ``${…}`` pattern (``${x//[]z]/>}``,
   ``${x#[!]]}``): the grammar ends the pattern at that ``]``. The ``]`` that closes
   the bracket is read as a letter in the copy that is parsed (in
   :func:`escaped_in_patterns`).
37. A ``)`` inside a bracket expression of a ``${…}`` operand (``"${p%%[,;)]*}"``,
   ``${p/[)]/x}``): the grammar ends the expansion there — a syntax error for the whole
   script (a hook's exit 2: a block) where bash trims at the first ``,``/``;``/``)``.
   Each such ``)`` is read as a letter in the copy that is parsed
   (:func:`parens_in_brackets`).
38. The right side of ``[[ x = p ]]`` holding a quoted blank (``[[ $c = *"rm -rf"* ]]``):
   the grammar reads what follows a single ``=`` as a regex token, which ends at the
   blank — a syntax error for the whole script (exit 2: a hook's block on every call)
   where bash compares. In a tree with an error, each such ``=`` is read as ``<`` in the
   copy that is parsed (a one-byte operator whose right side is an ordinary word); the
   operator's text is still taken from the user's source (:func:`pattern_equals`).
39. Misreads that bash reads otherwise (each a wrong answer or a syntax error for the
   whole script, exit 2: a hook's block on every call):

   - ``_=1`` (``_+=x``): the grammar reads it as a command name ("command not found");
     read as the assignment it is (:meth:`hookrun.shellsyntax.convert.Converter.command`).
   - ``a$v$?x``, ``$v$$``: a special parameter after another expansion is left in literal
     text; read as the expansion it is (as gap 13).
   - ``$(( ))`` twice in a command: an empty arithmetic body is an ERROR that swallows
     the next one. Its first blank is read as ``0`` in the copy that is parsed
     (:func:`empty_arithmetic`); hookrun's evaluator reads the user's text. ``$(())``
     (no blank: ``$(())$(())``, ``$((1))$(())`` was two words) is read as ``$[00]``.
   - The right side of ``=~`` as bash reads it, one word (``[[ s =~ []] ]]``,
     ``=~ [" "]``, ``=~ a\\${x}``): the grammar's regex token ends early, at a
     bracket, a quote or an escaped ``$``. In a tree with an error, each such word is
     read as letters in the copy that is parsed (:func:`regex_words`) and its text, the
     user's, is parsed again as a word (gap 36).
   - A ``case`` pattern of a quoted part between globs (``*"push --force"*)``): comes
     out as three patterns, ``*`` among them, which matches anything. The adjacent
     values are read as the one pattern they are
     (:meth:`hookrun.shellsyntax.convert.Converter.case_item`).
   - A word right after an expansion in a ``case`` pattern (``a${v}c)``, ``a$(x)c)``):
     an ERROR, a syntax error for the whole script; read as the pattern's last part
     (:func:`tolerated`).
   - An array element's key holding ``]=`` in a substitution
     (``a=([$(b=([2]=y); echo 1)]=rm)``): the key was cut at that ``]=``. It ends at
     the ``]`` that closes it (:func:`key_end`).
   - ``case x in x) echo esac;; esac``: the grammar ends the ``case`` at an ``esac`` that
     is an argument. Such an ``esac`` (after a word on its line, not after ``case``,
     ``in`` or the end of a compound command) is read as a letter in the copy that is
     parsed (:func:`esac_arguments`).
40. ``${v~}``, ``${v~~}`` (bash's undocumented case toggle of the first / every
   character; ``${v~[ab]}`` with a pattern): the grammar knows no ``~`` operator (an
   ERROR, a syntax error for the whole script). The ``~`` is read as ``^`` in the copy
   that is parsed (:func:`case_toggles`); the converter reads the user's ``~``.
41. Parentheses in ``[[ … ]]`` next to what the grammar reads as one token: ``b)`` of
   ``[[ (a == b)||(b == b) ]]`` (an extended glob to it), and any ``=~`` inside
   parentheses (``[[ ($x =~ ^a$) ]]``, ``[[ !(a =~ b) ]]``): a syntax error for the
   whole script where bash compares. In a tree with an error, the grouping parentheses
   of such a ``[[`` (as bash's conditional parser finds them: :func:`condition_parens`)
   are read as blanks in the copy that is parsed, and the converter puts them back at
   their offsets as the condition's own ``(`` and ``)``.
42. A quoted part, then an escaped blank in a ``case`` pattern (``"p"\\ "q")``,
   ``'p'\\ q)``): the grammar reads the rest as an extended glob (an ERROR: a syntax
   error for the whole script). Such a backslash (after a quote, before a blank) is
   read as a letter too in the copy that is parsed (in :func:`escaped_blanks`).
44. A slice whose offset starts with ``$name`` (``${s:$i:2}``, ``${s:$i}``): the grammar
   ends the expansion at the ``$`` (a MISSING ``}``), a syntax error for the whole
   script. That ``$`` is read as a letter in the copy that is parsed
   (:func:`slice_dollars`); the offset's text, the user's, is read as gap 13 reads an
   unquoted ``$name`` left in text.
43. Line continuations anywhere bash removes them (``loc\\⏎al``, ``i\\⏎f``, ``&\\⏎&``,
   ``$H\\⏎OME``, ``x=a\\⏎b``): gaps 4 and 29 mended two shapes; the rest were read as a
   break between words (``x=a\\⏎b`` ran ``b``, ``$H\\⏎OME`` was ``$H`` and ``OME``) or a
   syntax error. :mod:`hookrun.shellsyntax.continuations` takes them out of the text
   before any step here reads it (not inside single quotes, ``$'…'``, a comment or a
   quoted here-document's body, as bash) and moves the tree's offsets back onto the
   user's text; gaps 4 and 29 now only see a continuation that text keeps.
45. A ``~`` standing alone in ``[[ … ]]`` (``[[ $HOME == ~ ]]``, ``[[ -n ~ ]]``): the
   grammar reads arithmetic's ``~`` operator there (an error: a syntax error for the
   whole script). It is read as a letter in the copy that is parsed (:func:`lone_tildes`);
   the word's text is the user's ``~``, tilde-expanded as bash does.
46. A ``/`` inside single quotes in a ``${x/pattern/…}`` pattern (``${x//'/'/_}``): the
   grammar ends the pattern there (a syntax error for the whole script); bash replaces
   each ``/``. Read as a letter in the copy that is parsed (:func:`quoted_slashes`); the
   converter's split skips single quotes (``Converter.param_separators``) and the
   pattern is read as gap 12 reads a quoted operand.
47. A backslash that ends the text (``echo C:\\``, no newline after it): bash keeps it
   as text, the grammar errs (a syntax error for the whole script). It is read as a
   letter in the copy that is parsed (in :func:`hookrun.shellsyntax.parser.parse_bytes`;
   not after a ``$``: ``echo $\\`` stays an error); the word's text is the user's.
49. An assignment whose value holds an expansion after a ``/`` and ``:`` then another
   (``x=$A/e:$B/d:$C``, ``z=$A/:$B/:$C``): the grammar ends the value at the second
   ``$`` (a bare ``$``) and reads the rest as a command — ``PATH=$X/e:$Y/d:$PATH`` ran
   ``Y/d:…`` — with no error in the tree. That ``$`` is read as a letter in the copy that
   is parsed (:func:`assignment_dollars`); the value's text, the user's, is read as gap 13
   reads an unquoted ``$name`` left in text.
48. A ``case`` pattern the grammar's scanner reads too far: a glob, then a quoted part,
   then more text (``*"rm"x"q")``, ``*"rm"\\ "-rf"*)``: an ERROR), or a one-byte pattern
   with its body right after the ``)`` (``a)b;;``, ``*)exit 0;;``: read as one extended
   glob ``a)b;;``) — each a syntax error for the whole script (exit 2: a hook's block
   on every call) where bash matches. In a tree with an error, the first byte of each
   pattern that the scanner took as an extended glob's start (a glob byte or a letter,
   not before ``(``) is read as ``0`` in the copy that is parsed (:func:`case_patterns`);
   the scanner leaves a digit to the ordinary word rules. The pattern's text is the user's.
31. A reserved word right after a group or subshell (``if { a; } then``, ``while (a) do``,
   ``then { a; } fi``): bash ends the group at its ``}``/``)``, the grammar wants a ``;``.
   The blank before the word is read as ``;`` in the copy that is parsed
   (:func:`keywords_after_groups`).
32. One assignment and redirections, no command (``x=1 2>f``, ``out=$(cmd) 2>/dev/null``):
   the grammar wants a command name after them (an ERROR, or it takes the next
   command's words). The blank before the first redirection is read as ``;`` in the
   copy that is parsed (:func:`assignment_redirects`) and the converter puts the
   redirections back on the assignment. Before a newline the grammar gives no error
   but reads the next line's command as this one's (``x=1 >f⏎echo``): split there as
   gap 15 splits (:func:`assignments_line`). After ``&&``/``||``/``|`` (``a && y=2 >g``,
   read ``a && y=2;>g``) the converter joins the list back (``_join_across``); before a
   newline there the next line is split off as gap 28 splits (:func:`words_after_newline`),
   also when it shows only once the first redirection is read (``x=1 2>f && y=2 >g⏎b``).
   A ``;`` right after the redirection (``y=2 >g;echo``) is an ERROR in its target.
33. Some and-or lists of long pipelines (``a | b | c || d | e | f && g``,
   ``a | b && c | d | e | f || g``): the grammar nests the rest of the list in a
   pipeline's last stage, so it came out right-associated (``p1 || (p2 && g)``). bash's
   ``&&`` and ``||`` are of equal precedence and group from the left; the list is
   rebuilt so (:func:`hookrun.shellsyntax.convert._left_associated`).
34. A list before a pipe with a redirection on its last command (``a && b >f | c``):
   the grammar pipes the whole list, ``(a && b >f) | c``; bash pipes ``b`` alone,
   ``a && (b >f | c)``. Rebuilt in :meth:`hookrun.shellsyntax.convert.Converter.pipeline`
   (and ``(a | b >f) | c`` read as the one pipeline it is).
35. A here-string with a descriptor (``cat 3<<< x``, ``read -u 3 v 3<<<"$s"``): comes
   out as a ``file_redirect`` of the descriptor, an ERROR ``<<`` and a ``<`` before the
   word. Read as the here-string it is, on that descriptor (as gap 1).
36. The right side of ``[[ x =~ re ]]`` (and of ``[[ x = p ]]`` when it holds a
   ``${``): the grammar reads it as one ``regex`` leaf with nothing expanded in it, so
   ``[[ $s =~ ^${x}$ ]]``, ``=~ a$x(b|c)``, ``=~ ^a"$x"$`` and ``= ${x}`` compared with
   the text ``$x``. When the text holds an expansion (or a quote: then its nodes are a
   word's, as the fast path reads them) it is parsed again on its own as a word at the
   same offsets (as in gap 12), with the bytes a command word could not hold there
   (``( ) | { }``, blanks, a ``$`` that starts nothing) read as letters in the parsed
   copy; every literal's text is still taken from the user's source
   (:func:`regex_as_word`, :meth:`hookrun.shellsyntax.convert.Converter.regex_parts`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from hookrun.lazyre import compile as lazy_compile
from hookrun.records import TYPE_CHECKING, NamedTuple
from hookrun.shellsyntax import ShellSyntaxError, Unsupported

if TYPE_CHECKING:  # typing stays off the shell path at run time (hookrun.records says why).
    from typing import Any

    Node = Any


_REDIRECT_NODES = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})


class Patched(NamedTuple):
    """A redirect the grammar split into pieces (gaps 1, 2 and 35), read as one.
    ``targets``: the nodes after its operator — its word, then any words of the command
    written after it (``cat 2>&1 <<< x y``: ``y`` is cat's argument, as gap 19)."""

    pos: int
    end: int
    fd: Node | None
    op: str
    targets: list[Node]


def _is_error(n: Node, text: str) -> bool:
    return bool(n.type == "ERROR" and n.child_count == 1 and n.children[0].type == text)


def _split_here_string(err: Node, nxt: Node | None) -> bool:
    """Gap 1: an ERROR ``<<`` with, right after it, the ``<word`` redirect the grammar
    made of the rest of a ``<<<``."""
    return bool(
        nxt is not None
        and _is_error(err, "<<")
        and nxt.start_byte == err.end_byte
        and nxt.type == "file_redirect"
        and nxt.children
        and nxt.children[0].type == "<"
    )


def _fd_here_string(kids: Sequence[Node]) -> bool:
    """Gap 35: a ``file_redirect``'s children that are ``n<<<``: the descriptor, an
    ERROR ``<<`` and a ``<``, each right after the one before."""
    return bool(
        len(kids) > 3
        and kids[0].type == "file_descriptor"
        and _is_error(kids[1], "<<")
        and kids[2].type == "<"
        and kids[0].end_byte == kids[1].start_byte
        and kids[1].end_byte == kids[2].start_byte
    )


def fix_redirects(nodes: Sequence[Node]) -> list[Node | Patched]:
    out: list[Node | Patched] = []
    i = 0
    while i < len(nodes):
        n = nodes[i]
        nxt = nodes[i + 1] if i + 1 < len(nodes) else None
        if nxt is not None and _split_here_string(n, nxt):  # gap 1
            targets = [c for c in nxt.children[1:] if c.is_named]
            out.append(Patched(n.start_byte, nxt.end_byte, None, "<<<", targets))
            i += 2
            continue
        if n.type == "file_redirect":
            kids = n.children
            lt = -1  # the first `<`
            for k, c in enumerate(kids):
                if c.type == "<":
                    lt = k
                    break
            if 0 <= lt < len(kids) - 1 and _is_error(kids[lt + 1], ">"):  # gap 2
                fd = n.child_by_field_name("descriptor")
                targets = [c for c in kids[lt + 2 :] if c.is_named]
                out.append(Patched(n.start_byte, n.end_byte, fd, "<>", targets))
                i += 1
                continue
            if _fd_here_string(kids):  # gap 35
                targets = [c for c in kids[3:] if c.is_named]
                out.append(Patched(n.start_byte, n.end_byte, kids[0], "<<<", targets))
                i += 1
                continue
        out.append(n)
        i += 1
    return out


def empty_command(n: Node) -> bool:
    """The zero-width command the grammar puts in ``$()`` (gap 14)."""
    return bool(n.type == "command" and n.start_byte == n.end_byte)


def tolerated(err: Node) -> bool:
    """An ERROR (or MISSING) node that is read anyway (gaps 1, 2, 9, 11, 14, 35)."""
    if err.is_missing:
        if err.type != "word":
            return False
        p = err.parent
        while p is not None and p.start_byte == p.end_byte and p.type != "command_substitution":
            p = p.parent
        return bool(p is not None and p.type == "command_substitution")
    text = err.text or b""
    if _is_error(err, "in") and err.parent is not None and err.parent.type == "for_statement":
        return True  # `for x in; do` (gap 14)
    if text.startswith(b"${"):
        nxt = err.next_sibling
        if (
            nxt is not None
            and nxt.start_byte == err.end_byte
            and (nxt.text or b"").startswith(b"}")
        ):
            return True
    p = err.parent
    while p is not None:  # arithmetic text is read by hookrun's evaluator (gap 9)
        if p.type in ("arithmetic_expansion", "c_style_for_statement"):
            return True
        if p.type == "compound_statement" and p.children and p.children[0].type == "((":
            return True
        p = p.parent
    if text.startswith(b"${") and text.endswith(b"}") and text.find(b"\n") < 0:
        return True  # ${…} the grammar could not read: bash says "bad substitution" (11)
    if err.children and err.children[0].type == "$((" and text.endswith(b"))"):
        return True  # $((…)) the grammar could not read: hookrun's arithmetic will
    if _case_pattern_tail(err):
        return True  # gap 39: `a${v}c)`, the `c` after an expansion in a pattern
    if _is_error(err, "<<"):
        parent = err.parent
        if parent is not None and parent.type == "file_redirect":  # gap 35
            kids = parent.children
            return len(kids) > 1 and kids[1] == err and _fd_here_string(kids)
        return _split_here_string(err, err.next_sibling)
    if _is_error(err, ">"):  # gap 2: `<>` read as `<` and an ERROR `>`
        prev, parent = err.prev_sibling, err.parent
        at = prev is not None and prev.type == "<" and prev.end_byte == err.start_byte
        return bool(at and parent is not None and parent.type == "file_redirect")
    return False


def _case_pattern_tail(err: Node) -> bool:
    """Gap 39: a word the grammar leaves as an ERROR right after an expansion in a
    ``case`` pattern (``a${v}c)``, ``a$(x)c)``), before the item's ``)``."""
    parent, prev, nxt = err.parent, err.prev_sibling, err.next_sibling
    return bool(
        parent is not None
        and parent.type == "case_item"
        and prev is not None
        and prev.is_named
        and prev.end_byte == err.start_byte
        and nxt is not None
        and nxt.type == ")"
        and all(c.type == "word" for c in err.children)
    )


def fd_variables(
    src: bytes, words: list[Node], redirects: Sequence[Node]
) -> tuple[list[Node], dict[int, str]]:
    """Gap 3: take ``{name}`` words that stand right before a redirect out of the words.

    Also a descriptor number the grammar left as a word (it never reads ``0`` in
    ``cat 0<f`` as one): digits right before a redirect without a descriptor are its
    descriptor, as in bash (``echo 12>f`` writes fd 12). Mapped to the digits.
    """
    if not redirects or not words:
        return words, {}
    starts = {
        r.start_byte: r for r in redirects if r.type in ("file_redirect", "herestring_redirect")
    }
    keep: list[Node] = []
    found: dict[int, str] = {}
    for w in words:
        text = src[w.start_byte : w.end_byte]
        r = starts.get(w.end_byte)
        name = text[1:-1]
        if (
            r is not None
            and r.child_by_field_name("descriptor") is None
            and text.startswith(b"{")
            and text.endswith(b"}")
            and name.replace(b"_", b"a").isalnum()
            and not name[:1].isdigit()
        ):
            found[r.start_byte] = name.decode("ascii")
        elif (
            r is not None
            and r.child_by_field_name("descriptor") is None
            and text.isdigit()
            and not any(c.type in ("&>", "&>>") for c in r.children)  # `2&>1`: a command
        ):
            found[r.start_byte] = text.decode("ascii")
        else:
            keep.append(w)
    return keep, found


def join_continued(src: bytes, words: Sequence[Node]) -> list[list[Node]]:
    """Gap 4: words separated only by backslash-newline are one word."""
    groups: list[list[Node]] = []
    prev_end = -1  # where the word before ends
    for w in words:
        start = w.start_byte
        # Most words are apart by a blank: only a gap that starts with a backslash is
        # looked at as text.
        if groups and (
            start <= prev_end or (src[prev_end] == 0x5C and _continued(src[prev_end:start]))
        ):
            groups[-1].append(w)
        else:
            groups.append([w])
        prev_end = w.end_byte
    return groups


def _continued(gap: bytes) -> bool:
    """Whether ``gap`` (between two words) is only line continuations."""
    return gap.replace(b"\\\n", b"") == b"" and gap.endswith(b"\n")


def _line_col(src: bytes, offset: int) -> tuple[int, int]:
    line = src.count(b"\n", 0, offset) + 1
    col = len(src[src.rfind(b"\n", 0, offset) + 1 : offset].decode("utf-8", "replace")) + 1
    return line, col


def _unsupported(src: bytes, n: Node, what: str) -> Unsupported:
    line, col = _line_col(src, n.start_byte)
    return Unsupported(what, line, col)


def classify_error(src: bytes, n: Node) -> ShellSyntaxError | Unsupported:
    """A syntax error, unless the ERROR node comes from a known gap (8)."""
    if n.type == "ERROR" and n.children and n.children[0].type == "[":
        return _unsupported(src, n, "this [ … ] expression (parenthesised)")
    return syntax_error(src, n)


_CLOSERS = {"$((": ")", "$(": ")", "(": ")", "${": "}", '"': '"', "$'": "'", "'": "'", "`": "`"}


def _unclosed(text: bytes) -> str | None:
    """The closer an unterminated opener at the start of ``text`` is waiting for."""
    for opener, closer in _CLOSERS.items():
        if text.startswith(opener.encode()) and not text.rstrip().endswith(closer.encode()):
            return closer
    return None


def syntax_error(src: bytes, n: Node) -> ShellSyntaxError:
    """The error bash would give, near enough, for the first ERROR or MISSING node.

    bash reports an unterminated quote or substitution at the end of the input
    ("unexpected EOF while looking for matching `)'"), and so does this.
    """
    end_line, end_col = _line_col(src, len(src))
    if n.is_missing:
        if n.type in (")", "}", '"', "`", "'", "))", "]]"):
            return ShellSyntaxError(
                f"unexpected EOF while looking for matching `{n.type[0]}'", end_line, end_col
            )
        if n.start_byte >= len(src.rstrip()):
            return ShellSyntaxError("unexpected end of file", end_line, end_col)
        line, col = _line_col(src, n.start_byte)
        return ShellSyntaxError(f"expected '{n.type}'", line, col)
    text = src[n.start_byte : n.end_byte]
    closer = _unclosed(text.lstrip())
    if closer is not None and n.end_byte >= len(src.rstrip()):
        return ShellSyntaxError(
            f"unexpected EOF while looking for matching `{closer}'", end_line, end_col
        )
    line, col = _line_col(src, n.start_byte)
    token = text.decode("utf-8", "replace").split()
    first = token[0] if token else ""
    if first in ("case", "if", "for", "while", "until", "select", "{", "(", "function") and (
        n.end_byte >= len(src.rstrip())
    ):  # an unclosed compound command: bash reads on to the end of the input
        return ShellSyntaxError("unexpected end of file", end_line, end_col)
    if not first:
        return ShellSyntaxError("unexpected end of file", end_line, end_col)
    return ShellSyntaxError(f"syntax error near unexpected token `{first[:20]}'", line, col)


def assignments_line(src: bytes, n: Node) -> int | None:
    """Gap 15: where a command's words start when a newline ends its assignments (the
    index into ``n.children``), or None for an ordinary command."""
    kids = n.children
    k = 0
    # Redirections may follow the assignments (`x=$(cmd) 2>/dev/null⏎echo`, gap 32).
    while k < len(kids) and (
        kids[k].type == "variable_assignment" or (k and kids[k].type in _REDIRECT_NODES)
    ):
        k += 1
    if k == 0:
        return None
    rest = next((j for j in range(k, len(kids)) if kids[j].type != "comment"), None)
    if rest is None:
        return None
    between = src[kids[k - 1].end_byte : kids[rest].start_byte].replace(b"\\\n", b"")
    return k if between.find(b"\n") >= 0 else None


def leftmost_command(n: Node) -> Node | None:
    """The simple command a statement starts with (through lists, pipelines and
    redirections: where gap 15 can hide), or None."""
    while n.type in ("pipeline", "list", "redirected_statement"):
        first = next((c for c in n.children if c.is_named), None)
        if first is None:
            return None
        n = first
    return n if n.type == "command" else None


def words_after_newline(root: Node, src: bytes) -> list[tuple[int, int]]:
    """Gaps 16 and 28: the newlines the grammar read inside one simple command, as
    ``(first, newline)`` spans: the bytes from ``first`` up to the newline are a comment
    to blank, the newline is to be read as ``;``.

    16: a newline that starts a command word (``echo a⏎\\exit``). 28: a newline between
    two words of a command — bash ends a simple command at every newline that is no line
    continuation, but tree-sitter-bash 0.25 reads ``a | b | c⏎d && e`` (a pipeline of
    three or more stages, then a list on the next line) as ``c d``, and with a comment
    at the end of the first line it drops the next line: ``ls | cat | head⏎rm -rf / &&
    true`` was one harmless ``head``. Nothing is read past a here-document.
    """
    found: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if src.find(b"\n", n.start_byte, n.end_byte) < 0:
            continue  # a gap needs a newline: no subtree on one line is entered
        stack.extend(n.children)
        if n.type != "command":
            continue
        prev = -1
        comment = -1
        for c in n.children:
            start = c.start_byte
            if c.type == "comment":
                if comment < 0:  # the run of comments (and newlines) starts here
                    bare = _bare_newlines(src, prev, start) if 0 <= prev < start else None
                    comment = start if bare is None else bare[0]
            elif c.type == "word" and src[start : start + 2] == b"\n\\":
                found.append((start, start))
            elif prev >= 0 and start > prev and (c.type != "command_name" or _not_leftmost(n)):
                # (a command name after a newline: gap 15, `a=1 b=2⏎cmd`, cut by the
                # converter at a statement's start; here in a list, `a && x=1 >f⏎cmd`)
                bare = _bare_newlines(src, prev, start)
                if bare is not None:
                    found.append((bare[0] if comment < 0 else comment, bare[1]))
            if c.type != "comment":
                comment = -1
            # (not after an ERROR, `x=1 >f &⏎b`: gap 32 reads it, `&;` would be none)
            prev = -1 if "heredoc" in c.type or c.type == "ERROR" else c.end_byte
    return found


def _not_leftmost(n: Node) -> bool:
    """Whether command ``n`` is not the one its statement starts with (see
    :func:`leftmost_command`)."""
    parent = n.parent
    while parent is not None and parent.type in ("pipeline", "list", "redirected_statement"):
        if next((c for c in parent.children if c.is_named), None) != n:
            return True
        n, parent = parent, parent.parent
    return False


def _bare_newlines(src: bytes, start: int, end: int) -> tuple[int, int] | None:
    """The offsets of the first and the last newline in ``src[start:end]`` (the blanks
    between two words) that are no line continuation, or None."""
    first = last = -1
    at = src.find(b"\n", start, end)
    while at >= 0:
        k = at
        while k > start and src[k - 1] == 0x5C:  # backslashes right before it
            k -= 1
        if (at - k) % 2 == 0:
            first = at if first < 0 else first
            last = at
        at = src.find(b"\n", at + 1, end)
    return None if first < 0 else (first, last)


# A negated command named like this is a compound command the grammar did not read (24).
_COMPOUND_STARTS = frozenset((b"{", b"if", b"while", b"until", b"for", b"case", b"select"))
_BLANKS = b" \t"


def _walk(root: Node, *, errors_only: bool = True) -> Iterator[Node]:
    """The nodes of the tree, depth first (the last child first): with ``errors_only``
    those with an error in or below them, and no subtree without one is entered."""
    stack = [root]
    while stack:
        n = stack.pop()
        if errors_only and not n.has_error:
            continue
        yield n
        stack.extend(n.children)


def for_headers(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gap 23: (start, end, byte) spans to overwrite in the parsed copy of ``src``: the
    blank before the ``do`` of ``for x do``, the bytes of a ``for`` name that is no
    identifier."""
    fixes: list[tuple[int, int, int]] = []
    for n in _walk(root):
        kids = n.children
        if n.type in ("ERROR", "for_statement") and len(kids) > 2 and kids[0].type == "for":
            k = 1
            while k < len(kids) and kids[k].type not in ("in", "do", ";", "do_group", "(("):
                k += 1
            name = src[kids[1].start_byte : kids[k - 1].end_byte] if k > 1 else b""
            if name and not any(b in _BLANKS + b"\n" for b in name) and not _identifier(name):
                fixes.append((kids[1].start_byte, kids[k - 1].end_byte, ord("x")))
            at = kids[k].start_byte if k < len(kids) and kids[k].type == "do" else 0
            if name and at and src[at - 1] in _BLANKS:
                fixes.append((at - 1, at, ord(";")))
    return fixes


def _identifier(name: bytes) -> bool:
    return (
        (name[0] == 95 or chr(name[0]).isalpha())
        and all(b == 95 or chr(b).isalnum() for b in name)
        and name.isascii()
    )


_CLOSE_FIRST = (b"[]", b"[!]", b"[^]")


def escaped_in_patterns(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gaps 25 and 30: the byte after a ``${…}`` pattern that ends with an escaping
    backslash, or the ``]`` closing a bracket that starts with ``]``, to be read as a
    letter."""
    fixes: list[tuple[int, int, int]] = []
    for n in _walk(root, errors_only=False):
        if n.type in ("expansion", "ERROR"):
            for c in n.children:
                if c.type != "regex" or c.end_byte >= len(src):
                    continue
                text = src[c.start_byte : c.end_byte]
                if (len(text) - len(text.rstrip(b"\\"))) % 2:
                    fixes.append((c.end_byte, c.end_byte + 1, ord("x")))
                elif src[c.end_byte] == 0x5D and any(b in text for b in _CLOSE_FIRST):
                    fixes.append((c.end_byte, c.end_byte + 1, ord("x")))  # gap 30
    return fixes


def arithmetic_hashes(root: Node) -> list[tuple[int, int, int]]:
    """Gap 27: the ``#`` of each comment the grammar starts inside ``$((``/``((``."""
    fixes: list[tuple[int, int, int]] = []
    for n in _walk(root):
        kids = n.children
        if kids and kids[0].type in ("$((", "(("):
            fixes.extend(
                (c.start_byte, c.start_byte + 1, ord("x")) for c in kids if c.type == "comment"
            )
    return fixes


def operators_in_braces(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gap 28: the operator byte right after the name of a ``${name`` the grammar cut,
    and an unknown ``@`` letter (``${x@Z}``)."""
    fixes: list[tuple[int, int, int]] = []
    for n in _walk(root):
        kids = n.children
        # An ERROR `${name`, or an expansion `${name` with a MISSING `}`.
        cut = len(kids) == 2 or (len(kids) == 3 and kids[2].is_missing)
        if (
            n.type in ("ERROR", "expansion")
            and cut
            and kids[0].type == "${"
            and kids[1].type == "variable_name"
            and src[kids[1].end_byte : kids[1].end_byte + 1] in (b"&", b";", b"<", b">", b"(")
        ):
            at = kids[1].end_byte
            fixes.append((at, at + 1, ord("|")))
        elif (
            n.type == "ERROR"
            and len(kids) == 3
            and kids[0].type == "${"
            and kids[1].type in ("variable_name", "subscript")
            and kids[2].type == "@"
            and src[n.end_byte : n.end_byte + 1].isalpha()
        ):
            # `${x@Z}`: a transform letter bash does not know. Read as one it knows;
            # the letter is the user's, and it fails as bash's does when it runs.
            fixes.append((n.end_byte, n.end_byte + 1, ord("Q")))
    return fixes


_PARAM_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _param_name_end(src: bytes, i: int, specials: bytes) -> int:
    """Where the name (or one of ``specials``), and its ``[…]`` subscript if any, that
    starts at ``i`` right after a ``${`` ends (``i`` itself: none)."""
    n = len(src)
    if i < n and src[i] in specials:
        return i + 1
    while i < n and src[i] in _PARAM_NAME:
        i += 1
    if i < n and src[i] == 0x5B:  # `[`: the subscript, to the `]` that closes it
        depth = 0
        while i < n:
            if src[i] == 0x5B:
                depth += 1
            elif src[i] == 0x5D:
                depth -= 1
                if not depth:
                    return i + 1
            i += 1
    return i


def quoted_slashes(src: bytes) -> bytes:
    """Gap 46: ``src`` with each ``/`` inside single quotes in the pattern of a
    ``${name/pattern/…}`` (``${x//'/'/_}``) read as a letter: the grammar ends its
    pattern token at it (a syntax error for the whole script)."""
    buf: bytearray | None = None
    n = len(src)
    at = src.find(b"${")
    while at >= 0:
        i = _param_name_end(src, at + 2, b"@*")
        if i > at + 2 and src[i : i + 1] == b"/":
            i += 1
            if src[i : i + 1] in (b"/", b"#", b"%"):
                i += 1
            while i < n and src[i] not in b"/}":
                if src[i] == 0x5C:
                    i += 2
                    continue
                if src[i] == 0x27:
                    close = src.find(b"'", i + 1)
                    if close < 0:
                        break
                    slash = src.find(b"/", i + 1, close)
                    while slash >= 0:
                        if buf is None:
                            buf = bytearray(src)
                        buf[slash] = 0x78  # x
                        slash = src.find(b"/", slash + 1, close)
                    i = close
                i += 1
        at = src.find(b"${", at + 2)
    return src if buf is None else bytes(buf)


def slice_dollars(src: bytes) -> bytes:
    """Gap 44: ``src`` with the ``$`` of a ``$name`` that starts a slice's offset
    (``${s:$i:2}``, ``${s:$i}``) read as a letter. The grammar ends the expansion at
    such a ``$`` (a MISSING ``}``: a syntax error for the whole script); an offset is
    arithmetic, and the converter reads the user's ``$i`` (gap 13)."""
    buf: bytearray | None = None
    at = src.find(b"${")
    while at >= 0:
        i = _param_name_end(src, at + 2, b"@*")
        first = src[i + 2 : i + 3]  # (of the name after `:$`)
        if i > at + 2 and src.startswith(b":$", i) and (first.isalnum() or first == b"_"):
            if buf is None:
                buf = bytearray(src)
            buf[i + 1] = 0x78  # x
        at = src.find(b"${", at + 2)
    return src if buf is None else bytes(buf)


def case_toggles(src: bytes) -> bytes:
    """Gap 40: ``src`` with the ``~``/``~~`` right after the name (or subscript) of each
    ``${name`` read as ``^``/``^^``. By text, not by the tree: the grammar's recovery
    from the ``~`` differs with what stands around it (a ``case`` word, a string)."""
    buf: bytearray | None = None
    at = src.find(b"${")
    while at >= 0:
        i = _param_name_end(src, at + 2, b"@*#$")  # (`${?~}`, `${-~}`: bad substitutions)
        if i > at + 2 and src[i : i + 1] == b"~":
            if buf is None:
                buf = bytearray(src)
            buf[i] = 0x5E
            if src[i + 1 : i + 2] == b"~":
                buf[i + 1] = 0x5E
        at = src.find(b"${", at + 2)
    return src if buf is None else bytes(buf)


def continued_dollars(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gap 29: a lone ``$`` ERROR right after a backslash-newline."""
    return [
        (n.start_byte, n.end_byte, ord("x"))
        for n in _walk(root)
        if n.type == "ERROR"
        and n.child_count == 1
        and n.children[0].type == "$"
        and src[n.start_byte - 2 : n.start_byte] == b"\\\n"
    ]


def assignment_redirects(root: Node, src: bytes) -> list[int]:
    """Gap 32: the offsets of the first redirection of each ``x=1 2>f`` the grammar
    could not read (an ERROR or a MISSING name in the command)."""
    found: list[int] = []
    for n in _walk(root):
        kids = n.children
        if (
            n.type == "command"
            and len(kids) > 2
            and kids[0].type == "variable_assignment"
            and kids[1].type in _REDIRECT_NODES
            and src[kids[1].start_byte - 1] in _BLANKS
            and any(
                c.type == "ERROR"
                or (c.has_error and (c.type == "command_name" or c.type in _REDIRECT_NODES))
                for c in kids
            )  # (`y=2 >g;echo`: the `;` an ERROR in the target)
        ):
            found.append(kids[1].start_byte)
    return found


def negated_compounds(root: Node, src: bytes) -> dict[int, int]:
    """Gap 24: ``{offset of a '!': offset of the compound command it negates}``."""
    found: dict[int, int] = {}
    for n in _walk(root, errors_only=False):
        if n.type == "negated_command" and n.child_count > 1 and n.children[0].type == "!":
            cmd = n.children[1]
            name = cmd.child_by_field_name("name") if cmd.type == "command" else None
            if name is not None and src[name.start_byte : name.end_byte] in _COMPOUND_STARTS:
                found[n.children[0].start_byte] = cmd.start_byte
    return found


_EXTGLOB_OPS = b"?*+@!"


def escaped_blanks(src: bytes) -> bytes:
    """Gap 21: ``src`` with the blank after each escaping backslash read as a letter.

    The grammar drops a ``\\ `` word before a newline or the end (``echo \\ ``,
    ``echo \\ \\(``). ``\\x`` is the same shape everywhere (a word character, or
    text inside quotes, where the text is read from the user's bytes anyway).
    """
    if src.find(b"\\ ") < 0 and src.find(b"\\\t") < 0:
        return src
    buf = bytearray(src)
    i = src.find(b"\\")
    while 0 <= i < len(src) - 1:
        if src[i + 1] in (0x20, 0x09):
            buf[i + 1] = 0x78  # x
            if i and src[i - 1] in b"\"'":
                # Gap 42: after a quote (`"p"\ "q")` as a case pattern) the grammar
                # errs on `\x` too; `xx` is the same shape to it (a word's letters).
                buf[i] = 0x78
        i = src.find(b"\\", i + 2)
    return bytes(buf)


_CONTROL_LETTERS = bytes.maketrans(b"\v\f", b"xx")


def control_blanks(src: bytes) -> bytes:
    """Gap 22: ``src`` with ``\\v``, ``\\f`` and each ``\\r`` not before a newline as ``x``."""
    if src.find(b"\v") >= 0 or src.find(b"\f") >= 0:
        src = src.translate(_CONTROL_LETTERS)
    if src.find(b"\r") < 0:
        return src
    buf = bytearray(src)
    at = src.find(b"\r")
    while at >= 0:
        if src[at + 1 : at + 2] != b"\n":
            buf[at] = 0x78  # x
        at = src.find(b"\r", at + 1)
    return bytes(buf)


_WORD_END = b" \t\n;&|()<>"


def maybe_extglobs(src: bytes) -> bool:
    """Gap 17's screen by text: an extended glob needs one of ``?*+@!`` before a ``(``."""
    if src.find(b"(") < 0:  # (find, not `in`: see hookrun.shellsyntax.parser)
        return False
    return (  # each of _EXTGLOB_OPS before a `(` (spelled out: no generator)
        src.find(b"?(") >= 0
        or src.find(b"*(") >= 0
        or src.find(b"+(") >= 0
        or src.find(b"@(") >= 0
        or src.find(b"!(") >= 0
    )


# Nodes whose text keeps its own meaning inside an extended glob: quotes, expansions.
_OPAQUE = frozenset(
    {
        "string", "raw_string", "ansi_c_string", "translated_string", "simple_expansion",
        "expansion", "command_substitution", "arithmetic_expansion", "process_substitution",
    }
)  # fmt: skip
_ARITHMETIC = frozenset({"arithmetic_expansion", "c_style_for_statement"})


def _leaves(root: Node, src: bytes) -> list[Node]:
    """The tree's tokens in order; a quote, an expansion or arithmetic is one token."""
    out: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if (
            n.child_count == 0
            or n.type in _OPAQUE
            or n.type in _ARITHMETIC
            or (n.type == "compound_statement" and src.startswith(b"((", n.start_byte))
        ):
            out.append(n)
        else:
            stack.extend(reversed(n.children))
    return out


def extglobs(root: Node, src: bytes) -> list[tuple[int, int]]:
    """Gap 17: the offsets of the ``(`` and the ``)`` of each extended glob, from the
    tree's tokens: a token starting with ``(`` right after a word token that ends with
    one of ``?*+@!``, up to the ``)`` that balances it (counted in the tokens' text,
    quotes and expansions left out).

    Not after ``$@``/``$*``/``$?``/``$!`` (parameters), not in arithmetic (``2*(3)``),
    and ``!(`` only inside a word (at its start it is ``!`` and a subshell, which bash
    reads the same way without extglob).
    """
    leaves = _leaves(root, src)
    found: list[tuple[int, int]] = []
    for i, leaf in enumerate(leaves):
        at = leaf.start_byte
        if src[at : at + 1] != b"(" or i == 0 or src[at - 1] not in _EXTGLOB_OPS:
            continue
        prev = leaves[i - 1]
        if prev.end_byte != at or prev.type in _OPAQUE or prev.type in _NOT_WORDS:
            continue
        if src[at - 1] == 0x21 and (at < 2 or src[at - 2] in _WORD_END):
            continue
        close = _balancing(leaves, i, src)
        if close is not None:
            found.append((at, close))
    return found


# Tokens that end with one of ?*+@! and are no word: `$@`, `$*`, `[[ a != b ]]`'s `!=`…
_NOT_WORDS = frozenset({"special_variable_name", "$", "!", "test_operator", "!=", "*", "**"})


def _balancing(leaves: list[Node], first: int, src: bytes) -> int | None:
    """The offset of the ``)`` that balances the ``(`` token ``leaves[first]``."""
    return _closing_paren(
        src,
        (
            k
            for leaf in leaves[first:]
            if leaf.type not in _OPAQUE
            for k in range(leaf.start_byte, leaf.end_byte)
        ),
    )


def _closing_paren(src: bytes, offsets: Iterable[int]) -> int | None:
    """The first of ``offsets`` (the bytes of ``src`` to count, in order, from a ``(``)
    where the parentheses balance; None if they do not before a newline or the end."""
    depth = 0
    for k in offsets:
        c = src[k]
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return k
        elif c == 0x0A:
            return None  # a pattern is one word: it does not run over a line
    return None


def mask_extglobs(src: bytes, root: Node, spans: list[tuple[int, int]]) -> bytes:
    """Gap 17: ``src`` with the ``( | )`` of each extended glob in ``spans`` (from
    :func:`extglobs`) read as ``x``, except inside quotes and expansions (the tree's)."""
    buf = bytearray(src)
    opaque = [(n.start_byte, n.end_byte) for n in _leaves(root, src) if n.type in _OPAQUE]
    for open_, close in spans:
        inside = [(a, b) for a, b in opaque if a < close and b > open_]
        for k in range(open_, close + 1):
            if buf[k] in b"(|)" and not any(a <= k < b for a, b in inside):
                buf[k] = 0x78  # x
    return bytes(buf)


def broken_arithmetic(root: Node, src: bytes) -> list[tuple[int, int]]:
    """Gap 26: the bodies (start, end) of the ``$((…))`` and ``((…))`` the grammar could
    not read, up to the ``))`` that closes each."""
    found: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if not n.has_error:
            continue
        at = n.start_byte
        opener = 0
        if n.type == "arithmetic_expansion" and src.startswith(b"$((", at):
            opener = 3
        elif n.type in ("compound_statement", "ERROR") and src.startswith(b"((", at):
            opener = 2
        if opener:
            close = _paren_end(src, at + opener - 2)
            if close is not None and src[close - 1 : close] == b")" and close - 1 > at + opener:
                found.append((at + opener, close - 1))
                continue
        stack.extend(n.children)
    return found


_RESERVED_AFTER_GROUP = lazy_compile(rb"[ \t]+(?:then|do|done|fi|else|elif|esac|\})(?![^\s;&|)])")


def keywords_after_groups(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gap 31: the blank after a ``{ …; }`` or ``( … )`` that a reserved word follows,
    to be read as ``;`` (only where the grammar found an error)."""
    fixes: list[tuple[int, int, int]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if (
            n.type in ("compound_statement", "subshell")
            and src[n.end_byte - 1 : n.end_byte] in (b"}", b")")
            and _RESERVED_AFTER_GROUP.match(src, n.end_byte)
        ):
            fixes.append((n.end_byte, n.end_byte + 1, ord(";")))
        stack.extend(c for c in n.children if c.has_error or c.type == "ERROR" or c.is_named)
    return fixes


def _paren_end(src: bytes, start: int) -> int | None:
    """The offset of the ``)`` closing the ``(`` at ``start`` (quotes skipped)."""
    return _closing_paren(src, _unquoted(src, start))


def _unquoted(src: bytes, start: int) -> Iterator[int]:
    """The offsets from ``start`` on that no backslash escapes and no quotes hold; they
    stop at a quote that does not close."""
    i = start
    while i < len(src):
        c = src[i]
        if c == 0x5C:
            i += 2
            continue
        if c in b"'\"":
            close = src.find(bytes([c]), i + 1)
            if close < 0:
                return
            i = close + 1
            continue
        yield i
        i += 1


_NAME_OR_SPECIAL = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789@*#?$!-"
)
_NOT_IN_A_WORD = frozenset(b"()|{}<>&; \t\n")


def regex_as_word(text: bytes) -> bytes | None:
    """Gap 36: the text of a ``regex`` leaf with each byte a command word could not hold
    outside quotes and expansions (``( ) | { }``, blanks, a ``$`` that starts nothing)
    swapped for ``,``; None when it holds no expansion and no quote (the leaf is then
    read as it is) or a quote or an expansion does not close."""
    if text.find(b"$") < 0 and text.find(b'"') < 0 and text.find(b"'") < 0:
        return None
    buf = bytearray(text)
    found = False
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == 0x5C:  # backslash: the next byte is text
            i += 2
            continue
        if c == 0x27:  # '…'
            close = text.find(b"'", i + 1)
            if close < 0:
                return None
            found = True
            i = close + 1
            continue
        if c == 0x22:  # "…"
            close = _closing(text, i + 1, 0x22)
            if close < 0:
                return None
            found = True
            i = close + 1
            continue
        if c == 0x24:  # $
            nxt = text[i + 1] if i + 1 < n else -1
            if nxt == 0x7B or nxt == 0x28:  # ${…}, $(…), $((…))
                close = _closing(text, i + 2, 0x7D if nxt == 0x7B else 0x29)
                if close < 0:
                    return None
                found = True
                i = close + 1
                continue
            if nxt in _NAME_OR_SPECIAL:
                found = True
                i += 2
                continue
            if nxt != 0x27 and nxt != 0x22:  # ($'…' and $"…" are quotes)
                buf[i] = 0x2C
            i += 1
            continue
        if c in _NOT_IN_A_WORD:
            buf[i] = 0x2C
        i += 1
    return bytes(buf) if found else None


def _closing(text: bytes, i: int, closer: int) -> int:
    """The offset of the ``closer`` that ends what opened right before ``i`` (nested
    brackets of its kind, quotes and backslashes skipped), or -1."""
    opener = {0x29: 0x28, 0x7D: 0x7B}.get(closer, -1)
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == 0x5C:
            i += 2
            continue
        if c == closer and depth == 0:
            return i
        if c == 0x27 and closer != 0x22:
            close = text.find(b"'", i + 1)
            if close < 0:
                return -1
            i = close + 1
            continue
        if c == 0x22 and closer != 0x22:
            close = _closing(text, i + 1, 0x22)
            if close < 0:
                return -1
            i = close + 1
            continue
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
        i += 1
    return -1


def parens_in_brackets(src: bytes) -> list[tuple[int, int, int]]:
    """Gap 37: each ``)`` inside a bracket expression of a ``${…}`` operand, to be read
    as a letter (quotes, backslashes and nested ``$(…)``/``${…}`` skipped)."""
    fixes: list[tuple[int, int, int]] = []
    at = src.find(b"${")
    while at >= 0:
        end = _closing(src, at + 2, 0x7D)
        if end < 0:
            break
        i = at + 2
        while i < end and (src[i] == 0x21 or src[i] == 0x23):  # ${!name, ${#name
            i += 1
        while i < end and (
            src[i] == 0x5F or 0x30 <= src[i] <= 0x39 or 0x41 <= (src[i] | 0x20) <= 0x5A
        ):
            i += 1
        if src[i : i + 1] == b"[":  # a subscript, not a pattern: skipped whole
            close = src.find(b"]", i + 1, end)
            i = end if close < 0 else close + 1
        while i < end:
            c = src[i]
            if c == 0x5C:
                i += 2
                continue
            if c == 0x27 or c == 0x22:
                close = src.find(bytes((c,)), i + 1) if c == 0x27 else _closing(src, i + 1, 0x22)
                i = end if close < 0 else close + 1
                continue
            if c == 0x24 and src[i + 1 : i + 2] in (b"(", b"{"):
                close = _closing(src, i + 2, 0x29 if src[i + 1] == 0x28 else 0x7D)
                i = end if close < 0 else close + 1
                continue
            if c == 0x5B:  # [: a bracket expression runs to its first `]` after the first byte
                j = i + 1
                if src[j : j + 1] in (b"!", b"^"):
                    j += 1
                close = src.find(b"]", j + 1, end)
                if close > 0 and src.find(b"$", j, close) < 0:
                    fixes.extend((k, k + 1, ord("x")) for k in range(j, close) if src[k] == 0x29)
                    i = close + 1
                    continue
            i += 1
        at = src.find(b"${", end)
    return fixes


def pattern_equals(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gap 38: each ``=`` of a ``[[ … ]]`` comparison whose right side the grammar read
    as a regex token, to be read as ``<`` (the user's text keeps its ``=``)."""
    fixes: list[tuple[int, int, int]] = []
    for n in _walk(root, errors_only=False):
        if n.type != "binary_expression":
            continue
        kids = n.children
        for k, c in enumerate(kids[:-1]):
            if c.type == "=" and kids[k + 1].type == "regex" and src[c.start_byte] == 0x3D:
                fixes.append((c.start_byte, c.end_byte, ord("<")))
    return fixes


def empty_arithmetic(src: bytes) -> bytes:
    """Gap 39: ``src`` with the first blank of each ``$((`` … ``))`` holding only blanks
    read as ``0``, and each ``$(())`` (no blank to read so) as ``$[00]``, the same width
    (the converter reads the user's ``$((``, see ``Converter.special``) — as ``00000``
    inside another ``$((``, where the grammar reads no ``$[…]``; an empty ``$[]``
    there as zeros too."""
    at = src.find(b"$((")
    buf: bytearray | None = None
    n = len(src)
    while at >= 0:
        i = at + 3
        while i < n and src[i] in b" \t\n":
            i += 1
        if src.startswith(b"))", i):
            if buf is None:
                buf = bytearray(src)
            if i > at + 3:
                buf[at + 3] = 0x30
            elif _in_arithmetic(src, at):
                # inside another `$(( … ))` (`$(( $(()) + 1 ))`), where the grammar reads
                # no `$[…]`: a number; hookrun's evaluator reads the user's text
                buf[at : at + 5] = b"00000"
            else:
                buf[at : at + 5] = b"$[00]"
        at = src.find(b"$((", i)
    at = src.find(b"$[")
    while at >= 0:
        # an empty `$[]` (blanks only) inside a `$((`, which the grammar reads nowhere
        # there: zeros of its width (the converter reads the user's `$[`)
        i = at + 2
        while i < n and src[i] in b" \t":
            i += 1
        if src.startswith(b"]", i) and _in_arithmetic(src, at):
            if buf is None:
                buf = bytearray(src)
            buf[at : i + 1] = b"0" * (i + 1 - at)
        at = src.find(b"$[", i)
    return src if buf is None else bytes(buf)


def _in_arithmetic(src: bytes, at: int) -> bool:
    """Whether ``at`` is inside a ``$(( …`` still open before it on the same line, with
    nothing but arithmetic between (no quote, backquote or ``))`` once the ``$((…))``
    closed before ``at`` are left out): ``$(( $(()) + 1 ))``, ``$(( $((1)) + $[] ))``,
    not ``echo '$((' $(())``."""
    outer = src.rfind(b"$((", 0, at)
    while outer >= 0:
        between = src[outer + 3 : at]
        if between.find(b"\n") >= 0:  # (an earlier one is on an earlier line too)
            return False
        while between.find(b"$((") >= 0:
            shorter = _CLOSED_ARITHMETIC.sub(b"", between)
            if shorter == between:
                break
            between = shorter
        if between.find(b"))") < 0:
            return all(between.find(c) < 0 for c in (b"'", b'"', b"`"))
        outer = src.rfind(b"$((", 0, outer)
    return False


_CLOSED_ARITHMETIC = lazy_compile(rb"\$\(\([^()]*\)\)")


def regex_word_end(src: bytes, i: int) -> int:
    """Where the word that starts at ``i``, the right side of ``=~``, ends as bash reads
    it: at a blank or an operator byte outside quotes, expansions and parentheses (a
    regex may hold ``|``, and blanks inside parentheses)."""
    n = len(src)
    depth = 0
    while i < n:
        c = src[i]
        if c == 0x5C:  # backslash
            i += 2
            continue
        if c == 0x27 or c == 0x22:  # '…' "…"
            close = src.find(b"'", i + 1) if c == 0x27 else _closing(src, i + 1, 0x22)
            if close < 0:
                return n
            i = close + 1
            continue
        if c == 0x24 and i + 1 < n and src[i + 1] in b"({":  # $(…) ${…} $((…))
            close = _closing(src, i + 2, 0x29 if src[i + 1] == 0x28 else 0x7D)
            if close < 0:
                return n
            i = close + 1
            continue
        if c == 0x60:  # `…`
            close = src.find(b"`", i + 1)
            if close < 0:
                return n
            i = close + 1
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and c in b" \t\n;&<>":
            break
        i += 1
    return min(i, n)


def lone_tildes(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gap 45: each ``~`` of a ``[[ … ]]`` that the grammar reads as arithmetic's ``~``
    operator (``[[ $HOME == ~ ]]``, ``[[ -n ~ ]]``: an error, a syntax error for the
    whole script), when it stands as a word of its own — to be read as a letter in the
    copy that is parsed (its text, the user's ``~``, is tilde-expanded as bash does)."""
    return [
        (n.start_byte, n.end_byte, ord("x"))
        for n in _walk(root, errors_only=False)
        if n.type == "~"
        and n.parent is not None
        and n.parent.type == "unary_expression"
        and src[n.start_byte - 1 : n.start_byte] in (b" ", b"\t", b"(", b"!")
        and src[n.end_byte : n.end_byte + 1] in (b" ", b"\t", b")")
        and not src[: n.start_byte].rstrip(b" \t").endswith(b"=~")  # (a regex: Oils #44)
    ]


def condition_parens(root: Node, src: bytes) -> list[int]:
    """Gap 41: the offsets of the grouping parentheses of each ``[[ … ]]`` (at a ``[[``
    token of the tree) whose words bash reads as :func:`_condition_words` does — to be
    read as blanks in the copy that is parsed; the converter puts them back as the
    condition's ``(``/``)`` (:meth:`hookrun.shellsyntax.convert.Converter.test_command`).
    The grammar reads ``b)`` of ``[[ (a == b)||x ]]`` as one extended glob, and no ``=~``
    inside parentheses (``[[ ($x =~ ^a$) ]]``): each a syntax error for the whole
    script where bash compares."""
    found: list[int] = []
    at = src.find(b"[[")
    while at >= 0:
        node = root.descendant_for_byte_range(at, at + 2)
        if node is not None and node.type == "[[" and node.start_byte == at:
            parens = _condition_words(src, at + 2)
            if parens:
                found.extend(parens)
        at = src.find(b"[[", at + 2)
    return found


_COND_WORD_ENDS = b" \t\n()&|<>;"
_EXTGLOB_OPS = b"@!+*?"


def _condition_words(src: bytes, i: int) -> list[int] | None:
    """The grouping parentheses between ``[[`` (ending at ``i``) and its ``]]``, reading
    words as bash's conditional parser does: a ``(`` or ``)`` standing where a word would
    start or end is an operator; a word ends at a blank or an operator byte outside
    quotes, expansions and extended-glob parentheses; the right side of ``=~`` ends where
    :func:`regex_word_end` says. None for anything else (a ``(`` inside a word, no
    ``]]``, parentheses that do not pair up): the grammar's reading stands."""
    n = len(src)
    parens: list[int] = []
    regex = False  # the word to read is the right side of `=~`
    while i < n:
        c = src[i]
        if c in b" \t":
            i += 1
            continue
        if regex:  # (its parentheses are the regex's)
            regex = False
            end = regex_word_end(src, i)
            if end <= i:
                return None
            i = end
            continue
        if c == 0x28 or c == 0x29:  # ( )
            parens.append(i)
            i += 1
            continue
        if src.startswith(b"]]", i) and (i + 2 == n or src[i + 2] in _COND_WORD_ENDS):
            return parens if _balanced(src, parens) else None  # (else the grammar's error)
        if src.startswith(b"&&", i) or src.startswith(b"||", i):
            i += 2
            continue
        if c in b"\n;&|<>":
            if c in b"<>":  # (`<`, `>`: operators; a word may follow without a blank)
                i += 1
                continue
            return None
        end = _condition_word_end(src, i)
        if end <= i:
            return None
        regex = src[i:end] == b"=~"
        i = end
    return None


def _balanced(src: bytes, parens: list[int]) -> bool:
    """Whether the parentheses at ``parens`` (in order) pair up."""
    depth = 0
    for at in parens:
        depth += 1 if src[at] == 0x28 else -1
        if depth < 0:
            return False
    return depth == 0


def _condition_word_end(src: bytes, i: int) -> int:
    """Where a word of ``[[ … ]]`` that starts at ``i`` ends (see _condition_words); -1
    for a ``(`` inside it that opens no extended glob."""
    n = len(src)
    if src.startswith(b"!(", i):
        return i + 1  # `!(…)`: a negated group, as bash reads it without extglob
    while i < n:
        c = src[i]
        if c == 0x5C:  # backslash
            i += 2
            continue
        if c == 0x27 or c == 0x22:  # '…' "…"
            close = src.find(b"'", i + 1) if c == 0x27 else _closing(src, i + 1, 0x22)
            if close < 0:
                return -1
            i = close + 1
            continue
        if c == 0x24 and i + 1 < n and src[i + 1] in b"({":  # $(…) ${…} $((…))
            close = _closing(src, i + 2, 0x29 if src[i + 1] == 0x28 else 0x7D)
            if close < 0:
                return -1
            i = close + 1
            continue
        if c == 0x60:  # `…`
            close = src.find(b"`", i + 1)
            if close < 0:
                return -1
            i = close + 1
            continue
        if c == 0x28:
            if i + 1 < n and src[i - 1] in _EXTGLOB_OPS:
                close = _closing(src, i + 1, 0x29)
                if close < 0:
                    return -1
                i = close + 1
                continue
            return -1
        if c in _COND_WORD_ENDS:
            return i
        i += 1
    return i


def regex_words(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gap 39: the right side of each ``=~`` (as bash reads it: :func:`regex_word_end`)
    still holding bytes other than ``x``, to be read as ``x`` in the copy that is parsed
    (one regex token to the grammar)."""
    fixes: list[tuple[int, int, int]] = []
    for n in _walk(root, errors_only=False):
        if n.type != "=~" or n.child_count:
            continue
        start = n.end_byte
        while start < len(src) and src[start] in b" \t":
            start += 1
        end = regex_word_end(src, start)
        if end > start and src[start:end].strip(b"x"):
            fixes.append((start, end, ord("x")))
    return fixes


# Words after which an `esac` is the reserved word: `case x in esac`, and the end of a
# compound command (`x) { a; } esac`, gap 31).
_BEFORE_ESAC = frozenset({b"case", b"in", b"}", b"fi", b"done", b"esac"})


def esac_arguments(src: bytes) -> bytes:
    """Gap 39: ``src`` with each ``esac`` that stands as an argument (a word before it on
    its line, other than those of ``_BEFORE_ESAC``) read as ``esax``."""
    at = src.find(b"esac")
    buf: bytearray | None = None
    while at >= 0:
        after = src[at + 4 : at + 5]
        if at > 0 and src[at - 1] in b" \t" and (not after or after in b" \t\n;&|)"):
            k = at - 1
            while k > 0 and src[k - 1] in b" \t":
                k -= 1
            word_end = k
            while k > 0 and src[k - 1] not in b" \t\n;&|()<>":
                k -= 1
            if word_end > k and src[k:word_end] not in _BEFORE_ESAC:
                if buf is None:
                    buf = bytearray(src)
                buf[at + 3] = ord("x")
        at = src.find(b"esac", at + 4)
    return src if buf is None else bytes(buf)


def key_end(src: bytes, start: int, end: int) -> int:
    """Gap 39: the offset of the ``]`` that closes the key of an array element
    ``[key]=value`` starting at ``start`` (quotes, ``$(…)``, ``${…}`` and nested
    brackets skipped: ``[$(b=([2]=y); echo 1)]=rm``), when ``=`` follows it; else -1."""
    depth = 0
    i = start + 1
    while i < end:
        c = src[i]
        if c == 0x5C:
            i += 2
            continue
        if c == 0x27 or c == 0x22:
            close = src.find(b"'", i + 1, end) if c == 0x27 else _closing(src[:end], i + 1, 0x22)
            if close < 0:
                return -1
            i = close + 1
            continue
        if c == 0x24 and src[i + 1 : i + 2] in (b"(", b"{"):
            close = _closing(src[:end], i + 2, 0x29 if src[i + 1] == 0x28 else 0x7D)
            if close < 0:
                return -1
            i = close + 1
            continue
        if c == 0x5B:
            depth += 1
        elif c == 0x5D:
            if depth == 0:
                return i if src[i + 1 : i + 2] == b"=" else -1
            depth -= 1
        i += 1
    return -1


# Where a case pattern starts: after `in`, a terminator, the optional `(`, or a `|`.
_BEFORE_PATTERN = (b"in", b";;", b";&", b"(", b"|")
# The first bytes that make tree-sitter-bash's scanner try an extended glob (0.25.1).
_SCANNED_AS_GLOB = frozenset(b"?*+@!.-")


def case_patterns(root: Node, src: bytes) -> list[tuple[int, int, int]]:
    """Gap 48: the first byte of each case pattern the grammar read as an extended glob
    into an error (``*"rm"x"q")``, ``a)b;;``), to be read as ``0`` in the copy that is
    parsed."""
    fixes: list[tuple[int, int, int]] = []
    for n in _walk(root):
        if n.type not in ("ERROR", "case_item", "case_statement"):
            continue
        for kid in n.children:
            if kid.type != "extglob_pattern":
                continue
            at = kid.start_byte
            first = src[at : at + 1]
            if not first or not (first[0] in _SCANNED_AS_GLOB or first.isalpha()):
                continue
            if src[at + 1 : at + 2] == b"(":
                continue  # a real extended glob (gap 17 reads those)
            if _code_before(src, at).endswith(_BEFORE_PATTERN):
                fixes.append((at, at + 1, ord("0")))
    return fixes


def _code_before(src: bytes, at: int) -> bytes:
    """The text before ``at`` without the blanks, newlines and comments that end it."""
    head = src[:at].rstrip(b" \t\n")
    while True:
        start = head.rfind(b"\n") + 1
        line = head[start:]
        hash_at = line.find(b"#")
        while hash_at > 0 and line[hash_at - 1] not in b" \t;":
            hash_at = line.find(b"#", hash_at + 1)
        if hash_at < 0:
            return head
        head = head[: start + hash_at].rstrip(b" \t\n")


def assignment_dollars(root: Node, src: bytes) -> list[int]:
    """Gap 49: the offset of each bare ``$`` that ends an assignment's value right where
    a word the grammar took for another starts (``x=$A/e:$B/d:$C``)."""
    found: list[int] = []
    stack = [root]
    while stack:
        n = stack.pop()
        t = n.type
        if t == "variable_assignment":
            last = n
            while last.child_count:
                last = last.children[-1]
            nxt = n.next_sibling
            if (
                last.type == "$"
                and last.end_byte == n.end_byte
                and nxt is not None
                and nxt.start_byte == n.end_byte
            ):
                found.append(last.start_byte)
            continue
        if t in (
            "program",
            "command",
            "list",
            "pipeline",
            "compound_statement",
            "subshell",
            "if_statement",
            "elif_clause",
            "else_clause",
            "while_statement",
            "for_statement",
            "do_group",
            "case_statement",
            "case_item",
            "function_definition",
            "redirected_statement",
            "negated_command",
            "declaration_command",
            "variable_assignments",
            "command_substitution",
        ):
            stack.extend(n.children)
    return found
