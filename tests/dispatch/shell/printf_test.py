"""``printf``: widths, precisions and ``*``; integers as C reads and prints them (bases,
blanks, partial numbers, range, unsigned views of negatives, ``'c``); floats; ``%b``,
``%q``/``%Q``, ``%c``, ``%n``, ``%(fmt)T``; escapes in the format; reuse of the format
for extra arguments; bad formats and their statuses; ``-v`` into names and elements.

Every row was run through bash 5.2 (``bash -c SOURCE hookrun`` in an empty directory, the
shell tests' environment, LC_ALL=C unless the row sets it) and the expectations are its
own output; ``bash_confirm_test.py`` runs them through bash again. stderr is hookrun's
own wording and is not compared. Left out on purpose: ``%a`` of values a double does not
hold exactly, and long fractions, where bash prints a long double
(``-0xc.ccccccccccccccdp-7`` for -0.1) and Python has doubles.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from hookrun.dispatch.shell.printf import char_code, parse_float, parse_integer, quote
from tests.dispatch.shell.shellrun import Runner, base_env, bash_result

BASH = shutil.which("bash")


@pytest.mark.parametrize(
    ("source", "code", "stdout"),
    [
        (
            (
                "printf '[%6.4d]\\n' 42; printf '[%.4d]\\n' 42; printf '[%6.d]\\n' 42 -42; "
                "printf '[%6.4d]\\n' -42"
            ),
            0,
            "[  0042]\n[0042]\n[    42]\n[   -42]\n[ -0042]\n",
        ),
        ("printf '[%6.4x][%.4X][%6.o]\\n' 42 42 42", 0, "[  002a][002A][    52]\n"),
        (
            "printf '[%06d][%06d][%6.6d][%06x][%06s][%-06d]\\n' 42 -42 -42 42 42 42",
            0,
            "[000042][-00042][-000042][00002a][    42][42    ]\n",
        ),
        ("printf '[%6.0s][%0.0s][%6.s][%0.s]\\n' foo foo foo foo", 0, "[      ][][      ][]\n"),
        (
            "printf '[%*s][%.*s][%*.3s][%9.*s][%-*s]\\n' 9 hello 3 hello 9 hello 3 hello -4 a",
            0,
            "[    hello][hel][      hel][      hel][a   ]\n",
        ),
        (
            "printf '%u %o %x %X\\n' -42 -42 -42 -42",
            0,
            "18446744073709551574 1777777777777777777726 ffffffffffffffd6 FFFFFFFFFFFFFFD6\n",
        ),
        ("printf '%d\\n' ''; printf '%d\\n' \\'; printf '%d\\n' \\\"", 0, "0\n0\n0\n"),
        (
            "printf '%c\\n' a ABC; printf '%cZ\\n' ABC; printf '%c|' ''; printf '[%5c]' ab",
            0,
            "a\nA\nAZ\n\x00|[    a]",
        ),
        (
            "printf '%z' 42; echo status=$?; printf '%-z' 42; echo status=$?",
            0,
            "status=1\nstatus=1\n",
        ),
        (
            (
                "printf 'ab%5.2z' 3; echo status=$?; printf 'ab%'; echo status=$?; "
                "printf 'a%kb'; echo status=$?"
            ),
            0,
            "abstatus=1\nabstatus=1\nastatus=1\n",
        ),
        (
            "printf '[%d] ' -42 ' -42' ' -42 ' ' -42z'; echo status=$?",
            0,
            "[-42] [-42] [-42] [-42] status=1\n",
        ),
        ("printf '[%+d][%+d][% d][% d]\\n' 42 -42 42 -42", 0, "[+42][-42][ 42][-42]\n"),
        (
            (
                "printf '[%#o][%#o]\\n' 0 42; printf '[%#x][%#x]\\n' 0 42; "
                "printf '[%#X][%#X]\\n' 0 42; printf '[%.0f][%#.0f]\\n' 3 3; "
                "printf '[%g][%#g]\\n' 3 3"
            ),
            0,
            "[0][052]\n[0][0x2a]\n[0][0X2A]\n[3][3.]\n[3][3.00000]\n",
        ),
        (
            "x=3abc; printf '%d\\n' $x; echo status=$?; printf '%d\\n' xyz; echo status=$?",
            0,
            "3\nstatus=1\n0\nstatus=1\n",
        ),
        (
            "printf '%d\\n' 0x 08 0xg 99999999999999999999 '- 5' +5 012; echo status=$?",
            0,
            "0\n0\n0\n9223372036854775807\n0\n5\n10\nstatus=1\n",
        ),
        (
            (
                "printf '%u\\n' 18446744073709551615 18446744073709551616 -184467440737095"
                "51615 -18446744073709551616; "
                "echo status=$?"
            ),
            0,
            "18446744073709551615\n18446744073709551615\n1\n18446744073709551615\nstatus=0\n",
        ),
        (
            "printf '%d\\n' 18446744073709551615 -18446744073709551616; echo status=$?",
            0,
            "9223372036854775807\n-9223372036854775808\nstatus=0\n",
        ),
        (
            "printf '%f|%f|%f|%f|%f\\n' 1.5x inf nan 0x1p3 ' 1.5'; echo status=$?",
            0,
            "1.500000|inf|nan|8.000000|1.500000\nstatus=1\n",
        ),
        (
            "printf '%f %g %e %E %G\\n' 1.5 1e10 2 3 1e-5",
            0,
            "1.500000 1e+10 2.000000e+00 3.000000E+00 1E-05\n",
        ),
        (
            "printf '%010.3f|%-10.2e|%+g|% f|%+08.2f|%-+8.1f|\\n' 3.14159 2 5 1 -2.5 2",
            0,
            "000003.142|2.00e+00  |+5| 1.000000|-0002.50|+2.0    |\n",
        ),
        ("printf '%b\\n' '\\044' '\\x7e' '\\A' 'ab\\ncd\\cxy'; echo $?", 0, "$\n~\n\\A\nab\ncd0\n"),
        (
            (
                "printf 'three %b\\n' '\\141'; printf 'four  %b\\n' '\\0141'; "
                "printf '%b\\n' '\\1419' '\\01419' '\\558' '\\0558'"
            ),
            0,
            "three a\nfour  a\na9\na9\n-8\n-8\n",
        ),
        ("printf '%b' '\\7' '\\07' '\\007' '\\0007' | od -An -tx1", 0, " 07 07 07 07\n"),
        (
            "printf '\\q\\\"\\?\\x41\\101\\0101\\n'; printf '%b\\n' '\\q\\\"\\?\\x41\\101\\0101'",
            0,
            '\\q"?AA\x081\n\\q\\"\\?AAA\n',
        ),
        (
            "printf '\\x'; printf '\\u'; printf '%b' '\\x' '\\u'; echo; printf 'ab\\\\'",
            0,
            "\\x\\u\\x\\u\nab\\",
        ),
        (
            "printf '%s|' a b c; printf '%s %s|' a b c; printf 'x\\n' a b; printf '%s-'; echo",
            0,
            "a|b|c|a b|c |x\n-\n",
        ),
        (
            (
                "printf '%q|' '~a' 'a~' 'a=~' 'a:~' '' 'a b' $'a\\tb' $'\\x7"
                "f' \"a'b\" '\\' 'a\"b' '#a' 'a#' '!x' 'a,b' '{a}'"
            ),
            0,
            (
                "\\~a|a~|a=\\~|a:\\~|''|a\\ b|$'a\\tb'|$'\\177'|a\\'b|\\\\|a\\\"b|\\#a"
                "|a#|\\!x|a\\,b|\\{a\\}|"
            ),
        ),
        (
            "printf '[%6q][%1q][%-6q][%.1Q][%.1q][%6.q]\\n' 'a b' 'a b' 'a b' 'a b' 'a b' foo",
            0,
            "[  a\\ b][a\\ b][a\\ b  ][a][a][      ]\n",
        ),
        (
            (
                'printf "%n" x; echo "[$x]"; printf "ab%ncd" x; echo $x; printf "%n" "a-b"; '
                'echo "st=$?"'
            ),
            0,
            "[0]\nabcd2\nst=1\n",
        ),
        ("printf -v v 'a\\0b'; echo ${#v}; x=old; printf -v x ''; echo \"[$x]\"", 0, "1\n[]\n"),
        ('readonly r=1; printf -v r %s 2; echo "st=$?"', 0, "st=1\n"),
        (
            (
                "printf -v 'a[' %s x; echo $?; printf -v 'a[]' %s x; echo $?; printf -v; "
                "echo $?; printf -x; echo $?; printf; echo $?"
            ),
            0,
            "2\n2\n2\n2\n2\n",
        ),
        (
            (
                "a=(a b c); printf -v 'a[1]' %s foo; echo \"$? ${a[@]}\"; "
                "printf -v 'a[1+1]' %s x; echo \"${a[@]}\""
            ),
            0,
            "0 a foo c\na foo x\n",
        ),
        (
            "printf -vfoo %s bar; echo $foo; printf -- -v; echo; printf -- '%s\\n' x",
            0,
            "bar\n-v\nx\n",
        ),
        ("export TZ=UTC; printf '[%(%s)T]\\n' 99999999999999999", 0, "[0]\n"),
        ("printf '%(%Y'; echo \" $?\"; printf '%(%Y)x' 0; echo \" $?\"", 0, "%( 1\n%( 1\n"),
        ("printf '%5%|\\n'; echo $?; printf '%%|%s\\n' a", 0, "1\n%|a\n"),
        (
            (
                "printf '%d\\n' 64#a; echo $?; printf '%d\\n' ' -123 '; echo $?; "
                "printf '%X\\n' ' 0xff'"
            ),
            0,
            "64\n1\n-123\n1\nFF\n",
        ),
        ("printf '%hd %ld %lld %Lf %jd %zd %td\\n' 1 2 3 4 5 6 7", 0, "1 2 3 4.000000 5 6 7\n"),
        ("printf '%i|%d|%s\\n' \"'A\" '\"B' \"'\"", 0, "65|66|'\n"),
        ("printf '%.3s|%5s|\\n' abcdef ab", 0, "abc|   ab|\n"),
        ("printf '%d %d %s\\n' 1", 0, "1 0 \n"),
        ("printf '%s\\n' \"\\\\\"", 0, "\\\n"),
        ("printf 'a\\cb'; echo", 0, "a\\cb\n"),
        (
            (
                "export TZ=JST-9; printf '%(%Y-%m-%d %H)T\\n' 1557978599; export TZ=EST5; "
                "printf '%(%Y-%m-%d %H)T\\n' 1557978599"
            ),
            0,
            "2019-05-16 12\n2019-05-15 22\n",
        ),
        (
            (
                "export TZ=UTC0; "
                "printf '[%10.5(%Y-%m-%d)T][%5(%H)T][%(%s)T][%()T]\\n' 1557978599 '' -5 0"
            ),
            0,
            "[     2019-][   00][-5][00:00:00]\n",
        ),
        (
            "TZ=JST-9; export TZ=UTC0; printf '%(%H)T\\n' 0; printf '[%(%s)T]' abc; echo \" $?\"",
            0,
            "00\n[0] 1\n",
        ),
        (
            (
                "export TZ=UTC0; printf %s\"($(printf '%%Y%.0s' {1..31}))T\" | wc -c; "
                "printf %s\"($(printf '%%Y%.0s' {1..32}))T\" | wc -c"
            ),
            0,
            "1\n1\n",
        ),
        (
            (
                "declare -A assoc=([K]=val); printf -v 'assoc[\"K\"]' '/%s/' val2; "
                "echo ${assoc[@]}; key=K; printf -v 'assoc[$key]' '/%s/' val3; echo ${assoc[@]}"
            ),
            0,
            "/val2/\n/val3/\n",
        ),
        (
            "LC_ALL=C.UTF-8; printf '%x %u %o\\n' \"'μ\" \"'μ\" \"'三\"; printf '%q\\n' é",
            0,
            "3bc 956 47011\né\n",
        ),
        (
            (
                "LC_ALL=C.UTF-8; "
                "printf '%d ' \"'$(printf '\\xce\\xce')\" \"'$(printf '\\xc1\\x81')\" \"'$(pr"
                "intf '\\xe0\\x81\\x81')\" \"'$(printf '\\xf4\\x91\\x84\\x91')\" \"'$(prin"
                "tf '\\xed\\xa0\\x80')\"; "
                "echo"
            ),
            0,
            "206 193 224 1118481 237 \n",
        ),
        ("printf '%c' \"$(printf '\\xce\\xbc')\" | od -An -tx1", 0, " ce\n"),
        (
            "LC_ALL=C.UTF-8; printf '\\ud800|\\U110000|\\u00e9|\\u41' | od -An -tx1",
            0,
            " ed a0 80 7c f4 90 80 80 7c c3 a9 7c 41\n",
        ),
        ("set -x; printf 'aaaa' > /dev/null 2> f; set +x; cat f", 0, ""),
        ("printf '%s %s\\n' a b c d e", 0, "a b\nc d\ne \n"),
        ("printf '%5.2z' 3; echo \" $?\"; printf 'a%kb'; echo \" $?\"", 0, " 1\na 1\n"),
        # Digits past C's int: glibc fails that conversion, bash prints nothing for it.
        ('printf "%.9999999999f|%99999999999d|%s\\n" 1 2 x; echo "st $?"', 0, "||x\nst 0\n"),
        ('printf "%.*f|\\n" 99999 1 | wc -c', 0, "100003\n"),
        # %a of values a double holds exactly; a zero flag pads after the 0x
        (
            "printf '%012a|%-012a|%+012a|%012A|% 012a|%012a|%8a|%08.1a\\n' 3 3 -3 3 3 inf 1 2",
            0,
            "0x000000cp-2|0xcp-2      |-0x00000cp-2|0X000000CP-2| 0x00000cp-2|         inf|"
            "  0x8p-3|0x8.0p-2\n",
        ),
    ],
)
def test_printf_agrees_with_bash(run: Runner, source: str, code: int, stdout: str) -> None:
    got = run(source)
    assert (got.code, got.out) == (code, stdout), got.err


# %s in %(…)T, under a process time zone that is not the script's: C's strftime took
# the script zone's fields through mktime in the process's zone (hookrun printed -19800
# for 0 under TZ=Asia/Kolkata), so the rows above held only where the machine runs UTC.
ZONED_EPOCH = (
    "export TZ=UTC0; printf '[%(%s)T][%(%s)T][%%s][%(%%s %s)T]\\n' 0 -5 7; "
    "printf '[%(%s)T]\\n' 99999999999999999; "
    "export TZ=JST-9; printf '%(%Y-%m-%d %H %s)T\\n' 1557978599"
)


@pytest.mark.parametrize("process_zone", ["Asia/Kolkata", "America/New_York", "UTC"])
def test_epoch_seconds_do_not_depend_on_the_process_time_zone(
    run: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, process_zone: str
) -> None:
    want = "[0][-5][%s][%s 7]\n[0]\n2019-05-16 12 1557978599\n"
    monkeypatch.setenv("TZ", process_zone)
    time.tzset()
    try:
        got = run(ZONED_EPOCH)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert (got.code, got.out) == (0, want), got.err
    if BASH is not None:  # bash, run under the same process zone
        env = {**base_env(), "TZ": process_zone}
        assert bash_result(ZONED_EPOCH, env, cwd=tmp_path) == (0, want)


def test_a_field_too_large_to_print_is_refused_with_an_error(run: Runner) -> None:
    # bash would print a gigabyte of blanks here; hookrun refuses (its output is bounded).
    got = run('printf "%*d|" 999999999 1; echo " st $?"')
    assert (got.code, got.out) == (0, " st 1\n")
    assert "field width or precision too large" in got.err


@pytest.mark.parametrize(
    ("arg", "unsigned", "expected"),
    [
        (b"42", False, (42, True, False)),
        (b" -42", False, (-42, True, False)),
        (b" -42 ", False, (-42, False, False)),
        (b"3abc", False, (3, False, False)),
        (b"0x1F", False, (31, True, False)),
        (b"017", False, (15, True, False)),
        (b"08", False, (0, False, False)),
        (b"", False, (0, True, False)),
        (b"- 5", False, (0, False, False)),
        (b"99999999999999999999", False, ((1 << 63) - 1, True, True)),
        (b"-99999999999999999999", False, (-(1 << 63), True, True)),
        (b"-1", True, ((1 << 64) - 1, True, False)),
        (b"18446744073709551616", True, ((1 << 64) - 1, True, True)),
    ],
)
def test_integer_arguments_are_read_as_strtoimax_reads_them(
    arg: bytes, unsigned: bool, expected: tuple[int, bool, bool]
) -> None:
    assert parse_integer(arg, unsigned=unsigned) == expected


@pytest.mark.parametrize(
    ("arg", "expected"),
    [(b"1.5", (1.5, True)), (b" 1.5x", (1.5, False)), (b"0x1p3", (8.0, True)), (b"", (0.0, True))],
)
def test_float_arguments_are_read_as_strtold_reads_them(
    arg: bytes, expected: tuple[float, bool]
) -> None:
    assert parse_float(arg) == expected


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", 0),
        (b"A", 65),
        ("μ".encode(), 0x3BC),
        (b"\xce\xce", 0xCE),  # not UTF-8: the byte
        (b"\xc1\x81", 0xC1),  # overlong
        (b"\xed\xa0\x80", 0xED),  # a surrogate
        (b"\xf4\x91\x84\x91", 0x111111),  # past U+10FFFF: glibc still decodes it
        (b"\xf8\x88\x80\x80\x80", 0x200000),  # five bytes, as glibc
    ],
)
def test_a_quoted_character_argument_is_its_code_point_or_first_byte(
    data: bytes, code: int
) -> None:
    assert char_code(data) == code


@pytest.mark.parametrize(
    ("data", "quoted"),
    [
        (b"", b"''"),
        (b"a b", b"a\\ b"),
        (b"~a", b"\\~a"),
        (b"a=~", b"a=\\~"),
        ("é".encode(), "é".encode()),
        (b"\xff", b"$'\\377'"),
        (b"a\tb", b"$'a\\tb'"),
    ],
)
def test_q_quotes_as_bash_in_a_utf8_locale(data: bytes, quoted: bytes) -> None:
    assert quote(data) == quoted
