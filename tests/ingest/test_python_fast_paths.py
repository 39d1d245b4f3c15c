"""The parsing pool's shortcuts through a Python file give what the plain calls gave.

Each shortcut is compared with the straightforward code it replaced, kept here as the
reference: a docstring's summary without ``inspect.cleandoc``, a dotted name written without
``ast.unparse``, a header's name replaced without ``re.sub``; and the single walk's calls
keep the scope, order and de-duplication they had.
"""

from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest import python_code, python_headers
from kenning.ingest.python_code import parse_python_relations

DOCSTRING_FRAGMENTS = ["Word", "two words", " ", "  ", "\t", "\n", "\n\n", "\n    ", "\n\t\n", "\r\n", "\x0c", "é", "."]


def summary_with_cleandoc(node: ast.AST) -> str:
    return python_headers.summary(ast.get_docstring(node))  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DOCSTRING_FRAGMENTS), max_size=14))
def test_a_docstring_summary_is_the_first_paragraph_of_the_cleaned_docstring(fragments: list[str]) -> None:
    docstring = "".join(fragments)
    for source in (f"def f():\n    {docstring!r}\n", f"class C:\n    {docstring!r}\n    x = 1\n", f"{docstring!r}\n"):
        tree = ast.parse(source)
        node = tree if source.startswith(("'", '"')) else tree.body[0]
        assert python_headers.docstring_summary(node) == summary_with_cleandoc(node)  # type: ignore[arg-type]


def test_no_docstring_gives_an_empty_summary() -> None:
    for source in ("def f():\n    return 1\n", "def f():\n    b'bytes'\n", "def f():\n    f'{x}'\n", "x = 1\n"):
        tree = ast.parse(source)
        for node in (tree, tree.body[0]):
            if isinstance(node, (ast.Module, ast.FunctionDef)):
                assert python_headers.docstring_summary(node) == summary_with_cleandoc(node) == ""


def test_a_base_or_annotation_is_written_as_ast_unparse_writes_it() -> None:
    for text in (
        "Base",
        "models.Model",
        "a.b.c.D",
        "(1).real",
        "x[int]",
        "Optional[str]",
        "f(x).y",
        "a.b()",
        "'s'.join",
    ):
        expr = ast.parse(text, mode="eval").body
        assert python_headers._unparsed(expr) == " ".join(ast.unparse(expr).split())


CALLS = """\
import os.path as osp, json
from .store import save as keep, load


def len(x):
    return 0


class Job:
    @register(name=label())
    def run(self, path=default()):
        def inner():
            helper()

        helper()
        f()()
        osp.join(path)
        keep(path)
        len(path)
        print(path)
        return a.b().c(x.y)


def top():
    helper(); helper()
"""


def test_calls_keep_their_scope_order_and_one_reference_a_name_a_scope() -> None:
    relations = parse_python_relations(CALLS, "pkg/jobs.py")[1]
    assert relations is not None
    calls = [(r.scope, r.target, r.hint, r.qualified, r.line) for r in relations.refs if r.type == "calls"]
    assert calls == [
        ("Job.run", "register", None, False, 10),
        ("Job.run", "label", None, False, 10),
        ("Job.run", "default", None, False, 11),
        ("Job.run", "helper", None, False, 13),
        ("Job.run", "f", None, False, 16),
        ("Job.run", "join", "os.path", True, 17),
        ("Job.run", "save", "pkg.store", False, 18),
        ("Job.run", "len", None, False, 19),
        ("Job.run", "c", None, True, 21),
        ("Job.run", "b", None, True, 21),
        ("top", "helper", None, False, 25),
    ]
    imports = [(r.target, r.line) for r in relations.refs if r.type == "imports"]
    assert imports == [("pkg.store", 2), ("pkg.store.save", 2), ("pkg.store.load", 2), ("os.path", 1), ("json", 1)]


NESTED = """\
class Outer(Base):
    '''Doc.'''

    size = 1
    if TYPE_CHECKING:

        @decorated
        class Inner:
            def deep(self):
                pass
    else:
        x = 2

    @property
    def first(self):
        pass

    try:
        def second(self):
            pass
    finally:
        pass
"""


def test_a_class_chunk_ends_before_the_earliest_of_all_its_members() -> None:
    tree = ast.parse(NESTED)
    lines = NESTED.split("\n")
    symbols = list(python_code._definitions(tree.body, ""))
    firsts = {id(node): python_code._first_line(node, lines) for node, _, _ in symbols}
    for node, qualname, kind in symbols:
        if isinstance(node, ast.ClassDef):
            members = [python_code._start(n) for n, _, _ in python_code._definitions(node.body, "", True)]
            chunk = python_code._symbol_chunk(node, qualname, kind, lines, "m", firsts)
            last = min(members) - 1
            while last > chunk.line_start and not lines[last - 1].strip():
                last -= 1
            assert chunk.line_end == last
    assert [q for _, q, _ in symbols] == ["Outer", "Outer.Inner", "Outer.Inner.deep", "Outer.first", "Outer.second"]
