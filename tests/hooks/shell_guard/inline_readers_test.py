"""The perl, ruby and awk readers, form by form: what each language's quoting and calls
give (``interp_oracle_test`` runs the lines for real; these pin the readers' pieces)."""

from __future__ import annotations

import random

import pytest

from hookrun.hooks.shell_guard import inline_awk, inline_perl, inline_ruby
from hookrun.hooks.shell_guard.inline_args import UNKNOWN_NAME
from hookrun.hooks.shell_guard.model import Var
from hookrun.hooks.shell_guard.parse import TooDeep

from .interp_oracle_test import AWK, PERL, RUBY
from .redteam import judge


def _argvs(got: tuple[list[str], list[list[object]]]) -> list[list[str]]:
    return [[w.text for w in argv] for argv in got[1]]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("code", "shell"),
    [
        ('system("rm -rf /")', ["rm -rf /"]),
        ("system q{rm {nested} -rf /}", ["rm {nested} -rf /"]),
        ("system qq[rm -rf \\x2f]", ["rm -rf /"]),
        ('system "\\162\\155 -rf /"', ["rm -rf /"]),
        ('system "\\x{72}m -rf \\o{57}"', ["rm -rf /"]),
        ('system "\\N{U+72}m \\cA"', ["rm \x01"]),
        ("system 'it\\'s \\\\ \\n'", ["it's \\ \\n"]),
        ("my $x = qx'rm -rf $HOME'", ["rm -rf $HOME"]),
        ("my $x = qx{rm -rf $dir}", ["rm -rf ${" + UNKNOWN_NAME + "}"]),
        ('system "rm -rf @dirs"', ["rm -rf ${" + UNKNOWN_NAME + "}"]),
        (
            'system "rm -rf $ENV{HOME}/x $h{a}[1] $$"',
            [f"rm -rf ${{HOME}}/x ${{{UNKNOWN_NAME}}} ${{{UNKNOWN_NAME}}}"],
        ),
        ('system "a\\Ub\\E \\$x"', ["ab $x"]),
        ("system <<'EOF';\nrm -rf /\nEOF\n", ["rm -rf /\n"]),
        ('system <<~"EOF";\n    rm -rf /\n    EOF\n', ["rm -rf /\n"]),
        ("print <<A, <<B;\nsystem('x')\nA\nrm\nB\nsystem('ls')", ["ls"]),
        ("my $y = <<`EOF`;\nrm -rf /\nEOF\n", ["rm -rf /\n"]),
        ("=pod\n\nsystem('rm -rf /')\n\n=cut\nsystem('ls')", ["ls"]),
        ("system('ls');\n__END__\nsystem('rm -rf /')", ["ls"]),
        ("s/a/b/; tr/a-z/A-Z/; y{a}{b}; m{x}; qr/y/; system('ls')", ["ls"]),
        ("s{a} {system('date')}e", ["date"]),
        ("$x = 4 / 2; system('ls') / 1", ["ls"]),
        ("$obj->system('rm -rf /'); my %h = (q => 1); $h{s} = 2", []),
        ("open(F, '| rm -rf /'); open(G, '<', 'x'); open(H, 'cat x |')", [" rm -rf /", "cat x "]),
        ('open(my $f, "-|", "git", "log")', []),
        ("readpipe 'date'", ["date"]),
        ("CORE::system('ls')", ["ls"]),
        ("system(@cmd)", ["${" + UNKNOWN_NAME + "}"]),
        ("system", []),
        ("print 1 if $#a > 2; system('ls')", ["ls"]),
        ("$x = foo /2; system('ls')", ["ls"]),
        ("sub s { 1 } system('ls')", ["ls"]),
    ],
)
def test_perl_reads_shell_code(code: str, shell: list[str]) -> None:
    assert inline_perl.reads(code)[0] == shell


