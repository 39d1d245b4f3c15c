"""A one-shot `kenning ask` imports the modules of the mode that serves it, not every mode's:
a lexical question does not load the graph walk's answer layer, the core pack's or the
freshness report's (about 50 ms of a 200 ms command; docs/benchmarks.md, "cliask")."""

from __future__ import annotations

from conftest import ask_loading, commit_all, resync

MODES = ("kenning.answer.relations", "kenning.answer.core", "kenning.answer.stale")
NUMPY = ("numpy",)
FILES = {
    "docs/cache.md": "# Cache\n\nThe cache keeps parsed pages for an hour.\n",
    "src/app/cache.py": "def clear_cache():\n    return store()\n\n\ndef store():\n    return {}\n",
}


def test_each_mode_loads_its_own_modules_only(make_project):
    project = make_project(FILES)
    commit_all(project.root)
    resync(project)
    answer, loaded = ask_loading(project.root, "how long does the cache keep pages", MODES)
    assert answer["mode"] in ("lexical", "hybrid") and answer["excerpts"]
    assert loaded == set()
    answer, loaded = ask_loading(project.root, "who calls store", MODES)
    assert (answer["mode"], loaded) == ("graph", {"kenning.answer.relations"})
    answer, loaded = ask_loading(project.root, "what is stale", MODES)
    assert (answer["mode"], loaded) == ("freshness", {"kenning.answer.stale"})


def test_a_misspelt_question_is_corrected_without_importing_numpy(make_project):
    """The spelling rule counts each candidate's matches among the served facts; past 256 of them
    a server counts over the impact lists it keeps, in numpy. A one-shot command keeps none: it
    counts in SQL, and importing numpy (50 ms or more) bought it nothing."""
    files = {f"notes/n{i:03d}.md": f"# Cache note {i}\n\nThe cache keeps page {i} for an hour.\n" for i in range(300)}
    project = make_project(files, config='name = "demo"\n[dense]\nenabled = false\n')  # level 0: no engine of numpy
    commit_all(project.root)
    resync(project)
    answer, loaded = ask_loading(project.root, "how long does the cahce keep pages", NUMPY)
    assert any("searched 'cache'" in note for note in answer["notes"]), answer["notes"]
    assert answer["excerpts"] and loaded == set()
