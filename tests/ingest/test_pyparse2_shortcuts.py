"""The second pass of shortcuts through a Python file gives what the plain code gave.

Each shortcut is compared with a straightforward version of what it replaced, kept here as the
reference: the walk's call records (taken while the walk is at a call, attributes, expression
statements and keywords passed through, parameters skipped) against a visit of every node, a
dotted token's parts from its names against a scan of the whole token, the keywords of several
texts from one scan against one scan each, and ``module_name`` without ``pathlib``.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import PurePosixPath

from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest import identifiers, python_call_refs, python_code, python_headers, python_imports, python_relations
from kenning.ingest.python_code import module_name, parse_python_relations
from kenning.ingest.split import EXCERPT_CHARS

TRICKY = '''\
import os.path as osp, json
from .models import Base as B, helper
from . import sibling


@app.route("/x", methods=get_methods())
@functools.wraps(f)
def top(a: Annotated[int, marker()] = default(), *args, key=make_key(), **kw) -> returns():
    """Doc."""
    os.path.join(a, b).strip().lower()
    self.items[index()].append(x.y.z(w=inner(v=deep())))
    f()()
    g().h().i()
    (lambda: late())()
    print(len(args))
    call(*star(), **double())
    value = self.a.b.c
    x = [item() for item in gen() if check(item)]
    y = {k(): v() for k, v in pairs()}
    z = f"{fmt()} and {other.attr(1)!r:>{width()}}"
    return helper(osp.join(a), json.dumps(B()))


class Outer(B, metaclass=meta(), flag=flags()):
    attr = field(default=factory())

    @decorate(arg())
    def method(self, a=default()):
        nested = lambda q=inner_default(): q()

        def inner_fn():
            deep_call()

        class Local:
            def m(self):
                local_call()

        return super().method(a)

    class Inner:
        def m(self):
            again()
            again()


if cond():
    def maybe():
        try:
            risky()
        except Error as error:
            handle(error)
        finally:
            done()
else:
    import sys

    def maybe():
        sys.exit(code())

with opened() as handle, other() as (a, b):
    handle.read()
match command():
    case Point(x=0) if guard():
        act()
    case _:
        pass
while running():
    step()
del things()[0]
assert check(), message()
raise Err(reason()) from cause()
x: Ann = value_of()
counter += increment()
print(*[i() for i in range(3)], sep=sep())
'''


def reference_calls(tree: ast.Module, scope_of: dict[int, str]) -> list[python_call_refs.CallRecord]:
    """The calls of every node but a parameter (whose annotation was never walked), each with
    the innermost symbol it sits in, in the order of the source (a call before the calls inside
    it), as the walk records them."""
    found: list[tuple[ast.Call, str | None]] = []

    def visit(node: ast.AST, scope: str | None) -> None:
        if isinstance(node, ast.arg):
            return
        if isinstance(node, ast.Call):
            found.append((node, scope))
        scope = scope_of.get(id(node), scope)
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(tree, None)
    found.sort(key=lambda pair: (pair[0].lineno, pair[0].col_offset))
    records = []
    for call, scope in found:
        func = call.func
        if isinstance(func, ast.Name):
            records.append((call.lineno, call.col_offset, scope, func.id, False, None))
        elif isinstance(func, ast.Attribute):
            value = func.value
            named = value.id if isinstance(value, ast.Name) else None
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
                named = f"{value.value.id}.{value.attr}"  # self.conn.close(): a typed attribute, maybe
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
                named = "super()"  # super().method(): the bases of the method's class
            elif isinstance(value, ast.Call):  # f().method(), Client().method(): "()" and the name called
                called = value.func
                named = "()" + (called.id if isinstance(called, ast.Name) else _dotted(called) or "")
            records.append((call.lineno, call.col_offset, scope, func.attr, True, named))
    return records


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` as written when ``node`` is a name's attributes alone, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head is not None else None
    return None


def walked_calls(source: str) -> tuple[list, list]:
    tree = ast.parse(source)
    symbols = list(python_code._definitions(tree.body, ""))
    scope_of = {id(node): qualname for node, qualname, kind in symbols if kind != "class"}
    imports = python_imports.Imports("pkg", False)
    records = python_relations._walk(tree, scope_of, imports, [], [], set(), set(), [])
    records.sort(key=python_call_refs.POSITION)
    return records, reference_calls(tree, scope_of)


def test_the_walk_records_every_call_with_its_scope_and_what_it_calls() -> None:
    records, expected = walked_calls(TRICKY)
    assert records == expected
    scopes = {(name, scope) for _, _, scope, name, _, _ in records}
    assert ("marker", "top") not in scopes  # a parameter's annotation is not walked
    assert {("default", "top"), ("make_key", "top"), ("get_methods", "top"), ("returns", "top")} <= scopes
    assert {("deep_call", "Outer.method"), ("local_call", "Outer.method"), ("inner_default", "Outer.method")} <= scopes
    assert {("meta", None), ("factory", None), ("again", "Outer.Inner.m")} <= scopes
    assert ("arg", "Outer.method") in scopes  # a decorator's call counts in the method it decorates
    assert ("exit", "maybe") in scopes and ("deep", "top") in scopes and ("fmt", "top") in scopes
    join = next(r for r in records if r[3] == "join" and r[2] == "top" and r[5] == "os.path")
    assert join[:2] == (10, 4)  # os.path.join(): an attribute of a name, which no import binds as such


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "a.b.c(d)",
                "f(g(h()))",
                "x.y = z.w(k=v.u())",
                "f()()",
                "(a or b)(c)",
                "o.m(*s(), **t())",
                "[q() for q in r()]",
                "f'{u()}'",
                "lambda p=d(): p.e()",
                "k[i()].j(l=m)",
                "self.n.o.p",
                "'doc'",
                "await_it = w(x)(y).z()",
            ]
        ),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from(
        [
            ("", ""),
            ("def f(a=d0(), *, b: T = d1()):\n", "    "),
            ("class C(B(), m=M()):\n    def g(self):\n", "        "),
        ]
    ),
)
def test_the_walk_matches_a_visit_of_every_node(statements: list[str], frame: tuple[str, str]) -> None:
    header, indent = frame
    records, expected = walked_calls(header + "".join(f"{indent}{statement}\n" for statement in statements))
    assert records == expected


def test_calls_references_keep_order_scope_and_de_duplication() -> None:
    chunks, relations = parse_python_relations(TRICKY, "pkg/mod.py")
    assert relations is not None
    calls = [(r.target, r.scope, r.line, r.hint, r.qualified) for r in relations.refs if r.type == "calls"]
    assert calls.count(("again", "Outer.Inner.m", 42, None, False)) == 1  # the second call is a duplicate
    assert ("len", "top", 15, None, False) not in calls and ("print", "top", 15, None, False) not in calls
    assert ("join", "top", 10, None, True) in calls  # os.path.join: first of the two joins, no alias resolved
    assert ("dumps", "top", 21, "json", True) in calls
    assert ("helper", "top", 21, "pkg.models", False) in calls  # from .models, relative to pkg
    assert [c[2] for c in calls] == sorted(c[2] for c in calls)


TOKEN_PIECES = ["a", "B", "cd", "EF", "Gh", "2", "v2", "_", ".", "-", "é", "HTTP", "Server", "x9y"]


def parts_of_whole_token(token: str) -> tuple[tuple[str, str], ...]:
    token = token.rstrip(".-")
    if not token.strip("_"):
        return ()
    parts = tuple(part.lower() for part in identifiers._PARTS.findall(token))
    if len(parts) > 1:
        return ((token, token.lower()), *((part, part) for part in parts))
    return ((token, token.lower()),)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKEN_PIECES), min_size=1, max_size=10))
def test_a_dotted_tokens_parts_are_those_of_the_whole_token(pieces: list[str]) -> None:
    text = "".join(pieces)
    for token in identifiers._IDENTIFIER.findall(text):
        assert identifiers._token_words(token) == parts_of_whole_token(token)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab_AB2é.-", max_size=14))
def test_a_names_parts_are_what_the_parts_pattern_finds(name: str) -> None:
    expected = tuple(part.lower() for part in identifiers._PARTS.findall(name))
    assert identifiers._split.__wrapped__(name) == expected
    snake = "".join(c for c in name if c in "ab_")
    assert identifiers._split.__wrapped__(snake) == tuple(w for w in snake.split("_") if w)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="aB_.-2 (),:é\n", max_size=12), max_size=4))
def test_keywords_of_several_texts_are_those_of_each_text_in_turn(texts: list[str]) -> None:
    words: list[str] = []
    seen: set[str] = set()
    for text in texts:
        identifiers.add_keywords(words, seen, text)
    assert identifiers.keywords_for(*texts) == " ".join(words)


def module_name_with_pathlib(path: str) -> str:
    parts = [p for p in PurePosixPath(path.replace("\\", "/")).parts if p not in ("/", ".")]
    if len(parts) > 1 and parts[0] == "src":
        parts = parts[1:]
    if parts:
        last = parts[-1]
        for suffix in (".py", ".pyi", ".pyw"):
            if last.endswith(suffix):
                last = last[: -len(suffix)]
                break
        parts[-1] = last
        if last == "__init__" and len(parts) > 1:
            parts.pop()
    return ".".join(parts)


def test_module_name_is_what_pathlib_gave() -> None:
    pieces = ["a", "src", ".", "..", "", "__init__.py", "x.py", "/", "\\", "b.pyi"]
    for n in range(1, 5):
        for combination in itertools.product(pieces, repeat=n):
            path = "".join(combination)
            assert module_name(path) == module_name_with_pathlib(path), path
    assert module_name("//srv/pkg/mod.py") == "//.srv.pkg.mod"  # POSIX keeps a leading "//" apart


HEADERS = """\
class Plain:
    pass


