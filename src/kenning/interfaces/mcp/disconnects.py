"""A client that goes away is no server error: the one SDK log record that says otherwise, dropped.

When a streamable-HTTP client ends its session (the SDK's own client does on exit), the
transport closes the stream its standalone SSE writer (the GET stream for server-initiated
messages) reads from; the writer's ``async for`` then raises ``anyio.ClosedResourceError`` and
the SDK logs it with ``logger.exception("Error in standalone SSE writer")``: a 45-line ERROR
traceback on the server's stderr for every client that disconnects. mcp 1.30.0, the newest
1.x release (checked 2026-12-01), still does (``mcp/server/streamable_http.py``); a proposal
to quiet client disconnects in these handlers (python-sdk PR #1947) was closed unmerged, and
the fixes merged since concern other paths.

:func:`install` adds :class:`SseWriterClosed` to that logger: it drops exactly that record
(that message, that exception type) and lets everything else through — another exception in
the same writer, the same exception elsewhere, every other record of the logger.
"""

from __future__ import annotations

import logging

import anyio

LOGGER = "mcp.server.streamable_http"
MESSAGE = "Error in standalone SSE writer"


class SseWriterClosed(logging.Filter):
    """False (drop) for the SDK's record of a standalone SSE writer whose stream was closed."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (record.msg == MESSAGE and isinstance(error, anyio.ClosedResourceError))


_FILTER = SseWriterClosed()


def install() -> None:
    """Add the filter to the SDK's transport logger (once: ``addFilter`` keeps one copy)."""
    logging.getLogger(LOGGER).addFilter(_FILTER)
