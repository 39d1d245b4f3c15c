"""Git's ignore rules as discovery tests them: always pathspec's answer, the one alternation of
the rules' expressions only skipping pathspec for the paths no rule could match."""

from __future__ import annotations

import pathspec
from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest.ignore_rules import gitignore_matcher, prefiltered

RULES = [
    "*.log",
    "!keep.log",
    "build/",
    "/only-top.md",
    "docs/**/draft-*",
    "!docs/**/draft-keep.md",
    "**/secret/**",
    "a?b[cd].py",
    "\\#hash.md",
    "\\!bang.md",
    "trailing\\ ",
    "# a comment",
    "",
    "node_modules",
    "*.py[co]",
    "src/*.gen.*",
    "[!x]y.txt",
    "dir/sub/",
    ".hidden*",
]
NAMES = ["a.log", "keep.log", "build", "only-top.md", "draft-1.md", "draft-keep.md", "secret", "aXbc.py", "#hash.md"]
NAMES += [
    "!bang.md",
    "trailing ",
    "node_modules",
    "m.pyc",
    "x.gen.js",
    "zy.txt",
    "xy.txt",
    "sub",
    ".hidden.md",
    "ok.md",
]
FOLDERS = ["", "docs/", "docs/deep/", "src/", "dir/", "build/", "secret/", ".github/", "ä/"]


def _paths() -> list[str]:
    files = [folder + name for folder in FOLDERS for name in NAMES]
    return files + [path + "/" for path in files]  # the walk asks about a folder with a trailing slash


def test_every_rule_alone_and_all_together_answer_as_pathspec():
    for lines in [[rule] for rule in RULES] + [RULES, list(reversed(RULES))]:
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
        matches = gitignore_matcher(lines)
        assert [matches(p) for p in _paths()] == [spec.match_file(p) for p in _paths()], lines


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(RULES), max_size=6), st.sampled_from(_paths()))
def test_any_set_of_rules_answers_as_pathspec_for_any_path(lines, path):
    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    assert prefiltered(spec)(path) == spec.match_file(path)


def test_a_path_no_rule_names_is_answered_without_pathspec():
    """The point of the alternation: pathspec's own test runs only for a path some rule matches."""
    spec = pathspec.GitIgnoreSpec.from_lines(["*.log", "build/", "!keep.log"])
    asked: list[str] = []
    exact = spec.match_file
    spec.match_file = lambda path: asked.append(path) or exact(path)  # type: ignore[method-assign]
    matches = prefiltered(spec)
    assert [matches(p) for p in ("docs/a.md", "src/app.py", "x/build/y.md", "z.log", "keep.log")] == [
        False,
        False,
        True,
        True,
        False,
    ]
    assert asked == ["x/build/y.md", "z.log", "keep.log"]
