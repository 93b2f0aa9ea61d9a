# Shared helpers, sourced by the guards next to this directory (the layout of a
# field hook set: .claude/hooks/{lib,safety,rules}/).
read_stdin() {
  local payload
  payload="$(cat)"
  printf '%s' "$payload"
}

get_field() {
  printf '%s' "$1" | jq -r "$2 // empty"
}

deny_tool_use() {
  jq -n --arg reason "$1" '{hookSpecificOutput: {hookEventName: "PreToolUse",
    permissionDecision: "deny", permissionDecisionReason: $reason}}'
  exit 0
}
