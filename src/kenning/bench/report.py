"""`kenning bench`: generate the questions, search them, measure, and write a report that
is identical byte for byte across runs on the same store (no timestamp, no timing: speed
lives in its own section, see ``speed.py``)."""

from __future__ import annotations

from datetime import datetime

from kenning.answer.search import SearchOptions, search_conn
from kenning.bench import measures, optional
from kenning.bench.questions import KINDS, Question, generate
from kenning.project import Project
from kenning.records import Excerpt
from kenning.search.query import parse
from kenning.store.handle import Connection

SCHEMA = "kenning.bench/v1"
DEFAULT_SEED = 7
DEFAULT_PER_KIND = 25
SERVED = 10  # excerpts served per question, as `kenning search` does by default

LIMITS = (
    "Questions are generated from templates over titles and symbols, so their words are the "
    "indexed words: this favours lexical search and says little about paraphrased questions.",
    "No multi-hop question except edge questions, and those exist only when the graph holds declared edges; "
    "graph mode is measured on edge questions only.",
    "Recall@k counts a question answered when any excerpt with the same title or symbol is among "
    "the first k; MRR is computed over the first 10 served.",
    "Attribution and freshness are measured over the excerpts these questions were served, not the whole store.",
)


def run(project: Project, conn: Connection, *, seed: int, per_kind: int, now: datetime) -> dict:
    edges = optional.declared_edges(conn)
    questions = generate(conn, seed, per_kind, edges.value)
    ranked, served = _ask(conn, project, questions, now)
    graph = _ask_graph(conn, project, questions, now, edges.note, served)
    by_kind = {kind: sum(1 for q in questions if q.kind == kind) for kind in KINDS}
    absent_kinds = {kind: _why_no_questions(kind, edges.note) for kind in KINDS if not by_kind[kind]}
    router = optional.router_agreement()
    core = optional.core_cost(project, conn)
    return {
        "schema": SCHEMA,
        "project": project.name,
        "seed": seed,
        "per_kind": per_kind,
        "questions": {"total": len(questions), "by_kind": by_kind, "absent": absent_kinds},
        "coverage": measures.coverage(project, conn),
        **measures.served_checks(project, conn, served),
        "retrieval": {
            "lexical": {"available": True, **measures.retrieval(questions, ranked)},
            "dense": {"available": False, "reason": "no dense index at level 0 (no embedding model installed)"},
            "hybrid": {"available": False, "reason": "hybrid needs the dense index"},
            "graph": graph,
        },
        "router": {"value": router.value, "note": router.note},
        "core_cost": {"value": core.value, "note": core.note},
        "limits": list(LIMITS),
        "questions_asked": [_question_row(q, ids) for q, ids in zip(questions, ranked)],
    }


def _ask(
    conn: Connection, project: Project, questions: list[Question], now: datetime
) -> tuple[list[list[int]], dict[int, Excerpt]]:
    options = SearchOptions(limit=SERVED)
    ranked: list[list[int]] = []
    served: dict[int, Excerpt] = {}
    for question in questions:
        answer = search_conn(conn, project, parse(question.text), options, now=now)
        ranked.append([e.fact.id for e in answer.excerpts])
        for excerpt in answer.excerpts:
            served.setdefault(excerpt.fact.id, excerpt)
    return ranked, served


def _why_no_questions(kind: str, edge_note: str | None) -> str:
    match kind:
        case "section":
            return "no titled document section in the store"
        case "symbol":
            return "no code symbol in the store"
        case "decision":
            return "no fact of type decision in the store"
        case _:
            return edge_note or "no declared edge"


def _ask_graph(
    conn: Connection, project: Project, questions: list[Question], now: datetime,
    edge_note: str | None, served: dict[int, Excerpt],
) -> dict:
    """Graph mode on the edge questions, the only relation questions generated: the product's
    relation answer (``answer.relations.relation_answer``), as `kenning ask` gives it in mode graph.
    A question naming no graph node is answered by nothing."""
    edge_questions = [q for q in questions if q.kind == "edge"]
    if not edge_questions:
        return {"available": False, "reason": edge_note or "no edge question to ask the graph"}
    from kenning.answer.relations import relation_answer

    ranked: list[list[int]] = []
    found = 0
    for question in edge_questions:
        answer = relation_answer(conn, project, question.text, now=now, limit=SERVED)
        excerpts = answer.excerpts if answer is not None else ()
        ranked.append([e.fact.id for e in excerpts])
        found += any(_is_edge(step, question.edge) for e in excerpts for step in e.path or ())
        for excerpt in excerpts:
            served.setdefault(excerpt.fact.id, excerpt)
    scores = measures.retrieval(edge_questions, ranked)["edge"]
    return {"available": True, "edge": {**scores, "edge_found": measures.rate(found, len(edge_questions))}}


