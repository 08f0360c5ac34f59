"""Read a published ``<layer>`` example that is not well-formed XML, and name each defect.

63 of the 478 ``<layer>`` examples of OpenVINO's operation pages are not well-formed: attributes separated by commas
(``convert_type="f32", with_replacement="true"``), unquoted values (``batch_dims=0``), a typographic ellipsis in the
tag (``<layer … type="FakeQuantize"…>``), a self-closed ``<port id="3"/>`` later closed by a stray ``</port>``, a
missing ``</input>``. A conformance tool runs the example as published and says what is wrong with it, as it does
for a malformed literal (``text:``): this reader builds the element tree with the standard library's tolerant HTML
tokenizer (no entities expanded, no DTD, nothing fetched: it only tokenizes), and every repair it makes is returned
as a defect, which the ``reference`` column reports as an erratum of the example.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from xml.etree.ElementTree import Element

#: the tags a layer example is made of (HTMLParser lower-cases tag names; IR's are lower-case already)
#: an element opened while one of these is the innermost open one closes it first (sections and ports never nest:
#: ``<output>`` after an unclosed ``<input>``, ``<input>`` after a ``<data ...>`` written without its slash)
_CLOSED_BY = {"input": {"data", "output", "port", "dim"}, "output": {"data", "input", "port", "dim"},
              "port": {"port", "dim", "data"}, "dim": {"dim"}, "data": {"data"}}
_ATTRIBUTE = re.compile(r"""([^\s=,/>"']+)\s*(=\s*("[^"]*"|'[^']*'|[^\s,/>"']+))?\s*(,)?""")


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: Element | None = None
        self.stack: list[Element] = []
        self.defects: list[str] = []

    def _line(self) -> int:
        return self.getpos()[0]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open(tag, self.get_starttag_text() or "", closed=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open(tag, self.get_starttag_text() or "", closed=True)

    def _open(self, tag: str, text: str, closed: bool) -> None:
        while self.stack and self.stack[-1].tag in _CLOSED_BY.get(tag, ()):
            self.defects.append(f"line {self._line()}: <{self.stack[-1].tag}> is not closed before <{tag}>")
            self.stack.pop()
        element = Element(tag, self._attributes(tag, text))
        if self.stack:
            self.stack[-1].append(element)
        elif self.root is None:
            self.root = element
        else:
            self.defects.append(f"line {self._line()}: <{tag}> after the layer ended")
            return
        if not closed:
            self.stack.append(element)

    def _attributes(self, tag: str, text: str) -> dict[str, str]:
        """The tag's attributes as written; commas, unquoted values and stray tokens named as defects."""
        body = re.sub(rf"^<\s*{re.escape(tag)}", "", text, flags=re.I).rstrip(">").rstrip("/")
        found: dict[str, str] = {}
        for match in _ATTRIBUTE.finditer(body):
            name, assigned, value, comma = match.groups()
            if assigned is None:  # a bare token: the examples' "..." / "…" elisions, anything else a defect
                if name.strip(".…") and name != "…":
                    self.defects.append(f"line {self._line()}: <{tag}> holds the stray token {name!r}")
                elif "…" in name:
                    self.defects.append(f"line {self._line()}: <{tag}> elides with '…' (U+2026), not '...'")
                continue
            if "…" in name:
                self.defects.append(f"line {self._line()}: <{tag}> elides with '…' (U+2026), not '...'")
                name = name.strip("…")
            if value[0] not in "\"'":
                self.defects.append(f"line {self._line()}: <{tag}> attribute {name}={value} is not quoted")
            else:
                value = value[1:-1]
            if comma:
                self.defects.append(f"line {self._line()}: <{tag}> separates attributes with ','")
            found[name] = value
        return found

    def handle_endtag(self, tag: str) -> None:
        open_tags = [e.tag for e in self.stack]
        if tag not in open_tags:
            if not self._reopen(tag):
                self.defects.append(f"line {self._line()}: </{tag}> closes no open <{tag}>")
            return
        while self.stack[-1].tag != tag:
            self.defects.append(f"line {self._line()}: <{self.stack[-1].tag}> is not closed before </{tag}>")
            self.stack.pop()
        self.stack.pop()

    def _reopen(self, tag: str) -> bool:
        """A stray ``</port>`` after a self-closed ``<port .../>`` of the same parent: the slash read as the typo,
        the elements between (its ``<dim>``s) moved into it."""
        parent = self.stack[-1] if self.stack else None
        children = list(parent) if parent is not None else []
        last = next((i for i in range(len(children) - 1, -1, -1) if children[i].tag == tag), None)
        if last is None or len(children[last]):
            return False
        moved = children[last + 1:]
        for child in moved:
            parent.remove(child)
            children[last].append(child)
        written = " ".join(f"{k}={v!r}" for k, v in children[last].attrib.items())
        self.defects.append(f"line {self._line()}: <{tag} {written}/> is self-closed and later closed by </{tag}>: "
                            f"the {len(moved)} element(s) between read as its own")
        return True

    def handle_data(self, data: str) -> None:
        if self.stack and data.strip():
            element = self.stack[-1]
            if element.tag != "dim":  # only a <dim> holds text: anything else is a broken comment or tag
                self.defects.append(f"line {self._line()}: stray text {data.strip()[:40]!r} in <{element.tag}>")
                return
            element.text = (element.text or "") + data

    def close(self) -> None:
        super().close()
        for element in reversed(self.stack):
            self.defects.append(f"<{element.tag}> is never closed")
        self.stack.clear()


def read_leniently(xml: str) -> tuple[Element, tuple[str, ...]]:
    """The layer element of ``xml`` and the defects read past; ``ValueError`` where no element is found."""
    builder = _Builder()
    builder.feed(xml)
    builder.close()
    if builder.root is None:
        raise ValueError("no element found")
    return builder.root, tuple(dict.fromkeys(builder.defects))
