#!/usr/bin/env bash
# PreToolUse guard in the style published for Claude Code: blocks destructive shell commands.
set -euo pipefail

INPUT=$(cat)
if command -v jq >/dev/null 2>&1; then
  CMD=$(printf '%s' "$INPUT" | jq -r '.tool_input.command // empty')
else
  # No jq here: take the command out of the JSON with sed.
  CMD=$(printf '%s' "$INPUT" | sed -n 's/.*"command"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
fi

deny() {
  echo "Blocked by guard.sh: $1" >&2
  exit 2
}

if [[ $CMD =~ rm[[:space:]]+-[a-zA-Z]*r[a-zA-Z]*f ]]; then
  deny "recursive force delete ($CMD)"
fi

# One rule per line: a glob the command must not match, then the reason.
while read -r pattern reason; do
  [[ -z $pattern ]] && continue
  if [[ $CMD == $pattern ]]; then
    deny "$reason"
  fi
done <<'RULES'
*push*--force*   force-push rewrites shared history
*curl*|*sh*      piping a download into a shell
RULES
exit 0
