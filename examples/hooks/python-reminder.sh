#!/bin/sh
# Context on file writes: remind the model to format Python files it writes.
# HOOKRUN_TOOL_INPUT_FILE_PATH (also CRUSH_TOOL_INPUT_FILE_PATH) is the target path.
case "$HOOKRUN_TOOL_INPUT_FILE_PATH" in
  *.py) echo '{"context": "Reminder: run ruff format on the Python files you write."}' ;;
  *) echo '{}' ;;
esac
