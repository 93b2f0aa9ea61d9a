"""See into ``node -e``, ``php -r``, ``deno``/``bun`` code: the shell commands and deletes it makes.

(perl, ruby and awk have readers of their own quoting: :mod:`inline_perl`,
:mod:`inline_ruby`, :mod:`inline_awk`.) These languages have no parser here, so the
code is read for the few calls that reach the shell or delete trees, each a literal
string argument:

- shell code: ``child_process.execSync('…')`` / ``exec`` / ``spawnSync('sh', …)``,
  (with further literal arguments, ``system('rm', '-rf', '/')``, a program's argv),
  ``system('…')``, ``exec('…')``, ``qx(…)``, ``%x(…)``, ``IO.popen('…')``,
  ``Open3.capture2('…')`` and backticks (Ruby, Perl);
- recursive deletes: ``FileUtils.rm_rf`` / ``rm_r`` / ``remove_dir`` /
  ``remove_entry``, ``fs.rmSync(p, {recursive: true})`` / ``rmdirSync`` /
  ``fs.rm``, Perl's ``rmtree`` / ``remove_tree`` → ``rm -rf p``;
- single deletes: ``File.delete``, ``fs.unlinkSync``, ``unlink`` → ``rm -f p``.

A call whose argument is not a literal string is not followed (its value is
only known when the program runs); the literal-string reading is what makes
``node -e "console.log('rm -rf /')"`` pass while ``execSync('rm -rf /')`` does not.
"""

from __future__ import annotations

import re

from hookrun.hooks.shell_guard.heads import CODE_FLAGS
from hookrun.hooks.shell_guard.model import Word
from hookrun.lazyre import compile as lazy_compile

__all__ = ["CODE_FLAGS", "reads"]

_STR = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`)"""
_SHELL_CALL = lazy_compile(
    r"\b(?:execSync|exec|execa|execaSync|spawnSync|system|shell_exec|passthru|popen|qx|"
    r"capture2e?|capture3|IO\.popen|Kernel\.system|%x)\s*\(?\s*" + _STR
)
# A further literal argument after a call's first: `system("rm", "-rf", "/")` (Perl,
# Ruby) and `spawnSync('rm', ['-rf', '/'])` (Node) run a program with those arguments.
_NEXT_ARG = lazy_compile(r"\s*,\s*\[?\s*" + _STR)
_BACKTICK = lazy_compile(r"`((?:[^`\\]|\\.)+)`")
_RM_TREE = lazy_compile(
    r"\b(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree|remove_tree|rmSync|rmdirSync|"
    r"rimraf(?:\.sync)?)\s*\(?\s*" + _STR
)
_RM_FILE = lazy_compile(r"\b(?:File\.delete|unlinkSync|unlink|File\.unlink)\s*\(?\s*" + _STR)
_JS_FS_RM = lazy_compile(r"\bfs\.(?:promises\.)?rm\s*\(\s*" + _STR + r"\s*,\s*\{[^}]*recursive")


def _value(m: re.Match[str]) -> str:
    value = next(g for g in m.groups() if g is not None)
    return value.replace("\\'", "'").replace('\\"', '"').replace("\\\\", "\\")


def reads(code: str) -> tuple[list[str], list[list[Word]]]:
    """(shell code strings, argv lists) that ``code`` runs, from its literal-string calls."""
    shell: list[str] = []
    argvs: list[list[Word]] = []
    for m in _SHELL_CALL.finditer(code):
        argv = [_value(m)]
        more = _NEXT_ARG.match(code, m.end())
        while more is not None:
            argv.append(_value(more))
            more = _NEXT_ARG.match(code, more.end())
        if len(argv) > 1:  # a program and its arguments, no shell between
            argvs.append([Word.lit(a) for a in argv])
        else:
            shell.append(argv[0])
    if not shell and not argvs:
        shell = [m.group(1) for m in _BACKTICK.finditer(code) if "${" not in m.group(1)]
    for m in (*_RM_TREE.finditer(code), *_JS_FS_RM.finditer(code)):
        argvs.append([Word.lit("rm"), Word.lit("-rf"), Word.lit(_value(m))])
    for m in _RM_FILE.finditer(code):
        argvs.append([Word.lit("rm"), Word.lit("-f"), Word.lit(_value(m))])
    return shell, argvs
