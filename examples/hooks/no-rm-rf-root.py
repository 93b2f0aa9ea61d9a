#!/usr/bin/env python3
"""Block `rm -rf /` the classic way: a regex over the command, exit 2 to deny.

A regex is easy to write and easy to evade (`rm -r -f /` slips through); the
example config pairs it with the built-in shell-guard, which parses the command.
"""

import json
import re
import sys

payload = json.load(sys.stdin)
command = payload.get("tool_input", {}).get("command", "")
if re.match(r"\s*rm\s+-(rf|fr)\s+/(\s|$)", command):
    print("Refusing to run rm -rf against the root directory", file=sys.stderr)
    sys.exit(2)