class Based(models.Model, metaclass=Meta):  # comment (with parens)
    async  def run(self, x: int = 1) -> None:
        pass

    def multi(
        self,  # the instance
        value: "str | None" = None,
        *rest: tuple[int, ...],
    ) -> dict[str, list[int]]:
        pass

    def \\
        continued(self, a=lambda b: b): pass


def ﬁle_name(ﬁrst, second=settings.DEFAULT_VALUE): ...


def café(éclair, *, sha256sum=v2Token) -> HTTPServerError: ...
"""


def written_signature(node: ast.AST, lines: list[str], qualname: str) -> str:
    """The header on one line with its name replaced by ``qualname``: what the keywords were
    taken from before (the removed ``python_code.signature``)."""
    header = python_headers.header_of(node, lines)  # type: ignore[arg-type]
    return re.sub(
        r"^(async\s+def|def|class)\s+(\w+)", lambda m: f"{' '.join(m.group(1).split())} {qualname}", header, count=1
    )


def test_the_written_signature_replaces_the_name_after_def_class_or_async_def() -> None:
    tree = ast.parse(HEADERS)
    based = tree.body[1]
    assert isinstance(based, ast.ClassDef)
    lines = HEADERS.split("\n")
    assert written_signature(based.body[0], lines, "Based.run") == "async def Based.run(self, x: int = 1) -> None"
    assert written_signature(based, lines, "Based") == "class Based(models.Model, metaclass=Meta)"


def test_a_symbols_keywords_are_those_of_its_signature() -> None:
    tree = ast.parse(HEADERS)
    lines = HEADERS.split("\n")
    symbols = list(python_code._definitions(tree.body, ""))
    assert len(symbols) == 7
    for node, qualname, _ in symbols:
        every_name = written_signature(node, lines, qualname)
        expected = identifiers.keywords_for(qualname, every_name, "pkg.sub_module")
        assert python_headers.signature_keywords(node, lines, qualname, "pkg.sub_module") == expected, qualname


NOT_PLAIN = re.compile(r"['\"#\\]|lambda")  # what the plain-header check searched for before


def plain_header_with_pattern(line: str) -> bool:
    line = line.rstrip()
    return (
        line.endswith(":")
        and NOT_PLAIN.search(line) is None
        and all(line.count(a) == line.count(b) for a, b in ("()", "[]", "{}"))
    )


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["def f", "(", ")", "[", "]", "x", " ", ":", "'", '"', "#", "\\", "lamb", "da", "{}"])))
def test_a_plain_header_is_what_the_pattern_said(pieces: list[str]) -> None:
    line = "".join(pieces)
    assert python_headers._plain_header(line) == plain_header_with_pattern(line)


MODULE_PIECES = [
    "x = 1",
    "",
    "   ",
    "# a note",
    "def f():\n    return 1",
    "@d\ndef g():\n    pass\n\n",
    "class C:\n    a = 1\n",
]


def _outside(source: str) -> list[int]:
    """The 1-based lines of ``source`` outside every def and class, blank ones aside."""
    tree = ast.parse(source)
    lines = source.split("\n")
    inside = set()
    for node, _, kind in python_code._definitions(tree.body, ""):
        if kind != "method":
            inside.update(range(python_code._first_line(node, lines), (node.end_lineno or node.lineno) + 1))
    return [i for i, line in enumerate(lines, start=1) if i not in inside and line.strip()]


def _firsts(symbols: list, lines: list[str]) -> dict[int, int]:
    """Each definition's first line, by ``id``, as ``parse_python_relations`` gives them."""
    return {id(node): python_code._first_line(node, lines) for node, _, _ in symbols}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(MODULE_PIECES), max_size=40), st.booleans())
