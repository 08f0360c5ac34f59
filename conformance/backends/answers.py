"""Validate what a backend answers, at the boundary, before the harness believes it (issue 23).

A plugin is third-party code: a one-line slip (``supports()`` that forgets its ``return``) must not turn into a
green gate. The runner (in-process) and the isolation worker both call these checks, so a backend's answer means
the same isolated or not: ``supports()`` returns a ``Support`` or a real ``bool``; ``run()`` a list or tuple of
NumPy arrays; ``version()`` a ``str``; ``capabilities()`` a dict of lists of strings. Anything else raises
``BadAnswer``, which the runner turns into an ``error`` record naming the plugin and what it returned.

``run()``'s answer is normalised here, at one place, whoever ran it (this process, an isolation worker, a batch):
a plain list of arrays (the plugin contract) or an ``Answer`` becomes a checked ``Answer`` — its outputs, its
lowering and IR texts (a ``str``, cut to a documented size) and its seconds (finite, never negative). A backend's
``tolerance_scale`` (a finite number in ``TOLERANCE_SCALE``) is checked here too, before it reaches a verdict.
"""

from __future__ import annotations

import math
import re
from numbers import Real
from typing import Any

import numpy as np

from conformance.backends.base import (
    NOT_REJECTIONS,
    Answer,
    Crashed,
    Support,
    TimedOut,
    Unavailable,
    Unsupported,
    is_rejection,
    optional,
)

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class BadAnswer(Exception):
    """A backend returned something of the wrong type from a protocol method: status ``error``, never a pass."""


def plugin_name(backend: object) -> str:
    """``module:Class`` of the backend object, the name a vendor finds in their own code."""
    cls = type(backend)
    return f"{cls.__module__}:{cls.__qualname__}"


