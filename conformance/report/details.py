"""Each record's details in files beside the HTML report, loaded when a record is opened.

The page itself carries what its first view needs (the matrix, and per record its id, backend, status, reason,
expectation and op: the list and its filters); everything else of a record (outputs, worst elements, heatmaps,
attributes, repro) is in ``details/records-NNNN.js``, CHUNK records per file in the page's record order. A file is
a classic script calling ``conformanceDetails(token, chunk, "json")``: a ``<script src>`` loads from ``file://``
(where fetch() may not) and from a CI artifact's web server alike, and the JSON travels as one string literal that
JSON.parse reads, never as code. The token is the report's (a digest of when it was generated and of every record's
key and status): the page refuses a file of another report. It is known before any file is written, so the page
and the files are written side by side, the files themselves in several processes (report/side_by_side.py).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from conformance.records import ResultRecord

from .embed import pack_json

FOLDER = "details"
#: records per file: ~0.3 MB each for the whole corpus, so opening a record reads one small file
CHUNK = 500
_NAME = "records-{:04d}.js"
_OURS = re.compile(r"records-\d{4,}\.js")


@dataclass(frozen=True)
class Plan:
    """What the page knows of its details files: their token, records per file and how many there are."""

    token: str
    chunk: int  # records per file
    count: int  # files


@dataclass(frozen=True)
class Details(Plan):
    files: list[tuple[str, str]]  # (file name in FOLDER, script text)


def plan(records: Sequence[ResultRecord], generated: datetime, chunk: int | None = None) -> Plan:
    """The details files of these records, before any is made: the token, the chunk (default CHUNK), the number
    of files."""
    chunk = chunk or CHUNK
    digest = hashlib.sha256(generated.isoformat().encode("utf-8"))
    digest.update(str(chunk).encode("ascii"))
    for r in records:
        digest.update(f"\n{r.id}\0{r.backend}\0{r.isa}\0{r.status}".encode("utf-8", "surrogatepass"))
    return Plan(digest.hexdigest()[:16], chunk, -(-len(records) // chunk))


def files(records: Sequence[ResultRecord], layout: Plan, part: int = 0, parts: int = 1) -> list[tuple[str, str]]:
    """The files of ``part`` (of ``parts``, each a contiguous range of files) as (name, script text)."""
    first, last = (layout.count * part) // parts, (layout.count * (part + 1)) // parts
    out = []
    for k in range(first, last):
        text = pack_json(records[k * layout.chunk:(k + 1) * layout.chunk])
        # json.dumps of the JSON text: a JS string literal with every quote, backslash, control character and
        # non-ASCII character (U+2028 too) escaped, so no record can end the literal or the script
        out.append((_NAME.format(k), f'conformanceDetails("{layout.token}",{k},{json.dumps(text)});\n'))
    return out


def split(records: Sequence[ResultRecord], generated: datetime, chunk: int | None = None) -> Details:
    """The records' detail files, CHUNK records each in record order."""
    layout = plan(records, generated, chunk)
    return Details(layout.token, layout.chunk, layout.count, files(records, layout))


def check(out_dir: Path) -> None:
    """ValueError unless the details folder can be written as a plain folder of ours (never through a link)."""
    folder = out_dir / FOLDER
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise ValueError(f"{folder}: exists and is not a plain folder; refusing to write the report's details into it")


def clear(out_dir: Path) -> Path:
    """The details folder, made, without the detail files of an earlier report (a stale one must never pass for
    this run's; other files there are left alone)."""
    folder = out_dir / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if _OURS.fullmatch(old.name) and (old.is_file() or old.is_symlink()):
            old.unlink()
    return folder


def write(out_dir: Path, written: list[tuple[str, str]]) -> None:
    """Write detail files into out_dir/details (cleared first by the caller: ``clear``)."""
    folder = out_dir / FOLDER
    for name, text in written:
        (folder / name).write_text(text, encoding="utf-8")
