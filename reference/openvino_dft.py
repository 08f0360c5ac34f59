"""OpenVINO DFT-7: the page's discrete Fourier transform over ``axes`` with ``signal_size`` (reference/_fourier.py
and _fourier_ops.py: the geometry, the readings, K and the magnitude)."""

from __future__ import annotations

from ._fourier import FLOATS, INDEX_TYPES
from ._fourier_ops import fourier
from .schema import Port, Schema

SCHEMA = Schema("openvino", "DFT", (7,),
                inputs=(Port("data"), Port("axes", dtypes=INDEX_TYPES),
                        Port("signal_size", dtypes=INDEX_TYPES, optional=True)),
                outputs=(Port("output", rank_of=None),), types=((0, FLOATS),))
VERSIONS = SCHEMA.versions

output_shapes, evaluate, magnitude, window_elements = fourier(SCHEMA)
