"""Config tests (a package so their module names cannot collide with other test dirs)."""
