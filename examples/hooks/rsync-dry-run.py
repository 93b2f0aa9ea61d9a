#!/usr/bin/env python3
"""Rewrite the tool input: an `rsync --delete` runs with `--dry-run` first.

`updated_input` is a shallow-merge patch: only `command` changes, every other
field of the tool input is kept.
"""

import json
import sys

payload = json.load(sys.stdin)
command = payload.get("tool_input", {}).get("command", "")
words = command.split()
if words[:1] == ["rsync"] and "--delete" in words and "--dry-run" not in words:
    answer = {
        "updated_input": {"command": "rsync --dry-run " + command[len("rsync ") :]},
        "context": "rsync --delete was turned into a dry run; review it, then ask to run it.",
    }
    print(json.dumps(answer))
