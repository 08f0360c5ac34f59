"""An in-process plugin cannot change what other columns are judged against (issue 47): a case's materialized
tensors are read-only copies, and each user of one gets a writable copy of its own."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.model import TensorSpec
from conformance.suite.tensors import materialize


def test_a_stored_expected_array_cannot_be_written_through_the_case() -> None:
    original = np.array([1.0, 2.0, 3.0], np.float32)
    spec = TensorSpec(name="y", shape=(3,), dtype="float32", array=original)
    with pytest.raises(ValueError, match="read-only"):
        spec.array[0] = 99.0
    original[0] = 99.0  # the importer's own array is not the stored one either
    assert spec.array[0] == 1.0


def test_each_user_gets_a_writable_copy_of_its_own() -> None:
    spec = TensorSpec(name="y", shape=(3,), dtype="float32", array=np.array([1.0, 2.0, 3.0], np.float32))
    mine = materialize(spec, "float32")
    mine[0] = -5.0  # a backend writing into what it was handed
    assert spec.array[0] == 1.0 and materialize(spec, "float32")[0] == 1.0
