"""pytest plugin (entry point ``pytest11``): case files become items, one per case instance × backend.

It loads in every pytest run once the package is installed, so it stays inert and cheap until asked for cases
(``--backend``/``--cases`` or a case file on the command line); backend libraries load only when selected.
One hook concern per module, as in pytest's own plugins.
"""

from conformance.plugin.collect import pytest_collect_file, pytest_configure  # noqa: F401
from conformance.plugin.gate import pytest_collection_modifyitems  # noqa: F401
from conformance.plugin.isa_axis import pytest_addoption as _isa_options
from conformance.plugin.options import pytest_addoption as _options
from conformance.plugin.results import (  # noqa: F401
    pytest_runtest_makereport,
    pytest_sessionfinish,
    pytest_sessionstart,
    pytest_terminal_summary,
)


def pytest_addoption(parser):  # noqa: ANN001 - pytest's hook: every feature module adds its own options
    _options(parser)
    _isa_options(parser)
