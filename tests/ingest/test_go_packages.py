"""Go's packages by their import paths (``ingest.go_packages``)."""

from __future__ import annotations

import pytest

from kenning.ingest.go_packages import in_package, is_standard, package_key, package_name


@pytest.mark.parametrize(
    ("import_path", "standard"),
    [("fmt", True), ("net/http", True), ("github.com/spf13/cobra", False), ("golang.org/x/sync/errgroup", False)],
)
def test_the_standard_library_is_told_by_its_first_segment(import_path, standard):
    assert is_standard(import_path) is standard


@pytest.mark.parametrize(
    ("import_path", "name"),
    [
        ("github.com/spf13/cobra/doc", "doc"),
        ("github.com/acme/tool/v2", "tool"),  # a major version's segment
        ("gopkg.in/yaml.v3", "yaml"),  # or suffix
        ("github.com/mattn/go-sqlite3", "sqlite3"),
        ("github.com/acme/v2tools", "v2tools"),
    ],
)
def test_a_package_is_named_as_its_path_ends(import_path, name):
    assert package_name(import_path) == name


def test_an_external_test_package_is_its_package():
    assert package_key("cobra_test") == package_key("cobra") == "go:cobra"


@pytest.mark.parametrize(
    ("path", "import_path", "inside"),
    [
        ("doc/md_docs.go", "github.com/spf13/cobra/doc", True),
        ("command.go", "github.com/spf13/cobra", True),  # the root: which module, go.mod would say
        ("internal/doc/x.go", "github.com/spf13/cobra/doc", False),
        ("vendor/github.com/spf13/pflag/flag.go", "github.com/spf13/pflag", True),
        ("util/util.go", "github.com/acme/util/v2", True),
        ("xdoc/x.go", "github.com/spf13/cobra/doc", False),
    ],
)
def test_a_file_is_in_the_package_whose_path_ends_with_its_directory(path, import_path, inside):
    assert in_package(path, import_path) is inside
