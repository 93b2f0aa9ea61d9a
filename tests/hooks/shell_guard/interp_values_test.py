"""A command held in a variable of interpreter code, and node/php comments: against the real thing.

``$c = "rm -rf /"; system($c)`` (perl), ``c = "rm -rf /"; system(c)`` (ruby), ``const c =
"rm -rf /"; execSync(c)`` (node), ``$c = "rm -rf /"; system($c);`` (php): a variable the
code assigns once, to a literal, is read as that literal where it is used — as a call's
argument, interpolated into a string or backticks. And the node/php reader, which matched
calls over the raw text, now skips comments and string literals: ``// execSync("rm -rf
/")`` was denied. Each row is labelled with the rule that must deny it or None; where
strace, root and the interpreter are here, :mod:`interp_oracle` runs it for real (deletes
refused, ``rm``/``git`` faked) and it must do something dangerous exactly when labelled
so. Every block row was allowed before (session 20) except those marked ``(held)`` (a
comment beside a real call must not hide it), and the look-alikes marked ``(fb)`` were
denied: 37 rows fail on the old readers.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .interp_oracle import InterpOracle, unavailable
from .redteam import judge

_CAT = "delete.catastrophic"
_CP = 'require("child_process")'

PERL = [
    ("perl -e '$c = \"rm -rf /\"; system($c)'", _CAT),
    ("perl -e 'my $c = \"rm -rf /etc\"; system $c'", _CAT),
    ("perl -e 'my $c = \"rm -rf /\"; print `$c`'", _CAT),
    ('perl -e \'my $c = "rm -rf /usr/lib"; system("$c")\'', _CAT),
    ('perl -e \'my $c = "rm -rf " . "/"; exec($c)\'', _CAT),
    ('perl -e \'my @c = ("rm", "-rf", "/"); system(@c)\'', _CAT),
    ('perl -e \'my $t = "/etc"; system("rm -rf $t")\'', _CAT),
    ("perl -e 'my $c = \"git reset --hard\"; system($c)'", "git.reset-hard"),
    ("perl -e 'my $c = \"rm -rf /\"; print qx{$c}'", _CAT),
    ("perl -e 'my $d = $ENV{HOME}; system(\"rm -rf $d\")'", _CAT),
    ("perl -e 'my $c = \"rm -rf /\"; $c =~ s/rm/echo/; system($c)'", None),  # (fb)
    ("perl -e 'my $c = \"ls -la\"; system($c)'", None),
    ('perl -e \'my $c = "rm -rf /"; print "$c\\n"\'', None),
    ('perl -e \'my $c = "rm -rf /"; $c = "ls"; system($c)\'', None),
    ('perl -e \'my $c = "rm -rf /"; system("echo", $c)\'', None),
    ("perl -e 'my $c = q{rm -rf /}; my @l = ($c); print scalar(@l)'", None),
]

RUBY = [
    ("ruby -e 'c = \"rm -rf /\"; system(c)'", _CAT),
    ("ruby -e 'c = \"rm -rf /etc\"; system c'", _CAT),
    ("ruby -e 'c = \"rm -rf /\"; puts `#{c}`'", _CAT),
    ("ruby -e 'c = \"rm -rf /\"; %x(#{c})'", _CAT),
    ('ruby -e \'a = ["rm", "-rf", "/"]; system(*a)\'', _CAT),
    ('ruby -e \'d = "/etc"; require "fileutils"; FileUtils.rm_rf(d)\'', _CAT),
    ("ruby -e 'c = \"git push --force\"; system(c)'", "git.force-push"),
    ('ruby -e \'t = "/usr/lib"; system("rm -rf #{t}")\'', _CAT),
    ('ruby -e \'c = "rm -rf " + "/"; exec(c)\'', _CAT),
    ('ruby -e \'c = "rm -rf /"; c.sub!("rm", "echo"); system(c)\'', None),  # (fb)
    ("ruby -e 'c = \"ls -la\"; system(c)'", None),
    ("ruby -e 'c = \"rm -rf /\"; puts c'", None),
    ('ruby -e \'c = "rm -rf /"; c = "ls"; system(c)\'', None),
    ('ruby -e \'c = "rm -rf /"; system("echo", c)\'', None),
    ('ruby -e \'c = "rm -rf /"; puts "#{c}"\'', None),
]

NODE = [
    (f"node -e 'const c = \"rm -rf /\"; {_CP}.execSync(c)'", _CAT),
    (f"node -e 'let c = `rm -rf /etc`; {_CP}.execSync(c, {{stdio: \"inherit\"}})'", _CAT),  # (held)
    (f"node -e 'const t = \"/\"; {_CP}.execSync(`rm -rf ${{t}}`)'", _CAT),
    (f"node -e 'var c = \"git reset --hard\"; {_CP}.execSync(c)'", "git.reset-hard"),
    (f"node -e '{_CP}.execSync(\"rm -rf /\") // run it'", _CAT),  # (held)
    (f"node -e '/* note */ {_CP}.execSync(\"rm -rf /\")'", _CAT),  # (held)
    (f"node -e 'const c = \"rm -rf /\";\n{_CP}.execSync(c);'", _CAT),
    ('node -e \'const d = "/etc"; require("fs").rmSync(d, {recursive: true})\'', _CAT),
    ('node -e \'let d = "/etc"; require("fs").rmSync(d, {force: true, recursive: true})\'', _CAT),
    (f"node -e '// {_CP}.execSync(\"rm -rf /\")'", None),  # (fb)
    (f"node -e '/* {_CP}.execSync(\"rm -rf /\") */ console.log(1)'", None),  # (fb)
    ('node -e \'console.log("execSync(\\"rm -rf /\\")")\'', None),
    ("node -e 'console.log(`rm -rf /`)'", None),  # (fb) a template, not backticks
    ("node -e 'const r = /[/]execSync(\"rm -rf \\/\")/; console.log(r.source)'", None),
    (f"node -e 'const c = \"ls\"; {_CP}.execSync(c)'", None),
    (f'node -e \'let c = "rm -rf /"; c = "ls"; {_CP}.execSync(c)\'', None),
    ("node -e 'const c = \"rm -rf /\"; console.log(c)'", None),
    ("node -e 'const re = /execSync\\(\"rm -rf \\/\"\\)/; console.log(re.source)'", None),
]

PHP = [
    ("php -r '$c = \"rm -rf /\"; system($c);'", _CAT),
    ("php -r '$c = \"rm -rf /etc\"; echo shell_exec($c);'", _CAT),
    ('php -r \'$t = "/"; system("rm -rf $t");\'', _CAT),
    ('php -r \'$t = "/usr/lib"; passthru("rm -rf {$t}");\'', _CAT),
    ("php -r '$c = \"rm -rf /\"; echo `$c`;'", _CAT),
    ("php -r 'echo `rm -rf /`;'", _CAT),  # (held)
    ("php -r '$c = \"git push --force\"; exec($c);'", "git.force-push"),
    ("php -r 'system(\"rm -rf /\"); # cleanup'", _CAT),  # (held)
    ("php -r '/* run */ system(\"rm -rf /\");'", _CAT),  # (held)
    ("php -r '// system(\"rm -rf /\");'", None),  # (fb)
    ("php -r '# system(\"rm -rf /\");'", None),  # (fb)
    ("php -r '/* system(\"rm -rf /\"); */ echo 1;'", None),  # (fb)
    ('php -r \'echo "system(\\"rm -rf /\\")";\'', None),
    ("php -r '$c = \"ls\"; system($c);'", None),
    ("php -r '$c = \"rm -rf /\"; echo $c;'", None),
    ('php -r \'$c = "rm -rf /"; $c = "ls"; system($c);\'', None),
    ("php -r 'echo \"`rm -rf /`\";'", None),  # (fb)
]

_ROWS = [
    (lang, line, rule)
    for lang, rows in (("perl", PERL), ("ruby", RUBY), ("node", NODE), ("php", PHP))
    for line, rule in rows
]


def test_the_tables_hold_ten_blocks_and_ten_look_alikes_per_cause() -> None:
    variables = [r for rows in (PERL, RUBY, NODE, PHP) for r in rows if "= " in r[0]]
    assert sum(rule is not None for _, rule in variables) >= 10
    assert sum(rule is None for _, rule in variables) >= 10
    comments = NODE + PHP
    assert sum(rule is None for _, rule in comments) >= 10
    assert sum(rule is not None for _, rule in comments) >= 10


@pytest.mark.parametrize(("lang", "line", "rule"), _ROWS, ids=[r[1][:70] for r in _ROWS])
def test_shell_guard_gives_the_label(lang: str, line: str, rule: str | None) -> None:
    verdict = judge(line)
    if rule is None:
        assert verdict.decision is None, verdict.reason
    else:
        assert verdict.decision == "deny", f"allowed: {line!r}"
        assert f"[{rule}]" in (verdict.reason or ""), verdict.reason


@pytest.fixture(scope="module")
def oracle() -> Iterator[InterpOracle]:
    why = unavailable("bash")
    if why is not None:
        pytest.skip(why)
    made = InterpOracle()
    yield made
    made.close()


@pytest.mark.parametrize(("lang", "line", "rule"), _ROWS, ids=[r[1][:70] for r in _ROWS])
def test_the_label_is_what_the_interpreter_does(
    oracle: InterpOracle, lang: str, line: str, rule: str | None
) -> None:
    why = unavailable(lang)
    if why is not None:
        pytest.skip(why)
    dangers = oracle.dangers(line)
    if rule is None:
        assert dangers == [], f"{line!r} did {dangers}"
    else:
        assert dangers, f"{line!r} did nothing dangerous"


def test_the_string_lookup_is_the_plain_scan_it_replaces() -> None:
    """`_in` finds a position's string by binary search (a linear scan per call made a
    large `node -e` line quadratic: 85 KB took 7.5 s); it answers as the scan does."""
    import random

    from hookrun.hooks.shell_guard.inline_code import _code_spans, _in

    rng = random.Random(20)
    for _ in range(300):
        cuts = sorted(rng.sample(range(400), 2 * rng.randint(0, 30)))
        spans = list(zip(cuts[::2], cuts[1::2], strict=True))
        for at in range(-1, 402):
            assert _in(spans, at) == any(a <= at < b for a, b in spans), (spans, at)
    code, spans = _code_spans('a("x"); /* c */ b(`y`); // z\nc = /re/; d("w")', php=False)
    assert spans == sorted(spans) and all(a < b for a, b in spans)
    assert code.count("c") == 1 and "z" not in code  # (comments blanked)


@pytest.mark.parametrize(
    ("reader", "code"),
    [
        ("perl", 'my $c = "VALUE"; ' + 'system("$c"); ' * 200),
        ("ruby", 'c = "VALUE"; ' + 'system("#{c}"); ' * 200),
        ("node", 'const c = "VALUE"; ' + "execSync(c); " * 200),
        ("php", '$c = "VALUE"; ' + 'system("$c"); ' * 200),
    ],
)
def test_a_bound_value_is_copied_a_bounded_number_of_times(reader: str, code: str) -> None:
    """Each use of a bound name copies its value: a long value used on every line would
    make the text judged grow as their product (200 uses of 3 KB: 600 KB of shell code).
    Past MAX_BOUND_USES uses the names are read as unknown, as before binding."""
    from hookrun.hooks.shell_guard import inline_code, inline_perl, inline_ruby
    from hookrun.hooks.shell_guard.inline_args import MAX_BOUND_USES

    code = code.replace("VALUE", "rm -rf /tmp/x " + "y" * 3000)
    if reader == "perl":
        shell, _ = inline_perl.reads(code)
    elif reader == "ruby":
        shell, _ = inline_ruby.reads(code)
    else:
        shell, _ = inline_code.reads(code, php=reader == "php")
    assert sum(map(len, shell)) < 200 * 100
    few = code.replace(code[code.index(";") + 2 :], code[code.index(";") + 2 :][:60])
    shell, _ = (
        inline_perl.reads(few)
        if reader == "perl"
        else inline_ruby.reads(few)
        if reader == "ruby"
        else inline_code.reads(few, php=reader == "php")
    )
    assert any("y" * 3000 in s for s in shell), (few[:80], MAX_BOUND_USES)
