"""What a caller may name a graph node with, and text that is not valid Unicode, checked once
for every interface (fact references: ``kenning.citation``). A citation of another project
(``kn://other/42``) is ``ScopeDenied``, never this project's fact 42. Standard library only.
"""

from __future__ import annotations

import re

from kenning.citation import parse_fact_ref
from kenning.errors import InvalidQuery, ValidationError

MAX_NODE_CHARS = 500  # a graph node name, like a query (the query budget)
CITATION = re.compile(r"kn://(?P<project>[A-Za-z0-9._-]+)/(?P<id>[0-9]+)")


def check_node_name(text: str, project: str) -> None:
    """A graph node name: within the query budget, a citation only of this project, and a
    path only inside the project root."""
    if len(text) > MAX_NODE_CHARS:
        raise InvalidQuery(f"node name is {len(text)} characters; the limit is {MAX_NODE_CHARS}")
    check_text(text, "node name")
    bare = unquoted(text)
    cited = CITATION.fullmatch(bare)
    if cited is not None:
        parse_fact_ref(cited.group(0), project)  # this project's, and an id in range
    elif "/" in bare or "\\" in bare:
        project_path(bare, "node")


def unquoted(name: str) -> str:
    """A node name as typed, without surrounding blanks, backticks or quotes."""
    return name.strip().strip("`'\"")


def project_path(value: str, what: str = "path") -> str:
    """A path relative to the project root, ``/``-separated, without ``./``; ``ValidationError``
    for an absolute path or one that climbs out of the root (``../x``, ``a/../../x``)."""
    clean = value.strip().replace("\\", "/")
    while clean.startswith("./"):
        clean = clean[2:]
    depth = 0
    for part in clean.split("/"):
        depth += -1 if part == ".." else 0 if part in ("", ".") else 1
        if depth < 0:
            break
    if clean.startswith("/") or (len(clean) > 1 and clean[1] == ":") or depth < 0:
        raise ValidationError(
            f"{what} {value!r} is outside the project root",
            hint="name a path relative to the project root, e.g. src/app.py or docs/",
        )
    return clean


def bound_error(name: str, value: object, *, low: int | None = None, high: int | None = None) -> ValidationError:
    """The one wording of an argument out of its bounds, in every interface (``--limit 0`` and
    ``limit=0`` give the same message): ``low`` / ``high`` name the bound it crossed."""
    if low is not None:
        return ValidationError(f"`{name}` must be at least {low} (got {value!r})")
    if high is not None:
        return ValidationError(f"`{name}` must be at most {high} (got {value!r})")
    return ValidationError(f"`{name}` must be an integer (got {value!r})")


def check_text(text: str, what: str = "argument") -> None:
    """Refuse text that is not valid Unicode: a lone surrogate (from invalid UTF-8 bytes in
    a command-line argument, or a ``\\ud800`` escape in JSON) cannot be stored or searched."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValidationError(
            f"{what} is not valid UTF-8 text (byte or surrogate at position {exc.start})", hint="pass the text as UTF-8"
        ) from None
