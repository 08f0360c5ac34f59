"""Text a backend, a plugin or a results file provides, made safe for a terminal or a CI log.

A runtime's error message, a worker's last output lines or a reason read back from a results file may hold escape
sequences (``\\x1b[2J`` clears the screen, ``\\x1b]0;...\\x07`` retitles the window, ``\\r`` overwrites the line):
printed raw they rewrite what the reader sees. Records keep the text as given (JSON escapes it; the HTML report
escapes it); whatever prints it passes it through ``printable`` first.
"""

from __future__ import annotations


def printable(text: str, keep: str = "") -> str:
    """``text`` with every non-printable character (controls, escapes, bidirectional overrides, line and paragraph
    separators) shown as its Python escape (``\\x1b``, ``\\u202e``); the characters in ``keep`` (e.g. ``"\\n"``
    for multi-line text) stay as they are."""
    if text.isprintable():
        return text  # the usual case: nothing to rebuild
    return "".join(c if c.isprintable() or c in keep else c.encode("unicode_escape").decode("ascii") for c in text)
