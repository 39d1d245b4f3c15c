"""What one question costs outside the ranking (issue 19, docs/benchmarks.md "askcost"): the
question parsed once, the git-history record read again only when its file changed, a sync's
lock probed once an answer. The answers themselves are unchanged (the bench compares every
SciFact and LoCoMo answer byte for byte); these tests pin the work saved and that the record
still speaks when it changes."""

from __future__ import annotations

import json

import pytest

from conftest import NOW, resync
from kenning.answer import ask as ask_module
from kenning.ingest import git_history
from kenning.search import serve
from kenning.store.db import connect

FILES = {
    "docs/cancel.md": "# Cancelling slow calls\n\nWrap the fetch in an AbortController and call abort() after a "
    "delay: the pending fetch rejects with an AbortError.\n",
    "docs/logging.md": "# Logging\n\nConfigure handlers and levels in logging.toml; messages go to stderr.\n",
}


@pytest.fixture
def project(make_project):
    synced = make_project(FILES, name="demo")
    resync(synced)
    return synced


def counting(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


@pytest.mark.parametrize("kept", [True, False])
def test_a_question_is_parsed_once(project, monkeypatch, kept):
    parses = counting(monkeypatch, ask_module, "parse")
    conn = connect(project.db_path) if kept else None
    try:
        answer = ask_module.ask_project(project, "how do I cancel a slow fetch", now=NOW, conn=conn)
    finally:
        if conn is not None:
            conn.close()
    assert answer.excerpts and answer.excerpts[0].fact.source.uri.startswith("docs/cancel.md")
    assert len(parses) == 1


def test_the_sync_lock_is_probed_once_an_answer(project, monkeypatch):
    probes = counting(monkeypatch, serve, "lock_held")
    answer = ask_module.ask_project(project, "AbortController", now=NOW, dense_available=False)
    assert answer.mode == "lexical" and answer.excerpts
    assert len(probes) == 1


def test_the_history_record_is_read_again_only_when_it_changed(project, monkeypatch):
    record = project.root / ".kenning" / git_history.RECORD
    if record.exists():
        record.unlink()
    reads = counting(monkeypatch, git_history, "_read_record")
    question = "AbortController"
    first = ask_module.ask_project(project, question, now=NOW, dense_available=False)
    assert not any(d.startswith("git history") for d in first.degradations)
    assert reads == []  # no record: nothing to read

    record.parent.mkdir(parents=True, exist_ok=True)
    data = {"problem": git_history.HistoryProblem.UNREADABLE.value, "detail": "", "step": "head", "head": None}
    record.write_text(json.dumps(data) + "\n", encoding="utf-8")
    for _ in range(3):
        answer = ask_module.ask_project(project, question, now=NOW, dense_available=False)
        assert git_history.HistoryProblem.UNREADABLE.value in answer.degradations
    assert len(reads) == 1  # read once while the file stays the same

    data["problem"] = git_history.HistoryProblem.TIMED_OUT.value
    tmp = record.with_suffix(".tmp")
    tmp.write_text(json.dumps(data) + "\n", encoding="utf-8")
    tmp.replace(record)  # as the sync writes it: a new file
    answer = ask_module.ask_project(project, question, now=NOW, dense_available=False)
    assert git_history.HistoryProblem.TIMED_OUT.value in answer.degradations
    assert git_history.HistoryProblem.UNREADABLE.value not in answer.degradations
    assert len(reads) == 2

    record.unlink()
    gone = ask_module.ask_project(project, question, now=NOW, dense_available=False)
    assert not any(d.startswith("git history") for d in gone.degradations)
