"""A relation question in words ("what calls url_for", "qui dépend de config.py", "why did we
choose SQLite") answered from the graph, ranked by the question's direction.

The question gives a relation (tests, what a test exercises, callers, callees, dependents, dependencies, touches,
evidence, decisions, subclasses, superclasses, path, neighbours) and its start nodes (``answer.naming``). Results are
ranked by hops that count (a file's ``defines`` step does not): direct callers before their
callers. At the same hop, a path with a heuristic edge ranks below declared and extracted
ones, and a call on an unknown receiver in another file (``generator.send()``) below every
resolved call (``answer.relation_rank``). A start node is never its own result, except in a "why" answer, whose
decisions are the answer. Every excerpt says which relation was followed
(``explain.relation``, ``explain.direction``) and from which start, and keeps its typed,
sourced path. The answer also says whether its starts were guessed (plain words, lexical
search) rather than typed: an empty walk from a guess is no answer (``answer.ask`` asks the
words instead), an empty walk from a typed name is one ("no callers of X").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime

from kenning.answer import inherited
from kenning.answer.graph import GraphOptions, compose
from kenning.answer.naming import Start, lexical, named, typed_names, words_left
from kenning.answer.relation_rank import rank
from kenning.answer.why import with_rationale
from kenning.graph import bases, go_interfaces, inheritance, narrow, paths, walk
from kenning.ingest.relations import SELF_HINT
from kenning.project import Project
from kenning.records import Answer, EmptyReason, Lifecycle
from kenning.route.relations import RELATION_CUES
from kenning.route.rules import fold
from kenning.store.graph_lookup import unlinked_calls
from kenning.store.handle import Connection


@dataclass(frozen=True)
class Relation:
    name: str
    direction: str  # incoming, outgoing, both
    cue: re.Pattern[str]
    lexical_kinds: tuple[str, ...]  # node kinds a lexical start may have


def _re(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(rf"(?<![\w-])(?:{p})(?![\w-])" for p in patterns))


# Node kinds a start found by words may have, per relation (none: a path needs two named ends).
LEXICAL_KINDS = {
    "path": (),
    "tested": ("symbol", "file"),
    "tests": ("symbol", "file"),
    "callees": ("symbol", "file"),
    "callers": ("symbol", "file"),
    "dependencies": ("file", "symbol", "task"),
    "evidence": ("file", "symbol", "task"),
    "decisions": ("decision",),
    "touches": ("file", "symbol", "decision"),
    "dependents": ("file", "symbol"),
    "superclasses": ("symbol",),
    "subclasses": ("symbol",),
    "neighbours": (),
}

# Checked in order on the question folded (lowercase, no diacritics); the first that matches.
# The cues are the router's (``route.relations``): what it sends to the graph is walked here.
RELATIONS: tuple[Relation, ...] = tuple(
    Relation(r.name, r.direction, _re(*r.cues), LEXICAL_KINDS[r.name]) for r in RELATION_CUES
)
NEIGHBOURS = next(r for r in RELATIONS if r.name == "neighbours")  # also what no cue names
# A start found from one plain word answers a relation question of these only when at most
# ``LOOSE_WORDS - 1`` of its other content words are left: "which tests cover installing shell
# completion" is not asking for the tests of the module ``completion`` (typer, walked).
LOOSE_RELATIONS = frozenset({"tests"})
LOOSE_WORDS = 2


@dataclass(frozen=True)
class Walked:
    """The graph's answer to a relation question, and whether its start nodes were guessed:
    found from the question's plain words or by a lexical search, not from a name it typed."""

    answer: Answer
    guessed: bool
    blind: bool = False  # its calls could not be linked (a method name too many methods share)
    # the excerpts of the start nodes, for a relation whose answer is never its start (who calls X:
    # not X): what a search of the question's words served instead leaves them out
    starts: frozenset[int] = frozenset()
    # why the walk was not taken: its start stands for one word of several (``LOOSE_WORDS``), the
    # question's words answer it instead
    loose: str | None = None


def relation_of(question: str) -> Relation:
    folded = fold(question)
    return next((r for r in RELATIONS if r.cue.search(folded)), NEIGHBOURS)


