"""One question for the cockpit, answered exactly as `kenning ask` answers it, on one of the
cockpit's kept store connections (``interfaces/serve.py``, as ``memory_ask`` answers)."""

from __future__ import annotations

from kenning.across.answers import ask_all
from kenning.interfaces.serve import ask_kept
from kenning.interfaces.web.cockpit import Cockpit
from kenning.records import Answer


def answer_for(
    cockpit: Cockpit, question: str, scope: str, limit: int, allowed: frozenset[str] | None = None
) -> Answer:
    """``scope`` "project": this project; "all": every registered project read-only
    (confidential ones excluded) and the transverse memory, one list ranked by RRF and labelled
    by project — the same calls as `kenning ask [--all-projects]`. With a token (``allowed``):
    only the token's projects, never the transverse memory (as MCP over HTTP)."""
    if scope == "all":
        return ask_all(
            question,
            cockpit.registered(allowed),
            now=cockpit.clock(),
            limit=limit,
            home=cockpit.home if allowed is None else None,
            stores=cockpit.stores,
        )
    return ask_kept(cockpit.connections, question, now=cockpit.clock(), limit=limit)
