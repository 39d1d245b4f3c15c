"""A code file's excerpts outside its definitions (``split.piece_title``): the first titled by
the module or file, the others by their first line of code. One that opens with a comment was
titled by the comment's first line (``python/16``, ``code/8``), which named nothing it defines and,
when it quoted a question ("How is freshness computed?"), won that question on its title's
weight; now by the statement below it, the comment's words kept in its body."""

from __future__ import annotations

import pytest

from kenning.ingest.python_code import parse_python
from kenning.ingest.tree_code import parse_code

PYTHON = (
    '"""Routing."""\n\n\ndef route():\n    pass\n\n\n'
    '# "How is freshness computed?", "what does stale mean": how the mechanism works,\n'
    "# not what is stale now.\n"
    "_EXPLANATION = re.compile(\n    r'how'\n)\n\n\ndef explain():\n    pass\n\n\n"
    "# A comment alone, with no statement below it in its excerpt.\n\n\nclass Later:\n    pass\n"
)
TYPESCRIPT = (
    "import ky from 'ky';\n\nfunction retry() {\n\treturn 1;\n}\n\n"
    "// How is the timeout computed? The default, in milliseconds, when the caller gives none.\n"
    "const DEFAULT_TIMEOUT = 10_000;\n\nfunction send() {\n\treturn 2;\n}\n\n"
    "/* A comment alone. */\n\nfunction last() {}\n"
)


@pytest.mark.parametrize(
    ("parse", "text", "path", "titles", "words"),
    [
        (
            parse_python,
            PYTHON,
            "route/rules.py",
            [
                (1, "module route.rules"),
                (8, "_EXPLANATION = re.compile("),
                (19, "# A comment alone, with no statement below it in its excerpt."),
            ],
            "How is freshness computed?",
        ),
        (
            parse_code,
            TYPESCRIPT,
            "source/core.ts",
            [(1, "file core.ts"), (7, "const DEFAULT_TIMEOUT = 10_000;"), (14, "/* A comment alone. */")],
            "How is the timeout computed?",
        ),
    ],
    ids=["python", "tree-sitter"],
)
def test_a_top_level_excerpt_that_opens_with_a_comment_is_titled_by_its_first_statement(
    parse, text, path, titles, words
):
    tops = [c for c in parse(text, path) if c.meta["kind"] == "module"]
    assert [(c.line_start, c.title) for c in tops] == titles
    assert words in tops[1].body  # the comment's words stay indexed, in the body


def test_a_top_level_excerpt_that_opens_inside_a_long_statement_keeps_its_first_line():
    rows = "".join(f"    ('word{i}', 'a rather long value for row {i} of the table'),\n" for i in range(120))
    source = f"import re\n\n\ndef f():\n    pass\n\n\nTABLE = [\n{rows}]\nDONE = True\n"
    tops = [c for c in parse_python(source, "table.py") if c.meta["kind"] == "module"]
    assert tops[1].title == "TABLE = ["
    assert len(tops) > 2 and all(c.title.startswith("('word") for c in tops[2:])


def test_a_go_group_is_titled_by_its_first_declaration_and_a_closer_names_nothing():
    """pocketbase's ``const (`` and ``)`` titles (``core/event_request.go``, ``core/field.go``):
    a group's excerpt is titled by its opening line and its first declaration."""
    go = (
        "package core\n\nfunc A() {}\n\nconst (\n\t// DefaultDateLayout formats dates.\n"
        '\tDefaultDateLayout = "2006-01-02"\n\tMaxLimit = 500\n)\n\nfunc B() {}\n\nvar (\n)\n'
    )
    tops = [c for c in parse_code(go, "core/field.go") if c.meta["kind"] == "module"]
    assert [c.title for c in tops] == ["file field.go", 'const ( DefaultDateLayout = "2006-01-02"', "var ("]


def test_a_call_opened_on_its_line_is_titled_with_the_string_it_begins_with():
    """outline's routes (``router.post(`` then ``"documents.move",`` on the next line): the 28
    excerpts of ``documents.ts`` were all titled ``router.post(``."""
    handler = "".join(f"    const step{k} = await load(ctx, {k});\n" for k in range(60))
    routes = "".join(
        f'router.post(\n  "documents.{name}",\n  auth(),\n  async (ctx) => {{\n{handler}  }}\n);\n\n'
        for name in ("list", "move")
    )
    source = 'import Router from "koa-router";\n\nconst router = new Router();\n\n' + routes
    tops = [c for c in parse_code(source, "server/routes/api/documents.ts") if c.meta["kind"] == "module"]
    titles = [c.title for c in tops]
    assert 'router.post("documents.move",' in titles and "router.post(" not in titles, titles
