#!/bin/sh
# SessionStart-style hook: answers with an envelope written by a here-document.
branch=main
count=$(printf '%s' "$HOOKRUN_EVENT" | wc -c | tr -d ' ')
cat <<JSON
{"context": "on branch $branch; event name has $count letters"}
JSON
