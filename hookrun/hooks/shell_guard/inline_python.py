"""See into ``python -c '…'``: the shell commands and deletes inline code makes.

Agents reach for ``python -c "import shutil; shutil.rmtree(…)"`` or
``os.system('…')`` when a shell command is refused. The code is parsed with
:mod:`ast` (no evaluation): ``os.system``/``os.popen``/``subprocess.*(…, shell=True)``
strings come back as shell code; ``subprocess.*([…])`` lists as a command;
``shutil.rmtree(p)`` as ``rm -rf p``. Arguments that are not literals become
unknown words, which the delete rules treat as unresolved.
"""

from __future__ import annotations

import ast

from hookrun.hooks.shell_guard.model import Var, Word

_SHELL_CALLS = frozenset({"os.system", "os.popen", "commands.getoutput", "pty.spawn"})
_SUBPROCESS = frozenset(
    {"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"}
)
_UNKNOWN = Word((Var("python-expr"),), "<expr>")
_FILE_DELETES = frozenset({"os.remove", "os.unlink", "os.rmdir", "os.removedirs"})


# The last name of every call :func:`calls` reports. A call's dotted name is made of
# identifiers written in the code, so ASCII code that holds none of these calls none of
# them, and is not parsed (``ast.parse`` was a third of a ``python -c`` line's judgement).
# (Not ASCII: Python folds identifiers with NFKC, and ``ｓｙｓｔｅｍ`` is ``system``.)
_LAST_NAMES = frozenset(
    {"system", "popen", "rmtree", "unlink", "remove"}
    | _SUBPROCESS
    | {name.rsplit(".", 1)[-1] for name in _SHELL_CALLS | _FILE_DELETES}
)


def may_call(code: str) -> bool:
    """False when ``code`` cannot call anything :func:`calls` reports."""
    return not code.isascii() or any(name in code for name in _LAST_NAMES)


def calls(code: str) -> tuple[list[str], list[list[Word]]]:
    """(shell code strings, argv lists) that ``code`` would run; empty if it does not parse."""
    return read_calls(code) if may_call(code) else ([], [])


def read_calls(code: str) -> tuple[list[str], list[list[Word]]]:
    """:func:`calls` without its text check: ``code`` parsed and walked."""
    try:
        tree = ast.parse(code + "\n")  # (as python -c reads it: a final backslash-newline is valid)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return [], []
    shell: list[str] = []
    argvs: list[list[Word]] = []
    aliases = _aliases(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = _dotted(node.func)
        head, dot, tail = name.partition(".")
        if head in aliases:  # `import subprocess as s; s.run(…)`, `from os import system`
            name = aliases[head] + dot + tail
        first = node.args[0]
        if name in _SHELL_CALLS or name.endswith(tuple("." + s for s in ("system", "popen"))):
            text = _const(first)
            if text is not None:
                shell.append(text)
        elif (
            name.split(".")[-1] in _SUBPROCESS
            and name.startswith(("subprocess.", "sp."))
            or (name in _SUBPROCESS)
        ):
            text = _const(first)
            if text is not None:  # a string: run by a shell (shell=True or getoutput)
                shell.append(text)
            elif isinstance(first, (ast.List, ast.Tuple)):
                argvs.append([_word(e) for e in first.elts])
        elif name.endswith("rmtree"):
            argvs.append([Word.lit("rm"), Word.lit("-rf"), _word(first)])
        elif name in _FILE_DELETES or name.endswith((".unlink", ".remove")):
            argvs.append([Word.lit("rm"), Word.lit("-f"), _word(first)])
    return shell, argvs


def _aliases(tree: ast.AST) -> dict[str, str]:
    """Names the code's imports bind to modules or their members (``s`` → ``subprocess``)."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update((a.asname, a.name) for a in node.names if a.asname)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.update((a.asname or a.name, f"{node.module}.{a.name}") for a in node.names)
    return out


def _dotted(func: ast.expr) -> str:
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return ".".join(reversed(parts))


def _const(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _word(node: ast.expr) -> Word:
    text = _const(node)
    if text is not None:
        return Word.lit(text)
    if isinstance(node, ast.Call) and _dotted(node.func) in ("os.path.expanduser",):
        inner = _const(node.args[0]) if node.args else None
        if inner is not None and inner.startswith("~"):
            return Word((Var("HOME"), inner[1:]), inner)
    if isinstance(node, ast.Call) and _dotted(node.func) in ("os.getcwd", "pathlib.Path.cwd"):
        return Word((Var("PWD"),), "os.getcwd()")
    if isinstance(node, ast.Call) and _dotted(node.func) in ("Path.home", "pathlib.Path.home"):
        return Word((Var("HOME"),), "Path.home()")
    return _UNKNOWN
