"""`kenning sync --embed-budget SECONDS`: one sync's embedding time, over `[dense] budget_seconds`
and the default, so a user completes the dense index in one command instead of editing the
config or syncing again and again; a sync that leaves it incomplete says how long it should
take, as that command. The console script in a fresh interpreter, with the real models."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")

from test_dense import kenning  # noqa: E402  (the console script in a fresh interpreter)

from conftest import DENSE_DOCS, write_files  # noqa: E402

MODELS = ["minilm", "use"]


def project(tmp_path: Path, budget: float) -> Path:
    root = tmp_path / "budgeted"
    write_files(root, DENSE_DOCS)
    done = kenning("init", "--project", str(root), "--json")
    assert done.returncode == 0, done.stderr
    config = f'name = "budgeted"\n[dense]\nenabled = true\nbudget_seconds = {budget:g}\n'
    (root / ".kenning" / "config.toml").write_text(config)
    return root


def synced(root: Path, *args: str) -> dict:
    done = kenning("sync", "--json", "--project", str(root), *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["dense"]


def test_the_flag_gives_one_sync_its_time_whatever_the_config_says(isolated_home, tmp_path):
    root = project(tmp_path, budget=0)
    none = synced(root)  # the config's budget: no time to embed
    assert none["budget_seconds"] == 0 and [none["embedders"][m]["added"] for m in MODELS] == [0, 0]
    assert "seconds_left" not in none  # nothing embedded here: no pace to estimate from
    whole = synced(root, "--embed-budget", "600")
    assert whole["budget_seconds"] == 600
    assert {m: (e["embedded"], e["total"]) for m, e in whole["embedders"].items()} == {m: (4, 4) for m in MODELS}
    assert "seconds_left" not in whole and not [n for n in whole["notes"] if "incomplete" in n]
    answer = kenning("ask", "stop a request that takes too long", "--json", "--project", str(root))
    assert json.loads(answer.stdout)["mode"] == "hybrid"


def test_a_budget_of_zero_embeds_nothing_even_where_the_config_allows_more(isolated_home, tmp_path):
    root = project(tmp_path, budget=600)
    report = synced(root, "--embed-budget", "0")
    assert report["budget_seconds"] == 0 and [report["embedders"][m]["added"] for m in MODELS] == [0, 0]
    assert [n for n in report["notes"] if "incomplete" in n]


def test_an_incomplete_index_is_given_the_command_that_completes_it(isolated_home, tmp_path):
    root = project(tmp_path, budget=0)
    words = " ".join(f"caching{i} retries timeouts" for i in range(40))
    write_files(root, {f"docs/more{i}.md": f"# Topic {i}\n\nParagraph {i}: {words}.\n" for i in range(1000)})
    # More work than 3 s allow, and room for batches after the first model's load (about a second).
    report = synced(root, "--embed-budget", "3")
    left = report.get("seconds_left")
    if left is None:  # a slow machine gave too few batches to read a pace from: no guess is made
        assert not [n for n in report["notes"] if "--embed-budget" in n]
        return
    [note] = [n for n in report["notes"] if "--embed-budget" in n]
    assert re.search(rf"`kenning sync --embed-budget {left:g}`", note) and left > 0 and left % 5 == 0
    text = kenning("sync", "--project", str(root), "--embed-budget", "3")
    assert text.returncode == 0
    if "dense: about " not in text.stdout:  # this sync, on a loaded machine, spent its 3 s loading a model:
        # no pace to guess from, and it says what to run instead (seen once under a full suite's load)
        assert "run `kenning sync` to continue" in text.stdout and "--embed-budget" not in text.stdout
        return
    # `kenning status` gives it later, at the pace that sync kept on this machine.
    status = json.loads(kenning("status", "--json", "--project", str(root)).stdout)["engines"]["dense"]
    assert status["seconds_left"] > 0 and status["seconds_left"] % 5 == 0
    assert f"`kenning sync --embed-budget {status['seconds_left']:g}`" in status["left"]
    shown = kenning("status", "--project", str(root)).stdout
    assert f"dense: about {status['seconds_left']:g} s of embedding left at the last sync's pace" in shown
