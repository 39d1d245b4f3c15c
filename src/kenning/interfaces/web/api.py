"""The JSON API: the answer contract, byte for byte what `kenning ask --json` prints."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from kenning.errors import InvalidQuery
from kenning.interfaces.render import to_json_text
from kenning.interfaces.web import params
from kenning.interfaces.web.asking import answer_for
from kenning.interfaces.web.cockpit import allowed_of, cockpit_of

LIMIT = (1, 100)


def ask(request: Request) -> Response:
    """``/api/ask?q=…&scope=project|all&limit=10``."""
    question = params.question(request)
    if question is None:
        raise InvalidQuery("missing parameter q (the question)", hint="/api/ask?q=how+is+freshness+computed")
    answer = answer_for(
        cockpit_of(request),
        question,
        params.scope(request),
        params.integer(request, "limit", 10, *LIMIT),
        allowed_of(request),
    )
    return Response(to_json_text(answer.to_json()) + "\n", media_type="application/json")
