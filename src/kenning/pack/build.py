"""Build the pack from a project's store: select, lay out within the budget, fingerprint."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kenning.errors import UsageError
from kenning.pack import budget, select
from kenning.pack.fingerprint import of_text
from kenning.pack.manifest import MANIFEST_SCHEMA
from kenning.project import CONFIG_HINT, Project
from kenning.store.handle import Connection
from kenning.store.version import store_state
from kenning.tokens import cut_paragraphs


@dataclass(frozen=True)
class Settings:
    budget_tokens: int = budget.DEFAULT_BUDGET_TOKENS
    context: str | None = None


@dataclass(frozen=True)
class Built:
    text: str
    manifest: dict[str, Any]
    composed: budget.Composed


def settings(project: Project) -> Settings:
    """``[pack]`` of ``.kenning/config.toml``: ``budget_tokens`` and ``context``."""
    raw = project.config.extra.get("pack", {})
    if not isinstance(raw, dict):
        raise UsageError("`[pack]` in .kenning/config.toml must be a table", hint=CONFIG_HINT)
    tokens = raw.get("budget_tokens", budget.DEFAULT_BUDGET_TOKENS)
    if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < budget.MIN_BUDGET_TOKENS:
        raise UsageError(
            f"`[pack] budget_tokens` must be an integer of at least {budget.MIN_BUDGET_TOKENS}", hint=CONFIG_HINT
        )
    context = raw.get("context")
    if context is not None and (not isinstance(context, str) or not context.strip()):
        raise UsageError("`[pack] context` must be a path relative to the project root", hint=CONFIG_HINT)
    return Settings(tokens, context)


def build(conn: Connection, project: Project) -> Built:
    chosen = settings(project)
    context = select.context(conn, project.root, chosen.context)
    conventions = select.conventions(conn, project.name, project.root)
    decisions = select.decisions(conn, project.name)
    composed = budget.compose(project.name, context, conventions, decisions, chosen.budget_tokens)
    included = {id(e) for e in composed.included}

    def described(entry: select.Entry) -> dict[str, Any]:
        return {
            "key": entry.key,
            "title": entry.title,
            "fingerprint": entry.fingerprint,
            "citation": entry.citation,
            "fact_ids": list(entry.fact_ids),
            "included": id(entry) in included,
            **({"score": entry.score, "why": list(entry.why)} if entry.score is not None else {}),
        }

    sources = {}
    if context is not None:
        sources[context.path] = context.fingerprint
    for entry in (*conventions, *decisions):
        for path, fingerprint in entry.sources:
            sources.setdefault(path, fingerprint)
    manifest = {
        "schema": MANIFEST_SCHEMA,
        "project": project.name,
        "fingerprint": of_text(composed.text),
        "budget_tokens": composed.budget,
        "estimated_tokens": composed.estimate,
        "characters": len(composed.text),
        "fits": composed.fits,
        "store_state": store_state(conn),
        "context": None
        if context is None
        else {
            "path": context.path,
            "fingerprint": context.fingerprint,
            "fact_ids": list(context.fact_ids),
            "included": composed.context_used,
        },
        "conventions": [described(e) for e in conventions],
        "decisions": [described(e) for e in decisions],
        "order": [e.fact_ids[0] for e in composed.included if e.fact_ids],
        "snippets": {
            **(
                {str(context.fact_ids[0]): cut_paragraphs(context.text, budget.ENTRY_CHARS)}
                if context is not None and context.fact_ids and composed.context_used
                else {}
            ),
            **{str(e.fact_ids[0]): budget.entry_text(e, budget.ENTRY_CHARS) for e in composed.included if e.fact_ids},
        },
        "omitted": {
            "conventions": sum(e.kind == "convention" for e in composed.omitted),
            "decisions": sum(e.kind == "decision" for e in composed.omitted),
        },
        "sources": [{"path": p, "fingerprint": f} for p, f in sorted(sources.items())],
    }
    return Built(composed.text, manifest, composed)
