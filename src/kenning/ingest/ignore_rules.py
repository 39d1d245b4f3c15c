"""Git's ignore rules (``.gitignore`` files, a project's include and exclude globs) as one
yes-or-no test per path, cheap for the many paths no rule names.

pathspec decides, rule by rule, what git would: one regular expression per rule, tried on
every path (a tenth of a second for 60,000 files and ten rules). Most paths match no rule at
all, so every rule's expression is also joined into one alternation, tried first: a path it
does not match matches no rule (not ignored, not included); a path it matches goes to pathspec,
which alone says what the matching rules decide (negations, folder rules). The answer is
pathspec's, always; the alternation only skips pathspec where no rule could apply.

pathspec is imported on first use: a project without include or exclude globs or
``.gitignore`` files (or listed by git) never needs it, and its import is a tenth of a cold
sync's start-up (docs/benchmarks.md, branch coldstart).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    import pathspec

Matcher = Callable[[str], bool]  # a relative POSIX path (a folder's with a trailing "/") -> matched
# A named group of a rule's expression (pathspec marks a folder match with one): the same
# name in two alternatives is an error, so each becomes a plain group in the alternation.
_NAMED_GROUP = re.compile(r"\(\?P<[A-Za-z_][A-Za-z0-9_]*>")


def gitignore_matcher(lines: Iterable[str]) -> Matcher:
    """Whether git's ignore rules ``lines`` match a path (relative, POSIX separators, as
    pathspec's ``match_file`` takes it)."""
    import pathspec

    return prefiltered(pathspec.GitIgnoreSpec.from_lines(lines))


def prefiltered(spec: pathspec.PathSpec) -> Matcher:
    """``spec.match_file`` behind the one alternation of its rules' expressions; the spec's
    own test alone when they cannot be joined (a rule without an expression, flags that
    differ, a pattern the joining breaks)."""
    rules = [rule for rule in spec.patterns if rule.include is not None]
    if not rules:
        return _nothing
    expressions = [getattr(rule, "regex", None) for rule in rules]
    compiled = [e for e in expressions if isinstance(e, re.Pattern) and isinstance(e.pattern, str)]
    flags = {e.flags for e in compiled}
    if len(compiled) != len(rules) or len(flags) != 1:
        return spec.match_file
    try:
        anyone = re.compile("|".join(f"(?:{_NAMED_GROUP.sub('(?:', e.pattern)})" for e in compiled), flags.pop())
    except re.error:
        return spec.match_file
    search, exact = anyone.search, spec.match_file
    return lambda rel: search(rel) is not None and exact(rel)


def _nothing(rel: str) -> bool:
    return False
