"""Reading what a server wrote to the pseudo-terminal a test gave it as stderr."""

from __future__ import annotations

import os
import select


def read_to_end(fd: int, wait: float = 5.0) -> bytes:
    """Everything left on the terminal's side ``fd`` once the server is gone: read until the
    other end is closed (``OSError`` on Linux, or an empty read), or nothing came for ``wait``
    seconds."""
    said = b""
    while select.select([fd], [], [], wait)[0]:
        try:
            chunk = os.read(fd, 1024)
        except OSError:  # the other end closed: everything was read
            break
        if not chunk:
            break
        said += chunk
    return said
