"""The supports() answers an isolated backend's worker gave, kept per case object.

Batching asks before the runner does, and the plugin asks for the next cases of a column in one request
(plugin/ahead.py): each case is asked once. Kept by identity, not by value: an equal case is another item's, asked
anew. At most ``LIMIT`` answers; the oldest is forgotten first.
"""

from __future__ import annotations

from conformance.backends.base import Support
from conformance.model import CaseInstance

LIMIT = 4096


class KnownSupport:
    def __init__(self) -> None:
        self._known: dict[int, tuple[CaseInstance, Support]] = {}  # id(case) -> (case, its answer)

    def get(self, case: CaseInstance) -> Support | None:
        known = self._known.get(id(case))
        return known[1] if known is not None and known[0] is case else None

    def __contains__(self, case: CaseInstance) -> bool:
        return self.get(case) is not None

    def keep(self, case: CaseInstance, support: Support) -> Support:
        if len(self._known) >= LIMIT:
            del self._known[next(iter(self._known))]
        self._known[id(case)] = (case, support)
        return support
