#!/usr/bin/env bash
# Own script, field idiom (jspanos/claude-hooks rules/bash-1-absolute-paths.sh): trim a
# path at the first quote, bracket or separator with a bracket expression holding `)`
# inside ${var%%pattern}.
CMD="$(jq -r '.tool_input.command // empty')"
for word in $CMD; do
  case "$word" in
    /etc/*|/usr/*)
      path="${word%%[,;)\"\'\\]*}"
      echo "absolute system path: $path" >&2
      exit 2
      ;;
  esac
done
exit 0
