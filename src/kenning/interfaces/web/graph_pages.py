"""Pictures: the graph around a node (`kenning graph neighbours`) and the benchmark report
(`kenning bench`), each drawn as SVG on the server."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from kenning.answer.graph import GraphOptions, run_query
from kenning.bench import report as bench_report
from kenning.errors import ValidationError
from kenning.graph.walk import EDGE_TYPES
from kenning.interfaces.web import params
from kenning.interfaces.web.cockpit import cockpit_of, render
from kenning.interfaces.web.svg import bars, neighbourhood
from kenning.store.version import store_state

GRAPH_LIMIT = 40
BENCH_SEED = 7
BENCH_PER_KIND = 25


def graph(request: Request) -> Response:
    """``/graph?node=…&hops=1|2&edge=type``: the node's neighbours as a picture and a table."""
    cockpit = cockpit_of(request)
    node = (request.query_params.get("node") or "").strip()
    hops = params.integer(request, "hops", 1, 1, 2)
    edge_types = tuple(request.query_params.getlist("edge"))
    unknown = [t for t in edge_types if t not in EDGE_TYPES]
    if unknown:
        raise ValidationError(f"unknown edge type(s): {', '.join(unknown)}", hint=f"one of {', '.join(EDGE_TYPES)}")
    answer = picture = None
    if node:
        with cockpit.reading() as (conn, fallback):
            answer = run_query(
                conn,
                cockpit.project,
                "neighbours",
                node,
                GraphOptions(hops=hops, edge_types=edge_types, limit=GRAPH_LIMIT),
                now=cockpit.clock(),
            )
        answer = cockpit.labelled(answer, fallback)
        picture = neighbourhood(answer)
    return render(
        request,
        "graph.html",
        {
            "node": node,
            "hops": hops,
            "edge_types": edge_types,
            "all_edge_types": EDGE_TYPES,
            "answer": answer,
            "picture": picture,
        },
    )


def bench(request: Request) -> Response:
    """``/bench``: `kenning bench` (seed 7, 25 questions per kind) on the current store, kept
    until the store changes, with bar charts of its rates."""
    cockpit = cockpit_of(request)
    with cockpit.reading() as (conn, fallback):
        state = store_state(conn)
        report = cockpit.bench_cache.get(state)
        if report is None:
            report = bench_report.run(
                cockpit.project, conn, seed=BENCH_SEED, per_kind=BENCH_PER_KIND, now=cockpit.clock()
            )
            cockpit.bench_cache.clear()
            cockpit.bench_cache[state] = report
    return render(
        request,
        "bench.html",
        {"report": report, "charts": _charts(report), "text": bench_report.render_text(report), "fallback": fallback},
    )


def _charts(report: dict[str, Any]) -> list[tuple[str, list]]:
    charts = [
        (
            "Store",
            bars(
                [("coverage", report["coverage"]["rate"]), ("attribution", report["attribution"]["rate"])], percent=True
            ),
        )
    ]
    for mode, result in report["retrieval"].items():
        if not result.get("available"):
            continue
        for group, scores in result.items():
            if group == "available":
                continue
            charts.append(
                (
                    f"{mode} · {group} ({scores['questions']} questions)",
                    bars([(k, scores[k]) for k in ("recall@1", "recall@5", "recall@10", "mrr")], percent=False),
                )
            )
    return charts
