"""Each record's details in files beside the HTML report, loaded when a record is opened.

The page itself carries what its first view needs (the matrix, and per record its id, backend, status, reason,
expectation and op: the list and its filters); everything else of a record (outputs, worst elements, heatmaps,
attributes, repro) is in ``details/records-NNNN.js``, CHUNK records per file in the page's record order. A file is
a classic script calling ``conformanceDetails(token, chunk, "json")``: a ``<script src>`` loads from ``file://``
(where fetch() may not) and from a CI artifact's web server alike, and the JSON travels as one string literal that
JSON.parse reads, never as code. The token is a digest of every chunk: the page refuses a file of another report.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from conformance.records import ResultRecord

from .embed import pack_json

FOLDER = "details"
#: records per file: ~0.3 MB each for the whole corpus, so opening a record reads one small file
CHUNK = 500
_NAME = "records-{:04d}.js"
_OURS = re.compile(r"records-\d{4,}\.js")


@dataclass(frozen=True)
class Details:
    token: str  # the page's and every file's: a digest of the files' data
    chunk: int  # records per file
    files: list[tuple[str, str]]  # (file name in FOLDER, script text)


def split(records: Sequence[ResultRecord], chunk: int = CHUNK) -> Details:
    """The records' detail files, CHUNK records each in record order."""
    texts = [pack_json(records[i:i + chunk]) for i in range(0, len(records), chunk)]
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8"))
    token = digest.hexdigest()[:16]
    # json.dumps of the JSON text: a JS string literal with every quote, backslash, control character and
    # non-ASCII character (U+2028 too) escaped, so no record can end the literal or the script
    files = [(_NAME.format(k), f'conformanceDetails("{token}",{k},{json.dumps(text)});\n')
             for k, text in enumerate(texts)]
    return Details(token, chunk, files)


def check(out_dir: Path) -> None:
    """ValueError unless the details folder can be written as a plain folder of ours (never through a link)."""
    folder = out_dir / FOLDER
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise ValueError(f"{folder}: exists and is not a plain folder; refusing to write the report's details into it")


def write(out_dir: Path, details: Details) -> Path:
    """Write the files into out_dir/details, removing detail files of an earlier report first (a stale one must
    never pass for this run's; other files there are left alone)."""
    folder = out_dir / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if _OURS.fullmatch(old.name) and (old.is_file() or old.is_symlink()):
            old.unlink()
    for name, text in details.files:
        (folder / name).write_text(text, encoding="utf-8")
    return folder
