"""A license's own file (``LICENSE``, ``LICENSE-MIT``, ``COPYING``: ``search.factors.license_file``)
weighs ``LICENSE_FILE_FACTOR`` for a question that asks about licensing, a license named in it
("Apache 2.0", "MPL") or a product kept closed ("proprietary") included: its grant holds few of the
question's words, which every file's header and the README repeat (gin's ``LICENSE`` was 49th for
"is gin MIT licensed, can I use it in a proprietary web service?"; docs/benchmarks.md "cppmacros").
The exact top-k's bound counts the factor: the first answer is the same at any limit. Both engines."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.search import SearchOptions, search_project
from kenning.search.asked import asks_about_licensing
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

MIT = (
    "The MIT License (MIT)\n\nCopyright (c) 2014 Manu Martinez-Almeida\n\n"
    "Permission is hereby granted, free of charge, to any person obtaining a copy of this software and\n"
    "associated documentation files, to deal in the Software without restriction.\n\n"
    "THE SOFTWARE IS PROVIDED AS IS, WITHOUT WARRANTY OF ANY KIND.\n"
)
HEADER = (
    "// Copyright 2014 Manu Martinez-Almeida. All rights reserved.\n"
    "// Use of this source code is governed by a MIT style\n"
    "// license that can be found in the LICENSE file.\n\n"
    "package gin\n\n"
)
FILES = {
    "LICENSE": MIT,
    "README.md": "# Gin Web Framework\n\nGin is a web framework: use gin to serve a web service in Go.\n",
    # every file opens with the header, its words the question's ("gin", "MIT", "license", "use")
    **{
        f"handler_{i}.go": HEADER + f"// Handler{i} serves part {i} of a gin web service.\nfunc Handler{i}() {{}}\n"
        for i in range(40)
    },
    # other pages, so that the question's words are rare (BM25 weighs a word in most excerpts nothing)
    **{f"docs/topic{i}.md": f"# Topic {i}\n\nCaches, queues and logs, part {i} of the guide.\n" for i in range(60)},
}
QUESTION = "is gin MIT licensed, can I use it in a proprietary web service?"


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "licensefiles")


def test_the_license_file_answers_a_question_on_licensing_at_any_limit(project):
    answer = search_project(project, QUESTION, SearchOptions(limit=10, explain=True), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith("LICENSE")
    assert answer.excerpts[0].explain["factors"]["license"] == 3.0
    # not vacuous: by its words alone, the file is behind the headers
    assert answer.excerpts[0].explain["bm25_rank"] > 10
    first = search_project(project, QUESTION, SearchOptions(limit=1), now=NOW)
    assert [e.fact.source.uri for e in first.excerpts] == [answer.excerpts[0].fact.source.uri]
    # a question on something else: the file is a license notice, weighed half
    other = search_project(project, "which handler serves part 7", SearchOptions(limit=40, explain=True), now=NOW)
    notice = [e for e in other.excerpts if e.fact.source.uri.startswith("LICENSE")]
    assert all(e.explain["factors"].get("license") == 0.5 for e in notice)


def test_a_license_named_or_a_closed_product_asks_about_licensing():
    for text in ("requests is Apache 2.0 right?", "mdBook is MPL 2.0?", "is it MIT or Unlicense", QUESTION):
        assert asks_about_licensing(text), text
    assert asks_about_licensing("je peux l'utiliser dans un produit propriétaire ?")
    assert not asks_about_licensing("configure the apache web server in front of gin")
