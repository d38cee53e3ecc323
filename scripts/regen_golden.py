"""Rewrite the GOLDEN table of tests/test_golden.py after an intended rules change.

    python scripts/regen_golden.py
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

path = Path(__file__).resolve().parent.parent / "tests" / "test_golden.py"
out = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, check=True).stdout
text = path.read_text(encoding="utf-8")
new_digest = re.search(r'^RULES_DIGEST = .*$', out, re.M).group(0)
new_table = re.search(r"^GOLDEN = \{.*?^\}", out, re.M | re.S).group(0)
text = re.sub(r'^RULES_DIGEST = .*$', new_digest, text, count=1, flags=re.M)
text = re.sub(r"^GOLDEN = \{.*?^\}", lambda _m: new_table, text, count=1, flags=re.M | re.S)
path.write_text(text, encoding="utf-8")
sys.stdout.write("tests/test_golden.py updated\n")