def _is_edge(step: dict, edge: tuple[str, str, str] | None) -> bool:
    """A served path step is the declared edge: same type, ends named alike (a method's
    label is its qualified name, ``Class.method``)."""
    if edge is None or step.get("type") != edge[2]:
        return False
    ends = (step["from"]["name"], step["to"]["name"])
    return all(label == name or label.endswith("." + name) for label, name in zip(ends, edge[:2]))


def _question_row(question: Question, ids: list[int]) -> dict:
    accepted = set(question.accepted)
    rank = next((r for r, i in enumerate(ids, 1) if i in accepted), None)
    return {"kind": question.kind, "text": question.text, "expected": question.expected, "rank": rank}


def render_text(report: dict) -> str:
    lines = [f"kenning bench — project {report['project']} (seed {report['seed']})"]
    q = report["questions"]
    kinds = ", ".join(f"{k} {n}" for k, n in q["by_kind"].items())
    lines.append(f"questions: {q['total']} ({kinds})")
    for kind, why in q["absent"].items():
        lines.append(f"  no {kind} question: {why}")
    cov = report["coverage"]
    lines.append(
        f"coverage: {cov['indexed_files']}/{cov['eligible_files']} eligible files indexed ({_pct(cov['rate'])}); "
        f"orphan excerpts {cov['orphan_excerpts']}"
    )
    att = report["attribution"]
    lines.append(f"attribution: {att['verified']}/{att['served_excerpts']} served excerpts verify ({_pct(att['rate'])})")
    fresh = report["served_freshness"]
    lines.append(
        f"served freshness: {fresh['stale_or_missing_served_as_current']} stale or missing served as current "
        f"(target 0); states {fresh['by_state'] or '{}'}"
    )
    sup = report["superseded_served"]
    lines.append(f"superseded served: {sup['not_active']} (target 0)")
    lines.append("retrieval:")
    for mode, result in report["retrieval"].items():
        if not result["available"]:
            lines.append(f"  {mode}: absent — {result['reason']}")
            continue
        for group, scores in result.items():
            if group == "available":
                continue
            found = f"  edge found {_pct(scores['edge_found'])}" if "edge_found" in scores else ""
            lines.append(
                f"  {mode} {group:<9} n={scores['questions']:<4} R@1 {_num(scores['recall@1'])}  "
                f"R@5 {_num(scores['recall@5'])}  R@10 {_num(scores['recall@10'])}  MRR {_num(scores['mrr'])}{found}"
            )
    router = report["router"]
    if router["value"] is None:
        lines.append(f"router: null — {router['note']}")
    else:
        v = router["value"]
        lines.append(f"router: mode agreement {_pct(v['mode_agreement'])}, rule agreement {_pct(v['rule_agreement'])} "
                     f"over {v['examples']} examples")
    core = report["core_cost"]
    if core["value"] is None:
        lines.append(f"core cost: null — {core['note']}")
    else:
        v = core["value"]
        lines.append(f"core cost: {v['estimated_tokens']} of {v['budget_tokens']} estimated tokens")
    if "speed" in report:
        s = report["speed"]
        lines.append(
            f"speed (varies run to run): sync {s['sync_files_per_second']} files/s, no-op resync "
            f"{s['noop_resync_ms']} ms, query p50 {s['query_ms_p50']} ms, p95 {s['query_ms_p95']} ms"
        )
    lines.append("limits:")
    lines.extend(f"  - {limit}" for limit in report["limits"])
    return "\n".join(lines)


def _pct(value: float | None) -> str:
    return "null" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None) -> str:
    return "null" if value is None else f"{value:.3f}"
