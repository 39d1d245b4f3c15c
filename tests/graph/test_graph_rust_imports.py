"""A Rust ``use`` of the project's own modules is an ``imports`` edge (parser ``code/19``,
``tree_imports._rust_imports``): ``crate::flags::config`` the file ending with ``flags/config`` in the
importer's crate (``graph.aliases.Suffixes.in_crate``: under the nearest folder with a
``Cargo.toml``), ``super::``/``self::`` the module beside or below the file's own (``x.rs`` or
``x/mod.rs``). ripgrep, walked as a new user: "what does crates/core/search.rs depend on" had calls
alone, Rust's ``use`` giving no edge."""

from __future__ import annotations

import pytest
from graph_edges import imported

from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

FILES = {
    "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
    "src/main.rs": "mod flags;\nmod search;\nmod util;\n\nuse std::io;\nuse crate::search::Worker;\n"
    "use crate::flags::config::args;\nuse crate::flags::Mode;\n"
    "use grep::matcher::Matcher;\n\nfn main() {\n    args();\n}\n",
    "src/search.rs": "pub struct Worker;\n",
    "src/util.rs": "pub fn helper() {}\n",
    "src/flags/mod.rs": "pub mod config;\n\npub use self::config::args;\n\npub enum Mode {\n    Fast,\n}\n",
    "src/flags/config.rs": "use super::super::search::Worker;\nuse super::Mode;\n\npub fn args() -> Worker {\n"
    "    Worker\n}\n",
    # another crate: its ``crate::`` is its own (no ``util`` there: no edge to the app's)
    "crates/other/Cargo.toml": '[package]\nname = "other"\nversion = "0.1.0"\n',
    "crates/other/src/lib.rs": "use crate::util::helper;\nuse crate::search::Thing;\n",
    "crates/other/src/search.rs": "pub struct Thing;\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def crates(request, make_project):
    return synced_on(request.param, make_project, FILES, "crates")


def test_a_rust_use_of_the_crates_own_modules_is_an_import_of_their_files(crates):
    # ``mod util;`` too, which no ``use`` names (parser ``code/21``)
    assert imported(crates, "src/main.rs") == {
        "src/search.rs",
        "src/flags/config.rs",
        "src/flags/mod.rs",
        "src/util.rs",
    }
    assert imported(crates, "src/flags/mod.rs") == {"src/flags/config.rs"}  # ``self::config``
    # ``super::super::search``; ``super::Mode``, an item of the parent module: its ``mod.rs``
    assert imported(crates, "src/flags/config.rs") == {"src/search.rs", "src/flags/mod.rs"}
    assert imported(crates, "crates/other/src/lib.rs") == {"crates/other/src/search.rs"}
