"""Text made safe for a terminal, with the standard library only (the session-start hook
imports it before every agent session, so it must stay this cheap)."""

from __future__ import annotations

# Control characters other than newline and tab, C1 included: shown as `\x1b`, never sent to
# the terminal, where an indexed file's escape sequences could clear the screen, retitle the
# window or rewrite a line (`\r`). JSON escapes them itself (C0), or carries them as data.
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0))}


def terminal_safe(text: str) -> str:
    """TEXT with its control characters made visible (``\\x1b``), newlines and tabs kept."""
    return text.translate(_CONTROLS)