def test_the_module_chunks_hold_every_line_outside_definitions_under_their_own_ranges(
    pieces: list[str], long_line: bool
) -> None:
    """``python/15``: every such line in exactly one excerpt, each holding the lines it cites
    (a line longer than an excerpt: in parts, each its line's), none longer than an excerpt."""
    source = "\n".join(pieces) + ("\nz = '" + "w" * 4100 + "'\n" if long_line else "\n")
    tree = ast.parse(source)
    lines = source.split("\n")
    symbols = list(python_code._definitions(tree.body, ""))
    chunks = python_code._module_chunks(tree, lines, "m", symbols, _firsts(symbols, lines))
    held: set[int] = set()
    for chunk in chunks:
        assert len(chunk.body) <= EXCERPT_CHARS
        if len(lines[chunk.line_start - 1]) > EXCERPT_CHARS:  # one line cut into parts
            assert chunk.line_start == chunk.line_end and chunk.body in lines[chunk.line_start - 1]
            held.add(chunk.line_start)
            continue
        assert chunk.body == "\n".join(lines[chunk.line_start - 1 : chunk.line_end])
        assert held.isdisjoint(range(chunk.line_start, chunk.line_end + 1))
        held.update(i for i in range(chunk.line_start, chunk.line_end + 1) if lines[i - 1].strip())
    assert sorted(held) == _outside(source)
    assert [c.title for c in chunks[:1]] == (["module m"] if chunks else [])


def test_a_definition_said_to_end_past_the_last_line_does_not_stop_the_module_chunks() -> None:
    # The jump over a definition's lines looks for the first line after it; a span past the
    # last line (never from ast.parse on split_lines, but nothing to fail a file over) stops there.
    source = "import os\n\ndef f():\n    return 1\n\nX = 2\n"
    tree = ast.parse(source)
    function = tree.body[1]
    assert isinstance(function, ast.FunctionDef)
    function.end_lineno = 99
    lines = source.split("\n")
    symbols = [(function, "f", "function")]
    chunks = python_code._module_chunks(tree, lines, "m", symbols, _firsts(symbols, lines))
    assert [c.body for c in chunks] == ["import os"]
