"""Read a tensor literal exactly as a spec publishes it (``text:`` in a case file), typos included.

Published examples are copied verbatim, so a defect of the text (OpenVINO's MaxPool examples print
``[4, 5, 5] [4, 8, 9]``, a missing comma) must survive in the case file. The reader accepts nested brackets of
numbers separated by commas; where two elements stand side by side without a comma it reads them as two
elements (the only reading the text admits) and reports the defect. The harness turns every reported defect
into an ``erratum`` of the example (reference_column.spec_claims): nothing is fixed silently. Anything else (unbalanced
brackets, a stray token) is an error of the case file.
"""

from __future__ import annotations

import re
from typing import Any

_TOKEN = re.compile(r"\s*(?:(\[)|(\])|(,)|([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|inf|nan)))", re.IGNORECASE)


class PublishedTextError(ValueError):
    """A published literal that is not nested lists of numbers, even allowing for missing commas."""


def read_literal(text: str) -> tuple[Any, list[str]]:
    """(nested lists of numbers, defects found): each defect names the column and the text around it."""
    tokens = _tokens(text)
    defects: list[str] = []
    value, end = _value(tokens, 0, text, defects)
    if end != len(tokens):
        raise PublishedTextError(f"unexpected {tokens[end][1]!r} at column {tokens[end][0] + 1} after the literal")
    return value, defects


def _tokens(text: str) -> list[tuple[int, str]]:
    found, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None:
            raise PublishedTextError(f"cannot read {text[pos:pos + 10]!r} at column {pos + 1}")
        token = next(g for g in match.groups() if g is not None)
        found.append((match.end() - len(token), token))
        pos = match.end()
    return found


def _value(tokens: list[tuple[int, str]], i: int, text: str, defects: list[str]) -> tuple[Any, int]:
    if i >= len(tokens):
        raise PublishedTextError("the literal ends early (unbalanced '[')")
    column, token = tokens[i]
    if token == "[":
        items: list[Any] = []
        i += 1
        while i < len(tokens) and tokens[i][1] != "]":
            if items:
                if tokens[i][1] == ",":
                    i += 1
                else:
                    at = tokens[i][0]
                    around = " ".join(text[max(0, at - 12):at + 12].split())
                    defects.append(f"missing ',' at column {at + 1}: {around!r}")
            item, i = _value(tokens, i, text, defects)
            items.append(item)
        if i >= len(tokens):
            raise PublishedTextError(f"'[' at column {column + 1} is never closed")
        return items, i + 1
    if token in ("]", ","):
        raise PublishedTextError(f"unexpected {token!r} at column {column + 1}")
    number = float(token)
    return (int(number) if number.is_integer() and re.fullmatch(r"[-+]?\d+", token) else number), i + 1
