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
    """A graph node name: within the query budget, and a citation only of this project."""
    if len(text) > MAX_NODE_CHARS:
        raise InvalidQuery(f"node name is {len(text)} characters; the limit is {MAX_NODE_CHARS}")
    check_text(text, "node name")
    cited = CITATION.fullmatch(text.strip().strip("`'\""))
    if cited is not None:
        parse_fact_ref(cited.group(0), project)  # this project's, and an id in range


def check_text(text: str, what: str = "argument") -> None:
    """Refuse text that is not valid Unicode: a lone surrogate (from invalid UTF-8 bytes in
    a command-line argument, or a ``\\ud800`` escape in JSON) cannot be stored or searched."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValidationError(
            f"{what} is not valid UTF-8 text (byte or surrogate at position {exc.start})", hint="pass the text as UTF-8"
        ) from None
