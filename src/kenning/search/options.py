"""How to search: the options every search path takes, and the engine filters they make."""

from __future__ import annotations

from dataclasses import dataclass

from kenning.search import lexical


@dataclass(frozen=True)
class SearchOptions:
    """How to search: limit, filters, syntax, explanations."""

    limit: int = 10
    types: tuple[str, ...] = ()
    include_superseded: bool = False
    include_missing: bool = False
    syntax: str = "natural"
    path_prefix: str | None = None
    memory_type: str | None = None
    explain: bool = False
    since: str | None = None  # YYYY-MM-DD, inclusive, on the fact's date (store.fts.Filters)
    until: str | None = None
    count_hidden: bool = True  # an empty answer counts what matched but was hidden (not across projects)
    prefer_tests: bool = False  # test code weighs weights.TEST_BOOST (a tests question's words), never demoted
    per_file: int = 0  # > 0: a file's excerpts past this many weigh less in turn (weights.PER_FILE); 0: none


def filters_of(options: SearchOptions, lifecycles: tuple[str, ...] | None = None) -> lexical.Filters:
    """The engine filters of ``options`` (served lifecycles unless ``lifecycles`` is given)."""
    if lifecycles is None:
        lifecycles = ("active", "superseded") if options.include_superseded else ("active",)
    return lexical.Filters(
        options.types, lifecycles, options.path_prefix, options.memory_type, options.since, options.until
    )
