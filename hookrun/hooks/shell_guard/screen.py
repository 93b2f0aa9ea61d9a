"""A cheap, conservative test that no rule can fire, so the line need not be parsed.

Parsing costs 0.1–1 ms; most agent commands (``ls``, ``pytest``, ``git status``,
heredoc commit messages) cannot match any rule. Every rule needs a word that
names it (``rm``, ``push``, ``mkfs``, ``/dev/…``, a shell fed by a pipe or a
substitution, a downloader feeding something). With quotes and backslashes
deleted, the words that survive are a superset of those the shell would see;
what could compute a hidden name (``$'…'``, ``$IFS``, braces, process
substitution, function definitions) always goes to the full analysis. Here-document
bodies with nothing to expand (commit messages, PR bodies) are text unless fed to a
shell, which the runner check catches: the shared front end's tree (parsed, not
judged) says where they are. A test pins that the screen never hides a finding of
the full analysis.
"""

from __future__ import annotations

import re
from functools import lru_cache

from hookrun.hooks.shell_guard.names import DOWNLOADERS, SHELLS, command_name

# `$(echo rm)` / `$(printf r)m` are the substitutions the analysis folds into text.
_ALWAYS = re.compile(
    r"\$'|IFS|[<>]\(|\(\s*\)|[{}]|/dev/|gitconfig|git/config|alias\.|rmtree|"
    r"(\$\(|`)\s*(echo|printf)\b|"
    # what inline node/ruby/perl/python code deletes or runs with (inline_code.py)
    r"rm_rf|rm_r\b|remove_(dir|entry|tree)|rmSync|rmdirSync|rimraf|unlink|os\.remove|"
    r"exec(Sync|a)?\s*\(|spawnSync|system\s*\(|shell_exec|passthru|popen|qx|%x|capture[23]|"
    r"fork|subprocess|shutil"
)
_SPLIT = re.compile(r"[\s;&|()<>=,`$]+")
TRIGGERS = frozenset(
    [
        "rm", "rimraf", "rmtree", "-delete", "push", "reset", "clean", "rebase", "config",
        "var", "dd", "mkswap", "mke2fs", "wipefs", "newfs", "diskpart", "format", "publish",
        "unpublish", "shred", "blkdiscard",
    ]
)  # fmt: skip
# Programs that run code given as text: they matter when something feeds them.
_RUNNERS = re.compile(
    r"(python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|lua[0-9.]*|"
    r"bun|deno|Rscript|pwsh|powershell|osascript|tclsh|source|eval|iex|Invoke-Expression|"
    r"cmd|ssh|watch|su|sg|runuser|flock|env|xargs|find)"
)


def may_match(text: str, deny_heads: frozenset[str] = frozenset()) -> bool:
    """False only when no rule (and no deny shape head) could match ``text``."""
    if not _scan(text, deny_heads):
        return False
    if "<<" in text:
        # Only a line whose words name something pays for the parse (tree-sitter's
        # import, a few ms, in a fresh process): its inert bodies may be all that does.
        return _scan(without_inert_heredocs(text), deny_heads)
    return True


def _scan(text: str, deny_heads: frozenset[str]) -> bool:
    if _ALWAYS.search(text):
        return True
    fed = any(c in text for c in "|<$`")  # something can feed code to a runner
    plain = text.replace("'", "").replace('"', "").replace("\\", "")
    for token in _SPLIT.split(plain):
        if not token:
            continue
        name = command_name(token)
        if token in TRIGGERS or name in TRIGGERS or name.startswith("mkfs"):
            return True
        if deny_heads and (name in deny_heads or "*" in "".join(deny_heads)):
            return True
        if fed and (name in SHELLS or name in DOWNLOADERS or _RUNNERS.fullmatch(name)):
            return True
    return False


@lru_cache(maxsize=512)
def without_inert_heredocs(text: str) -> str:
    """``text`` without the here-document bodies that expand nothing (as is if unparsable)."""
    from hookrun.shellsyntax import ShellSyntaxError, Unsupported, parse  # lazy: tree-sitter
    from hookrun.shellsyntax.nodes import Lit
    from hookrun.shellsyntax.walk import statements

    try:
        tree = parse(text)
    except (ShellSyntaxError, Unsupported):
        return text
    spans = sorted(
        (r.heredoc.body.pos, r.heredoc.body.end)
        for s in statements(tree.stmts)
        for r in s.redirects
        if r.heredoc is not None
        and r.heredoc.closed  # an unterminated body is judged as commands (parse.py)
        and (r.heredoc.quoted or all(isinstance(p, Lit) for p in r.heredoc.body.parts))
    )
    if not spans:
        return text
    out: list[bytes] = []
    at = 0
    for start, end in spans:
        out.append(tree.source[at:start])
        at = max(at, end)
    out.append(tree.source[at:])
    return b"".join(out).decode("utf-8", "surrogatepass")
