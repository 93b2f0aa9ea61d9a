# Context on file writes: remind the model to format the Python files it writes.
# No shebang: hookrun runs this file with its in-process shell, so it works the same
# on Windows without any sh. HOOKRUN_TOOL_INPUT_FILE_PATH (also
# CRUSH_TOOL_INPUT_FILE_PATH) is the file the tool is about to write.
case "$HOOKRUN_TOOL_INPUT_FILE_PATH" in
  *.py) echo '{"context": "Reminder: run ruff format on the Python files you write."}' ;;
  *) echo '{}' ;;
esac
