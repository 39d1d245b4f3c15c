"""The public-benchmark scripts run end to end on small data in the published formats: they
read it, index it through the product, score it and print their tables (the real data sets
live outside the repository, in ../shared/bench)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run_script(name: str, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(BENCH / name), *args, "--json"], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout[done.stdout.index("\n{") + 1 :])


CORPUS = [
    {"_id": "10", "title": "Statins lower cholesterol", "text": "Statin therapy reduces LDL cholesterol in adults."},
    {"_id": "20", "title": "Sleep and memory", "text": "Sleep deprivation impairs memory consolidation."},
    {"_id": "30", "title": "IL-6 in inflammation", "text": "Interleukin 6 drives the acute phase response."},
]


def write_beir(tmp_path, queries: list[dict], qrels: str) -> None:
    """A three-document SciFact folder in BEIR's published layout under ``tmp_path/scifact``."""
    root = tmp_path / "scifact"
    (root / "qrels").mkdir(parents=True)
    (root / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in CORPUS), encoding="utf-8")
    (root / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8")
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + qrels, encoding="utf-8")


def test_the_scifact_script_scores_a_small_beir_corpus(tmp_path):
    write_beir(
        tmp_path,
        [{"_id": "1", "text": "Sleep loss harms memory."}, {"_id": "2", "text": "IL-6 drives inflammation."}],
        "1\t20\t1\n2\t30\t1\n",
    )
    figures = run_script("scifact.py", "--data", str(tmp_path))
    assert (figures["queries"], figures["documents"]) == (2, 3)
    assert figures["modes"]["lexical"]["ndcg@10"] == 1.0 and figures["modes"]["lexical"]["recall@100"] == 1.0
    assert figures["dense"] == {
        "available": False,
        "reason": "dense disabled ([dense] enabled = false in .kenning/config.toml)",
    }


def test_the_scifact_script_compares_lexical_dense_and_hybrid(tmp_path):
    pytest.importorskip("onnxruntime", reason="the dense extra is not installed: pip install '.[dense]'")
    write_beir(tmp_path, [{"_id": "1", "text": "Staying awake all night makes you forget things."}], "1\t20\t1\n")
    figures = run_script("scifact.py", "--data", str(tmp_path), "--mode", "all")
    assert set(figures["modes"]) == {"lexical", "dense", "hybrid"}
    assert figures["dense"]["embedders"]["minilm"]["embedded"] == 3  # the sync built the vectors
    assert figures["modes"]["dense"]["mrr@10"] == 1.0  # a paraphrase: no word in common but "memory"


def test_the_locomo_script_finds_the_evidence_turns_of_a_small_conversation(tmp_path):
    talk = {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey kitten called Pixel."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! I started pottery classes last week."},
        ],
        "session_2_date_time": "9:00 am on 20 May, 2023",
        "session_2": [
            {"speaker": "Ana", "dia_id": "D2:1", "text": "Pixel broke one of my vases."},
            {"speaker": "Ben", "dia_id": "D2:2", "text": "Lovely! I started pottery classes last week."},
        ],
    }
    qa = [
        {"question": "What is the name of Ana's kitten?", "answer": "Pixel", "evidence": ["D1:1"], "category": 4},
        {"question": "When did Ben start pottery classes?", "answer": "May 2023", "evidence": ["D2:2"], "category": 2},
        {"question": "What did Pixel break?", "answer": "a vase", "evidence": ["D2:1", "D9:9"], "category": 1},
    ]
    (tmp_path / "locomo").mkdir()
    (tmp_path / "locomo" / "locomo10.json").write_text(json.dumps([{"conversation": talk, "qa": qa}]), encoding="utf-8")
    for plain in ((), ("--plain",)):  # --plain: D1:2 and D2:2 are one fact, which holds both turns
        figures = run_script("locomo.py", "--data", str(tmp_path), "--conversations", "1", *plain)
        overall = figures["all"]["overall"]
        assert overall["questions"] == 3  # D9:9 points at no turn: dropped, its question kept for D2:1
        assert overall["R@5"] == 100.0


def test_the_callers_script_scores_what_calls_x_against_ast_on_an_unpacked_sdist(tmp_path):
    root = tmp_path / "tiny-1.0"  # an sdist already in the cache: nothing is downloaded
    (root / "tiny").mkdir(parents=True)
    (root / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: tiny\nVersion: 1.0\n", encoding="utf-8")
    (root / "tiny" / "__init__.py").write_text("", encoding="utf-8")
    (root / "tiny" / "core.py").write_text(
        "def compute_total(items):\n    return sum(items)\n\n\ndef unused_helper():\n    return 1\n", encoding="utf-8"
    )
    (root / "tiny" / "api.py").write_text(
        "from tiny.core import compute_total\n\n\n"
        "def invoice(items):\n    return compute_total(items)\n\n\n"
        "def receipt(items):\n    return compute_total(items) + 1\n\n\n"
        "class Cart:\n    def total(self):\n        return compute_total(self.items)\n",
        encoding="utf-8",
    )
    figures = run_script("callers.py", "--package", "tiny==1.0", "--cache", str(tmp_path))
    assert figures["functions"] == 1 and figures["graph_mode"] == 1
    row = figures["rows"][0]
    assert (row["function"], row["true_callers"]) == ("compute_total", 3)
    assert figures["recall@5"] == 1.0 and figures["precision@5"] == 1.0 and figures["strict_precision@5"] == 1.0
