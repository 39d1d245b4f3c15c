from kenning.ingest.python_code import module_name, parse_python

SOURCE = '''\
"""Rank fusion helpers.

More details here.
"""

import functools

DEFAULT_K = 60


@functools.cache
@staticmethod
def rrf_fuse(
    rankings: list[list[str]],  # best first
    k: int = 60,
) -> list[str]:
    """Fuse rankings with reciprocal rank fusion.

    Second paragraph.
    """

    def score(rank):
        return 1 / (k + rank)

    return sorted({d for r in rankings for d in r})


class Store(Base, metaclass=Meta):
    """A store of facts."""

    table = "facts"

    def get(self, id):
        return self.rows[id]

    @property
    def size(self) -> int:
        return len(self.rows)


async def fetch(url: str, *, timeout: float = 1.0) -> bytes:
    return b""


if __name__ == "__main__":
    print(rrf_fuse([["a"]]))
'''


def by_symbol(chunks):
    return {chunk.meta["symbol"]: chunk for chunk in chunks}


def test_each_function_class_and_method_becomes_a_chunk_but_nested_functions_do_not():
    symbols = [c.meta["symbol"] for c in parse_python(SOURCE, "src/kenning/search/fuse.py")]
    # the module's lines outside its definitions: its head, then its ``if __name__`` block
    assert symbols == [
        "kenning.search.fuse",
        "kenning.search.fuse",
        "rrf_fuse",
        "Store",
        "Store.get",
        "Store.size",
        "fetch",
    ]


def test_the_module_chunk_keeps_docstring_imports_and_constants_but_no_definitions():
    module = parse_python(SOURCE, "src/kenning/search/fuse.py")[0]
    assert module.title == "module kenning.search.fuse"
    assert module.meta == {"symbol": "kenning.search.fuse", "kind": "module", "docstring": "Rank fusion helpers."}
    assert "import functools" in module.body and "DEFAULT_K = 60" in module.body
    assert "def " not in module.body and "class " not in module.body
    assert (module.line_start, module.line_end) == (1, 8)  # the lines it holds, not the whole file's
    assert {"kenning", "search", "fuse", "DEFAULT_K"} <= set(module.keywords.split())
    main = parse_python(SOURCE, "src/kenning/search/fuse.py")[1]  # past the definitions: an excerpt of its own
    assert (main.title, main.anchor) == ('if __name__ == "__main__":', ":45-46")
    assert main.meta == {"symbol": "kenning.search.fuse", "kind": "module"}
    assert "DEFAULT_K" not in main.keywords.split()  # a name is the keyword of the excerpt that assigns it


def test_the_module_chunk_names_what_it_assigns_at_top_level_in_its_keywords():
    source = (
        "import os\n\nDEFAULT_TIMEOUT_CONFIG = 5.0\nlimit: int = 3\nos.environ['X'] = '1'\n\n\n"
        "def f():\n    inner = 1\n"
    )
    module = parse_python(source, "pkg/_config.py")[0]
    words = module.keywords.split()
    assert {"DEFAULT_TIMEOUT_CONFIG", "default", "timeout", "config", "limit"} <= set(words), words
    assert "inner" not in words and "environ" not in words  # a function's locals, a subscript: not the module's names


def test_a_decorated_function_keeps_its_decorators_and_a_one_line_signature():
    chunk = by_symbol(parse_python(SOURCE, "fuse.py"))["rrf_fuse"]
    assert chunk.title == "def rrf_fuse(rankings: list[list[str]], k: int) -> list[str]"  # no defaults
    assert chunk.body.startswith("@functools.cache\n@staticmethod\ndef rrf_fuse(")
    assert chunk.body.endswith("return sorted({d for r in rankings for d in r})")
    assert "def score(rank):" in chunk.body
    assert (chunk.anchor, chunk.line_start, chunk.line_end) == (":11-25", 11, 25)
    assert chunk.meta == {
        "symbol": "rrf_fuse",
        "kind": "function",
        "docstring": "Fuse rankings with reciprocal rank fusion.",
    }
    assert chunk.type == "code"
    assert {"rrf_fuse", "rrf", "fuse", "rankings"} <= set(chunk.keywords.split())


def test_a_class_chunk_stops_before_its_first_method():
    chunk = by_symbol(parse_python(SOURCE, "fuse.py"))["Store"]
    assert chunk.title == "class Store(Base, metaclass=Meta)"
    assert chunk.body == 'class Store(Base, metaclass=Meta):\n    """A store of facts."""\n\n    table = "facts"'
    assert (chunk.line_start, chunk.line_end) == (28, 31)
    assert chunk.meta["kind"] == "class" and chunk.meta["docstring"] == "A store of facts."


