"""OpenVINO's messages made a function of the case.

OpenVINO names a node it was not given a name for ``<Type>_<n>``, ``n`` from a process-wide counter, and its
validation messages quote that name (``While validating node 'opset1::AvgPool AvgPool_199691 ...' with
friendly_name 'AvgPool_199691'``). The same case's rejection then read differently with how many models the
process had built before it: in a batch or alone, in one shard or another. The number says nothing about the
case, so it is replaced by ``<n>`` before the message becomes a record's reason. Its ONNX frontend also names the
nodes of an expanded function after the address of a Python object (``Func_Bernoulli0x7ffed47d7ca0X_random``):
that address becomes ``0x<address>``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from conformance.backends.answers import stable


@contextmanager
def case_messages() -> Iterator[None]:
    """Re-raise OpenVINO's exceptions (RuntimeError and its subclasses) with the counters taken out of their
    text; the exception's type and traceback are kept (the type decides whether it is a rejection)."""
    try:
        yield
    except RuntimeError as exc:
        text = str(exc)
        kept = stable(text)  # answers.stable, which every refusal's reason passes too
        if kept != text:
            exc.args = (kept,)
        raise
