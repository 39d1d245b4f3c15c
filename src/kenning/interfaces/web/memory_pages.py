"""Memory: recent observations and session summaries, and the confirm / supersede / forget
gestures (`kenning confirm|supersede|forget`), each behind a confirmation step.

A gesture is two POSTs: the first shows what will change and asks; the second, carrying
``confirmed=yes``, calls the lifecycle function and redirects back to the list. Every form
carries the cockpit's form token, so another site cannot post to it.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from kenning import lifecycle
from kenning.auth.policy import audit
from kenning.citation import MAX_ID
from kenning.errors import KenningError, NotFound, ScopeDenied, ValidationError
from kenning.freshness import FileCheck, freshness_of
from kenning.ingest.spans import split as split_spans
from kenning.interfaces.web.cockpit import cockpit_of, render, token_of
from kenning.memory.layers import Scope, recent
from kenning.store import facts as fact_store

ACTIONS = ("confirm", "supersede", "forget")
RECENT = 30
SUMMARIES = 10
SUMMARY = "session_summary"


def memory(request: Request) -> Response:
    """``/memory``: the newest saved memories, session summaries apart."""
    cockpit = cockpit_of(request)
    with cockpit.reading() as (conn, fallback):
        notes = recent(conn, cockpit.project, Scope(), RECENT, now=cockpit.clock())
        summaries = recent(conn, cockpit.project, Scope(types=(SUMMARY,)), SUMMARIES, now=cockpit.clock())
    observations = [e for e in notes.excerpts if e.fact.type != SUMMARY]
    return render(
        request,
        "memory.html",
        {
            "observations": observations,
            "summaries": summaries.excerpts,
            "done": request.query_params.get("done"),
            "fallback": fallback,
        },
    )


async def action(request: Request) -> Response:
    """``POST /memory/<confirm|supersede|forget>`` with ``id`` (and ``new`` for supersede)."""
    name = request.path_params["action"]
    if name not in ACTIONS:
        raise NotFound(f"no memory action {name!r}", hint=f"one of {', '.join(ACTIONS)}")
    form = {key: str(value) for key, value in (await request.form()).items()}
    try:
        return await run_in_threadpool(_act, request, name, form)  # the store is read off the event loop
    except KenningError:
        if form.get("confirmed") == "yes":  # a gesture that was run and failed is audited too, as over MCP
            _audit(request, name, form, ok=False)
        raise


def _act(request: Request, name: str, form: dict[str, str]) -> Response:
    cockpit = cockpit_of(request)
    if not secrets.compare_digest(form.get("token", ""), cockpit.form_token):
        raise ScopeDenied(
            "this form was not served by this cockpit (missing or wrong form token)",
            hint="reload /memory and try again",
        )
    fact_id = _fact_id(form.get("id"), "id")
    reason = form.get("reason", "").strip() or None
    new_raw = form.get("new", "").strip()
    if form.get("confirmed") != "yes":
        with cockpit.reading() as (conn, fallback):
            fact = fact_store.get(conn, cockpit.project.name, fact_id)
            fresh = freshness_of(fact, now=cockpit.clock(), files=FileCheck(cockpit.project.root, conn, split_spans))
        context = {"action": name, "fact": fact, "fresh": fresh, "new": new_raw, "fallback": fallback}
        return render(request, "memory_confirm.html", context)
    with cockpit.store(write=True) as conn:
        match name:
            case "confirm":
                fact = lifecycle.confirm(conn, cockpit.project.name, fact_id, now=cockpit.clock())
                done = f"{fact.citation} confirmed on {fact.dates.confirmed}"
            case "forget":
                fact = lifecycle.forget(conn, cockpit.project.name, fact_id)
                done = f"forgot {fact.citation}: {fact.title}" + (f" ({reason})" if reason else "")
            case _:
                old, new = lifecycle.supersede(
                    conn, cockpit.project.name, fact_id, _fact_id(new_raw, "new"), now=cockpit.clock(), reason=reason
                )
                done = f"{old.citation} superseded by {new.citation}"
    _audit(request, name, form, ok=True)
    return RedirectResponse("/memory?" + urlencode({"done": done}), status_code=303)


def _audit(request: Request, name: str, form: dict[str, str], *, ok: bool) -> None:
    """On a token-gated cockpit, the gesture joins the audit log, as an MCP write does."""
    token = token_of(request)
    if token is None:
        return
    cockpit = cockpit_of(request)
    audit(
        cockpit.home,
        token=token,
        client=request.client.host if request.client else "unknown",
        project=cockpit.project.name,
        tool=f"cockpit:{name}",
        arguments={k: v for k, v in form.items() if k != "token"},
        ok=ok,
        now=cockpit.clock(),
    )


def _fact_id(raw: object, field: str) -> int:
    text = str(raw or "").strip().removeprefix("#")
    if not (text.isascii() and text.isdecimal() and len(text) <= len(str(MAX_ID)) and 1 <= int(text) <= MAX_ID):
        raise ValidationError(f"{field} must be a fact id from 1 to {MAX_ID} such as 42, not {str(raw or '')!r}")
    return int(text)
