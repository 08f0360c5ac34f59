"""What the tools that write a case file share (maxunpool_pairs.py, istft_cases.py): write the file, or with
``--check`` say whether the committed one is what the tool writes now (exit 1 when it is stale)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def write_or_check(out: Path, root: Path, render: Callable[[], str], description: str,
                   argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed file differs")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        stale = not out.exists() or out.read_text(encoding="utf-8") != text
        print(f"{out.relative_to(root)}: {'stale: rerun its tool' if stale else 'up to date'}",
              file=sys.stderr if stale else sys.stdout)
        return 1 if stale else 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out.relative_to(root)}")
    return 0
