"""`kenning bench`: generate the questions, ask them as `kenning ask` does, measure, and write
a report that is identical byte for byte across runs on the same store (no timestamp, no
timing: speed lives in its own section, see ``speed.py``). A project's own questions
(``.kenning/questions.jsonl``) are asked the same way and reported apart."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from kenning import dense as dense_engine
from kenning.answer.ask import ask_project
from kenning.bench import measures, optional, project_questions
from kenning.bench.questions import KINDS, Question, generate
from kenning.graph.walk import NO_RELATIONS, NOT_BUILT, GraphState, graph_state
from kenning.project import Project
from kenning.records import Answer, Excerpt
from kenning.store.handle import Connection

SCHEMA = "kenning.bench/v1"
DEFAULT_SEED = 7
DEFAULT_PER_KIND = 25
SERVED = 10  # excerpts served per question, as `kenning search` does by default

LIMITS = (
    "Questions are generated from templates over titles and symbols, so their words are the "
    "indexed words: this favours lexical search and says little about paraphrased questions.",
    "Every question is asked as `kenning ask` asks it (routed); each is scored under the mode that served it. "
    "No multi-hop question except edge questions, and those exist only when the graph holds declared edges.",
    "Recall@k counts a question answered when any excerpt with the same title or symbol is among "
    "the first k; MRR is computed over the first 10 served.",
    "Attribution and freshness are measured over the excerpts these questions were served, not the whole store.",
    "Without .kenning/questions.jsonl, router agreement is measured on kenning's built-in example table, "
    "the same on every project; with it, on the project's own questions.",
)
MODES = ("lexical", "dense", "hybrid", "graph")


def run(project: Project, conn: Connection, *, seed: int, per_kind: int, now: datetime) -> dict:
    edges = optional.declared_edges(conn)
    questions = generate(conn, seed, per_kind, edges.value)
    own = project_questions.load(project.state_dir)
    answers = [_ask(project, q.text, now) for q in questions]
    served: dict[int, Excerpt] = {}
    for answer in answers:
        for excerpt in answer.excerpts:
            served.setdefault(excerpt.fact.id, excerpt)
    ranked = [[e.fact.id for e in a.excerpts] for a in answers]
    by_kind = {kind: sum(1 for q in questions if q.kind == kind) for kind in KINDS}
    absent_kinds = {kind: _why_no_questions(kind, edges.note) for kind in KINDS if not by_kind[kind]}
    own_report = _project_questions(project, own, now, served) if own is not None else None
    builtin = optional.router_agreement()
    core = optional.core_cost(project, conn)
    report = {
        "schema": SCHEMA,
        "project": project.name,
        "seed": seed,
        "per_kind": per_kind,
        "questions": {
            "total": len(questions),
            "by_kind": by_kind,
            "absent": absent_kinds,
            "served_by": dict(sorted(Counter(a.mode for a in answers).items())),
        },
        "coverage": measures.coverage(project, conn),
        **measures.served_checks(project, conn, served),
        "retrieval": {mode: _by_mode(mode, questions, answers, ranked, edges.note, conn) for mode in MODES},
        "router": _router(own_report, builtin),
        "project_questions": own_report
        or {
            "present": False,
            "file": f".kenning/{project_questions.FILE_NAME}",
            "note": "no project questions: generated questions only",
        },
        "core_cost": {"value": core.value, "note": core.note},
        "limits": list(LIMITS),
        "questions_asked": [_question_row(q, ids, a) for q, ids, a in zip(questions, ranked, answers, strict=True)],
    }
    return report


def _ask(project: Project, text: str, now: datetime) -> Answer:
    """One question, as `kenning ask` answers it (routed, degradations included)."""
    return ask_project(project, text, now=now, limit=SERVED)


def _by_mode(
    mode: str,
    questions: list[Question],
    answers: list[Answer],
    ranked: list[list[int]],
    edge_note: str | None,
    conn: Connection,
) -> dict:
    """Scores of the questions the mode served. Lexical is always available at level 0;
    dense and hybrid need the dense index; graph needs a built graph."""
    picked = [i for i, a in enumerate(answers) if a.mode == mode]
    if mode in ("dense", "hybrid") and not picked:
        return {"available": False, "reason": _why_not_served(mode, answers)}
    if mode == "graph" and not picked:
        reasons = {
            GraphState.BUILT: "no question was answered in graph mode",
            GraphState.EMPTY: NO_RELATIONS,
            GraphState.NOT_BUILT: NOT_BUILT,
        }
        return {"available": False, "reason": edge_note or reasons[graph_state(conn)]}
    scores = measures.retrieval([questions[i] for i in picked], [ranked[i] for i in picked])
    if not picked:
        scores = {"all": scores["all"]}
    out: dict = {"available": True, **scores}
    if mode == "graph" and "edge" in scores:
        edge_rows = [i for i in picked if questions[i].kind == "edge"]
        found = sum(
            any(_is_edge(step, questions[i].edge) for e in answers[i].excerpts for step in e.path or ())
            for i in edge_rows
        )
        out["edge"] = {**scores["edge"], "edge_found": measures.rate(found, len(edge_rows))}
    return out


def _why_not_served(mode: str, answers: list[Answer]) -> str:
    """Why ``mode`` (dense or hybrid) scored no question, as the answers said it. `kenning ask`
    serves dense only fused into hybrid, never alone; a question the default rule sends to
    hybrid falls back to lexical with the reason as its first degradation (dense not
    installed, disabled, index not built, incomplete, refused)."""
    alone = "`kenning ask` serves dense only fused into hybrid"
    hybrid = sum(1 for a in answers if a.mode == "hybrid")
    if mode == "dense" and hybrid:
        return f"{alone}: see hybrid ({hybrid} question(s))"
    fallback = next(
        (a.degradations[0] for a in answers if a.rule == "default" and a.mode != "hybrid" and a.degradations), None
    )
    why = dense_engine.missing() or fallback or "no question fell to the default rule, the one that routes to hybrid"
    return f"{alone}, which served none: {why}" if mode == "dense" else why


def _project_questions(
    project: Project, own: list[project_questions.ProjectQuestion], now: datetime, served: dict[int, Excerpt]
) -> dict:
    """The project's own questions, asked through `kenning ask`: recall@k and MRR of their
    expected sources, and router agreement with their expected rule (and mode, when given)."""
    rows = []
    firsts: list[int | None] = []
    rule_ok = mode_ok = with_mode = with_rule = 0
    disagreements = []
    for q in own:
        answer = _ask(project, q.question, now)
        for excerpt in answer.excerpts:
            served.setdefault(excerpt.fact.id, excerpt)
        rank = project_questions.first_rank(answer, q.expected) if q.expected else None
        if q.expected:
            firsts.append(rank)
        if q.rule is not None:
            with_rule += 1
            rule_ok += answer.rule == q.rule
        if q.mode is not None:
            with_mode += 1
            mode_ok += answer.mode == q.mode
        if (q.rule is not None and answer.rule != q.rule) or (q.mode is not None and answer.mode != q.mode):
            disagreements.append(
                {"question": q.question, "expected": [q.mode, q.rule], "got": [answer.mode, answer.rule]}
            )
        rows.append(
            {
                "line": q.line,
                "question": q.question,
                "mode": answer.mode,
                "rule": answer.rule,
                "rank": rank,
                "degradations": list(answer.degradations),
            }
        )
    n = len(firsts)
    retrieval: dict = {"questions": n}
    for k in measures.KS:
        retrieval[f"recall@{k}"] = measures.rate(sum(1 for r in firsts if r is not None and r <= k), n)
    retrieval["mrr"] = round(sum(1 / r for r in firsts if r is not None) / n, 4) if n else None
    return {
        "present": True,
        "file": f".kenning/{project_questions.FILE_NAME}",
        "questions": len(own),
        "retrieval": retrieval,
        "served_by": dict(sorted(Counter(r["mode"] for r in rows).items())),
        "router": {
            "with_rule": with_rule,
            "rule_agreement": measures.rate(rule_ok, with_rule),
            "with_mode": with_mode,
            "mode_agreement": measures.rate(mode_ok, with_mode),
            "disagreements": disagreements,
        },
        "rows": rows,
    }


def _router(own: dict | None, builtin: optional.Found) -> dict:
    """Router agreement on the project's questions when it has some, else on the built-in
    table, said as such."""
    table = {"value": builtin.value, "note": builtin.note}
    if own is None or not own["router"]["with_rule"]:
        return {**table, "source": "built-in example table (kenning.route.examples, the same on every project)"}
    r = own["router"]
    value = {
        "examples": r["with_rule"],
        "rule_agreement": r["rule_agreement"],
        "mode_agreement": r["mode_agreement"],
        "disagreements": r["disagreements"],
    }
    return {"value": value, "note": None, "source": f".kenning/{project_questions.FILE_NAME}", "builtin": table}


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


def _is_edge(step: dict, edge: tuple[str, str, str] | None) -> bool:
    """A served path step is the declared edge: same type, ends named alike (a method's
    label is its qualified name, ``Class.method``)."""
    if edge is None or step.get("type") != edge[2]:
        return False
    ends = (step["from"]["name"], step["to"]["name"])
    return all(label == name or label.endswith("." + name) for label, name in zip(ends, edge[:2], strict=True))


def _question_row(question: Question, ids: list[int], answer: Answer) -> dict:
    accepted = set(question.accepted)
    rank = next((r for r, i in enumerate(ids, 1) if i in accepted), None)
    return {
        "kind": question.kind,
        "text": question.text,
        "expected": question.expected,
        "rank": rank,
        "mode": answer.mode,
        "rule": answer.rule,
    }


def render_text(report: dict) -> str:
    lines = [f"kenning bench — project {report['project']} (seed {report['seed']})"]
    q = report["questions"]
    kinds = ", ".join(f"{k} {n}" for k, n in q["by_kind"].items())
    lines.append(f"questions: {q['total']} ({kinds}); asked through `kenning ask`, served by {q['served_by'] or '{}'}")
    for kind, why in q["absent"].items():
        lines.append(f"  no {kind} question: {why}")
    cov = report["coverage"]
    lines.append(
        f"coverage: {cov['indexed_files']}/{cov['eligible_files']} eligible files indexed ({_pct(cov['rate'])}); "
        f"orphan excerpts {cov['orphan_excerpts']}"
    )
    att = report["attribution"]
    # A note has no source to re-read: counted apart, or "10/11 verify" reads as one that failed.
    apart = att.get("without_rereadable_source") or 0
    lines.append(
        f"attribution: {att['verified']}/{att['served_excerpts']} served excerpts verify ({_pct(att['rate'])})"
        + (f"; {apart} without a source to re-read (notes, memories): nothing to verify" if apart else "")
    )
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
            lines.append(f"  {mode}: not measured — {result['reason']}")
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
    lines.extend(_router_lines(router, router.get("source", "")))
    if "builtin" in router:
        lines.extend(_router_lines(router["builtin"], "built-in example table"))
    own = report.get("project_questions") or {}
    if own.get("present"):
        r = own["retrieval"]
        lines.append(
            f"project questions ({own['file']}): n={r['questions']}  R@1 {_num(r['recall@1'])}  "
            f"R@5 {_num(r['recall@5'])}  R@10 {_num(r['recall@10'])}  MRR {_num(r['mrr'])}  "
            f"served by {own['served_by'] or '{}'}"
        )
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


def _router_lines(router: dict, source: str) -> list[str]:
    if router["value"] is None:
        return [f"router: null — {router['note']}"]
    v = router["value"]
    return [
        f"router: mode agreement {_pct(v['mode_agreement'])}, rule agreement {_pct(v['rule_agreement'])} "
        f"over {v['examples']} examples ({source})"
    ]


def _pct(value: float | None) -> str:
    return "null" if value is None else f"{100 * value:.1f}%"


def _num(value: float | None) -> str:
    return "null" if value is None else f"{value:.3f}"