def test_methods_are_titled_with_their_class():
    chunks = by_symbol(parse_python(SOURCE, "fuse.py"))
    assert chunks["Store.get"].title == "def Store.get(id)"
    assert chunks["Store.get"].meta["kind"] == "method"
    assert chunks["Store.get"].body == "    def get(self, id):\n        return self.rows[id]"
    assert chunks["Store.size"].title == "def Store.size() -> int"
    assert chunks["Store.size"].body.startswith("    @property\n")
    assert {"Store.get", "store", "get"} <= set(chunks["Store.get"].keywords.split())


def test_async_functions_keep_their_async_keyword():
    chunk = by_symbol(parse_python(SOURCE, "fuse.py"))["fetch"]
    assert chunk.title == "async def fetch(url: str, *, timeout: float) -> bytes"
    assert chunk.meta["kind"] == "function"


def test_definitions_under_a_top_level_if_are_found():
    source = "try:\n    import x\nexcept ImportError:\n    def x():\n        pass\n"
    chunks = parse_python(source, "compat.py")
    assert [c.meta["symbol"] for c in chunks] == ["compat", "x"]
    assert chunks[1].anchor == ":4-5"


def test_a_file_with_a_syntax_error_falls_back_to_text_chunks():
    chunks = parse_python("def broken(:\n    pass\n", "pkg/broken.py")
    assert len(chunks) == 1
    assert chunks[0].type == "code"
    assert chunks[0].body == "def broken(:\n    pass"
    assert chunks[0].anchor == ":1-2"
    assert "line 1" in chunks[0].meta["parse_error"]


def test_null_bytes_do_not_raise():
    chunks = parse_python("x = 1\x00\n", "weird.py")
    assert chunks and "parse_error" in chunks[0].meta


def test_an_empty_module_gives_no_chunk():
    assert parse_python("", "pkg/__init__.py") == []


def test_module_names_drop_src_and_init():
    assert module_name("src/kenning/ingest/__init__.py") == "kenning.ingest"
    assert module_name("kenning/ingest/chunks.py") == "kenning.ingest.chunks"
    assert module_name("scripts\\tool.py") == "scripts.tool"
    assert module_name("types.pyi") == "types"


def test_a_long_signature_gets_a_compact_title_and_keeps_every_parameter_in_body_and_keywords():
    params = ", ".join(f"option_{i}: Optional[Dict[str, int]] = None" for i in range(12))
    source = (
        f"class Client:\n    def request(self, method: str, url: URL, *, {params}) -> Response:\n        return 1\n"
    )
    chunk = by_symbol(parse_python(source, "client.py"))["Client.request"]
    assert len(chunk.title) <= 80 and chunk.title.startswith("def Client.request(method, url, *, option_0, ")
    assert chunk.title.endswith(", …)") and "Optional" not in chunk.title and "self" not in chunk.title
    assert "option_11: Optional[Dict[str, int]] = None" in chunk.body and "-> Response" in chunk.body
    assert {"option_11", "method", "url"} <= set(chunk.keywords.split())


def test_static_methods_keep_their_first_parameter_and_star_markers_are_shown():
    source = (
        "class A:\n    @staticmethod\n    def make(self, /, a, *args, b, **kw):\n        pass\n"
        "    def go(cls, *, x):\n        pass\n"
    )
    chunks = by_symbol(parse_python(source, "a.py"))
    assert chunks["A.make"].title == "def A.make(self, /, a, *args, b, **kw)"
    assert chunks["A.go"].title == "def A.go(*, x)"


def test_the_comment_lines_right_above_a_definition_are_its_excerpts():
    """``python/16``: a method's comment (between two members of its class) was in no excerpt."""
    source = (
        "#!/usr/bin/env python\n"
        "import os\n\n\n"
        "# Helper used by the CLI.\n"
        "@cache\n"
        "def helper():\n"
        "    pass\n\n\n"
        "class Client:\n"
        "    limit = 3\n\n"
        "    # Called once per request, before the hooks.\n"
        "    def send(self):\n"
        "        return 1\n"
        "        # the end of send's body, not a comment of close\n"
        "    def close(self):\n"
        "        pass\n"
    )
    chunks = by_symbol(parse_python(source, "app/client.py"))
    assert (chunks["helper"].line_start, chunks["helper"].title) == (5, "def helper()")
    assert chunks["Client"].line_end == 12  # the class stops before its member's comment
    assert chunks["Client.send"].body.startswith("    # Called once per request, before the hooks.\n")
    assert chunks["Client.close"].line_start == 18  # a comment indented deeper is not its
    module = parse_python(source, "app/client.py")[0]
    assert (module.line_start, module.line_end) == (1, 2)  # the shebang stays the module's
