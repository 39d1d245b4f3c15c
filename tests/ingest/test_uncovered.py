"""A class body's lines in no excerpt of a definition (``ingest.uncovered``, parsers ``code/11`` and
``python/18``): a field declared after a method, a C++ header's documented method declarations,
Kotlin's ``init`` block are excerpts of their own, titled by their first line of code; closing
braces, comments alone and preprocessor lines make none."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.ingest.python_code import parse_python_relations
from kenning.ingest.tree_code import parse_code_relations
from kenning.ingest.uncovered import is_code

SAMPLES = {  # path: (source, the gap's first line of code, the class it sits in)
    "src/Limits.java": (
        "class Limits {\n"
        "    void check() {}\n"
        "\n"
        "    /** How many retries a request gets. */\n"
        "    private static final int RETRY_LIMIT = 5;\n"
        "    static { warmUp(); }\n"
        "\n"
        "    void reset() {}\n"
        "}\n",
        "private static final int RETRY_LIMIT = 5;",
        "Limits",
    ),
    "src/Limits.cs": (
        "namespace App {\n"
        "    public class Limits {\n"
        "        public void Check() {}\n"
        "        #region Settings\n"
        "        public int RetryLimit { get; set; } = 5;\n"
        "        #endregion\n"
        "        public void Reset() {}\n"
        "    }\n"
        "}\n",
        "public int RetryLimit { get; set; } = 5;",
        "Limits",
    ),
    "include/db.h": (
        "namespace leveldb {\n"
        "class DB {\n"
        " public:\n"
        "  DB() = default;\n"
        "\n"
        '  // Remove the database entry (if any) for "key".\n'
        "  virtual Status Delete(const WriteOptions& options, const Slice& key) = 0;\n"
        "\n"
        "  // Compact the underlying storage for the key range.\n"
        "  virtual void CompactRange(const Slice* begin, const Slice* end) = 0;\n"
        "};\n"
        "}  // namespace leveldb\n",
        "virtual Status Delete(const WriteOptions& options, const Slice& key) = 0;",
        "leveldb.DB",
    ),
    "app/Store.kt": (
        "class Store(val name: String) {\n    fun load() {}\n    init { registerStore(name) }\n    fun save() {}\n}\n",
        "init { registerStore(name) }",
        "Store",
    ),
    "Sources/Cache.swift": (
        "final class Cache {\n"
        "    func clear() {}\n"
        "    // MARK: - Limits\n"
        "    var costLimit: Int = 0\n"
        "    func trim() {}\n"
        "}\n",
        "var costLimit: Int = 0",
        "Cache",
    ),
}


def _parse(path: str, source: str):
    if path.endswith(".py"):
        return parse_python_relations(source, path)
    return parse_code_relations(source, path)


def _uncovered(source: str, chunks) -> list[str]:
    lines = source.splitlines()
    held = {n for c in chunks for n in range(c.line_start, c.line_end + 1)}
    return [line for n, line in enumerate(lines, start=1) if n not in held and is_code(line)]


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_every_line_of_code_in_a_class_body_is_in_an_excerpt(path):
    source, first, holder = SAMPLES[path]
    chunks, relations = _parse(path, source)
    assert _uncovered(source, chunks) == []
    gap = next(c for c in chunks if first in [line.strip() for line in c.body.split("\n")])
    assert gap.title == first  # its first line of code (a comment or ``#region`` above it does not title it)
    assert gap.meta["kind"] == "module"  # it defines no symbol of its own
    assert holder.rsplit(".", 1)[-1].lower() in gap.keywords.lower().split()  # the class it sits in
    assert gap.anchor == f":{gap.line_start}-{gap.line_end}"
    assert relations is not None and all(s.qualname != first for s in relations.symbols)


def test_a_header_keeps_each_declaration_with_its_comment():
    source, _, _ = SAMPLES["include/db.h"]
    chunks, _ = _parse("include/db.h", source)
    gap = next(c for c in chunks if "CompactRange" in c.body)
    assert "// Remove the database entry" in gap.body and "// Compact the underlying storage" in gap.body
    assert "namespace leveldb" not in gap.body  # the closing brace and its comment: no excerpt of their own
    assert not any(c.body.strip() == "}  // namespace leveldb" for c in chunks)


def test_a_python_class_attribute_after_a_method_is_an_excerpt_naming_it():
    source = (
        "class PasswordResetTokenGenerator:\n"
        "    def _get_secret(self):\n"
        "        return self._secret\n"
        "\n"
        "    # the signing key, settable\n"
        "    secret = property(_get_secret)\n"
        "\n"
        "\n"
        "    # PROXIES #\n"
        "\n"
        "    def check_token(self, user, token):\n"
        "        return True\n"
    )
    chunks, relations = parse_python_relations(source, "auth/tokens.py")
    assert _uncovered(source, chunks) == []
    gap = next(c for c in chunks if "secret = property" in c.body)
    assert gap.title == "secret = property(_get_secret)"
    assert {"secret", "PasswordResetTokenGenerator"} <= set(gap.keywords.split())
    assert not any(c.body.strip() == "# PROXIES #" for c in chunks)  # a comment alone: none
    assert [s.qualname for s in relations.symbols] == [
        "PasswordResetTokenGenerator",
        "PasswordResetTokenGenerator._get_secret",
        "PasswordResetTokenGenerator.check_token",
    ]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("}  // namespace leveldb", False),
        ("#endregion", False),
        ("  # a comment", False),
        ("  end", False),
        ("end # of the class", False),
        (" * continued doc", False),
        ("};", False),
        ("int limit_;", True),
        ("url = 'http://example.org'", True),
        ("endpoint = 3", True),
    ],
)
def test_what_counts_as_a_line_of_code(line, code):
    assert is_code(line) is code


def test_a_field_declared_after_a_method_is_found_by_search(make_project):
    source, _, _ = SAMPLES["src/Limits.java"]
    project = make_project({"src/Limits.java": source})
    resync(project)
    answer = search_project(project, "RETRY_LIMIT", SearchOptions(), now=NOW)
    assert answer.excerpts and answer.excerpts[0].fact.source.uri == "src/Limits.java:4-6"
    assert answer.excerpts[0].fact.title == "private static final int RETRY_LIMIT = 5;"
