"""A failure's signature: which outputs fail and how, coarse enough to be the same on every run and CPU class where
the failure is the same (docs/ci-gate.md, "What counts as the same failure").

Read from what a record holds (its outcome, reason, per-output entries and worst elements), never from the arrays,
so a results file of another machine gives the same signature. Its text is one line of parts joined by ``; ``:

- per failing output ``NAME: KIND`` where KIND is ``values`` (with its size: ``1e2`` is a worst error 10^2 to
  10^3 times the bound, ``1e3 ulp`` where the bound is zero, ``nonfinite`` for a NaN or infinity where a number was
  expected), ``indices``, ``shape``, ``dtype``, ``type`` (not an array) or ``other``;
- for the record as a whole: ``outputs`` (a wrong output count), ``accepted`` (invalid input accepted),
  ``rejected EXCEPTION``, ``error WHAT``, ``crash``, ``timeout``.

The same failure: no part that the pinned signature lacks, and no value error more than one order of magnitude
above the pinned one (a bucket flip at a power of ten is not a change; 10x beyond the bucket is). Fewer parts or a
smaller error is the same failure, got better.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from conformance.records import ResultRecord

#: Orders of magnitude a value error may grow beyond the pinned bucket and still be the same failure.
SLACK = 1
_SIZE = re.compile(r"^1e(\d+)( ulp)?$")
_ERROR_KINDS = (("not a rejection by the runtime", "error"), ("harness error: ", "error harness"),
                ("backend unavailable", "error unavailable"), ("the reference rejects", "error reference"),
                ("no oracle", "error oracle"))


@dataclass(frozen=True)
class Part:
    subject: str  # the output's name; "" for a part about the record as a whole
    kind: str
    size: str = ""  # values only: "1e2", "1e3 ulp", "nonfinite"; "" when not known

    @property
    def key(self) -> tuple[str, str, bool]:
        """What fails: the output, the kind, and whether its size is in ulps (a bound of zero) or in bounds."""
        return (self.subject, self.kind, self.size.endswith("ulp"))

    def text(self) -> str:
        body = f"{self.kind} {self.size}".strip()
        return f"{self.subject}: {body}" if self.subject else body


def parse(text: str) -> list[Part]:
    parts = []
    for piece in (p.strip() for p in text.split(";")):
        if not piece:
            continue
        subject, colon, body = piece.rpartition(": ")
        if not colon:
            subject, body = "", piece
        subject = subject.lower()
        kind, _, size = body.partition(" ")
        if subject and kind == "values" and size:
            parts.append(Part(subject, kind, size))
        else:
            parts.append(Part(subject, body if not subject else kind, "" if not subject else size))
    return parts


#: the kinds a failing output's part may have, and those of a part about the record as a whole (their first word)
OUTPUT_KINDS = ("values", "indices", "shape", "dtype", "type", "other")
RECORD_KINDS = ("outputs", "accepted", "rejected", "error", "crash", "timeout")


def check(text: str) -> None:
    """A pinned signature that means something: every part a known kind, every ``values`` part with a size it can
    be compared by (``1e2``, ``1e3 ulp`` or ``nonfinite``). A size-less or unreadable one would accept a failure of
    any magnitude, all-NaN included. ValueError says which part is wrong."""
    parts = parse(text)
    if not parts:
        raise ValueError("an empty signature pins nothing")
    for part in parts:
        if part.subject:
            if part.kind not in OUTPUT_KINDS:
                raise ValueError(f"{part.text()!r}: an output's kind is one of {', '.join(OUTPUT_KINDS)}")
            if part.kind == "values" and not (part.size == "nonfinite" or _SIZE.match(part.size)):
                raise ValueError(f"{part.text()!r}: a values part needs its size (1e2, 1e3 ulp or nonfinite)")
        elif part.kind.split(" ")[0] not in RECORD_KINDS:
            raise ValueError(f"{part.text()!r}: a part about the record is one of {', '.join(RECORD_KINDS)}")


def text_of(parts: list[Part]) -> str:
    return "; ".join(p.text() for p in parts)


def of_record(record: ResultRecord) -> list[Part]:
    """The signature of a failing record (its outcome: the status before expectations); [] for a pass."""
    from conformance.expectations.outcome import outcome_of

    return of_outcome(record, *outcome_of(record))


def of_outcome(record: ResultRecord, status: str, reason: str) -> list[Part]:
    """The signature of a record whose outcome (outcome.outcome_of) is ``status`` and ``reason``; the caller that
    has read the outcome already (Expectations.apply) passes it, so this module is entered once."""
    first = reason.split("\n", 1)[0]
    if status in ("crash", "timeout"):
        return [Part("", status)]
    if status == "error":
        if first.startswith("rejected: "):
            return [Part("", f"rejected {_exception(first[len('rejected: '):])}")]
        for prefix, kind in _ERROR_KINDS:
            if first.startswith(prefix):
                exc = _exception(first.split("): ", 1)[-1] if kind == "error" else first[len(prefix):])
                return [Part("", f"{kind} {exc}".strip() if kind in ("error", "error harness") else kind)]
        return [Part("", "error")]
    if status != "fail" or not first and not record.outputs and not record.worst:
        return []  # a pass, or a failure the record says nothing about (trimmed): nothing to pin
    if first.startswith("accepted invalid input"):
        return [Part("", "accepted")]
    if re.match(r"expected \d+ output\(s\), got \d+", first):
        return [Part("", "outputs")]
    if record.outputs:  # names compared without case: an output's label (Y) and its case-file name (y) are one
        return [_output_part(str(o.get("name") or "output").lower(), o.get("reason") or "", o.get("worst") or [],
                             o.get("max_ulp"), o.get("error_model") == "index")
                for o in record.outputs if not o.get("ok", True)]
    name = (first.split(": ", 1)[0] if ": " in first else "output").lower()
    return [_output_part(name, first, record.worst, record.max_ulp, False)]


def _exception(text: str) -> str:
    """The exception type a message starts with (``InvalidArgument: ...``), or "" when it names none."""
    match = re.match(r"([A-Za-z_][\w.]*)(:|$)", text.strip())
    return match.group(1).rsplit(".", 1)[-1] if match else ""


def _output_part(name: str, reason: str, worst: list, max_ulp: object, index: bool) -> Part:
    if "shape mismatch" in reason:
        return Part(name, "shape")
    if "dtype mismatch" in reason:
        return Part(name, "dtype")
    if "backend returned" in reason:
        return Part(name, "type")
    if index or "indices differ" in reason:
        return Part(name, "indices")
    if worst or "outside tolerance" in reason:
        return Part(name, "values", _size(worst, max_ulp))
    return Part(name, "other")


def _number(value: object) -> float:
    try:
        return float(value)  # records carry NaN/inf as strings
    except (TypeError, ValueError):
        return math.nan


def _size(worst: list, max_ulp: object) -> str:
    """The worst element's error as a power of ten of its bound (worst elements come largest ratio first)."""
    if not worst or not isinstance(worst[0], dict):
        return ""
    err, allowed = _number(worst[0].get("abs_err")), _number(worst[0].get("allowed"))
    if not math.isfinite(err):
        return "nonfinite"
    if allowed > 0:
        return f"1e{max(0, math.floor(math.log10(err / allowed)))}"
    ulps = _number(max_ulp)
    return f"1e{max(0, math.floor(math.log10(ulps))) if ulps >= 1 else 0} ulp"


