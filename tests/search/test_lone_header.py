"""A Rust ``impl`` block's excerpt that holds its header alone (``impl Handle {``) weighs half
(search/ranker.py, ``LONE_HEADER_FACTOR``): one line of the type's words, which BM25 ranked above
the code that says something (ripgrep, walked: two of the first six answers of a question about
handles)."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project

LIB = """/// A handle on an open file: its descriptor, kept until the handle is dropped,
/// so that the file can be read again without opening it twice.
pub struct Handle {
    fd: i32,
}

impl Handle {
    /// Opens the file at `path` and returns its handle.
    pub fn open(path: &str) -> Handle {
        let fd = sys_open(path);
        Handle { fd }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        sys_close(self.fd);
    }
}
"""


def test_an_impl_blocks_header_alone_ranks_after_the_code_that_says_something(make_project):
    project = make_project({"src/lib.rs": LIB}, name="handles")
    resync(project)
    answer = search_project(project, "handle", SearchOptions(limit=5, explain=True), now=NOW)
    titles = [e.fact.title for e in answer.excerpts]
    assert titles[-2:] == ["impl Handle {", "impl Drop for Handle {"], titles
    assert {"pub struct Handle {", "pub fn open(path: &str) -> Handle {"} <= set(titles[:3]), titles
    assert answer.excerpts[-1].explain["factors"] == {"lone_header": 0.5}
