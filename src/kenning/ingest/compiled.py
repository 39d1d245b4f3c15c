"""JavaScript and CSS a compiler wrote from a source the project holds: TypeScript's ``dist/``
beside its ``src/`` (committed by mistake, or left unignored), Sass's CSS. Such a file says so in
its last line, ``//# sourceMappingURL=article.service.js.map`` (``/*# … */`` in CSS), and its source
map names the files it was made from. When one of them is a file of the project, the compiled one
repeats it in other words: its classes and functions are homonyms of the source's in the graph, and
its excerpts crowded the source's answers (nestjs-realworld-example-app: three of the top five of
"where is the slug of an article generated" were ``dist/``'s). It is skipped (``compiled``). A map
whose sources are elsewhere (``webpack://``, a package's) or absent skips nothing."""

from __future__ import annotations

import base64
import binascii
import json
import os
import posixpath
import re
from urllib.parse import unquote

from kenning.files import read_regular_inside

SUFFIXES = (".js", ".mjs", ".cjs", ".css")
TAIL_BYTES = 1_024  # where the comment is looked for: the file's last line
MAP_BYTES = 32_000_000  # a larger source map is not read (the file is kept)
_URL = re.compile(r"^\s*(?://|/\*)\s*[#@] sourceMappingURL=(\S+?)\s*(?:\*/)?\s*$")


def compiled_from(root_real: str, path: str, data: bytes) -> str | None:
    """The project's file (relative path) the compiled file ``path`` was made from, as its source
    map names it, when that file exists under ``root_real``; None for any other file."""
    if not path.endswith(SUFFIXES) or b"sourceMappingURL" not in data[-TAIL_BYTES:]:
        return None
    last = data[-TAIL_BYTES:].rstrip().rpartition(b"\n")[2].decode("utf-8", "replace")
    match = _URL.match(last)
    if match is None:
        return None
    sourcemap = _read_map(root_real, path, match.group(1))
    if sourcemap is None:
        return None
    mapped, folder = sourcemap
    sources, prefix = mapped.get("sources"), mapped.get("sourceRoot") or ""
    if not isinstance(sources, list) or not isinstance(prefix, str) or "://" in prefix:
        return None
    for source in sources:
        if not isinstance(source, str) or "://" in source or source.startswith("/"):
            continue  # ``webpack:///./src/x.ts``, an absolute path: not one of the project's as written
        named = posixpath.normpath(posixpath.join(folder, prefix, source))
        if named != path and not named.startswith("../") and named != ".." and _is_file(root_real, named):
            return named
    return None


def _read_map(root_real: str, path: str, url: str) -> tuple[dict, str] | None:
    """The source map ``url`` names (in the file, a ``data:`` URL, or a file beside it) and the
    folder its sources are relative to; None when there is none to read."""
    folder = posixpath.dirname(path)
    if url.startswith("data:"):
        head, _, payload = url.partition(",")
        try:
            raw = base64.b64decode(payload, validate=True) if head.endswith(";base64") else unquote(payload).encode()
        except (binascii.Error, ValueError):
            return None
    else:
        if "://" in url or url.startswith("/"):
            return None
        map_path = posixpath.normpath(posixpath.join(folder, unquote(url)))
        if map_path.startswith("../") or map_path == "..":
            return None
        try:
            if os.stat(os.path.join(root_real, map_path)).st_size > MAP_BYTES:
                return None
            raw = read_regular_inside(root_real, map_path)
        except OSError:
            return None
        folder = posixpath.dirname(map_path)
    try:
        mapped = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return (mapped, folder) if isinstance(mapped, dict) else None


def _is_file(root_real: str, rel: str) -> bool:
    return os.path.isfile(os.path.join(root_real, *rel.split("/")))
