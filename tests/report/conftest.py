"""Realistic result records for the report tests: several backends, dtypes, statuses, a failure with worst
elements and a 2-D error grid, an erratum, and a hostile id."""

from __future__ import annotations

import pytest
from report_records import realistic_records

from conformance.records import ResultRecord


@pytest.fixture
def records() -> list[ResultRecord]:
    return realistic_records()
