# Run as: bash "$CLAUDE_PROJECT_DIR/.claude/hooks/protect-files.sh"
set -eu
PROTECTED=(".env" "package-lock.json" ".git/")

payload=$(cat)
file_path=""
while read -r line; do
  case "$line" in
    *'"file_path"'*)
      file_path=${line#*'"file_path"'}
      file_path=${file_path#*'"'}
      file_path=${file_path%%'"'*}
      ;;
  esac
done <<< "$(printf '%s\n' "$payload" | tr ',{}' '\n\n\n')"

for pattern in "${PROTECTED[@]}"; do
  if [[ "$file_path" == *"$pattern"* ]]; then
    echo "Blocked: $file_path matches protected pattern '$pattern'" >&2
    exit 2
  fi
done
exit 0
