"""``grammars.suffix_of`` and ``stem_of``: ``PurePosixPath``'s ``suffix`` and ``stem`` for the
repository paths a sync hands them, without building a path object (the graph asks them for every
file of a cold sync: issue 19)."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from kenning.graph.aliases import is_folder_module, suffixes_of
from kenning.ingest.grammars import stem_of, suffix_of

PATHS = [
    "",
    "Makefile",
    ".bashrc",
    "docs/.env.example",
    "a.",
    "a..b",
    "..foo",
    "src/lib/db.ts",
    "lib/db/index.ts",
    "flags/mod.rs",
    "lua/telescope/init.lua",
    "dist/app.tar.gz",
    "index",
    "a.b/c",
    "a.b/c.d",
    "src/components/Card.vue",
]


@pytest.mark.parametrize("path", PATHS)
def test_suffix_and_stem_are_pure_posix_paths(path: str) -> None:
    pure = PurePosixPath(path)
    assert suffix_of(path) == pure.suffix
    assert stem_of(path) == pure.stem


def test_alias_suffixes_and_folder_modules() -> None:
    assert suffixes_of("src/lib/db.ts") == {"src/lib/db", "lib/db", "db"}
    assert suffixes_of("src/lib/db/index.ts") >= {"src/lib/db", "lib/db", "db"}
    assert "components/Card.vue" in suffixes_of("src/components/Card.vue")
    assert suffixes_of("a.b/c") == {"a.b/c", "c"}  # a dot in a folder is not the file's suffix
    assert [is_folder_module(p) for p in ("lib/index.ts", "flags/mod.rs", "init.lua", "indexes.ts", "a/index")] == [
        True,
        True,
        True,
        False,
        True,
    ]
