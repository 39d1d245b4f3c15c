"""The cockpit behind tokens, when it listens beyond loopback (``kenning serve --host ADDR``).

Every page and ``/api/*`` route then needs a token of ``kenning token create``, presented as
``Authorization: Bearer kn_…`` (scripts) or as the ``kenning_token`` cookie that ``POST
/login`` sets for a person in a browser (HttpOnly, SameSite=Strict, Secure over HTTPS; never
in a URL). The token is verified on every request, so a revocation is seen at once.

Statuses: missing, unknown, revoked or expired token → 401 (the login page, or JSON under
``/api/``); a token not bound to the served project, bound to paths, or without
``memory:write`` for a write (confirm, supersede, forget) → 403; too many failed attempts
from one client → 429. ``/static/``, ``/login``, ``/logout`` are open; ``/mcp`` has its own
gate (``kenning.interfaces.mcp.http``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from kenning.auth.policy import FailureLimiter, Refusal, audit, check_project
from kenning.auth.tokens import WRITE, TokenRecord, verify
from kenning.errors import Unauthorized
from kenning.interfaces.web.cockpit import TOKEN_KEY, cockpit_of, render

COOKIE = "kenning_token"
OPEN_PREFIXES = ("/static/", "/mcp/")
OPEN_PATHS = ("/login", "/logout", "/mcp")
READS = ("GET", "HEAD")
REFUSED_KEY = "kenning.refused_write"  # the token whose write the gate refused
AUDITED_FORM = 64 * 1024  # bytes of a refused form read for its audit line
_TYPES = {401: "Unauthorized", 403: "ScopeDenied", 413: "ValidationError", 429: "TooManyAttempts"}
_HINTS = {
    401: "log in at /login, or send Authorization: Bearer <secret from `kenning token create`>",
    403: "use a token with the needed scope and binding (`kenning token create`)",
    413: "send a smaller request (the cockpit's own forms are far smaller)",
    429: "wait, then retry with a valid token",
}


def admit(token: TokenRecord, served: str, method: str) -> Refusal | None:
    """What a verified token may not do here: another project, a path binding (the cockpit
    reads whole projects), a write without ``memory:write``."""
    refusal = check_project(token, served)
    if refusal is not None:
        return refusal
    if token.paths:
        return Refusal(
            403,
            f"scope divergence: token {token.name!r} is bound to path(s) {', '.join(token.paths)}; the "
            "cockpit reads whole projects — use MCP search_memory with a path_filter",
        )
    if method not in READS and WRITE not in token.scopes:
        return Refusal(
            403, f"token {token.name!r} is read-only (it has {', '.join(token.scopes)}); this action needs {WRITE}"
        )
    return None


def presented(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return request.cookies.get(COOKIE) or None


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def refuse(request: Request, status: int, message: str, **headers: str) -> Response:
    error = {"type": _TYPES[status], "message": message, "hint": _HINTS[status]}
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="kenning"'
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": error}, status_code=status, headers=headers)
    if status == 401:
        wanted = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        response = login_form(request, message, wanted, status)
    else:
        response = render(request, "error.html", {"error": error, "status": status}, status_code=status)
    response.headers.update(headers)
    return response


class TokenGate:
    """ASGI middleware: authenticate, then admit, every request outside the open paths."""

    def __init__(self, app: ASGIApp, *, limiter: FailureLimiter) -> None:
        self.app, self.limiter = app, limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path in OPEN_PATHS or path.startswith(OPEN_PREFIXES):
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        response = self.check(request)
        if response is not None:
            refused = request.scope.pop(REFUSED_KEY, None)
            if refused is not None:  # a write refused to a valid token is audited, as over MCP
                await self.audit_refusal(request, refused)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def audit_refusal(self, request: Request, token: TokenRecord) -> None:
        cockpit = cockpit_of(request)
        size = request.headers.get("content-length", "")
        form: dict[str, str] = {}
        if size.isdecimal() and int(size) <= AUDITED_FORM:  # a refused request's body is read only when small
            try:
                form = {key: str(value) for key, value in (await request.form()).items() if key != "token"}
            except HTTPException as exc:  # no form (malformed multipart, over 1,000 fields): the refusal stands
                form = {"form": f"unreadable: {exc.detail}"}
        audit(
            cockpit.home,
            token=token,
            client=client_of(request),
            project=cockpit.project.name,
            tool="cockpit:" + request.url.path.rstrip("/").rsplit("/", 1)[-1],
            arguments=form,
            ok=False,
            now=cockpit.clock(),
        )

    def check(self, request: Request) -> Response | None:
        """None when the request may go on (its token put in the scope), else the refusal."""
        cockpit = cockpit_of(request)
        client = client_of(request)
        wait = self.limiter.blocked(client, time.monotonic())
        if wait is not None:
            return refuse(
                request,
                429,
                f"too many failed attempts from {client}; retry in {wait:g} s",
                **{"Retry-After": str(max(1, round(wait)))},
            )
        secret = presented(request)
        try:
            token = verify(cockpit.home, secret, now=cockpit.clock())
        except Unauthorized as exc:
            if secret:
                self.limiter.fail(client, time.monotonic())
            response = refuse(request, 401, exc.message)
            if request.cookies.get(COOKIE):
                response.delete_cookie(COOKIE, path="/")
            return response
        refusal = admit(token, cockpit.project.name, request.method)
        if refusal is not None:
            if request.method not in READS and request.url.path.startswith("/memory/"):
                request.scope[REFUSED_KEY] = token
            return refuse(request, refusal.status, refusal.message)
        request.scope[TOKEN_KEY] = token
        return None


def safe_next(value: str | None) -> str:
    """A local path to return to after logging in; anything else (another site) is ``/``."""
    if not value or not value.startswith("/") or value.startswith(("//", "/\\")) or value.startswith("/login"):
        return "/"
    return value


def login_form(request: Request, message: str | None, wanted: str, status: int = 200) -> Response:
    return render(request, "login.html", {"message": message, "next": safe_next(wanted)}, status_code=status)


def login_page(request: Request) -> Response:
    return login_form(request, None, request.query_params.get("next", "/"))


async def login(request: Request) -> Response:
    """``POST /login`` with ``secret`` (the token), ``token`` (the form token), ``next``."""
    form: dict[str, Any] = {k: str(v) for k, v in (await request.form()).items()}
    cockpit = cockpit_of(request)
    limiter: FailureLimiter = request.app.state.limiter
    client = client_of(request)
    wanted = form.get("next", "/")
    wait = limiter.blocked(client, time.monotonic())
    if wait is not None:
        return login_form(request, f"too many failed attempts from {client}; retry in {wait:g} s", wanted, 429)
    if not secrets.compare_digest(form.get("token", ""), cockpit.form_token):
        return login_form(request, "this form was not served by this cockpit; try again", wanted, 403)
    try:
        token = verify(cockpit.home, form.get("secret", "").strip() or None, now=cockpit.clock())
    except Unauthorized as exc:
        limiter.fail(client, time.monotonic())
        return login_form(request, exc.message, wanted, 401)
    refusal = admit(token, cockpit.project.name, "GET")
    if refusal is not None:
        return login_form(request, refusal.message, wanted, refusal.status)
    response = RedirectResponse(safe_next(wanted), status_code=303)
    response.set_cookie(
        COOKIE,
        form["secret"].strip(),
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


async def logout(request: Request) -> Response:
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response
