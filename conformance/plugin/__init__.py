"""pytest plugin (entry point ``pytest11``): case files become items, one per case instance × backend.

It loads in every pytest run once the package is installed, so it stays inert and cheap until asked for cases
(``--backend``/``--cases`` or a case file on the command line); backend libraries load only when selected.
One feature per module, each a plugin of its own as pytest's own are (a feature's options, state and hooks
together): collect (case files become items), session (backends and their isolation), isa_axis (--isa),
gate (expectations, shards), order (--items-from, --order), batching (cases of one backend in one model),
results (records, durable part files, the summary), progress, protocol (one report per case item).
"""

# in the order --help lists their options; no feature imports another at its top (pytest marks each for assertion
# rewriting as it imports it)
pytest_plugins = [
    "conformance.plugin.collect",
    "conformance.plugin.session",
    "conformance.plugin.isa_axis",
    "conformance.plugin.gate",
    "conformance.plugin.order",
    "conformance.plugin.batching",
    "conformance.plugin.results",
    "conformance.plugin.progress",
    "conformance.plugin.protocol",
]
