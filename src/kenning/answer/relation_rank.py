"""The order of a relation answer's hits (``answer.relations``): for "what links to X", what points
at X before what X points at; otherwise by hops that count (a file's
``defines`` step does not), the kinds a relation prefers first (the test functions before the test
files; tasks, commits, evidence…), the project's code before test code for callers, callees,
dependents and what a test exercises (a test file, or test code its parser found elsewhere: a Rust
``#[test]``'s excerpt's ``meta.test``), then the trust of the calls on the way: declared and
extracted before a plausible guess, before a call that can hardly be this one (on an unknown
receiver in another file, a plain ``name()`` reaching a method…), then, for tests, one named after
what it tests. A caller's caller reached through such a call is no answer."""

from __future__ import annotations

import re

from kenning.graph import walk
from kenning.ingest.relations import FIELD_HINT, SELF_HINT
from kenning.ingest.test_files import is_test_path
from kenning.route.rules import fold
from kenning.store.graph_lookup import call_receivers, marked_test_facts
from kenning.store.handle import Connection

_PREFERRED = {
    "tests": ("symbol", "file"),  # the test function that calls it before the test file that imports it
    "touches": ("task", "commit", "evidence", "verdict", "decision"),
    "evidence": ("evidence", "verdict", "task", "commit", "decision"),
    "decisions": ("decision", "task", "commit", "evidence", "verdict"),
}
_COMMIT_FIRST = re.compile(r"\bcommits?\b")
# Relations whose answer is the project's code: at the same hops, the code's own callers
# (dependents, callees) before test code's whatever the trust — a test's ``self.all()`` in a
# ``QuerySet`` subclass is certain, the code's ``qs.all()`` a guess, and it is the code that is
# asked for (search weighs test files half the same way).
_CODE_FIRST = frozenset({"callers", "callees", "dependents", "tested", "subclasses", "superclasses"})
_CALLED = frozenset({"calls", "tested_by"})  # edges a call gives: how it was written says how far to trust them


def rank(conn: Connection, relation: str, hits: list[walk.Hit], question: str) -> list[walk.Hit]:
    """``hits`` of the walk of ``relation`` in the order its answer gives them (module docstring)."""
    written = call_receivers(
        conn,
        [s.edge.id for h in hits for s in h.steps if s.edge.type in _CALLED and s.edge.link == "heuristic"],
    )
    preferred = _PREFERRED.get(relation, ())
    if relation == "touches" and _COMMIT_FIRST.search(fold(question)):
        preferred = ("commit", *preferred)

    code_first = relation in _CODE_FIRST
    # test code a path does not tell: a Rust ``#[test]`` in the file it tests (its excerpt's meta)
    tested = (
        marked_test_facts(conn, [h.node.fact_id for h in hits if h.node.fact_id is not None]) if code_first else set()
    )

    def key(item: tuple[int, walk.Hit]) -> tuple:
        index, hit = item
        trust = max((_trust(step, written) for step in hit.steps), default=0)
        hops = _counted_hops(hit)
        kind = preferred.index(hit.node.kind) if hit.node.kind in preferred else len(preferred)
        test = code_first and (bool(hit.node.path) and is_test_path(hit.node.path or "") or hit.node.fact_id in tested)
        # a test that can hardly call it comes after every other, test files that import it included
        unlikely = relation == "tests" and trust == 2
        # then a test named after what it tests (``test_slugify`` for ``slugify``) before the others
        unnamed = relation == "tests" and not _named_after(hit)
        return (unlikely, kind, hops, test, trust, unnamed, index)

    if relation == "path":  # one end named ("what links to X"): what points at it before what it points at
        return [h for _, h in sorted(enumerate(hits), key=lambda item: (*_pointing(item[1]), item[0]))]
    if relation == "neighbours":
        return hits
    if relation in ("callers", "callees"):
        # a caller's caller (a callee's callee) reached through a call that can hardly be the one
        # asked about is no answer: "who calls Error::from_walkdir" gave, after ``Walk.next``, every
        # function calling some ``.next()`` (ripgrep; docs/benchmarks.md, "cppmembers")
        hits = [h for h in hits if _counted_hops(h) < 2 or max(_trust(s, written) for s in h.steps) < 2]
    return [h for _, h in sorted(enumerate(hits), key=key)]


