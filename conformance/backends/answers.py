"""Validate what a backend answers, at the boundary, before the harness believes it (issue 23).

A plugin is third-party code: a one-line slip (``supports()`` that forgets its ``return``) must not turn into a
green gate. The runner (in-process) and the isolation worker both call these checks, so a backend's answer means
the same isolated or not: ``supports()`` returns a ``Support`` or a real ``bool``; ``run()`` a list or tuple of
NumPy arrays; ``version()`` a ``str``; ``capabilities()`` a dict of lists of strings. Anything else raises
``BadAnswer``, which the runner turns into an ``error`` record naming the plugin and what it returned.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.base import Support, optional


class BadAnswer(Exception):
    """A backend returned something of the wrong type from a protocol method: status ``error``, never a pass."""


def plugin_name(backend: object) -> str:
    """``module:Class`` of the backend object, the name a vendor finds in their own code."""
    cls = type(backend)
    return f"{cls.__module__}:{cls.__qualname__}"


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _bad(backend: object, method: str, value: object, want: str) -> BadAnswer:
    return BadAnswer(f"backend {plugin_name(backend)} {method} returned {_shown(value)} "
                     f"({type(value).__name__}), not {want}")


def support(backend: object, answer: object) -> Support:
    """``supports()``'s answer as a ``Support``; ``None``, a string (``"no"`` is truthy) or a number are refused."""
    if isinstance(answer, Support):
        if not isinstance(answer.ok, bool | np.bool_) or not isinstance(answer.reason, str):
            raise _bad(backend, "supports()", answer, "Support(ok: bool, reason: str)")
        return answer
    if isinstance(answer, bool | np.bool_):
        return Support(bool(answer), "" if answer else "the backend's supports() said no (no reason given)")
    raise _bad(backend, "supports()", answer, "a Support (Support.yes() / Support.no(reason)) or a bool")


def outputs(backend: object, answer: object) -> list[np.ndarray]:
    """``run()``'s answer: a list or tuple of NumPy arrays (a bare array, None or a nested list is refused)."""
    if not isinstance(answer, list | tuple):
        raise _bad(backend, "run()", answer, "a list of NumPy arrays (one per output)")
    wrong = [(i, a) for i, a in enumerate(answer) if not isinstance(a, np.ndarray)]
    if wrong:
        index, value = wrong[0]
        raise BadAnswer(f"backend {plugin_name(backend)} run() returned output {index} of type "
                        f"{type(value).__name__} ({_shown(value)}), not a NumPy array")
    return list(answer)


def version(backend: object, answer: object) -> str:
    if not isinstance(answer, str):
        raise _bad(backend, "version()", answer, "a str")
    return answer


def capabilities(backend: object, answer: object) -> dict[str, list[str]]:
    if not isinstance(answer, dict) or not all(
            isinstance(k, str) and isinstance(v, list | tuple) and all(isinstance(x, str) for x in v)
            for k, v in answer.items()):
        raise _bad(backend, "capabilities()", answer, "a dict of domain -> list of op names")
    return {k: list(v) for k, v in answer.items()}


def cached(info: dict[str, Any], key: str) -> Any:
    """An answer an isolated backend's worker cached at start (``version``, ``capabilities``): the ``BadAnswer``
    the worker found there is raised here, where the runner asks, instead of a coerced value."""
    if key in info.get("bad_answers", {}):
        raise BadAnswer(info["bad_answers"][key])
    return info[key]


def safe_version(backend: Any) -> str:
    """``version()`` for a record: its text, ``unknown (Error)`` when it raises; ``BadAnswer`` on a non-str."""
    try:
        answer = backend.version()
    except BadAnswer:
        raise
    except Exception as exc:
        return f"unknown ({type(exc).__name__})"
    return version(backend, answer)


def safe_isa(backend: Any) -> str:
    """The ISA level the backend reports (``Backend.isa_level``); "" when it cannot say or says something that is
    not a string: no level, so no ``isa:`` condition of an expectations entry matches its records."""
    try:
        level = optional(backend, "isa_level")()
    except Exception:
        return ""
    return level if isinstance(level, str) else ""


def batch_size(backend: Any) -> int | None:
    """The backend's declared ``batch_size`` when it is a positive int (anything else: none declared)."""
    size = optional(backend, "batch_size")
    return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None
