"""A failure's signature: which outputs fail and how, coarse enough to be the same on every run and CPU class where
the failure is the same (docs/ci-gate.md, "What counts as the same failure").

Read from what a record holds (its outcome, reason, per-output entries and worst elements), never from the arrays,
so a results file of another machine gives the same signature. Its text is one line of parts joined by ``; ``:

- per failing output ``NAME: KIND`` where KIND is ``values`` with its size and its share of wrong elements
  (``3.7e2 5/2883``: the worst error 370 times its bound, 5 of the output's 2,883 elements wrong; ``3.7e2 ulp
  5/2883`` where the bound is zero; ``nonfinite 5/2883`` for a NaN or infinity where a number was expected),
  ``indices``, ``shape``, ``dtype``, ``type`` (not an array) or ``other``;
- for the record as a whole: ``outputs`` (a wrong output count), ``accepted`` (invalid input accepted),
  ``rejected EXCEPTION``, ``error WHAT``, ``crash``, ``timeout``.

The same failure: no part that the pinned signature lacks, no more elements wrong than pinned, no non-finite value
where the pin has none, and no worst error more than FACTOR times the pinned one. Fewer parts, fewer elements wrong
or a smaller error is the same failure, got better.

The older form without a share (``y: values 1e2``: a power-of-ten bucket, what signatures were before the share)
still loads and means what it meant: no worst error more than SLACK orders of magnitude above the bucket, the
count of wrong elements not compared.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from conformance.records import ResultRecord

#: Orders of magnitude a value error may grow beyond a pinned bucket (the older form, without a share) and still be
#: the same failure.
SLACK = 1
#: How many times its pinned worst error an item's worst error may be and still be the same failure (a pin with a
#: share). Pins are written to two significant digits; a run on the same machine class repeats them exactly.
FACTOR = 2.0
_SIZE = re.compile(r"^1e(-?\d+)( ulp| abs)?$")  # the older form's bucket
_MAGNITUDE = re.compile(r"^(\d(?:\.\d+)?e-?\d+)( ulp| abs)?$")  # a pin's own worst error (its share beside it)
_SHARE = re.compile(r"^(.*?) (\d+)/(\d+)$")
_ERROR_KINDS = (("not a rejection by the runtime", "error"), ("harness error: ", "error harness"),
                ("backend unavailable", "error unavailable"), ("the reference rejects", "error reference"),
                ("no oracle", "error oracle"))


@dataclass(frozen=True)
class Part:
    subject: str  # the output's name; "" for a part about the record as a whole
    kind: str
    size: str = ""  # values only: "3.7e2", "3.7e2 ulp", "nonfinite" (older pins: "1e2", "1e3 ulp"); "" not known
    #: values only: (elements wrong, elements of the output), None when not known (a record without the counts, or
    #: a pin of the older form)
    share: tuple[int, int] | None = None

    @property
    def key(self) -> tuple[str, str, bool]:
        """What fails: the output, the kind, and whether its size is in ulps (a bound of zero) or in bounds."""
        return (self.subject, self.kind, self.size.endswith("ulp"))

    def text(self) -> str:
        body = f"{self.kind} {self.size}".strip() + (f" {self.share[0]}/{self.share[1]}" if self.share else "")
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
            share = _SHARE.match(size)
            parts.append(Part(subject, kind, share.group(1), (int(share.group(2)), int(share.group(3))))
                         if share else Part(subject, kind, size))
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
            if part.kind == "values" and part.share is None and not (part.size == "nonfinite"
                                                                      or _SIZE.match(part.size)):
                raise ValueError(f"{part.text()!r}: a values part needs its size and share (3.7e2 5/2883, 3.7e2 ulp "
                                 "5/2883, nonfinite 5/2883; or the older 1e2, 1e3 ulp, nonfinite)")
            if part.share is not None and not ((part.size == "nonfinite" or _MAGNITUDE.match(part.size))
                                               and 0 < part.share[1] and part.share[0] <= part.share[1]):
                raise ValueError(f"{part.text()!r}: a values part with a share reads SIZE WRONG/ELEMENTS (3.7e2 "
                                 "5/2883, 3.7e2 ulp 5/2883, nonfinite 5/2883), at most every element wrong")
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
                             o.get("max_ulp"), o.get("error_model") == "index",
                             _share(o.get("mismatches"), o.get("elements")))
                for o in record.outputs if not o.get("ok", True)]
    name = (first.split(": ", 1)[0] if ": " in first else "output").lower()
    return [_output_part(name, first, record.worst, record.max_ulp, False,
                         _share(record.mismatches, record.elements))]


def _share(wrong: object, elements: object) -> tuple[int, int] | None:
    """(elements wrong, elements) as a record gives them, None when it does not (an older or trimmed record)."""
    if isinstance(wrong, bool) or isinstance(elements, bool) or not isinstance(wrong, int) \
            or not isinstance(elements, int) or elements <= 0 or not 0 <= wrong <= elements:
        return None
    return (wrong, elements)


def _exception(text: str) -> str:
    """The exception type a message starts with (``InvalidArgument: ...``), or "" when it names none."""
    match = re.match(r"([A-Za-z_][\w.]*)(:|$)", text.strip())
    return match.group(1).rsplit(".", 1)[-1] if match else ""


def _output_part(name: str, reason: str, worst: list, max_ulp: object, index: bool,
                 share: tuple[int, int] | None = None) -> Part:
    if "shape mismatch" in reason:
        return Part(name, "shape")
    if "dtype mismatch" in reason:
        return Part(name, "dtype")
    if "backend returned" in reason:
        return Part(name, "type")
    if index or "indices differ" in reason:
        return Part(name, "indices")
    if worst or "outside tolerance" in reason:
        size = _size(worst, max_ulp, share is not None)
        return Part(name, "values", size, share if size else None)
    return Part(name, "other")


def _number(value: object) -> float:
    try:
        return float(value)  # records carry NaN/inf as strings
    except (TypeError, ValueError):
        return math.nan


def _size(worst: list, max_ulp: object, exact: bool = True) -> str:
    """The worst element's error in its bounds (worst elements come largest ratio first), to two significant digits
    (``exact``) or as the older form's power of ten."""
    if not worst or not isinstance(worst[0], dict):
        return ""
    err, allowed = _number(worst[0].get("abs_err")), _number(worst[0].get("allowed"))
    if not math.isfinite(err):
        return "nonfinite"
    if allowed > 0:
        ratio, unit = err / allowed, ""
    elif _number(max_ulp) >= 1:
        ratio, unit = _number(max_ulp), " ulp"
    else:  # wrong only where 0 or a subnormal is expected, which has no ULP figure: the absolute error itself
        ratio, unit = err, " abs"
    # in bounds or ulps a failure is at least 1; an absolute error is itself (below 1 for a value near 0)
    ratio = max(ratio, 1.0 if unit != " abs" else 1e-300) if math.isfinite(ratio) else 1e308
    if not exact:
        return f"1e{math.floor(math.log10(ratio))}{unit}"
    mantissa, _, exponent = f"{ratio:.1e}".partition("e")
    return f"{mantissa}e{int(exponent)}{unit}"