@pytest.mark.parametrize(
    ("code", "argvs"),
    [
        ('system("rm", "-rf", "/")', [["rm", "-rf", "/"]]),
        ("system { 'rm' } 'x', '-rf', '/'", [["rm", "-rf", "/"]]),
        ("exec {$p} 'x', '/'", [["$" + UNKNOWN_NAME, "/"]]),
        ("system qw(rm -rf /)", [["rm", "-rf", "/"]]),
        ('open(my $f, "-|", "git", "log")', [["git", "log"]]),
        ("File::Path->rmtree('/x')", [["rm", "-rf", "/x"]]),
        ("rmtree(['/a', '/b'], 1, 1)", [["rm", "-rf", "/a"], ["rm", "-rf", "/b"]]),
        ("unlink 'a', $b", [["rm", "-f", "a"], ["rm", "-f", "$" + UNKNOWN_NAME]]),
        ("unlink glob '~/*'", [["rm", "-f", "$HOME/*"]]),
        ("unlink <$fh>", [["rm", "-f", "$" + UNKNOWN_NAME]]),
        ("unlink <*.o>", [["rm", "-f", "*.o"]]),
        ("rmtree('/a' . '/b')", [["rm", "-rf", "/a/b"]]),
        ("rmtree('/a' . $x)", [["rm", "-rf", "/a$" + UNKNOWN_NAME]]),
        ("rmtree('/a') or die; rmtree '/b' if 1", [["rm", "-rf", "/a"], ["rm", "-rf", "/b"]]),
    ],
)
def test_perl_reads_argvs(code: str, argvs: list[list[str]]) -> None:
    assert _argvs(inline_perl.reads(code)) == argvs  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["-e", "A"], "A"),
        (["-eA"], "A"),
        (["-e", "A", "-e", "B"], "A\nB"),
        (["-lane", "A"], "A"),
        (["-l0", "-0777", "-ne", "A"], "A"),
        (["-0x1ff", "-E", "A"], "A"),
        (["-MFile::Path=rmtree", "-e", "A"], "A"),
        (["-F:", "-e", "A"], "A"),
        (["-pie", "A"], None),  # -i takes "e" as its suffix: A is a script's name
        (["-i.bak", "-pe", "A"], "A"),
        (["script.pl", "-e", "A"], None),
        (["--", "-e"], None),
        (["-"], None),
        (["-w"], None),
    ],
)
def test_perl_switches(args: list[str], code: str | None) -> None:
    got = inline_perl.codes(args)
    assert (got[0] if got else None) == code


@pytest.mark.parametrize(
    ("code", "shell"),
    [
        ("system('rm -rf /')", ["rm -rf /"]),
        ("system %q(rm (x) -rf /)", ["rm (x) -rf /"]),
        ("system %Q[rm -rf #{x}]", ["rm -rf ${" + UNKNOWN_NAME + "}"]),
        ('system %(rm -rf #{ENV["HOME"]})', ["rm -rf ${HOME}"]),
        (
            "system \"rm -rf #{ENV['TMPDIR']}/x #@y #$z\"",
            [f"rm -rf ${{TMPDIR}}/x ${{{UNKNOWN_NAME}}} ${{{UNKNOWN_NAME}}}"],
        ),
        ('system "\\x72\\u006d \\u{2d 72}\\s\\e\\162"', ["rm -r \x1br"]),
        ("system 'a\\'b'", ["a'b"]),
        ("x = %x{date}", ["date"]),
        ("x = `date`", ["date"]),
        ("system <<~EOS\n  rm -rf /\n  EOS\n", ["rm -rf /\n"]),
        ("system <<-'EOS'\nrm #{x}\n  EOS\n", ["rm #{x}\n"]),
        ("x = <<`EOS`\ndate\nEOS\n", ["date\n"]),
        ("=begin\nsystem('rm -rf /')\n=end\nsystem 'ls'", ["ls"]),
        ("system('ls')\n__END__\nsystem('rm -rf /')", ["ls"]),
        ("a = [1] << 2; x = 4 / 2; y = 5 % 3; system 'ls'", ["ls"]),
        ("s = ?a; r = /x/; r2 = %r{y}i; :sym; system 'ls'", ["ls"]),
        ("obj.system('rm -rf /'); h = {system: 1}; Kernel.system('ls')", ["ls"]),
        ('Process.spawn({"A" => "1"}, "ls", chdir: "/")', ["ls"]),
        ('IO.popen("ls", "r")', ["ls"]),
        ('IO.popen({"A" => "1"}, "ls")', ["ls"]),
        ('Open3.popen3("ls") { |i, o, e| }', ["ls"]),
        ('IO.read("|date"); IO.read("file"); Kernel.open("| ls")', ["date", " ls"]),
        ("system \\\n 'ls'", ["ls"]),
        ("system 'a' +\n 'b'", ["ab"]),
        ("system('ls') if true", ["ls"]),
        ("x = eval('1'); instance_eval(\"system('ls')\")", ["ls"]),
        ("b = 4; a = b /2; system('ls')", ["ls"]),  # read both ways: a division too
        ("x if /system('ls')/", ["ls"]),  # (both readings count: the safe side)
    ],
)
def test_ruby_reads_shell_code(code: str, shell: list[str]) -> None:
    assert inline_ruby.reads(code)[0] == shell


