"""pytest plugin (entry point ``pytest11``): case files become items, one per case instance × backend.

It loads in every pytest run once the package is installed, so it stays inert and cheap until asked for cases
(``--backend``/``--cases`` or a case file on the command line); backend libraries load only when selected.
One feature per module, each a plugin of its own as pytest's own are (a feature's options, state and hooks
together): collect (case files become items), session (backends and their isolation), isa_axis (--isa),
gate (expectations), shards (--shard, balanced), order (--items-from, --order), batching (cases of one backend
in one model), ahead (an isolated backend's supports() asked for many cases in one request), results (records,
durable part files, the summary), progress, protocol (one report per case item), heap (when the garbage collector
runs).
Each keeps its state under its own ``pytest.StashKey`` and imports no other: they talk through the hooks of
hooks.py. Beside them, libraries of one feature each: tree (the collection tree), item (a case item's run),
run_queue (what this process runs next), repro_command, failure_text, checks, durable, runlock.
"""

import pytest

from conformance.plugin import hooks

# in the order --help lists their options; no feature imports another (hooks.py is how they talk)
pytest_plugins = [
    "conformance.plugin.collect",
    "conformance.plugin.session",
    "conformance.plugin.isa_axis",
    "conformance.plugin.gate",
    "conformance.plugin.shards",
    "conformance.plugin.order",
    "conformance.plugin.batching",
    "conformance.plugin.ahead",
    "conformance.plugin.results",
    "conformance.plugin.progress",
    "conformance.plugin.protocol",
    "conformance.plugin.heap",
]


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hooks)