def shown(value: object) -> str:
    """``repr(value)``, cut to 80 characters for a message; without a memory address (``<object object at
    0x7f...>``), which would make the same slip a different record on every run."""
    try:
        text = _ADDRESS.sub("", repr(value))
    except Exception as exc:  # a plugin's __repr__ that raises still gets its answer named
        text = f"<{type(value).__name__}: repr() raised {type(exc).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def _bad(backend: object, method: str, value: object, want: str) -> BadAnswer:
    return BadAnswer(f"backend {plugin_name(backend)} {method} returned {shown(value)} "
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


def outputs(backend: object, answer: object, method: str = "run()") -> list[np.ndarray]:
    """``run()``'s answer: a list or tuple of plain NumPy arrays of a numeric dtype (a bare array, None, a nested
    list, a masked array or an object/string dtype is refused; see ``_plain``)."""
    if not isinstance(answer, list | tuple):
        raise _bad(backend, method, answer, "a list of NumPy arrays (one per output)")
    wrong = [(i, a) for i, a in enumerate(answer) if not isinstance(a, np.ndarray)]
    if wrong:
        index, value = wrong[0]
        raise BadAnswer(f"backend {plugin_name(backend)} {method} returned output {index} of type "
                        f"{type(value).__name__} ({shown(value)}), not a NumPy array")
    return [_plain(backend, method, i, a) for i, a in enumerate(answer)]


def _numeric(dtype: np.dtype) -> bool:
    """bool, integers, real floats, and the case dtypes NumPy lacks (bfloat16, float8, int4, through ml_dtypes)."""
    from conformance.dtypes import DTYPE_NAMES, np_dtype

    return dtype.kind in "biuf" or dtype.kind == "V" and any(dtype == np_dtype(name) for name in DTYPE_NAMES)


def _strings(array: np.ndarray) -> bool:
    """A string tensor (an onnx backend test's): an object array of ``str`` only, or NumPy's own strings."""
    return array.dtype.kind == "U" or array.dtype.kind == "O" and all(isinstance(v, str) for v in array.flat)


def _plain(backend: object, method: str, index: int, array: np.ndarray) -> np.ndarray:
    """The output as a plain ndarray. A masked array is refused: its mask says which values are not there, and
    the comparison would judge the data underneath (a masked output passed whatever it held). Another subclass
    (np.matrix, a memmap) becomes the plain array over the same data when that keeps its shape and dtype;
    complex, structured and object dtypes other than strings are refused: the comparison has no meaning
    for them."""
    where = f"backend {plugin_name(backend)} {method} returned output {index}"
    if isinstance(array, np.ma.MaskedArray):
        raise BadAnswer(f"{where} as a masked array (numpy.ma.MaskedArray): return a plain NumPy array")
    if type(array) is not np.ndarray:
        plain = np.asarray(array)
        if type(plain) is not np.ndarray or plain.shape != array.shape or plain.dtype != array.dtype:
            raise BadAnswer(f"{where} as {type(array).__name__}, an ndarray subclass that does not convert "
                            "to a plain NumPy array of the same shape and dtype")
        array = plain
    if not _numeric(array.dtype) and not _strings(array):
        raise BadAnswer(f"{where} of dtype {array.dtype}, not a numeric dtype (bool, integer, float, bfloat16) "
                        "or a string tensor (an object array of str)")
    return array


def _real(value: object) -> bool:
    """A real number: int, float or a NumPy scalar of either, never a bool (``True`` is 1) nor a numeric str."""
    return isinstance(value, Real) and not isinstance(value, bool | np.bool_)


#: The range of ``tolerance_scale`` (docs/tolerance.md): 1 is the derived bound itself, the least a correct kernel
#: needs; above 1000 the bound no longer tells a correct kernel from a wrong one (a constant output passed at inf).
TOLERANCE_SCALE = (1.0, 1000.0)


def tolerance_scale(backend: Any) -> float:
    """The backend's ``tolerance_scale`` as a float; a str, a bool, NaN, inf or a value outside ``TOLERANCE_SCALE``
    raises ``BadAnswer``: every record of the backend is then an ``error`` naming it, never a loosened pass."""
    try:
        value = optional(backend, "tolerance_scale")
    except BadAnswer:  # an isolated backend's, checked in its worker
        raise
    except Exception as exc:  # a property of the plugin's that raises: its slip, named, not a harness traceback
        raise BadAnswer(f"backend {plugin_name(backend)} tolerance_scale raised {type(exc).__name__}: "
                        f"{shown(str(exc))}") from None
    low, high = TOLERANCE_SCALE
    if not _real(value) or not low <= float(value) <= high:  # NaN fails the comparison too
        raise BadAnswer(f"backend {plugin_name(backend)} tolerance_scale is {shown(value)} "
                        f"({type(value).__name__}), not a number from {low:g} to {high:g} (docs/tolerance.md)")
    return float(value)


#: The most characters of a lowering description a record keeps (``lowered``; a lowering names its ops in a line
#: or two) and of an IR text kept for debugging (``Answer.ir``; a one-op IR is a few kilobytes).
LOWERING_LIMIT, XML_LIMIT = 4096, 1 << 20
TRUNCATED = " ... [truncated: {} characters]"


def text(backend: object, field: str, value: object, limit: int) -> str:
    """A text a backend answers (``Answer.lowering``, ``Batched.lowering``, ``Answer.ir``): ``None`` is
    "", anything but a ``str`` raises ``BadAnswer``; a longer text is cut to ``limit`` characters, saying so."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadAnswer(f"backend {plugin_name(backend)} {field} is {shown(value)} ({type(value).__name__}), "
                        "not a str")
    value = str.__str__(value)  # a str subclass (its own pickling, attributes) becomes a plain str
    if len(value) > limit:
        marker = TRUNCATED.format(len(value))
        value = value[:limit - len(marker)] + marker  # at most ``limit``: checking it again changes nothing
    # a lone surrogate cannot be written as UTF-8 (the results file, the HTML report): replaced, not fatal
    return value.encode("utf-8", "replace").decode("utf-8")


def seconds(backend: object, field: str, value: object) -> float:
    """A time a backend reports (``Batched.seconds``): a finite number of seconds, never negative."""
    if not _real(value) or not math.isfinite(float(value)) or float(value) < 0:
        raise BadAnswer(f"backend {plugin_name(backend)} {field} is {shown(value)} ({type(value).__name__}), "
                        "not a finite number of seconds >= 0")
    return float(value)


def answer(backend: object, value: object, method: str = "run()") -> Answer:
    """``run()``'s answer as a checked ``Answer`` of plain types (it pickles back from a worker as it is): a list
    or tuple of arrays (a plugin's plain answer) is its outputs; an ``Answer``'s every field is checked. Checking
    a checked answer again gives the same answer (the worker checks it, the runner once more)."""
    if not isinstance(value, Answer):
        return Answer(outputs(backend, value, method))
    took = None if value.seconds is None else seconds(backend, f"{method} Answer.seconds", value.seconds)
    return Answer(outputs(backend, value.outputs, f"{method} (Answer.outputs)"),
                  text(backend, f"{method} Answer.lowering", value.lowering, LOWERING_LIMIT),
                  text(backend, f"{method} Answer.ir", value.ir, XML_LIMIT), took)


def refused(backend: Any, exc: Exception, expect_error: bool) -> dict[str, str]:
    """The status and reason of a ``run()`` that raised: an answer too, and read here like the others. The reason
    keeps the runtime's words, without what depends on the process rather than the case (``stable``)."""
    found = _refused(backend, exc, expect_error)
    return {**found, "reason": stable(found["reason"])}


#: a process address (a native backtrace's frames move with ASLR; OpenVINO's ONNX frontend names an expanded
#: function's nodes after a Python object's address): eight or more hex digits, as no case's value or shape is written
_ADDRESS_IN_TEXT = re.compile(r"0x[0-9a-fA-F]{8,}")
#: a node name a runtime numbered itself (OpenVINO's ``AvgPool_199691``, ``Convert_77862_i32``: a counter of every
#: node the process built), also inside a longer name (``data_BinaryConvolution_1742971``)
_NUMBERED_NODE = re.compile(r"(?<![A-Za-z0-9])([A-Z][A-Za-z0-9]*)_\d+(?![0-9])")


def stable(text: str) -> str:
    """A runtime's message without what depends on the process that said it: process addresses (``0x<address>``)
    and the numbers a runtime gives the nodes it names by a process-wide counter (``<Type>_<n>``). The same item
    then gives the same record whatever ran before it in its worker (a record is a function of the item)."""
    return _NUMBERED_NODE.sub(r"\1_<n>", _ADDRESS_IN_TEXT.sub("0x<address>", text))


def _refused(backend: Any, exc: Exception, expect_error: bool) -> dict[str, str]:
    if isinstance(exc, Unsupported | NotImplementedError):
        return {"status": "unsupported", "reason": str(exc) or type(exc).__name__}
    if isinstance(exc, Crashed):  # never a pass, even for expect: error — a runtime must reject, not die
        return {"status": "crash", "reason": str(exc)}
    if isinstance(exc, TimedOut):
        return {"status": "timeout", "reason": str(exc)}
    if isinstance(exc, Unavailable):
        return {"status": "error", "reason": f"backend unavailable: {exc}"}
    message = f"{type(exc).__name__}: {exc}".strip()
    if not is_rejection(backend, exc):  # an adapter bug, a library that did not load: never a pass
        return {"status": "error", "reason": f"not a rejection by the runtime ({_why_not(exc)}): {message}"}
    if expect_error:
        return {"status": "pass", "reason": f"rejected as expected: {message}"}
    return {"status": "error", "reason": f"rejected: {message}"}


def _why_not(exc: BaseException) -> str:
    if isinstance(exc, NOT_REJECTIONS):
        return f"{type(exc).__name__} is a harness, adapter or loading failure"
    return "the backend does not declare this exception type as its runtime's rejection (docs/backends.md)"


#: The most characters of ``version()`` a record keeps (every record of the backend carries it).
VERSION_LIMIT = 256


def version(backend: object, answer: object) -> str:
    if not isinstance(answer, str):
        raise _bad(backend, "version()", answer, "a str")
    return text(backend, "version()", answer, VERSION_LIMIT) if len(answer) > VERSION_LIMIT else answer


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
    # a level is a short word (machine.LEVELS: avx2, avx512_core_bf16); anything else names none
    return level if isinstance(level, str) and _LEVEL.fullmatch(level) else ""


_LEVEL = re.compile(r"[A-Za-z0-9_.+-]{0,64}")


def safe_precision(backend: Any) -> str:
    """The inference precision the backend reports (``Backend.precision``); "" when it cannot say or says
    something that is not a short word."""
    try:
        found = optional(backend, "precision")()
    except Exception:
        return ""
    return found if isinstance(found, str) and _LEVEL.fullmatch(found) else ""


def batch_size(backend: Any) -> int | None:
    """The backend's declared ``batch_size`` when it is a positive int (anything else: none declared)."""
    size = optional(backend, "batch_size")
    return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None
