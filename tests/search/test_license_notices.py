"""A license notice weighs half for a question that speaks of no license: a vendored module's
header grants permission "to use, copy, modify", and came first for questions on copying files."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search.asked import asks_about_licensing

GRANT = (
    "# Copyright 1994 by An Author\n"
    "#                        All Rights Reserved\n"
    "# Permission to use, copy, modify, and distribute this software and its\n"
    "# documentation for any purpose and without fee is hereby granted,\n"
    "# provided that the above copyright notice appear in all copies and that\n"
    "# both that copyright notice and this permission notice appear in\n"
    "# supporting documentation.\n"
    "# THE AUTHOR DISCLAIMS ALL WARRANTIES WITH REGARD TO THIS SOFTWARE.\n"
)
FILES = {
    "vendor/uu.py": GRANT + '\n"""Encode and decode uu files."""\n\nimport binascii\n',
    "src/files.py": (
        "import os\n\n\n"
        "def apply_mode(source, target):\n"
        '    """Copy the permission bits of one file to another: the mode of source becomes target\'s,\n'
        "    owner and contents unchanged. The bits are read with os.stat and written with os.chmod,\n"
        "    following links unless asked not to; a target that does not exist raises an error.\n"
        '    """\n'
        "    os.chmod(target, os.stat(source).st_mode)\n"
    ),
    # other pages, so that the question's words are rare (BM25 weighs a word in most excerpts nothing)
    **{f"docs/topic{i}.md": f"# Topic {i}\n\nCaches, queues and logs, part {i} of the guide.\n" for i in range(8)},
}


def test_a_license_notice_weighs_half_unless_the_question_speaks_of_licenses(make_project):
    project = make_project(FILES, name="vendored")
    resync(project)
    answer = search_project(project, "copy file permissions", SearchOptions(explain=True), now=NOW)
    uris = [e.fact.source.uri for e in answer.excerpts]
    assert uris[0].startswith("src/files.py")
    notice = next(e for e in answer.excerpts if e.fact.source.uri.startswith("vendor/uu.py"))
    assert notice.explain["factors"]["license"] == 0.5
    # weighed whole, the notice's words ("copy", "permission", twice each) put it first
    assert notice.explain["bm25"] > answer.excerpts[0].explain["bm25"]
    # asked about licensing, it weighs whole
    licensing = search_project(project, "copyright and permission to copy", SearchOptions(explain=True), now=NOW)
    assert licensing.excerpts[0].fact.source.uri.startswith("vendor/uu.py")
    assert all("license" not in e.explain["factors"] for e in licensing.excerpts)


def test_code_that_names_a_license_once_is_no_license_notice(make_project):
    files = {
        "src/meta.py": (
            "def package_info(name):\n"
            '    """The package\'s name, version, license and authors, as its metadata file says."""\n'
            "    return read_metadata(name)\n"
        ),
        **FILES,
    }
    project = make_project(files, name="meta")
    resync(project)
    answer = search_project(project, "package metadata version", SearchOptions(explain=True), now=NOW)
    info = next(e for e in answer.excerpts if e.fact.source.uri.startswith("src/meta.py"))
    assert "license" not in info.explain["factors"]


def test_a_question_on_licensing_is_recognised_in_english_and_french():
    for text in ("what license is this under", "who holds the copyright", "is there a warranty", "GPL or MIT?"):
        assert asks_about_licensing(text), text
    assert asks_about_licensing("quelle licence pour ce module")
    assert not asks_about_licensing("copy file permissions")
    assert not asks_about_licensing("how are licensees billed")  # a word that begins alike
