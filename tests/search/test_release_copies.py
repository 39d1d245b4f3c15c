"""A document kept for each release (jq's manual under ``v1.3/`` … ``v1.8/`` beside the current one,
Docusaurus' ``versioned_docs``) answers once: the current document's excerpt first, each copy from
another release weighing ``COPY_FACTOR`` times the one before, a past release's ``RELEASE_FACTOR``
before that (``search.copies``, ``search.ranker``); both engines, ``search`` and ``ask``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import NOW, module_store
from kenning.answer.ask import ask_project
from kenning.answer.search import SearchOptions, search_conn, search_project
from kenning.search.copies import asked_versions, copy_key, kept_release, past_major
from kenning.search.query import parse
from kenning.search.weights import COPY_FACTOR, RELEASE_FACTOR
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

# The current manual says more around the entry than the old releases did, so the old ones score
# higher on the words alone (BM25 weighs shorter texts up), as jq's v1.5 manual did.
OLD = "# Math\n\n## sqrt\n\nThe sqrt builtin returns the square root of its input.\n"
CURRENT = OLD + "\nIt accepts any number; for negative input it gives nan, as C's libm does, on every platform.\n"
FILES = {
    "docs/manual/manual.md": CURRENT,
    "docs/manual/v1.5/manual.md": OLD,
    "docs/manual/v1.6/manual.md": OLD + "\nSee also pow.\n",
    "docs/manual/v1.7/manual.md": OLD + "\nSee also pow and log.\n",
    "docs/builtins.md": (
        "# Builtins\n\nThe math builtins (sqrt, pow, log, exp, floor) are the libm functions jq calls by name.\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def manuals(request, make_project):
    return synced_on(request.param, make_project, FILES, "manuals")


def _files(answer) -> list[str]:
    return [e.fact.source.uri.split("#")[0] for e in answer.excerpts]


def test_the_current_manual_answers_first_and_its_releases_after_the_other_files(manuals):
    answer = search_project(manuals, "sqrt", SearchOptions(limit=10, explain=True), now=NOW)
    files = _files(answer)
    assert files[0] == "docs/manual/manual.md", files
    assert files.index("docs/builtins.md") < min(files.index(f) for f in files if "/v1." in f), files
    factors = {f: e.explain["factors"] for f, e in zip(files, answer.excerpts, strict=True)}
    assert "copy" not in factors["docs/manual/manual.md"] and "release" not in factors["docs/manual/manual.md"]
    old = sorted(factors[f]["copy"] for f in files if "/v1." in f)
    assert old == [COPY_FACTOR**3, COPY_FACTOR**2, COPY_FACTOR]  # each release a copy more
    assert all(factors[f]["release"] == RELEASE_FACTOR for f in files if "/v1." in f)
    asked = ask_project(manuals, "what does sqrt return", now=NOW)
    assert _files(asked)[0] == "docs/manual/manual.md"


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    with module_store(tmp_path_factory, FILES) as store:
        yield store


def test_on_the_words_alone_an_old_release_ranks_first(releases, monkeypatch):
    """The first test is not vacuous: without the weights the v1.5 manual leads (SQLite)."""
    project, conn = releases
    monkeypatch.setattr("kenning.search.ranker.COPY_FACTOR", 1.0)
    monkeypatch.setattr("kenning.search.ranker.RELEASE_FACTOR", 1.0)
    answer = search_conn(conn, project, parse("sqrt"), SearchOptions(limit=5), now=NOW)
    assert _files(answer)[0].startswith("docs/manual/v1."), _files(answer)


WORDS = ("sqrt", "root", "input", "pow", "log", "number", "platform", "math")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=2).map(" OR ".join), limit=st.integers(1, 6))
def test_the_top_k_of_a_larger_limit_is_the_answer_of_limit_k(releases, query, limit):
    project, conn = releases

    def ranked(k: int) -> list[tuple[int, float]]:
        answer = search_conn(conn, project, parse(query, "fts"), SearchOptions(limit=k), now=NOW)
        return [(e.fact.id, e.score) for e in answer.excerpts]

    larger = ranked(20)
    assert ranked(limit) == larger[:limit]
    assert [s for _, s in larger] == sorted((s for _, s in larger), reverse=True)


@pytest.mark.parametrize(
    ("path", "title", "key"),
    [
        ("docs/manual/v1.5/manual.yml", "manual.yml (part 18)", ("docs/manual/manual.yml", "manual.yml")),
        ("docs/manual/dev/manual.yml", "manual.yml (part 25)", ("docs/manual/manual.yml", "manual.yml")),
        ("versioned_docs/version-2.0/intro.md", "Intro", ("docs/intro.md", "Intro")),
        ("docs/2.x/api.md", "API", ("docs/api.md", "API")),
        ("api/v1/views.py", "def list_users", ("api/views.py", "def list_users")),
        ("blog/2024/index.md", "Index", ("blog/2024/index.md", "Index")),  # a year is no release
        ("steps/1/index.md", "Index", ("steps/1/index.md", "Index")),
    ],
)
def test_what_copies_share(path, title, key):
    assert copy_key(path, title) == key


def test_a_past_release_is_a_folder_with_a_dotted_version_or_docusaurus_versioned_docs():
    assert kept_release("docs/v1.5/manual.md") and kept_release("docs/5.0/intro.txt")
    assert kept_release("versioned_docs/version-2.0/intro.md") and kept_release("docs/2.x/api.md")
    assert not kept_release("api/v1/views.py")  # an API's version: current code
    assert not kept_release("docs/dev/manual.yml") and not kept_release("docs/releases/5.0.6.txt")


def test_a_major_versions_folder_is_past_beside_a_later_one():
    folders = {"docs": ["v1", "v2", "v3", "images"], "api": ["v1", "v2"], "": ["docs", "api", "v2"]}.get

    def past(path: str) -> bool:
        return past_major(path, lambda parent: folders(parent, []))

    assert past("docs/v1/flags.md") and past("docs/v2/examples/flags.md")
    assert not past("docs/v3/examples/flags.md")  # the latest
    assert not past("docs/images/v3.png") and not past("README.md")
    assert past("api/v1/users.md") and not past("api/v2/users.md")
    assert not past("v2/README.md")  # no later major beside it (a Go module's v2 folder)


def test_a_folder_named_for_a_version_of_another_is_past_beside_it_or_a_later_one():
    folders = {
        "packages": ["docs", "docs-v3", "zod"],
        "site": ["guide_v1", "guide_v2", "guide-v3", "v2-notes"],
        "": ["packages", "site", "book-v2"],
    }.get

    def past(path: str, asked: frozenset[int] = frozenset()) -> bool:
        return past_major(path, lambda parent: folders(parent, []), asked)

    assert past("packages/docs-v3/README.md")  # beside the current ``docs``
    assert not past("packages/docs/content/api.mdx")
    assert past("site/guide_v1/a.md") and past("site/guide_v2/a.md") and not past("site/guide-v3/a.md")
    assert not past("book-v2/intro.md")  # alone: the current one
    assert not past("site/v2-notes/a.md")  # a version then a name: no version of another's folder
    # a question naming the version asks about it
    assert not past("packages/docs-v3/README.md", frozenset({3})) and past("site/guide_v1/a.md", frozenset({2}))
    assert asked_versions("In zod v3, which error map wins?") == {3}
    assert asked_versions("what changed in version 2 and V4") == {2, 4}
    assert asked_versions("what does dev3 or v3.5.1 do") == {3}  # a release's number starts with its major


# urfave/cli keeps its docs for each major version: the older pages came first (docs/benchmarks.md
# "versioneddocs"). v2's page says it in fewer words than v3's, so it scores higher on the words alone.
MAJORS = {
    "docs/v1/flags.md": "# Flags\n\n## Required flags\n\nSet Required to make a flag required.\n",
    "docs/v2/flags.md": "# Flags\n\n## Required flags\n\nSet Required: true to make a flag required.\n",
    "docs/v3/examples/flags/advanced.md": (
        "# Advanced flags\n\n## Required flags\n\nSet Required: true on a flag to make it required: the "
        "command then fails with an error naming the flag when it is missing.\n"
    ),
    "api/v1/users.go": "package v1\n\n// ListUsers lists the required users.\nfunc ListUsers() {}\n",
    "api/v2/users.go": (
        "package v2\n\n// ListUsers lists the users, a flag marking the required ones.\nfunc ListUsers() {}\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def majors(request, make_project):
    return synced_on(request.param, make_project, MAJORS, "majors")


def test_the_latest_major_versions_docs_answer_first_and_older_ones_weigh_as_past_releases(majors):
    answer = search_project(majors, "required flags", SearchOptions(limit=10, explain=True), now=NOW)
    files = _files(answer)
    assert files[0] == "docs/v3/examples/flags/advanced.md", files
    factors = {f: e.explain["factors"] for f, e in zip(files, answer.excerpts, strict=True)}
    assert factors["docs/v1/flags.md"]["release"] == RELEASE_FACTOR == factors["docs/v2/flags.md"]["release"]
    assert "release" not in factors["docs/v3/examples/flags/advanced.md"]
    # code under an API's versions is current, the older version's too
    assert all("release" not in factors[f] for f in files if f.startswith("api/"))
    asked = ask_project(majors, "how do I make a flag required", now=NOW)
    assert _files(asked)[0] == "docs/v3/examples/flags/advanced.md", _files(asked)


# zod keeps its version 3 site in ``packages/docs-v3/`` beside the current ``packages/docs/``; the old
# page, shorter, scored higher on the words alone (docs/benchmarks.md "zodgin").
NAMED_MAJORS = {
    "packages/docs-v3/README.md": "# Zod 3\n\n## Nullish\n\nUse nullish to allow null and undefined.\n",
    "packages/docs/content/api.mdx": (
        "# Defining schemas\n\n## Nullish\n\nTo allow null and undefined on a field, use nullish: it makes a "
        "schema both optional and nullable, and the inferred type says so.\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def named_majors(request, make_project):
    return synced_on(request.param, make_project, NAMED_MAJORS, "named_majors")


def test_docs_in_a_folder_named_for_an_old_version_weigh_as_past_unless_the_question_names_it(named_majors):
    answer = search_project(named_majors, "allow null and undefined", SearchOptions(limit=5, explain=True), now=NOW)
    files = _files(answer)
    assert files[0] == "packages/docs/content/api.mdx", files
    assert answer.excerpts[1].explain["factors"]["release"] == RELEASE_FACTOR
    asked = search_project(named_majors, "v3 allow null and undefined", SearchOptions(limit=5, explain=True), now=NOW)
    assert _files(asked)[0] == "packages/docs-v3/README.md", _files(asked)
    assert all("release" not in e.explain["factors"] for e in asked.excerpts)
