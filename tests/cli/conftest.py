import sys
from pathlib import Path

# the report tests' record builders (tests/report/report_records.py), shared by module name, not through conftest
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "report"))
