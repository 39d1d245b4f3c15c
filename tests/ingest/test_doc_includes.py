"""A document's includes (``ingest.doc_includes``): the example files a page shows and the parts it
pulls in are ``links_to`` references, found by "what links to" the example."""

from __future__ import annotations

from conftest import commit_all
from kenning.ingest.decisions import parse_markdown_relations
from kenning.ingest.doc_includes import asciidoc_includes, markdown_includes, rst_includes
from kenning.ingest.parsers import load_relations

PAGE = """\
# First steps

{* docs_src/first_steps/tutorial001.py hl[3] *}

--8<-- "snippets/note.md"

{* ../../docs_src/first_steps/tutorial002.py *}

{{#include ../listings/ch01/main.rs:2:10}}
{{#rustdoc_include listings/lib.rs:anchor}}

```{literalinclude} ../src/app.py
:lines: 1-5
```

{* https://example.com/remote.py *}
{{#include {{dir}}/built.rs}}
{{#include ../../../outside.rs}}
See [the guide](guide.md).
"""


def test_markdown_includes_from_the_root_or_the_page_with_their_lines():
    found = [(r.type, r.target, r.line) for r in markdown_includes(PAGE, "docs/tutorial/first-steps.md")]
    assert found == [
        ("links_to", "docs_src/first_steps/tutorial001.py", 3),  # FastAPI's and Typer's: from the root
        ("links_to", "snippets/note.md", 5),  # pymdownx.snippets: from the root
        ("links_to", "docs_src/first_steps/tutorial002.py", 7),  # FastAPI's, from docs/en/: its ../../ dropped
        ("links_to", "docs/listings/ch01/main.rs", 9),  # mdBook: from the page's folder, lines dropped
        ("links_to", "docs/tutorial/listings/lib.rs", 10),
        ("links_to", "docs/src/app.py", 12),  # MyST
    ]  # no URL, no path built from a variable, none out of the project
    _, relations = parse_markdown_relations(PAGE, "docs/tutorial/first-steps.md")
    assert sorted(r.target for r in relations.refs) == sorted(
        [*(target for _, target, _ in found), "docs/tutorial/guide.md"]
    )


def test_rst_and_asciidoc_includes_and_a_document_without_any_feeds_no_graph():
    rst = "Guide\n=====\n\n.. literalinclude:: ../examples/app.py\n   :language: python\n\n.. include:: part.rst\n"
    assert [(r.target, r.line) for r in rst_includes(rst, "docs/guide.rst")] == [
        ("examples/app.py", 4),
        ("docs/part.rst", 7),
    ]
    _, relations = load_relations("rst/3")(rst, "docs/guide.rst")
    assert relations is not None and [r.type for r in relations.refs] == ["links_to", "links_to"]
    assert load_relations("rst/3")("Guide\n=====\n\nText.\n", "docs/guide.rst")[1] is None
    adoc = "= Deploy\n\ninclude::partials/setup.adoc[]\ninclude::example$ruby.rb[]\ninclude::{sourcedir}/x.rb[tag=a]\n"
    assert [r.target for r in asciidoc_includes(adoc, "docs/deploy.adoc")] == ["docs/partials/setup.adoc"]
    assert load_relations("asciidoc/3")(adoc, "docs/deploy.adoc")[1] is not None


def test_what_links_to_an_example_finds_the_page_that_includes_it(cli, make_project):
    project = make_project(
        {
            "docs_src/first_steps/tutorial001.py": "import typer\n\n\ndef main(name: str):\n    print(name)\n",
            "docs/tutorial/first-steps.md": "# First steps\n\nThe simplest app:\n\n"
            "{* docs_src/first_steps/tutorial001.py hl[4] *}\n\nRun it with a name.\n",
            "docs/index.md": "# Home\n\nNothing included here.\n",
        }
    )
    commit_all(project.root)  # the commit touches the example: an edge to it, but no link
    cli("sync", "--project", str(project.root))
    answer = cli("ask", "what links to docs_src/first_steps/tutorial001.py", "--project", str(project.root), "--json")
    found = answer.json()
    assert found["mode"] == "graph"
    uris = [e["source"]["uri"] for e in found["excerpts"]]
    # the example itself, then what points at it (the page, then the commit), then what it points at
    assert uris[0].startswith("docs_src/first_steps/tutorial001.py")
    assert uris[1] == "docs/tutorial/first-steps.md#first-steps"
    assert [e["type"] for e in found["excerpts"]][2] == "commit"
    assert any(uri.startswith("docs_src/first_steps/tutorial001.py:4") for uri in uris[3:])
    assert not any(uri.startswith("docs/index.md") for uri in uris)
