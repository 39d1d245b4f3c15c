"""Answer a relation question ("what calls rrf_fuse?", "quelles tâches touchent src/a.py ?")
from the graph. For the router: ``graph_built`` says whether the graph can answer at all,
``relation_answer`` answers in mode ``graph`` or returns None when no node is named."""

from __future__ import annotations

import re
from datetime import datetime

from kenning.answer.graph import GraphOptions, run_query
from kenning.graph import walk
from kenning.project import Project
from kenning.records import Answer
from kenning.store.db import Connection
from kenning.store.graph import Node

graph_built = walk.graph_built

_BACKTICK = re.compile(r"`([^`]{1,200})`")
_TOKEN = re.compile(r"#\d+|[A-Za-z_][\w.\-/]*[\w]|[0-9a-f]{7,40}")
_TOUCHES = re.compile(r"\b(touch\w*|tasks?|evidence|verdicts?|commits?|decisions?|why|tâches?|touchent|touche|"
                      r"preuves?|décisions?|pourquoi)\b", re.I)
_IMPACT = re.compile(r"\b(impact\w*|depends? on|dependents?|break\w*|uses?|used by|who uses|dépend\w*|casse\w*|"
                     r"utilise\w*)\b", re.I)
_PATH = re.compile(r"\b(path|between|links?|linked|relie\w*|chemin|entre)\b", re.I)
_STOP = {"what", "which", "where", "who", "how", "does", "the", "and", "calls", "call", "called", "defined",
         "define", "is", "are", "it", "this", "that", "touch", "touches", "tasks", "task", "commits", "between",
         "path", "impact", "depends", "quelles", "quels", "qui", "appelle", "est", "défini", "les", "des"}


def relation_answer(conn: Connection, project: Project, question: str, *, now: datetime,
                    limit: int = 10) -> Answer | None:
    named = _named_nodes(conn, question)
    if not named:
        return None
    options = GraphOptions(limit=limit)
    if len(named) >= 2 and _PATH.search(question):
        return run_query(conn, project, "path", named[0][0], options, now=now, other=named[1][0],
                         rule="graph.path", mode="graph")
    query = "touches" if _TOUCHES.search(question) else "impact" if _IMPACT.search(question) else "neighbours"
    return run_query(conn, project, query, named[0][0], options, now=now, mode="graph")


def _named_nodes(conn: Connection, question: str) -> list[tuple[str, list[Node]]]:
    """Words of the question that name graph nodes, most specific first (backticked terms,
    then paths and dotted names, then the rest), each with the nodes it names."""
    candidates = _BACKTICK.findall(question)
    tokens = [t.rstrip(".,;:?!") for t in _TOKEN.findall(_BACKTICK.sub(" ", question))]
    tokens.sort(key=lambda t: ("/" not in t and "." not in t and "_" not in t and "#" not in t, -len(t)))
    candidates += [t for t in tokens if t.lower() not in _STOP and len(t) > 2 or t.startswith("#")]
    found: list[tuple[str, list[Node]]] = []
    seen: set[str] = set()
    for text in candidates:
        if text in seen:
            continue
        seen.add(text)
        nodes = walk.find_nodes(conn, text)
        if nodes and text.isalpha() and text.islower() and not any(n.kind == "symbol" and n.name == text
                                                                    for n in nodes):
            continue  # a plain word matched loosely: not a node name
        if nodes:
            found.append((text, nodes))
    return found
