"""Read-only attribute values: a case's ``attributes`` as every backend receives them.

One backend's ``run()`` that edited ``case.attributes`` (or a list inside it) changed what the backends after it ran
and what their records said: every backend is handed the same instance. The attributes are frozen once, when the
case model is built, instead of copied per backend call. ``FrozenDict`` and ``FrozenList`` subclass ``dict`` and
``list`` so that everything reading them (``isinstance`` checks, equality with plain lists, JSON, numpy, onnx's and
OpenVINO's attribute builders) sees what it saw before; only changing them raises ``TypeError`` — a harness or
adapter error (base.NOT_REJECTIONS), never a rejection. A backend that wants its own variant copies:
``dict(case.attributes)``. Pickling (to isolated workers) and copying give frozen values again.
"""

from __future__ import annotations

from typing import Any, NoReturn

import yaml

_WHY = "case attributes are read-only (every backend gets the same case): copy them first, e.g. dict(case.attributes)"


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(_WHY)


class FrozenDict(dict):
    """A ``dict`` that cannot be changed."""

    __slots__ = ()
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy rebuild it through the constructor, not update()
        return (FrozenDict, (dict(self),))


class FrozenList(list):
    """A ``list`` that cannot be changed (equal to the plain list of the same items)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = clear = _refuse
    sort = reverse = _refuse

    def __reduce__(self) -> tuple[Any, ...]:  # pickle's list protocol would append() the items one by one
        return (FrozenList, (list(self),))


def freeze(value: Any) -> Any:
    """``value`` with every dict and list in it (at any depth) made read-only; other values as they are."""
    if isinstance(value, dict):
        return value if type(value) is FrozenDict else FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return value if type(value) is FrozenList else FrozenList(freeze(v) for v in value)
    return value


# the fuzzer and the repro writer dump attributes as YAML: plain mappings and sequences to the safe dumper
yaml.SafeDumper.add_representer(FrozenDict, yaml.SafeDumper.represent_dict)
yaml.SafeDumper.add_representer(FrozenList, yaml.SafeDumper.represent_list)