def _order(size: str) -> tuple[str, float] | None:
    if size == "nonfinite":
        return ("", math.inf)
    match = _SIZE.match(size)
    return (match.group(2) or "", float(match.group(1))) if match else None


def changes(pinned: list[Part], now: list[Part]) -> list[str]:
    """How ``now`` fails differently from ``pinned`` ([] when it is the same failure, docs/ci-gate.md)."""
    known = {p.key: p for p in pinned}
    found = []
    for part in now:
        was = known.get(part.key)
        if was is None:
            found.append(f"{part.text()} (new)")
            continue
        a, b = _order(was.size), _order(part.size)
        if a is None or b is None or math.isinf(a[1]):
            continue  # a size not known on either side, or pinned as non-finite already: nothing to compare
        if math.isinf(b[1]) or (a[0] == b[0] and b[1] > a[1] + SLACK):
            found.append(f"{part.text()} (was {was.size})")
    return found


def merge(signatures: list[list[Part]]) -> list[Part]:
    """One signature covering several (an entry's records): every part, each value part at its largest size."""
    merged: dict[tuple[str, str, bool], Part] = {}
    for parts in signatures:
        for part in parts:
            have = merged.get(part.key)
            if have is None or _larger(part.size, have.size):
                merged[part.key] = part
    return list(merged.values())


def _larger(size: str, than: str) -> bool:
    a, b = _order(size), _order(than)
    if b is None:
        return False  # an unknown size compares with anything: keep it
    return a is None or a[1] > b[1]


def shape_of(parts: list[Part]) -> tuple[tuple[str, str], ...]:
    """What fails, without by how much: the key ``expectations update`` groups failures by."""
    return tuple(sorted((p.subject, p.kind) for p in parts))
