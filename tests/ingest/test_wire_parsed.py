"""A parsed file travels from a pool worker to the writing process as plain values and comes
back the same: equal, its rows ``ExcerptRow``, its symbols ``Symbol``, its references ``Ref``.

The wire (``Parsed.sent`` / ``read.received``, ``Parsed.__reduce__``, ``Relations.__reduce__``,
``ingest.columns``) names no named-tuple class in the pickle: each one would be a Python-level
reduce in the worker and a Python ``__new__`` in the writer, per row and per reference.
"""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.reduction import ForkingPickler

import pytest

from kenning.ingest import read
from kenning.ingest.discover import discover
from kenning.ingest.read import Parsed, read_one
from kenning.ingest.relations import Ref, Relations, Symbol
from kenning.ingest.rows import ExcerptRow

PYTHON = '''"""A module of shapes."""

import os
from collections import OrderedDict


class Shape:
    """A shape with an area."""

    def area(self) -> float:
        return float(len(os.sep))

    def describe(self) -> str:
        return "shape of area " + str(self.area()) * 40


def build(kind: str) -> Shape:
    """Build a shape: """ + "words " * 60 + """"""
    return OrderedDict(kind=kind) and Shape()
'''

FILES: dict[str, str | bytes] = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": PYTHON,
    "docs/guide.md": "---\ndate: 2026-02-03\ntags: [a, b]\n---\n# Guide\n\n"
    + "See [shapes](../pkg/shapes.py) and the [decision](adr/0001-use-shapes.md). " * 20
    + "\n\n## Short\n\nTiny.\n",
    "docs/adr/0001-use-shapes.md": "# 1. Use shapes\n\n## Status\n\nAccepted\n\n## Context\n\nCafé, naïve. " * 3,
    "notes/tiny.txt": "Hi.\n",  # a body too short to pack
    "notes/latin1.txt": b"caf\xc3\xa9 caf\xe9 " * 50,  # UTF-8 with a stray byte: read with replacement characters
    "notes/blob.txt": b"\x00\x01\x02" * 10,  # binary: skipped by the reader
}


@pytest.fixture
def jobs(make_project):  # noqa: ANN001, ANN201
    project = make_project(FILES)
    return discover(project).candidates


def _parsed(cands) -> list[Parsed]:  # noqa: ANN001
    """Every shape of result a worker gives: packed and unpacked rows, a skipped file, an
    unchanged one (no rows, no relations), relations with symbols, references, a decision."""
    packed = [read_one((c, None, True)) for c in cands]
    plain = [read_one((c, None, False)) for c in cands]
    unchanged = [read_one((c, p.fingerprint, True)) for c, p in zip(cands, packed, strict=True) if p.fingerprint]
    return packed + plain + unchanged


def _check_types(item: Parsed) -> None:
    assert type(item) is Parsed and type(item.rows) is list
    assert all(type(row) is ExcerptRow for row in item.rows)
    if item.relations is not None:
        assert type(item.relations) is Relations
        assert type(item.relations.symbols) is tuple and type(item.relations.refs) is tuple
        assert all(type(s) is Symbol for s in item.relations.symbols)
        assert all(type(r) is Ref for r in item.relations.refs)


def test_the_fixture_holds_every_shape_of_parsed_file(jobs) -> None:  # noqa: ANN001
    items = _parsed(jobs)
    rows = [row for item in items for row in item.rows]
    assert any(isinstance(row.packed, bytes) for row in rows)  # packed
    assert any(row.packed is None for item in items[: len(jobs)] for row in item.rows)  # asked, not shorter
    assert any(item.skip == "binary" for item in items)
    assert any(item.relations is None and item.fingerprint and not item.rows for item in items)  # unchanged
    relations = [item.relations for item in items if item.relations is not None]
    assert any(r.symbols for r in relations) and any(r.refs for r in relations)
    assert any(r.decision for r in relations) and any(r.module for r in relations)
    assert any("\ufffd" in row.body for row in rows) and any("é" in row.body for row in rows)


def test_a_parsed_file_comes_back_from_pickle_equal_with_its_named_tuples(jobs) -> None:  # noqa: ANN001
    for item in _parsed(jobs):
        for protocol in (pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL):
            back = pickle.loads(pickle.dumps(item, protocol))
            assert back == item
            _check_types(back)


def test_relations_alone_come_back_from_pickle_equal() -> None:
    empty = Relations()
    full = Relations(
        module="m",
        symbols=(Symbol("A.run", "method", 3, 9),),
        refs=(Ref("imports", "module", "os", 1), Ref("calls", "symbol", "f", 4, "A.run", "h", True, True, "inferred")),
        decision={"name": "adr-1", "title": "T", "status": "accepted", "date": None},
        extra={"k": [1, 2]},
    )
    for relations in (empty, full):
        back = pickle.loads(pickle.dumps(relations))
        assert back == relations and type(back.symbols) is tuple and type(back.refs) is tuple
        assert all(type(s) is Symbol for s in back.symbols) and all(type(r) is Ref for r in back.refs)


class _Recording(pickle.Unpickler):
    """An unpickler that notes every global the pickle names."""

    def __init__(self, data: bytes) -> None:
        import io

        super().__init__(io.BytesIO(data))
        self.named: set[tuple[str, str]] = set()

    def find_class(self, module: str, name: str):  # noqa: ANN201
        self.named.add((module, name))
        return super().find_class(module, name)


def _named(obj: object) -> tuple[object, set[tuple[str, str]]]:
    unpickler = _Recording(ForkingPickler.dumps(obj))
    back = unpickler.load()
    return back, unpickler.named


def test_a_parsed_file_pickles_no_named_tuple(jobs) -> None:  # noqa: ANN001
    for item in _parsed(jobs):
        _, named = _named(item)
        assert not {name for _, name in named} & {"ExcerptRow", "Symbol", "Ref"}


def test_the_pool_sends_plain_values_and_the_writer_makes_the_same_files_again(jobs) -> None:  # noqa: ANN001
    """What a worker sends names no class but the relations' rebuilder (the candidate stays
    behind: the writing process has it), and ``received`` gives the very file parsed."""
    job_list = [(c, None, True) for c in jobs]
    sent, named = _named(read._read_chunk(job_list))
    assert named <= {("kenning.ingest.relations", "_rebuilt")}
    got = list(map(read.received, jobs, sent))  # type: ignore[arg-type]
    assert got == [read_one(job) for job in job_list]
    for item in got:
        _check_types(item)


def test_files_parsed_in_a_pool_equal_the_files_parsed_here(jobs) -> None:  # noqa: ANN001
    job_list = [(c, None, pack) for pack in (True, False) for c in jobs]
    with ProcessPoolExecutor(max_workers=2) as pool:
        got = list(read._in_pool(pool, read._Ahead(job_list, 2, pool)))
    assert got == [read_one(job) for job in job_list]
    for item in got:
        _check_types(item)
