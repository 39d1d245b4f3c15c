"""A document's table of contents: a Markdown section that is a list of links to the headings of
its own page (``- [Set and get a cookie](#set-and-get-a-cookie)``). It holds the words of every
heading of the document and none of what they say, so it matched every question about the
document and took a place in the answer that a section saying something should have (gin's
"Contents" answered a question about cookies fourth; gson's user guide and ripgrep's FAQ and guide
hold such lists too; docs/benchmarks.md, "walks5")."""

from __future__ import annotations

import re

from kenning.records import Fact

# ``[text](#anchor)``: a link to a place in the same page. Neither part holds a bracket, so that a
# failed attempt stops at the next one: a line of brackets costs its length, not its square.
_IN_PAGE_LINK = re.compile(r"\[[^\[\]\n]*\]\(#[^()\[\]\s]*\)")
# What a list of links leaves besides them: blanks, list markers and numbers, separators.
_LIST_MARKUP = re.compile(r"[\s*+\-0-9.|:,;()]+")
MIN_LINKS = 5  # a section with fewer in-page links is text that links, not a table of contents
MIN_SHARE = 0.5  # of the section's text (list markup aside) in those links


def is_contents(fact: Fact) -> bool:
    """Whether ``fact`` is a document's excerpt made of links to its own headings."""
    body = fact.body
    if fact.type != "doc" or body.count("](#") < MIN_LINKS:
        return False
    links = _IN_PAGE_LINK.findall(body)
    if len(links) < MIN_LINKS:
        return False
    linked = sum(map(len, links))
    rest = len(_LIST_MARKUP.sub("", _IN_PAGE_LINK.sub("", body)))
    return linked >= MIN_SHARE * (linked + rest)
