"""pytest plugin (entry point ``pytest11``): collects case files as items when asked to."""