def _order(size: str) -> tuple[str, float] | None:
    """(unit, the worst error in bounds or ulps) of a size of either form; inf for ``nonfinite``."""
    if size == "nonfinite":
        return ("", math.inf)
    if match := _SIZE.match(size):
        return (match.group(2) or "", 10.0 ** float(match.group(1)))
    match = _MAGNITUDE.match(size)
    return (match.group(2) or "", float(match.group(1))) if match else None


def _more_wrong(was: tuple[int, int], now: tuple[int, int]) -> bool:
    """More elements wrong than pinned (a larger share where the output's size differs)."""
    return now[0] > was[0] if now[1] == was[1] else now[0] * was[1] > was[0] * now[1]


def changes(pinned: list[Part], now: list[Part]) -> list[str]:
    """How ``now`` fails differently from ``pinned`` ([] when it is the same failure, docs/ci-gate.md)."""
    known = {p.key: p for p in pinned}
    found = []
    for part in now:
        was = known.get(part.key)
        if was is None:
            found.append(f"{part.text()} (new)")
            continue
        was_text = f"was {was.text().partition(': ')[2].partition(' ')[2]}"
        if was.share is not None and part.share is not None and _more_wrong(was.share, part.share):
            found.append(f"{part.text()} ({was_text}: more elements wrong)")
            continue
        a, b = _order(was.size), _order(part.size)
        if a is None or b is None or math.isinf(a[1]):
            continue  # a size not known on either side, or pinned as non-finite already: nothing to compare
        if math.isinf(b[1]):
            found.append(f"{part.text()} ({was_text}: non-finite now)")
        elif was.share is not None and b[1] > a[1] * FACTOR:
            found.append(f"{part.text()} ({was_text}: worst error {b[1] / a[1]:.3g}x the pinned)")
        elif was.share is None and math.floor(math.log10(b[1])) > math.log10(a[1]) + SLACK:
            found.append(f"{part.text()} ({was_text})")
    return found


def merge(signatures: list[list[Part]]) -> list[Part]:
    """One signature covering several (an entry's records): every part, each value part at its largest size and
    its largest share of wrong elements. A part some record gives without a share has none merged (the older form's
    bucket, which is what it can be compared by)."""
    merged: dict[tuple[str, str, bool], Part] = {}
    unshared: set[tuple[str, str, bool]] = set()
    for parts in signatures:
        for part in parts:
            have = merged.get(part.key)
            if part.kind == "values" and part.share is None:
                unshared.add(part.key)
            if have is None:
                merged[part.key] = part
                continue
            size = part.size if _larger(part.size, have.size) else have.size
            share = have.share if part.share is None or have.share is not None and not _more_wrong(
                have.share, part.share) else part.share
            merged[part.key] = Part(have.subject, have.kind, size, share)
    return [Part(p.subject, p.kind, bucket(p.size)) if p.key in unshared else p for p in merged.values()]


def bucket(size: str) -> str:
    """A size in the older form (a power of ten), for a part compared without a share."""
    order = _order(size)
    if order is None or math.isinf(order[1]) or _SIZE.match(size):
        return size
    return f"1e{max(0, math.floor(math.log10(order[1])))}{order[0]}"


def _larger(size: str, than: str) -> bool:
    a, b = _order(size), _order(than)
    if b is None:
        return False  # an unknown size compares with anything: keep it
    return a is None or a[1] > b[1]


def outline(parts: list[Part]) -> tuple[tuple[str, str], ...]:
    """What fails, without by how much: the key ``expectations update`` groups failures by."""
    return tuple(sorted((p.subject, p.kind) for p in parts))


def pins(records: list[ResultRecord]) -> dict[str, str]:
    """Each item's own signature (its records merged: ISA levels, versions) for an entry of several items: {} when
    each is the group's (a group of one is pinned by its signature, a group failing by kind alone or each item the
    same way has nothing of its own to pin)."""
    by_item: dict[str, list[list[Part]]] = {}
    for record in records:
        by_item.setdefault(record.expectation_id, []).append(of_record(record))
    own = {item: text_of(merge(found)) for item, found in sorted(by_item.items())}
    group = text_of(merge([of_record(r) for r in records]))
    if len(own) < 2 or all(text == group for text in own.values()):
        return {}  # one item, or each item's own signature the group's: a pin adds nothing
    return {item: text for item, text in own.items() if text}