def relation_answer(
    conn: Connection, project: Project, question: str, *, now: datetime, limit: int = 10
) -> Walked | None:
    """The graph's answer to a relation question, or None when it names no node and the
    lexical search over node-bearing excerpts finds none either."""
    relation = relation_of(question)
    groups = named(conn, question, plain_words=relation.name != "decisions")
    if relation.name in ("subclasses", "superclasses"):  # a class's name before a plain word ("which types …")
        groups.sort(key=lambda group: not group[0].text[:1].isupper())
    options = GraphOptions(limit=limit, include_superseded=relation.name == "decisions")
    if relation.name == "path" and len(groups) >= 2:
        a, b = groups[0], groups[1]
        hits = paths.path_between(conn, [s.node for s in a], [s.node for s in b])
        answer = _answer(
            conn,
            project,
            question,
            relation,
            [*a, *b],
            hits,
            options,
            now=now,
            notes=[] if hits else [f"no path within {walk.MAX_HOPS} edges"],
        )
        return Walked(answer, guessed=not all(s.typed for s in [*a, *b]))
    starts = groups[0] if groups else []
    left = words_left(starts, question) if relation.name in LOOSE_RELATIONS else []
    if len(left) >= LOOSE_WORDS:
        shown = ", ".join(repr(w) for w in left)
        loose = f"the graph's start {starts[0].text!r} stands for one of the question's words, not for {shown}"
        unwalked = Answer(question, "graph", f"graph.{relation.name}", 0, (project.name,))
        return Walked(unwalked, guessed=True, loose=loose)
    if not starts and relation.name == "path":
        relation = NEIGHBOURS
    names = typed_names(question) if not starts and relation.name != "decisions" else []
    if not starts and not names and relation.name == "subclasses":
        # a base the project does not hold, capitalised as classes are ("implement Serializable")
        walked = _outside_base(conn, project, question, _capitalised(question), relation, options, now=now)
        if walked is not None:
            return walked
    if names:  # it names something the graph does not hold: not a stand-in found by words
        if relation.name in ("callers", "dependents"):  # a method inherited from outside the project?
            return _inherited(conn, project, question, names, relation, options, now=now)
        if relation.name == "subclasses":  # a base from outside the project (``implements Serializable``)?
            return _outside_base(conn, project, question, names, relation, options, now=now)
        return None
    if not starts:
        why = relation.name == "decisions"
        starts = lexical(conn, question, kinds=relation.lexical_kinds, include_superseded=why, limit=3 if why else 2)
    if not starts and relation.lexical_kinds:
        starts = lexical(conn, question, limit=2)
    if not starts:
        return None
    nodes = [s.node for s in starts]
    declared = _implemented(conn, relation, nodes)
    outside: list[str] = []  # a class's bases the project does not hold
    hits = _walk(conn, project.name, relation, nodes + declared, question, outside)
    blind = _unlinked(conn, relation, nodes)
    notes = blind + _no_decision(relation, starts)
    if outside:
        notes.append(f"bases from outside the project (no node): {', '.join(outside[:8])}")
    if relation.name == "subclasses" and any((n.path or "").endswith(".go") for n in nodes):
        notes.append("a Go type implements an interface without naming it: the types declaring its methods, by name")
    if declared:
        shown = ", ".join(n.qualname for n in declared[:5])
        notes.append(f"calls written on what it implements or overrides count too: {shown}")
    answer = _answer(conn, project, question, relation, starts, hits, options, now=now, notes=notes)
    guessed = not all(s.typed for s in starts)
    # a start the question named (not one its words found: then it is what the words answer)
    own = frozenset(n.fact_id for n in nodes if n.fact_id is not None and relation.name in _NOT_ITSELF and not guessed)
    return Walked(answer, guessed=guessed, blind=bool(blind), starts=own)


def _inherited(
    conn: Connection,
    project: Project,
    question: str,
    names: list[str],
    relation: Relation,
    options: GraphOptions,
    *,
    now: datetime,
) -> Walked | None:
    """The callers of a ``Type.method`` of ``names`` (those the question types) that no node is: a
    method ``Type`` inherits from outside the project (``answer.inherited``), None when there is none."""
    for name in names:
        classes, hits = inherited.calls_on(conn, name)
        if not hits:
            continue
        owner, _, method = name.replace("::", ".").rpartition(".")
        starts = [Start(node, owner, "exact", typed=True) for node in classes[:1]]
        note = (
            f"no node named {name!r}: the project's {owner} declares no {method} (one it inherits from outside "
            f"the project); the calls of {method} on {owner} values follow, through {owner}"
        )
        hits = rank(conn, relation.name, hits, question)
        answer = _answer(conn, project, question, relation, starts, hits, options, now=now, notes=[note])
        return Walked(answer, guessed=False)
    return None


