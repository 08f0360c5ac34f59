"""pytest plugin (entry point ``pytest11``): case files become items, one per case instance × backend.

It loads in every pytest run once the package is installed, so it stays inert and cheap until asked for cases
(``--backend``/``--cases`` or a case file on the command line); backend libraries load only when selected.
One hook concern per module, as in pytest's own plugins.
"""

from conformance.plugin.collect import pytest_collect_file, pytest_configure  # noqa: F401
from conformance.plugin.gate import pytest_collection_modifyitems  # noqa: F401
from conformance.plugin.options import pytest_addoption  # noqa: F401
from conformance.plugin.results import (  # noqa: F401
    pytest_runtest_logreport,
    pytest_runtest_makereport,
    pytest_sessionfinish,
    pytest_sessionstart,
    pytest_terminal_summary,
)
