"""A test file named after the file beside it tests that file (pocketbase, walked as a new user:
"what tests cover apis/file.go" had no answer for 27 of its 32 handler files, whose tests go
through the router and call nothing of theirs by name): Go's ``file_test.go``, JavaScript's
``format.test.ts`` and ``Empty.spec.tsx``. A ``tested_by`` edge from the file to its test file."""

from __future__ import annotations

import pytest
from graph_edges import paths_testing

from conftest import resync
from kenning.ingest.test_files import file_under_test
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "go.mod": "module github.com/acme/base\n\ngo 1.22\n",
    "apis/file.go": "package apis\n\nfunc fileDownload(e Event) error {\n\treturn nil\n}\n",
    "apis/file_test.go": 'package apis_test\n\nimport "testing"\n\n'
    'func TestFileDownload(t *testing.T) {\n\tscenario(t, "/api/files")\n}\n',
    "apis/orphan_test.go": "package apis_test\n\nfunc TestNothing() {}\n",  # no orphan.go: no edge
    "src/lib/format.ts": "export function formatDate(d: Date) {\n  return d.toString();\n}\n",
    "src/lib/format.test.ts": "it('formats', () => {\n  expect(1).toBe(1);\n});\n",
}


@pytest.mark.parametrize(
    ("path", "tested"),
    [
        ("apis/file_test.go", "apis/file.go"),
        ("src/lib/format.test.ts", "src/lib/format.ts"),
        ("src/ui/Empty.spec.tsx", "src/ui/Empty.tsx"),
        ("tests/test_format.py", None),  # Python's tests live apart: not read so
        ("src/lib/format.ts", None),
    ],
)
def test_a_test_file_names_the_file_it_tests(path, tested):
    assert file_under_test(path) == tested


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_which_tests_cover_a_file_finds_the_test_file_named_after_it(make_project, engine):
    project = make_project(FILES, name="siblings", config=engine_config(engine, "siblings"))
    resync(project)
    assert paths_testing(project, "apis/file.go") == {("apis/file_test.go", "extracted")}
    assert paths_testing(project, "src/lib/format.ts") == {("src/lib/format.test.ts", "extracted")}
