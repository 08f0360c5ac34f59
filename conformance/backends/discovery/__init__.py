"""Which backends are usable here: a runtime's presence from files alone (presence.py), whether a ``--backend``
spec's code imports (spec_check.py) and the installed backends and selections (installed.py). Finding the
registered ones is registry.py's, beside the protocol: a worker needs it to construct its backend."""