@pytest.mark.parametrize(
    ("code", "argvs"),
    [
        ('system("rm", "-rf", "/")', [["rm", "-rf", "/"]]),
        ('system(["rm", "x"], "-rf", "/")', [["rm", "-rf", "/"]]),
        ('exec("rm", "-rf", "/", exception: true)', [["rm", "-rf", "/"]]),
        ('IO.popen(["rm", "-rf", "/"], "r")', [["rm", "-rf", "/"]]),
        ("system(*%w[rm -rf /])", [["rm", "-rf", "/"]]),
        ("FileUtils::rm_rf %w[/a /b]", [["rm", "-rf", "/a"], ["rm", "-rf", "/b"]]),
        ("FileUtils.rm_rf('/a', noop: false, verbose: true)", [["rm", "-rf", "/a"]]),
        ("FileUtils.rm_rf('/a', noop: true)", []),
        ("FileUtils.rm_r(Dir.home)", [["rm", "-rf", "$HOME"]]),
        ('FileUtils.rm(Dir["/etc/*"])', [["rm", "-f", "/etc/*"]]),
        ("File.unlink('a', b)", [["rm", "-f", "a"], ["rm", "-f", "$" + UNKNOWN_NAME]]),
        ("Pathname('/x').rmtree; Pathname.new('/y').children", [["rm", "-rf", "/x"]]),
        ("rm_rf '/x'", [["rm", "-rf", "/x"]]),
    ],
)
def test_ruby_reads_argvs(code: str, argvs: list[list[str]]) -> None:
    assert _argvs(inline_ruby.reads(code)) == argvs  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["-e", "A"], "A"),
        (["-eA", "-e", "B"], "A\nB"),
        (["-rfileutils", "-e", "A"], "A"),
        (["-r", "fileutils", "-ne", "A"], "A"),
        (["-I", "lib", "-C", "/", "-W0", "-e", "A"], "A"),
        (["--disable-gems", "-lane", "A"], "A"),
        (["-i.bak", "-pe", "A"], "A"),
        (["script.rb", "-e", "A"], None),
        (["--", "-e", "A"], None),
    ],
)
def test_ruby_switches(args: list[str], code: str | None) -> None:
    got = inline_ruby.codes(args)
    assert (got[0] if got else None) == code


@pytest.mark.parametrize(
    ("args", "shell"),
    [
        (['BEGIN{system("rm -rf /")}'], ["rm -rf /"]),
        (["-v", "c=rm -rf /", "BEGIN{system(c)}"], ["rm -rf /"]),
        (["-vc=a\\tb", "BEGIN{system(c)}"], ["a\tb"]),
        (["--assign=c=ls", "BEGIN{system(c)}"], ["ls"]),
        (["--assign", "c=ls", "BEGIN{system(c)}"], ["ls"]),
        (["-F", ":", "-e", 'BEGIN{system("ls")}'], ["ls"]),
        (['--source=BEGIN{system("ls")}'], ["ls"]),
        (["--source", 'BEGIN{system("ls")}'], ["ls"]),
        (["{system(c)}", "c=date", "file"], ["date"]),
        (
            ['BEGIN{a="x"; a="y"; system(a " " $1)}'],
            [f"x ${{{UNKNOWN_NAME}}}", f"y ${{{UNKNOWN_NAME}}}"],
        ),
        (['BEGIN{print "a", "b" | "sh"}'], ["printf %s 'a b\n' | sh"]),
        (['BEGIN{printf("x%%") |& "sh"}'], ["printf %s 'x%' | sh"]),
        (['BEGIN{printf "%s", x | "sh"}'], ["sh"]),
        (['BEGIN{print "it\'s" > "/dev/sdb"; print 1 >> "out"}'], [": > '/dev/sdb'", ": >> 'out'"]),
        (['BEGIN{c = "date"; c | getline; "ls" "-l" | getline x}'], ["date", "ls-l"]),
        (["/a|b/ {print $1 > 2}"], [": > '2'"]),
        (['BEGIN{system("\\162m \\q\\"")}  # system("x")'], ['rm q"']),
        (['BEGIN{x = 1 / 2; y = .5; system("ls" \\\n)}'], ["ls"]),
        (['BEGIN{print("rm -rf /") | "sh"}'], ["printf %s 'rm -rf /\n' | sh"]),
        (['BEGIN{system("rm -rf " ENVIRON["HOME"])}'], ["rm -rf ${HOME}"]),
    ],
)
def test_awk_reads_commands(args: list[str], shell: list[str]) -> None:
    got = inline_awk.program(args)
    assert got is not None
    assert inline_awk.reads(*got) == shell