def _outside_base(
    conn: Connection,
    project: Project,
    question: str,
    names: list[str],
    relation: Relation,
    options: GraphOptions,
    *,
    now: datetime,
) -> Walked | None:
    """The classes extending or implementing a name of ``names`` that no node is (a base from
    outside the project: ``Serializable``, Spring's ``JpaRepository``), found by the name their
    files give their bases (``graph.inheritance.named``); None when no class names one."""
    index: inheritance.Inheritance | None = None  # the store's bases read once for all the names
    for name in names:
        cls = inheritance.defined(conn, name)
        if cls is not None:  # the project's class, named where its package re-exports it
            starts = [Start(cls, name, "exact", typed=True)]
            hits = _walk(conn, project.name, relation, [cls], question)
            answer = _answer(conn, project, question, relation, starts, hits, options, now=now)
            return Walked(answer, guessed=False, starts=frozenset({cls.fact_id} if cls.fact_id is not None else ()))
        index = index or inheritance.Inheritance(conn)
        hits = inheritance.named(conn, name, index)
        if not hits:
            continue
        note = f"no node named {name!r}: the classes whose files name a base so follow"
        hits = rank(conn, relation.name, hits, question)
        answer = _answer(conn, project, question, relation, [], hits, options, now=now, notes=[note], shown=name)
        return Walked(answer, guessed=False)
    return None


def _capitalised(question: str) -> list[str]:
    """The words of ``question`` that start with a capital (``Serializable``), its first aside."""
    text = question.strip()
    return [m.group() for m in re.finditer(r"(?<![\w.])[A-Z][A-Za-z0-9_]+", text) if m.start() > 0]


# The relations whose answer never holds the node asked about ("who calls X" never lists X).
_NOT_ITSELF = frozenset(
    {"callers", "callees", "dependencies", "dependents", "tests", "tested", "subclasses", "superclasses"}
)


def _no_decision(relation: Relation, starts: list[Start]) -> list[str]:
    """A "why" question whose start is no decision record (none matches its words: a project
    without ADRs walks from its README) is answered by what touches that start, commits
    included; a note says so, lest a commit read as the decision asked about."""
    if relation.name != "decisions" or any(s.node.kind == "decision" for s in starts):
        return []
    shown = _shown(starts)
    return [f"no decision record matches the question: what touches {shown} instead"]


def _unlinked(conn: Connection, relation: Relation, nodes: list[walk.Node]) -> list[str]:
    """What the graph could not link for this walk, one note each: a start method's calls on an
    unknown receiver when more than ``MAX_AMBIGUOUS`` methods share its name (``obj.save()``:
    its callers, dependents and tests are only those that were certain), or the calls a start
    makes of such names (``queryset.get()``: its callees)."""
    notes = []
    symbols = [n for n in nodes if n.kind == "symbol"]
    if relation.name in ("callers", "dependents", "tests"):
        for node in symbols:
            shared = narrow.shared_method_name(conn, node.id, node.name)
            if shared:
                notes.append(
                    f"calls of .{node.name}() on an object the graph cannot type are not linked: "
                    f"{shared} methods are named {node.name} (more than {narrow.MAX_AMBIGUOUS})"
                )
    elif relation.name == "callees" and symbols:
        sharing = narrow.shared_method_names(conn, unlinked_calls(conn, [n.id for n in symbols], SELF_HINT))
        if sharing:
            names = ", ".join(f".{name}() ({count} methods)" for name, count in sorted(sharing.items()))
            notes.append(
                f"calls on an object the graph cannot type, of names more than {narrow.MAX_AMBIGUOUS} "
                f"methods share, are not linked: {names}"
            )
    return notes


def _implemented(conn: Connection, relation: Relation, nodes: list[walk.Node]) -> list[walk.Node]:
    """For callers, dependents and tests: the methods the start methods (a start class's members
    included) implement or override in its bases (``bases.declarations``), whose callers call
    them through the base: ``_identityService.AuthorizeAsync()`` on ``IIdentityService``."""
    if relation.name not in ("callers", "dependents", "tests"):
        return []
    return bases.declarations(conn, walk.with_members(conn, nodes))


