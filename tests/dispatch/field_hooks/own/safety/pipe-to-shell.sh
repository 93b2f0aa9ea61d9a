#!/usr/bin/env bash
# Own script, field idiom: rules read from a process substitution (jspanos/claude-hooks,
# shitchell/claude-hooks use `done < <(...)`), BASH_REMATCH, a here-string.
set -uo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$SCRIPT_DIR/../lib/common.sh"
CMD="$(get_field "$(read_stdin)" ".tool_input.command")"
[[ -z "$CMD" ]] && exit 0
while IFS= read -r segment; do
  if [[ $segment =~ (curl|wget)[^|]*\|[[:space:]]*(ba|z)?sh ]]; then
    deny_tool_use "download piped to ${BASH_REMATCH[2]:-}sh"
  fi
done < <(tr ';&' '\n\n' <<<"$CMD")
exit 0
