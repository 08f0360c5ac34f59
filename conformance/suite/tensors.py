"""Turn tensor specs into arrays: literal data, seeded random generators, ranges.

Seeded inputs are bit-identical on every run, xdist worker and machine: NumPy's PCG64 bit generator is
specified and platform independent, values are drawn in float64 and only then cast (rounded) to the dtype.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from conformance.dtypes import np_dtype
from conformance.model import TensorSpec


class TensorError(ValueError):
    """A tensor spec that cannot produce an array (shape/data mismatch, bad generator)."""


def materialize(spec: TensorSpec, dtype: str, draws: Draws | None = None) -> np.ndarray:
    """The array a tensor spec describes, in ``dtype`` (the spec's own dtype wins when it has one); a random one
    drawn again, or taken from ``draws`` (the run's, kept by its oracles: oracle.py)."""
    target = np_dtype(spec.dtype or dtype)
    if spec.array is not None:  # a copy of its own: the stored array is read-only (model.TensorSpec)
        return np.array(spec.array, dtype=target, copy=True)
    shape = tuple(spec.shape) if spec.shape is not None else None
    if spec.data is not None:
        values = np.asarray(spec.data, dtype=np.float64 if target.kind == "f" or target.itemsize == 2 else target)
        if shape is None:
            shape = values.shape
        if values.size != int(np.prod(shape, dtype=np.int64)):
            raise TensorError(f"tensor {spec.name!r}: {values.size} values given for shape {list(shape)}")
        return values.reshape(shape).astype(target)
    if shape is None:
        raise TensorError(f"tensor {spec.name!r} has neither data nor shape")
    if spec.random is not None:
        drawn = _draw(spec.random, shape) if draws is None else draws.get(spec.random, shape)
        # a boolean draw is the draw's sign (a cast would make nearly every element true): even odds of each
        return np.asarray(drawn > 0) if target.kind == "b" else drawn.astype(target)
    if spec.arange is not None:
        start = float(spec.arange.get("start", 0))
        step = float(spec.arange.get("step", 1))
        count = int(np.prod(shape, dtype=np.int64))
        return (start + step * np.arange(count, dtype=np.float64)).reshape(shape).astype(target)
    raise TensorError(f"tensor {spec.name!r} needs one of data, random, arange")


class Draws:
    """float64 draws by (params, shape), kept by their owner (a run's oracles, oracle.py): a case's dtype expansions
    draw the same values and only cast differently. Bounded in entries and in elements (big tensors are drawn again
    rather than kept). A draw is a function of its parameters: keeping it saves time and changes no value."""

    def __init__(self, size: int = 64, max_elements: int = 1 << 16) -> None:
        self.size, self.max_elements = size, max_elements
        self._kept: OrderedDict[tuple, np.ndarray] = OrderedDict()

    def get(self, params: dict, shape: tuple[int, ...]) -> np.ndarray:
        """The float64 draw (callers cast it with ``astype``, which copies: a kept array is never handed out)."""
        try:
            key = (tuple(sorted((k, repr(v)) for k, v in params.items())), tuple(int(d) for d in shape))
        except TypeError:
            return _draw(params, shape)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        values = _draw(params, shape)
        if values.size <= self.max_elements:
            values.flags.writeable = False
            self._kept[key] = values
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return values


def _draw(params: dict, shape: tuple[int, ...]) -> np.ndarray:
    if "seed" not in params:
        raise TensorError("random tensors need an explicit seed (results must be reproducible)")
    rng = np.random.Generator(np.random.PCG64(int(params["seed"])))
    distribution = params.get("distribution", "normal")
    if distribution == "normal":
        return rng.normal(float(params.get("mean", 0.0)), float(params.get("std", 1.0)), size=shape)
    if distribution == "uniform":
        return rng.uniform(float(params.get("low", -1.0)), float(params.get("high", 1.0)), size=shape)
    raise TensorError(f"unknown distribution {distribution!r} (normal or uniform)")
