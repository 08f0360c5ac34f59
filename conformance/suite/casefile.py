"""What loading a case file yields, shared by the loader and the readers it hands documents to (cross-spec
configurations, imported node tests): the loaded file, its case errors, the case id rule."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from conformance.model import Case

ID_PATTERN = re.compile(r"^[A-Za-z0-9_.-]+$")


class CaseFileError(ValueError):
    """A case file or case that does not follow the schema; str() names file, line and case id."""

    def __init__(self, file: str, line: int, case_id: str | None, message: str):
        self.file, self.line, self.case_id, self.message = file, line, case_id, message
        where = f"{file}:{line}" if line else file
        who = f" case {case_id!r}:" if case_id else ""
        super().__init__(f"{where}:{who} {message}")


@dataclass
class LoadedFile:
    path: str
    op: str
    domain: str
    cases: list[Case] = field(default_factory=list)
    errors: list[CaseFileError] = field(default_factory=list)
    imports: list[dict[str, Any]] = field(default_factory=list)
