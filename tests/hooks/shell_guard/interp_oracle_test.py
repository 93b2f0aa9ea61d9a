"""perl, ruby and awk code in command lines: shell-guard's verdict against the real thing.

Each table holds lines labelled with the rule that must deny them, or None for a
look-alike that must pass. The labels are checked twice: shell-guard must give each
its label, and — where strace, root and the interpreter are here — the line, run for
real by that interpreter in :mod:`interp_oracle`'s sandbox (every delete call refused,
``rm`` and ``git`` faked), must do something dangerous exactly when it is labelled to
be denied. Before the readers learnt each language's quoting and calls (session 19),
shell-guard denied 10 of the 27 perl blocks, 8 of the 25 ruby ones and none of the 17
awk ones, and denied 3 perl and 4 ruby look-alikes (a comment, ``q(…)`` text, a
here-document, ``=begin`` text, ``noop: true``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .interp_oracle import InterpOracle, unavailable
from .redteam import judge

_CAT = "delete.catastrophic"

PERL = [
    ("perl -e 'system(q{rm -rf /})'", _CAT),
    ('perl -e "system(q{rm -rf /})"', _CAT),
    ("perl -e 'system qq(rm -rf $ENV{HOME})'", _CAT),
    ("perl -e 'my $o = qx{rm -rf ~/.ssh}'", _CAT),
    ("perl -e 'print `rm -rf /etc`'", _CAT),
    ('perl -e \'system("rm", "-rf", "/")\'', _CAT),
    ("perl -e 'system qw(rm -rf /usr/lib)'", _CAT),
    ('perl -e \'exec { "rm" } "remove", "-rf", "/"\'', _CAT),
    ('perl -e \'open(my $p, "|-", "rm -rf /etc") or die\'', _CAT),
    ("perl -e 'open(P, \"rm -rf /opt |\"); close P'", _CAT),
    ("perl -MFile::Path=rmtree -e 'rmtree(\"/etc\")'", _CAT),
    ("perl -MFile::Path -e 'File::Path::remove_tree(\"/usr/lib\")'", _CAT),
    ("perl -MFile::Path -e 'rmtree([\"/etc\"], 0, 0)'", _CAT),
    ("perl -Mstrict -E 'system(\"rm -rf /\")'", _CAT),
    ("perl -lane 'system(\"rm -rf /\")'", _CAT),
    ("perl -ne 'readpipe(\"git push --force origin main\")'", "git.force-push"),
    ('perl -e \'system("rm -rf " . "/")\'', _CAT),
    ("perl -e 'system(\"\\x72m -rf /\")'", _CAT),
    ("perl -pe 's{x}{system(\"rm -rf /\")}e'", _CAT),
    ('perl -e \'system("git", "reset", "--hard")\'', "git.reset-hard"),
    ("perl -e'system q<rm -rf /usr>'", _CAT),
    ("echo 'system(q{rm -rf /})' | perl", _CAT),  # a program read from stdin
    ("perl -e 'sub s { 1 } system(\"rm -rf /\")'", _CAT),  # a sub named s, not s///
    # every file of /etc or of the home directory, without -r (as `rm -f /etc/*` is)
    ("perl -e 'unlink glob(\"/etc/*\")'", _CAT),
    ("perl -e 'unlink <~/*>'", _CAT),
    ("perl -e 'eval q{system(\"rm -rf /\")}'", _CAT),
    ("perl -e 'system q|rm -rf /etc|'", _CAT),
    # look-alikes: printed, in a comment, a string never run, a harmless program, a
    # temp path or a regenerable directory
    ("perl -e 'print q{rm -rf /}'", None),
    ("perl -e 'print \"rm -rf /\\n\"'", None),
    ("perl -e '# system(\"rm -rf /\")'", None),
    ("perl -e 'system(\"ls -la\")'", None),
    ("perl -e 'system(\"rm -rf /tmp/hk-scratch\")'", None),
    ('perl -e \'system("rm", "-rf", "build")\'', None),
    ("perl -e 'my $s = q(system(\"rm -rf /\"))'", None),
    ("perl -e 'print qq{rm -rf $ENV{HOME}\\n}'", None),
    ("perl -MFile::Path=rmtree -e 'rmtree(\"build\")'", None),
    ("perl -ne 'print if /rm -rf \\//'", None),
    ("perl -e 'warn \"do not run rm -rf /\\n\"'", None),
    ("perl -e 'my %h = (system => \"rm -rf /\"); print keys %h'", None),
    ('perl -e \'print <<"EOF";\nsystem("rm -rf /")\nEOF\n\'', None),
    ("perl -e 'print qw(system rm -rf /)'", None),
    ("perl -e 'unlink glob(\"/tmp/hk-*.log\")'", None),
    ("perl -e 'unlink glob(\"*.o\")'", None),
    ("perl -e 'eval { print \"rm -rf /\" }'", None),
    ("perl <<'EOF'\nprint q{rm -rf /};\nEOF", None),
    ("perl -ne 'print if /system\\(\"rm -rf \\/\"\\)/'", None),
]

RUBY = [
    ("ruby -e 'system(%q{rm -rf /})'", _CAT),
    ('ruby -e "system(%q{rm -rf /})"', _CAT),
    ('ruby -e \'system("rm", "-rf", "/")\'', _CAT),
    ("ruby -e '%x(rm -rf /etc)'", _CAT),
    ("ruby -e 'puts `rm -rf ~`'", _CAT),
    ("ruby -e 'exec(\"git push --force origin main\")'", "git.force-push"),
    ("ruby -e 'spawn(\"rm -rf /usr/lib\"); Process.wait'", _CAT),
    ('ruby -e \'IO.popen(["rm", "-rf", "/"]).read\'', _CAT),
    ('ruby -ropen3 -e \'Open3.capture2("rm", "-rf", "/opt")\'', _CAT),
    ("ruby -rfileutils -e 'FileUtils.rm_rf(\"/\")'", _CAT),
    ('ruby -r fileutils -e \'FileUtils.rm_r(ENV["HOME"] + "/.ssh")\'', _CAT),
    ("ruby -rfileutils -e 'include FileUtils; rm_rf \"/etc\"'", _CAT),
    ("ruby -rpathname -e 'Pathname.new(\"/usr/lib\").rmtree'", _CAT),
    ("ruby -ne 'system %Q(rm -rf /)'", _CAT),
    ("ruby -e 'open(\"|rm -rf /etc\")'", _CAT),
    ('ruby -e \'system({"X" => "1"}, "rm -rf /")\'', _CAT),
    ('ruby -e \'system("rm -rf " + "/")\'', _CAT),
    ("ruby -e 'system(\"\\x72m -rf /\")'", _CAT),
    ("ruby -e 'Kernel.system(\"git reset --hard\")'", "git.reset-hard"),
    ("ruby -rfileutils -e 'FileUtils.rm_rf(%w[/etc /usr])'", _CAT),
    ("ruby -e 'system(\"rm -rf #{Dir.home}\")'", _CAT),
    ("ruby -e 'File.delete(*Dir.glob(\"/etc/*\"))'", _CAT),
    ("ruby -e 'eval(\"system(%q{rm -rf /})\")'", _CAT),
    ("ruby <<< 'system(%q(rm -rf /))'", _CAT),
    # `b /2` is a division when b is a local variable (a regex when b is a method)
    ("ruby -e 'b = 4; a = b /2; system(\"rm -rf /\")'", _CAT),
    # look-alikes
    ("ruby -e 'puts \"rm -rf /\"'", None),
    ("ruby -e 'puts %q{system(\"rm -rf /\")}'", None),
    ("ruby -e '# system(\"rm -rf /\")'", None),
    ("ruby -e 'system(\"ls\")'", None),
    ("ruby -rfileutils -e 'FileUtils.rm_rf(\"build\")'", None),
    ("ruby -rfileutils -e 'FileUtils.rm_rf(\"/tmp/hk-scratch\")'", None),
    ("ruby -rfileutils -e 'FileUtils.rm_rf(\"/\", noop: true)'", None),
    ("ruby -e 's = %w[rm -rf /]; puts s.join(\" \")'", None),
    ('ruby -e \'x = "system(\\"rm -rf /\\")"; puts x\'', None),
    ("ruby -e '=begin\nsystem(\"rm -rf /\")\n=end\nputs 1'", None),
    ("ruby -e 'puts <<~EOS\n  rm -rf /\nEOS'", None),
    ("ruby -e 'h = {system: \"rm -rf /\"}; p h'", None),
    ("ruby -e 'warn \"never run rm -rf /\"'", None),
    # ruby's Dir.glob does not expand ~: no file matches, nothing is deleted
    ("ruby -e 'File.delete(*Dir.glob(\"~/*\"))'", None),
    ("ruby -ne 'puts 1 if $_ =~ /system\\(\"rm -rf \\/\"\\)/'", None),
]

AWK = [
    ("awk 'BEGIN{system(\"rm -rf /\")}'", _CAT),
    ('awk "BEGIN{system(\\"rm -rf /\\")}"', _CAT),
    ('awk \'BEGIN{print "rm -rf /" | "sh"}\'', _CAT),
    ('gawk \'BEGIN{printf "rm -rf /etc\\n" | "bash"}\'', _CAT),
    ("mawk 'BEGIN{\"rm -rf /usr/lib\" | getline x}'", _CAT),
    ("awk -v c='rm -rf /' 'BEGIN{system(c)}'", _CAT),
    ('awk \'BEGIN{cmd = "rm -rf " "/opt"; system(cmd)}\'', _CAT),
    ("awk '{system(\"git push --force origin main\")}'", "git.force-push"),
    ('nawk \'BEGIN{system("rm -rf " ENVIRON["HOME"])}\'', _CAT),
    ("awk 'BEGIN{print | \"rm -rf /\"}'", _CAT),
    ("awk 'BEGIN { system(\"\\162m -rf /\") }'", _CAT),
    ("gawk -e 'BEGIN{system(\"rm -rf /\")}'", _CAT),
    ("awk 'END{system(\"git reset --hard\")}'", "git.reset-hard"),
    ("original-awk 'BEGIN{system(\"rm -rf /\")}'", _CAT),
    ("awk -F: -v OFS=: 'BEGIN{system(\"rm -rf /etc\")}'", _CAT),
    # known input: $0 and the fields are its lines'
    ("echo 'rm -rf /' | awk '{system($0)}'", _CAT),
    ("echo 'a:/etc' | awk -F: '{system(\"rm -rf \" $2)}'", _CAT),
    # look-alikes
    ("awk 'BEGIN{print \"rm -rf /\"}'", None),
    ("awk '{print $1}'", None),
    ("awk 'BEGIN{system(\"ls\")}'", None),
    ('awk \'BEGIN{print "rm -rf /" > "/dev/null"}\'', None),
    ("awk '# system(\"rm -rf /\")\nBEGIN{print 1}'", None),
    ('awk \'BEGIN{print "rm -rf /" | "cat"}\'', None),
    ("awk 'BEGIN{system(\"rm -rf /tmp/hk-scratch\")}'", None),
    ('awk \'BEGIN{s = "system(\\"rm -rf /\\")"; print s}\'', None),
    ("awk '/rm -rf \\// {print}'", None),
    ("awk 'BEGIN{\"date\" | getline d; print d}'", None),
    ("awk 'BEGIN{system(\"rm -rf build\")}'", None),
    ("awk -F, '{print $2 | \"sort\"}'", None),
    ("echo 'ls -la' | awk '{system($0)}'", None),
    ("echo build | awk '{system(\"rm -rf \" $1)}'", None),
    ("echo 'rm -rf /' | awk '{system($0)}' /dev/null", None),  # awk reads the file
]

_ROWS = [
    (lang, line, rule)
    for lang, rows in (("perl", PERL), ("ruby", RUBY), ("awk", AWK))
    for line, rule in rows
]


def test_each_table_has_ten_of_each() -> None:
    for rows in (PERL, RUBY, AWK):
        assert sum(rule is not None for _, rule in rows) >= 10
        assert sum(rule is None for _, rule in rows) >= 10


@pytest.mark.parametrize(("lang", "line", "rule"), _ROWS, ids=[r[1][:60] for r in _ROWS])
def test_shell_guard_gives_the_label(lang: str, line: str, rule: str | None) -> None:
    verdict = judge(line)
    if rule is None:
        assert verdict.decision is None, verdict.reason
    else:
        assert verdict.decision == "deny", f"allowed: {line!r}"
        assert verdict.rule == rule, verdict.reason
        # the reason names the rule and quotes what the code runs, not the whole line
        assert verdict.reason is not None and f"[{rule}]: " in verdict.reason
        assert f'"{line}"' not in verdict.reason, verdict.reason


@pytest.fixture(scope="module")
def oracle() -> Iterator[InterpOracle]:
    why = unavailable("perl")
    if why is not None:
        pytest.skip(why)
    made = InterpOracle()
    yield made
    made.close()


@pytest.mark.parametrize(("lang", "line", "rule"), _ROWS, ids=[r[1][:60] for r in _ROWS])
def test_the_label_is_what_the_interpreter_does(
    oracle: InterpOracle, lang: str, line: str, rule: str | None
) -> None:
    why = unavailable(lang if lang != "awk" else line.split()[0])
    if why is not None:
        pytest.skip(why)
    dangers = oracle.dangers(line)
    if rule is None:
        assert dangers == [], f"{line!r} did {dangers}"
    else:
        assert dangers, f"{line!r} did nothing dangerous"


def test_the_oracle_sees_what_runs_and_what_deletes(oracle: InterpOracle) -> None:
    """(it records: a run of the fake, a delete call refused — the file is still there)"""
    assert oracle.dangers("rm -rf /") == ["rm -rf / (the root)"]
    assert oracle.dangers("echo rm -rf /") == []
    target = oracle.proj / "build" / "out.o"
    assert [e.path for e in oracle.effects(f"perl -e 'unlink \"{target}\"'")] == [str(target)]
    assert target.exists()
    outside = oracle.home / "notes.txt"
    outside.write_text("keep")
    assert oracle.dangers(f"cd {oracle.home} && perl -e 'unlink \"notes.txt\"'")
    assert outside.read_text() == "keep"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (
            "perl -MFile::Path -e 'rmtree(\"/etc\")'",
            'shell-guard [delete.catastrophic]: "rm -rf /etc" (run via perl -e) — rm of /etc:',
        ),
        (
            'ruby -e \'IO.popen(["git", "push", "-f"])\'',
            'shell-guard [git.force-push]: "git push -f" (run via ruby -e) — ',
        ),
        (
            'awk \'BEGIN{print "rm -rf ~" | "sh"}\'',
            'shell-guard [delete.catastrophic]: "rm -rf ~" (run via awk program → text piped '
            "into sh) — rm of ~:",
        ),
    ],
)
def test_a_reason_quotes_what_the_code_runs(line: str, reason: str) -> None:
    verdict = judge(line)
    assert verdict.reason is not None and verdict.reason.startswith(reason), verdict.reason