@pytest.mark.parametrize(
    ("args", "stdin", "shell"),
    [
        (["{system($0)}"], "rm -rf /\nls\n", ["rm -rf /", "ls"]),
        (["-F:", '{system("rm " $2 $9)}'], "a:/x\n", ["rm /x"]),
        (["{system($1)}"], None, ["${" + UNKNOWN_NAME + "}"]),
        (["-F", "[:,]", "{system($1)}"], "a:b\n", ["${" + UNKNOWN_NAME + "}"]),  # a regex FS
        (["{system($NF)}"], "a b\n", ["${" + UNKNOWN_NAME + "}"]),
    ],
)
def test_awk_fields_come_from_known_input(
    args: list[str], stdin: str | None, shell: list[str]
) -> None:
    got = inline_awk.program(args)
    assert got is not None
    assert inline_awk.reads(*got, stdin=stdin) == shell


def test_awk_reads_its_stdin_only_without_a_file() -> None:
    assert inline_awk.reads_stdin(["{print}", "v=1"])
    assert inline_awk.reads_stdin(["{print}", "-"])
    assert not inline_awk.reads_stdin(["{print}", "file"])
    assert not inline_awk.reads_stdin(["-f", "prog.awk"])


@pytest.mark.parametrize("args", [["-f", "prog.awk"], ["--file=prog.awk"], [], ["-F,"]])
def test_an_awk_program_from_a_file_is_not_read(args: list[str]) -> None:
    assert inline_awk.program(args) is None


def test_the_readers_survive_any_text() -> None:
    """Every prefix of every table's code, and random bytes: no reader raises."""
    rng = random.Random(19)
    texts = [line for rows in (PERL, RUBY, AWK) for line, _ in rows]
    alphabet = "qwxsyr%$@{}()[]<>'\"`\\/#=:.,|;\n e~-?*!&"
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))) for _ in range(400)]
    for text in texts:
        for end in range(0, len(text) + 1, 3):
            part = text[:end]
            inline_perl.calls(inline_perl.lex(part))
            inline_ruby.calls(inline_ruby.lex(part))
            inline_awk.reads(part, ["c=x"])


def test_deep_eval_is_read_to_its_limit() -> None:
    code = 'system("rm -rf /")'
    for _ in range(3):
        code = "eval q{" + code + "}"
    assert inline_perl.reads(code)[0] == ["rm -rf /"]
    for _ in range(3000):
        code = "eval q{" + code + "}"
    with pytest.raises(TooDeep):  # (past MAX_EVAL: refused, no recursion to the bottom)
        inline_perl.reads(code)
    verdict = judge(f"perl -e '{code}'")
    assert (verdict.decision, verdict.rule) == ("deny", "misc.too-deep")
    ruby = 'system("rm -rf /")'
    for _ in range(20):
        ruby = "eval(%q{" + ruby + "})"
    assert judge(f"ruby -e '{ruby}'").rule == "misc.too-deep"


def test_an_environment_value_is_a_word_part() -> None:
    argv = inline_perl.reads("rmtree($ENV{HOME})")[1][0]
    assert argv[2].parts == (Var("HOME"),)
