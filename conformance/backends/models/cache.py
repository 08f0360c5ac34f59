"""A small LRU of prepared models keyed by the ONNX model's bytes, for the ONNX backends that prepare each model
before running it (tract's optimisation, IREE's compilation).

Cases that differ only in their values (several seeds, literal examples of one geometry) build the same model;
only the graph's name differs (it carries the case id), so it is cleared for the key.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

import onnx

T = TypeVar("T")


def model_bytes(model: onnx.ModelProto) -> bytes:
    """The serialized model without its graph name: equal for every case instance that builds the same graph."""
    name = model.graph.name
    model.graph.name = ""
    try:
        return model.SerializeToString()
    finally:
        model.graph.name = name


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class ModelCache(Generic[T]):
    """At most ``size`` prepared models, least recently used dropped first; counts hits and misses."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[str, T] = OrderedDict()

    def get(self, key: str, prepare: Callable[[], T]) -> T:
        item = self._items.get(key)
        if item is not None:
            self.hits += 1
            self._items.move_to_end(key)
            return item
        self.misses += 1
        item = prepare()  # raises: nothing cached, the next case with this model tries again
        self._items[key] = item
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return item
