"""Go's references resolved by package (``ingest.go_packages``, ``graph.go_resolve``), on both
engines: a plain call reaches the function of the caller's own package, not a homonym of
another directory; ``pkg.F()`` the function of the package imported, by the path's last
directories or the module's root; a package from outside the project (``pflag``) none of the
project's homonyms; a method called on a value of a type an imported package declares, that
type's method there, and none for a type from outside; an import every file of the package but
its tests, a file added or removed later included."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.store import graph as graph_store
from kenning.store.db import open_store
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

GO = {
    "go.mod": "module github.com/acme/tool\n\ngo 1.21\n",
    "tool.go": (
        'package tool\n\nimport (\n  "fmt"\n\n  "github.com/spf13/pflag"\n)\n\n'
        'func Run() {\n  helper()\n  pflag.String("x", "", "")\n  fmt.Println(1)\n}\n\n'
        'func helper() {}\n\nfunc String() string { return "" }\n\n'
        'type Command struct{}\n\nfunc (c *Command) Name() string { return "" }\n\nfunc (c *Command) Parse() {}\n\n'
        'type failure struct{}\n\nfunc (f failure) Error() string { return "" }\n'
    ),
    # values of a type an imported package declares: the project's (tool.Command), from outside
    # (pflag.FlagSet), the standard library's (testing.T)
    "doc/gen.go": (
        'package doc\n\nimport (\n  "testing"\n\n  "github.com/acme/tool"\n  "github.com/spf13/pflag"\n)\n\n'
        "func Gen(cmd *tool.Command, fs *pflag.FlagSet) {\n  cmd.Name()\n  c := &tool.Command{}\n  c.Name()\n"
        "  fs.Parse()\n}\n\n"
        'func check(t *testing.T) {\n  t.Error("x")\n}\n'
    ),
    "tool_test.go": (
        'package tool\n\nimport "testing"\n\nfunc assertOK(t *testing.T) {}\n\n'
        "func TestRun(t *testing.T) {\n  assertOK(t)\n  Run()\n}\n"
    ),
    "util/util.go": (
        'package util\n\nimport "github.com/acme/tool"\n\nfunc Format() {\n  helper()\n  tool.Run()\n}\n\n'
        "func helper() {}\n"
    ),
    "util/util_test.go": (
        'package util\n\nimport "testing"\n\nfunc assertOK(t *testing.T) {}\n\n'
        "func TestFormat(t *testing.T) {\n  assertOK(t)\n  Format()\n}\n"
    ),
    "cmd/tool/main.go": (
        'package main\n\nimport (\n  u "github.com/acme/tool/util/v2"\n  "github.com/acme/tool/internal/util"\n)\n\n'
        "func main() {\n  u.Format()\n  util.Clean()\n}\n"
    ),
    "cmd/clean/main.go": (
        'package main\n\nimport "github.com/acme/tool/internal/util"\n\nfunc main() {\n  util.Format()\n}\n'
    ),
    "internal/util/clean.go": "package util\n\nfunc Clean() {}\n\nfunc Format() {}\n",
}


def edges(project, edge_type: str) -> set[tuple[str, str, str]]:
    """(source, target, link) of every ``edge_type`` edge out of the project's Go files and their
    symbols, each end as ``path`` or ``path:qualname``."""
    conn = open_store(project)
    try:
        found = set()
        for path in GO:
            if not path.endswith(".go"):
                continue
            (file,) = graph_store.nodes_by(conn, "file_path", path, limit=1)
            defined = [e.dst for e, forward in graph_store.edges_of(conn, file) if forward and e.type == "defines"]
            nodes = [file, *defined]
            for node in nodes:
                for e, forward in graph_store.edges_of(conn, node):
                    if forward and e.type == edge_type:
                        found.add((_name(node), _name(e.dst), e.link))
        return found
    finally:
        conn.close()


def _name(node) -> str:
    return node.path if node.kind == "file" else f"{node.path}:{node.qualname}"


CALLS = {
    ("tool.go:Run", "tool.go:helper", "extracted"),  # its package's, not util's; and pflag.String: none
    ("tool_test.go:TestRun", "tool_test.go:assertOK", "extracted"),  # not util_test.go's
    ("tool_test.go:TestRun", "tool.go:Run", "extracted"),
    ("util/util.go:Format", "util/util.go:helper", "extracted"),
    ("util/util.go:Format", "tool.go:Run", "extracted"),  # the module's root, by its package's name
    ("util/util_test.go:TestFormat", "util/util_test.go:assertOK", "extracted"),
    ("util/util_test.go:TestFormat", "util/util.go:Format", "extracted"),
    # through an alias, and a major version's segment (``util/`` a module of its own at v2)
    ("cmd/tool/main.go:main", "util/util.go:Format", "extracted"),
    ("cmd/tool/main.go:main", "internal/util/clean.go:Clean", "extracted"),
    ("cmd/clean/main.go:main", "internal/util/clean.go:Format", "extracted"),  # the longest directory
    # that type's method in that package; fs.Parse() (pflag's) and t.Error() (testing's): none,
    # though the project has a Parse and an Error method
    ("doc/gen.go:Gen", "tool.go:Command.Name", "extracted"),
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_go_calls_and_imports_reach_their_packages(make_project, engine):
    project = make_project(GO, name="gopackages", config=engine_config(engine, "gopackages"))
    resync(project)
    assert edges(project, "calls") == CALLS
    assert edges(project, "imports") == {
        ("util/util.go", "tool.go", "declared"),  # not tool_test.go
        ("cmd/tool/main.go", "util/util.go", "declared"),
        ("cmd/tool/main.go", "internal/util/clean.go", "declared"),
        ("cmd/clean/main.go", "internal/util/clean.go", "declared"),  # not util/util.go
        ("doc/gen.go", "tool.go", "declared"),
    }  # fmt, testing: the standard library; pflag: no package of the project's
    assert ("tool.go:Run", "tool_test.go:TestRun", "extracted") in edges(project, "tested_by")

    # a file joins its package: the importers reach it without being read again
    (project.root / "util" / "more.go").write_text("package util\n\nfunc More() {}\n", encoding="utf-8")
    resync(project, NOW)
    conn = open_store(project)
    try:
        (main,) = graph_store.nodes_by(conn, "file_path", "cmd/tool/main.go", limit=1)
        imported = {e.dst.path for e, forward in graph_store.edges_of(conn, main) if forward and e.type == "imports"}
    finally:
        conn.close()
    assert imported == {"util/util.go", "util/more.go", "internal/util/clean.go"}
    (project.root / "util" / "more.go").unlink()
    resync(project, NOW)
    assert edges(project, "calls") == CALLS
    # the file declaring the type read again: the calls on its values reach its new nodes
    tool = project.root / "tool.go"
    tool.write_text(tool.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    resync(project, NOW)
    assert edges(project, "calls") == CALLS
    assert ("cmd/tool/main.go", "util/more.go", "declared") not in edges(project, "imports")
