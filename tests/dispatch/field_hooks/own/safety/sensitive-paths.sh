#!/usr/bin/env bash
# Own script with the field's idiom (facts from jspanos/claude-hooks, unlicensed, not
# vendored): find the lib through ${BASH_SOURCE[0]}, then match ERE patterns from an
# array with comments in it. Without BASH_SOURCE the lib is not found and every write
# is allowed.
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$SCRIPT_DIR/../lib/common.sh"

PATTERNS=(
  # env files
  '(^|/)\.env(\.[a-z]+)?$'
  # keys
  '\.(pem|key|p12)$'
)

INPUT="$(read_stdin)"
FILE_PATH="$(get_field "$INPUT" ".tool_input.file_path")"
[[ -z "$FILE_PATH" ]] && exit 0

for pattern in "${PATTERNS[@]}"; do
  if echo "$FILE_PATH" | grep -qiE "$pattern" 2>/dev/null; then
    deny_tool_use "write to '${FILE_PATH##*/}' blocked: matches '$pattern'"
  fi
done
exit 0
