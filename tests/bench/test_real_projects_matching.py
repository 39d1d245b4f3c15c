"""``bench/real_projects.py`` counts an answer right when one of its top excerpts holds an expected
entry: a file by any of its excerpts, a section named with its anchor by that section alone or one
of its parts (the cobra docs set's figures rest on it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"

CASES = [
    (["docs/guide.md#required-flags"], ["docs/guide.md#required-flags"], True),
    (["docs/guide.md#required-flags-part-2"], ["docs/guide.md#required-flags"], True),
    (["docs/guide.md#flag-groups"], ["docs/guide.md#required-flags"], False),  # another section of the file
    (["docs/guide.md#flag-groups"], ["docs/guide.md"], True),  # a file: any of its excerpts
    (["src/flags.go:10-30"], ["src/flags.go"], True),
    (["src/flags.go:10-30", "src/other.go:1-5"], ["src/other.go"], True),  # a location's URI counts
    (["src/flags.go:10-30"], ["src/flags"], False),
]


def test_an_expected_file_matches_any_excerpt_of_it_and_an_anchor_its_section_alone():
    code = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(BENCH)!r})\n"
        "from real_projects import hit\n"
        "cases = json.loads(sys.stdin.read())\n"
        "print(json.dumps([hit(uris, set(expected)) for uris, expected, _ in cases]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(CASES), capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(done.stdout) == [want for _, _, want in CASES]
