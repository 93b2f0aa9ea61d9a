"""Canonical tool kinds: what a tool *does*, whichever host names it.

One config protects every host because a matcher can name a kind (``shell``) as well
as the host's own tool name (``Bash``, ``run_shell_command``, ``bash``, ``Shell``), and
built-in policies judge the kind. Each host module maps its tool names to these.
"""

from __future__ import annotations

SHELL = "shell"  # runs a shell command: tool_input.command
WRITE = "write"  # creates or overwrites a file
EDIT = "edit"  # changes part of a file (or applies a patch)
READ = "read"  # reads a file
SEARCH = "search"  # lists or searches files (glob, grep, ls)
FETCH = "fetch"  # reaches the network (fetch a URL, web search)
MCP = "mcp"  # a tool of an MCP server
AGENT = "agent"  # starts a sub-agent
TODO = "todo"  # the agent's own task list
ASK = "ask"  # asks the user a question

ALL = (SHELL, WRITE, EDIT, READ, SEARCH, FETCH, MCP, AGENT, TODO, ASK)

# Kinds a file-mutation policy (write-guard, secret-guard, …) must see.
FILE_MUTATING = frozenset({WRITE, EDIT})