def _walk(
    conn: Connection,
    project: str,
    relation: Relation,
    starts: list[walk.Node],
    question: str,
    outside: list[str] | None = None,
) -> list[walk.Hit]:
    """The walk of ``relation`` from ``starts`` in ``project``'s store, ranked; ``outside`` gets the
    bases a ``superclasses`` walk met that the project does not hold."""
    from_file = any(n.kind == "file" for n in starts)
    among: list[walk.Hit] = []  # calls between a method's overloads
    if relation.name in ("callers", "callees", "dependencies"):  # a class stands for its members
        starts = walk.with_members(conn, starts)
    ids = {n.id for n in starts}
    match relation.name:
        case "callers" | "callees":
            forward = relation.name == "callees"

            def allow(at: walk.Node, step: walk.Step) -> bool:
                if step.edge.type == "defines":  # a file stands for the symbols it defines
                    return step.forward and at.id in ids and at.kind == "file"
                return step.edge.type == "calls" and step.forward == forward

            hits = walk.walk(
                conn,
                starts,
                hops=3 if from_file else 2,
                allow=allow,
                keep=lambda h: h.steps[-1].edge.type == "calls",
                limit=200,
            )
            # after the others (below): the method's own overloads are not what the question is after
            among = walk.overload_calls(conn, starts, forward=forward)
        case "tests":
            hits = walk.tests_of(conn, starts, limit=200)
        case "tested":
            hits = walk.tested_code(conn, starts, limit=200)
        case "dependencies":

            def allow_out(at: walk.Node, step: walk.Step) -> bool:
                if step.edge.type == "defines":
                    return step.forward and at.id in ids and at.kind == "file"
                return step.forward and step.edge.type in ("imports", "calls", "depends_on")

            hits = walk.walk(
                conn,
                starts,
                hops=3 if from_file else 2,
                allow=allow_out,
                keep=lambda h: h.steps[-1].edge.type != "defines",
                limit=200,
            )
        case "dependents" if _IMPORTING.search(fold(question)):  # "which files import X": its importers
            hits = walk.importers(conn, starts, limit=200)
        case "dependents":
            hits = walk.impact(conn, starts, hops=3, limit=200)
        case "subclasses":
            hits = inheritance.subclasses(conn, starts, limit=200) + go_interfaces.implementers(conn, project, starts)
        case "superclasses":
            hits, named = inheritance.superclasses(conn, starts, limit=200)
            hits += go_interfaces.interfaces_of(conn, project, starts)
            if outside is not None:
                outside.extend(named)
        case "touches" | "evidence":
            hits = walk.touches(conn, starts, limit=200)
        case "decisions":
            hits = _decisions(conn, starts)
        case _:
            hits = [walk.Hit(n, ()) for n in starts] + walk.neighbours(conn, starts, hops=1, limit=200)
    return rank(conn, relation.name, hits, question) + among


# A dependents question asking for importers alone ("which files import X", "qui importe X"): its
# walk follows ``imports`` edges only (outline, walked: "which files import parseDocumentSlug" served
# the functions calling it, its importers a hop further).
_IMPORTING = re.compile(r"(?<![\w-])(?:imports?|importe(?:nt)?|include)(?![\w-])")


def _decisions(conn: Connection, starts: list[walk.Node]) -> list[walk.Hit]:
    """The decisions themselves (a code node: the decisions and tasks reaching it), then the
    decisions they supersede or are superseded by, and the tasks and commits touching them."""
    decisions = [n for n in starts if n.kind == "decision"]
    if not decisions:
        return walk.touches(conn, starts, limit=200)

    def allow(_: walk.Node, step: walk.Step) -> bool:
        t = step.edge.type
        return t == "supersedes" or (t in ("touches", "links_to") and not step.forward)

    around = walk.walk(conn, decisions, hops=1, allow=allow, limit=200)
    return [walk.Hit(n, ()) for n in decisions] + around


def _answer(
    conn: Connection,
    project: Project,
    question: str,
    relation: Relation,
    starts: list[Start],
    hits: list[walk.Hit],
    options: GraphOptions,
    *,
    now: datetime,
    notes: list[str] | None = None,
    shown: str | None = None,
) -> Answer:
    shown = shown or _shown(starts)
    notes = [f"relation {relation.name} ({relation.direction}) from {shown}", *(notes or [])]
    if not hits:
        notes.append(f"the graph holds no {relation.name} of {shown}")
    answer = compose(
        conn,
        project,
        question,
        hits,
        options,
        now=now,
        rule=f"graph.{relation.name}",
        notes=notes,
        starts=[s.node for s in starts],
    )
    start_json = [s.to_json() for s in starts[:5]]
    excerpts = []
    for excerpt in answer.excerpts:
        explain = {
            **(excerpt.explain or {}),
            "relation": relation.name,
            "direction": relation.direction,
            "start": start_json,
        }
        if excerpt.fact.lifecycle is Lifecycle.SUPERSEDED:
            explain["superseded"] = True
        excerpts.append(replace(excerpt, explain=explain))
    empty = answer.empty_reason
    if not excerpts and empty is None:
        empty = EmptyReason.NO_MATCH
    answer = replace(answer, excerpts=tuple(excerpts), empty_reason=empty)
    if relation.name == "decisions":  # a "why" answer: each decision with its reasons
        return with_rationale(conn, project, answer, now=now, limit=options.limit)
    return answer


def _shown(starts: list[Start]) -> str:
    """The first starts as a note names them, each label once (a method's overloads are a node each)."""
    return ", ".join(dict.fromkeys(f"{s.node.label} ({s.resolved_by})" for s in starts[:5]))
