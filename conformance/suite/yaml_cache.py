"""Parsed YAML documents kept in the user cache, so that a process reading the corpus (each part of
``conformance run``, each xdist worker, every command) does not parse the same text again.

libyaml's parse of the shipped case and expectations files is 0.4-0.6 s of every such process; the same documents
read back from JSON take about 0.01 s. A document is kept only when JSON holds it exactly: mappings with string
keys, lists, strings, numbers, booleans and null, and no container reached twice (a YAML alias would come back as
two copies). Anything else (a date, an integer key, an alias, a case the loader dropped for its depth) is parsed
every time. Beside the document: the line of each of its mappings, in pre-order, which the loader's errors cite.

One file per source name (``yaml/<digest of the name>.json``), holding the digest of the text and of the parser it
was made by: an edited file, another PyYAML or another loader is a miss and the entry is overwritten, so the folder
holds one file per file read, not one per version; past ``LIMIT`` entries, the least recently written go. Texts
under ``MIN_SIZE`` are neither kept nor looked up (they parse in well under a millisecond). Anything wrong with an
entry (unreadable, truncated, foreign) is a miss. An entry is sealed (user_cache.seal): its first line the digest
of the JSON after it, so a document changed in the cache (a ``tolerance: {atol: 1e9}`` added, the text's digest
left as it was) is said on stderr and parsed again, never used. ``CONFORMANCE_CACHE_DIR=off`` turns it off with
the other caches.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from conformance.user_cache import SEAL, cache_dir, seal, unseal, write_atomically

#: Bump when the entry's layout changes.
FORMAT = 2
#: the folder of the user cache holding the entries
FOLDER = "yaml"
#: texts shorter than this (characters) are parsed every time
MIN_SIZE = 4096
#: entries kept at most: a store past it removes the oldest (case files under changing temporary folders)
LIMIT = 1000

_SCALARS = (str, int, float, bool, type(None))


class _NotPlain(Exception):
    """The document holds something JSON would not give back as it is."""


@functools.cache
def _parser() -> str:
    """What the documents are a function of besides the text: PyYAML's version (and whether libyaml parses) and our
    parser's code, read as files beside this one: the parser imports this module, and importing it back would make
    the two a circle."""
    import yaml

    digest = hashlib.sha256(f"format {FORMAT}\nyaml {yaml.__version__} {yaml.__with_libyaml__}\n".encode())
    for name in _PARSER_FILES:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()


#: the files whose code makes a document (suite/yaml_parse.py, and depth.py, which drops the cases nested too deeply)
_PARSER_FILES = ("yaml_parse.py", "depth.py")


def _entry(name: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    return folder / FOLDER / f"{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:24]}.json"


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _mappings(document: Any) -> Iterator[dict]:
    """Every mapping of ``document`` in pre-order (the same order for a parsed document and its JSON copy); raises
    _NotPlain for anything JSON does not hold exactly."""
    seen: set[int] = set()
    stack = [document]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict or kind is list:
            if id(value) in seen:
                raise _NotPlain  # one object reached twice: a YAML alias
            seen.add(id(value))
            if kind is dict:
                if any(type(key) is not str for key in value):
                    raise _NotPlain
                yield value
                stack.extend(reversed(list(value.values())))
            else:
                stack.extend(reversed(value))
        elif kind not in _SCALARS:
            raise _NotPlain


def parsed(text: str, name: str, dropped: list | None,
           parse: Callable[[str, str, list | None], tuple[Any, dict[int, int]]]) -> tuple[Any, dict[int, int]]:
    """``parse(text, name, dropped)``'s document and lines, read back when kept; a fresh parse is kept unless it
    left a case out (``dropped`` grew): such a file is parsed again each time, with its message."""
    found = load(text, name)
    if found is not None:
        return found
    before = len(dropped) if dropped is not None else 0
    document, lines = parse(text, name, dropped)
    if dropped is None or len(dropped) == before:
        store(text, name, document, lines)
    return document, lines


def load(text: str, name: str) -> tuple[Any, dict[int, int]] | None:
    """The document parsed from ``text`` (read as ``name``) and its mappings' lines, or None when not kept."""
    path = _entry(name) if len(text) >= MIN_SIZE else None
    if path is None:
        return None
    try:
        data = path.read_bytes()
        if not data.startswith(SEAL):
            return None  # an entry of an older format (no digest line) or a foreign file: a miss, silently
        if not unseal(data, 0, path, f"parsed YAML of {name}"):
            return None
        entry = json.loads(data[len(seal(b"")):])
        if (not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("parser") != _parser()
                or entry.get("text") != _text_digest(text) or not isinstance(entry.get("lines"), list)):
            return None
        document, kept = entry["document"], entry["lines"]
        lines: dict[int, int] = {}
        count = 0
        for count, mapping in enumerate(_mappings(document), 1):
            line = kept[count - 1] if count <= len(kept) else None
            if type(line) is int:
                lines[id(mapping)] = line
        return (document, lines) if count == len(kept) else None
    except (OSError, ValueError, KeyError, TypeError, RecursionError, _NotPlain):
        return None


def store(text: str, name: str, document: Any, lines: dict[int, int]) -> None:
    """Keep ``document`` (parsed from ``text``) when JSON holds it exactly; a cache that cannot be written is
    skipped silently."""
    path = _entry(name) if len(text) >= MIN_SIZE else None
    if path is None:
        return
    try:
        kept = [lines.get(id(mapping)) for mapping in _mappings(document)]
        data = json.dumps({"format": FORMAT, "parser": _parser(), "text": _text_digest(text), "lines": kept,
                           "document": document}, separators=(",", ":"))
        write_atomically(path, seal(data.encode()) + data.encode())
        _prune(path.parent)
    except (_NotPlain, OSError, ValueError, TypeError, RecursionError):
        pass


def _prune(folder: Path) -> None:
    entries = list(folder.glob("*.json"))
    if len(entries) <= LIMIT:
        return
    by_age = sorted(entries, key=lambda entry: entry.stat().st_mtime)
    for entry in by_age[:len(entries) - LIMIT]:
        entry.unlink(missing_ok=True)