def _pointing(hit: walk.Hit) -> tuple[bool, bool]:
    """A neighbour's place in "what links to X": reached by an edge from X (what X imports, calls,
    links to) after those reached by an edge to X; among these, a commit that touched X (history,
    not a link) last. The start itself (no step) first."""
    if not hit.steps:
        return False, False
    return hit.steps[0].forward, hit.steps[0].edge.type == "touches"


def _named_after(hit: walk.Hit) -> bool:
    """Whether a test's name holds the name of the node its path starts from (``test_slugify``,
    ``testGetPet``, ``f70_smart_case`` for ``smart_case``), case and underscores aside."""
    if not hit.steps:
        return False
    first = hit.steps[0]
    start = first.edge.src if first.forward else first.edge.dst
    return _bare(start.name) in _bare(hit.node.name)


def _bare(name: str) -> str:
    return name.replace("_", "").lower()


def _counted_hops(hit: walk.Hit) -> int:
    """The steps of a hit's path that count as hops (a file's ``defines`` step does not)."""
    return sum(1 for s in hit.steps if s.edge.type != "defines")


def _trust(step: walk.Step, written: dict[int, tuple[bool, str | None]]) -> int:
    """0 for a declared or extracted edge, 1 for a plausible heuristic one, 2 for a call
    that can hardly be this one: on an unknown receiver in another file, on an imported name
    the callee has nothing to do with (``connections.all()`` for ``QuerySet.all``), a plain
    ``name()`` reaching a method, or a method reaching a method of another class of its own
    file. A ``tested_by`` edge is read as the test's call it comes from."""
    edge = step.edge
    if edge.link != "heuristic":
        return 0
    if edge.type not in _CALLED:
        return 1
    qualified, hint = written.get(edge.id, (False, None))
    how = _how(qualified, hint) if edge.id in written else None
    # a test's call gives its tested_by edge the other way round: the callee first
    src, dst = (edge.dst, edge.src) if edge.type == "tested_by" else (edge.src, edge.dst)
    caller, callee = _in_file(src), _in_file(dst)
    if how in ("unknown", "self") and src.path != dst.path:
        return 2
    if how == "module" and hint and not _named_in(hint, dst.qualname):
        return 2
    if how == "plain" and "." in callee:
        return 2
    if (
        src.path == dst.path
        and "." in caller
        and "." in callee
        and caller.rsplit(".", 1)[0] != callee.rsplit(".", 1)[0]
    ):
        return 2
    return 1


def _how(qualified: bool, hint: str | None) -> str:
    """How a call was written: ``plain`` (``name()``), ``module`` (``mod.name()`` or an imported
    name, the hint ``mod`` or ``pkg.obj`` for ``obj.name()`` after ``from pkg import obj``),
    ``self`` (``self.name()``: the hint names its classes) or ``unknown`` (``obj.name()`` on a
    receiver no import explains, as ``generator.send()``)."""
    if hint and not hint.startswith(FIELD_HINT):  # a field whose type no file declared: unknown
        return "self" if hint.startswith(SELF_HINT) else "module"
    return "unknown" if qualified else "plain"


def _named_in(hint: str, qualname: str) -> bool:
    """Whether what a call was written on (``connections``, imported as ``django.db.connections``)
    is one of the callee's modules or classes (``models`` or ``QuerySet`` for
    ``django.db.models.query.QuerySet.all``)."""
    return hint.rsplit(".", 1)[-1] in qualname.split(".")[:-1]


def _in_file(node: walk.Node) -> str:
    """A symbol's qualified name inside its file (``Client.send``), from its key."""
    return node.key.rsplit(":", 1)[-1] if node.kind == "symbol" else ""
