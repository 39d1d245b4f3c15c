"""A Markdown table of contents weighs half (search/ranker.py, ``CONTENTS_FACTOR``): a list of
links to its own page's headings holds every heading's words and says nothing of them."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.answer.search import SearchOptions, search_project
from kenning.records import Fact
from kenning.search.contents import is_contents

TOPICS = ["Routing", "Set and get a cookie", "Request binding", "Read a request body", "Graceful shutdown"]


def guide() -> str:
    toc = "\n".join(f"- [{t}](#{t.lower().replace(' ', '-')})" for t in TOPICS)
    sections = {
        "Routing": "Register a handler for each method and path on the engine.",
        "Set and get a cookie": "Call `SetCookie` with the name, the value, its lifetime and path; "
        "`Cookie(name)` gives it back, or an error when there is none.",
        "Request binding": "Bind the query string or the form to a struct.",
        "Read a request body": "`GetRawData` returns the bytes of the body once.",
        "Graceful shutdown": "Stop accepting connections, then wait for the ones in flight.",
    }
    body = "\n\n".join(f"## {t}\n\n{text}" for t, text in sections.items())
    return f"# Guide\n\n## Contents\n\n{toc}\n\n{body}\n"


def _plain(body: str, type_: str) -> Fact:
    return SimpleNamespace(type=type_, body=body)  # type: ignore[return-value]  # the two fields read


def test_a_table_of_contents_ranks_after_the_section_that_answers(make_project) -> None:
    project = make_project({"docs/guide.md": guide()}, name="guide")
    resync(project)
    # the contents hold "cookie" and "request" (two headings'), the section "cookie" alone: it led
    answer = ask_project(project, "get the cookie sent with the request", now=NOW, limit=3, explain=True)
    titles = [e.fact.title for e in answer.excerpts]
    assert titles[0] == "Guide > Set and get a cookie", titles
    contents = next(e for e in answer.excerpts if e.fact.title == "Guide > Contents")
    assert contents.explain["factors"] == {"contents": 0.5}
    found = search_project(project, "cookie", SearchOptions(limit=3, explain=True), now=NOW)
    assert [e.explain["factors"] for e in found.excerpts if e.fact.title == "Guide > Contents"] == [{"contents": 0.5}]


def test_what_is_a_table_of_contents() -> None:
    links = "\n".join(f"{n}. [Topic {n}](#topic-{n})" for n in range(1, 7))
    assert is_contents(_plain(links, "doc"))
    assert is_contents(_plain("Contents:\n\n" + links.replace("\n", " | "), "doc"))
    assert not is_contents(_plain(links, "code"))  # a code excerpt that links is code
    few = "\n".join(f"- [Topic {n}](#topic-{n})" for n in range(1, 5))
    assert not is_contents(_plain(few, "doc"))
    text = " ".join(
        f"See [topic {n}](#topic-{n}), which explains at length how the engine matches routes." for n in range(6)
    )
    assert not is_contents(_plain(text, "doc"))  # prose that links to its headings says something
    elsewhere = "\n".join(f"- [Topic {n}](topics/{n}.md)" for n in range(1, 7))
    assert not is_contents(_plain(elsewhere, "doc"))  # an index of other pages is not this page's contents
    # brackets by the thousand are read in one pass (the first pattern took 6 s for 50,000 of them)
    assert not is_contents(_plain("](#" * 5 + "[" * 50_000 + "[a](#" * 10_000, "doc"))
