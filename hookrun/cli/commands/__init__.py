"""One module per ``hookrun`` command: what the command does, without its grammar."""
