"""Divergence kinds and finding signatures (deduplication).

A signature is the failure kind plus the set of features a *shrunk* draft still needs: after greedy shrinking
every attribute that can go back to its default has, so what is left is what the divergence depends on. Sizes
(kernel, input extent) are left out on purpose - the same bug shows at many sizes.
"""

from __future__ import annotations

import re

from conformance.fuzz.profiles import spec_of
from conformance.ops.draft import Draft
from conformance.records import ResultRecord

NO_DIVERGENCE = ""


def kind_of(record: ResultRecord, invalid: bool) -> str:
    """The divergence kind of one result, or NO_DIVERGENCE (pass, unsupported, an invalid case rejected)."""
    status = record.status
    if status in ("pass", "unsupported", "xfail", "erratum"):
        return NO_DIVERGENCE
    if status == "timeout":
        return status
    if status == "crash":  # the signal tells an assertion abort (SIGABRT) from a division by zero (SIGFPE)
        match = re.search(r"signal (SIG[A-Z]+)", record.reason)
        return f"crash:{match.group(1)}" if match else "crash"
    if status == "fail":
        if invalid:
            return "accepted-invalid"
        same_shape = record.expected_shape == record.actual_shape
        return "fail-values" if same_shape else "fail-shape"
    if record.reason.startswith("harness error"):
        return "harness-error"
    if record.reason.startswith("the reference rejects"):
        return NO_DIVERGENCE  # the generator's job to avoid; never a backend finding
    # A backend rejecting a valid case: the exception type keeps distinct rejections apart while staying
    # stable under shrinking (messages carry shapes and numbers).
    match = re.match(r"([A-Za-z_][\w.]*)", record.reason)
    return f"rejects-valid:{match.group(1) if match else 'error'}"


def features(draft: Draft) -> list[str]:
    found = []
    if draft.rank > 1:
        found.append(f"rank{draft.rank}")
    if draft.batch > 1:
        found.append("batch")
    if draft.channels > 1:
        found.append("channels")
    if draft.auto_pad != "notset":
        found.append(f"auto_pad={draft.auto_pad}")
    if any(draft.pads_begin) or any(draft.pads_end):
        found.append("pads")  # one attribute in ONNX; which side is padded is a size detail, like the kernel
    if any(s > 1 for s in draft.strides):
        found.append("strides")
    if any(d > 1 for d in draft.dilations):
        found.append("dilations")
    if draft.rounding != "floor":
        found.append(draft.rounding)
    if draft.include_pad:
        found.append("include_pad")
    if draft.output_size and any(o > s for o, s in zip(draft.output_size, draft.spatial)):
        found.append("upsample")
    if draft.output_size and draft.output_size_dtype != "int64":
        found.append(f"output_size:{draft.output_size_dtype}")
    own = spec_of(draft).features
    if own is not None:  # what an op's own configuration (Draft.extra) adds
        found.extend(own(draft))
    if draft.dtype != "float32":
        found.append(draft.dtype)
    if draft.layout == "NXC":
        found.append("NXC")
    if draft.mutation:
        found.append(f"invalid:{draft.mutation}")
    return found


def signature(draft: Draft, kind: str) -> str:
    return f"{draft.domain}/{draft.op}-{draft.version} {kind} [{' '.join(features(draft)) or 'defaults'}]"


def slug(text: str) -> str:
    """A case id from a signature ([A-Za-z0-9_.-] only)."""
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")
    return re.sub(r"_+", "_", cleaned)[:120]
