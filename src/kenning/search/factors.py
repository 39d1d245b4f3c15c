"""What each ranking factor reads of a fact (``search.ranker``): its file, whether it is history,
test code or in a test folder, prose on testing, a lone ``impl`` header, a translation, markup, a
license notice, a document made from others (``derived``), or the definition of a code name the
question types."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable

from kenning.ingest.test_files import is_test_path
from kenning.records import Fact
from kenning.search.asked import on_testing
from kenning.search.history import is_history_path
from kenning.search.translations import language_of


def file_of(fact: Fact) -> str:
    """The file of a file excerpt's source URI (``src/x.py:4-9`` → ``src/x.py``)."""
    return fact.source.uri.split("#", 1)[0].rsplit(":", 1)[0]


def is_history(fact: Fact) -> bool:
    """Whether ``fact`` is a commit, or prose from a changelog or release notes (``search.history``)."""
    if fact.type == "commit":
        return True
    return fact.source.kind == "file" and fact.type != "code" and is_history_path(file_of(fact))


def lone_header(fact: Fact) -> bool:
    """Whether ``fact`` is an ``impl`` block's header alone (``LONE_HEADER_FACTOR``)."""
    return fact.type == "code" and fact.meta.get("kind") == "impl" and "\n" not in fact.body.strip()


def on_testing_docs(fact: Fact) -> bool:
    """Whether ``fact`` is prose from a file outside the tests under a heading on testing
    (``TESTING_DOCS_BOOST``)."""
    return fact.source.kind == "file" and fact.type != "code" and not in_test_files(fact) and on_testing(fact.title)


def in_test_files(fact: Fact) -> bool:
    """Whether ``fact`` is read from a test file or a test folder: test code, and the fixtures
    beside it (``tests/test_apps/cliapp/message.txt``: one line, "So long, and thanks for all the
    fish.", ranked first for "how long does a request context live" on Flask); or is test code its
    parser found in another file (a Rust ``#[cfg(test)]`` module's: axum's ``check_query`` helpers,
    second and fourth for "how do I extract JSON from the request body" asked in French)."""
    return fact.source.kind == "file" and (is_test_path(file_of(fact)) or fact.meta.get("test") is True)


def is_test_code(fact: Fact) -> bool:
    """Whether ``fact`` is code in a test file (``tests/test_x.py``, ``x_test.go``), or test code
    its parser found in another file (a Rust ``#[test]`` function: ``meta["test"]``)."""
    return fact.type == "code" and in_test_files(fact)


# The languages of a web framework's templates and stylesheets (``ingest.parsers.SCRIPT_LANGUAGES``);
# ERB and Haml are not among them: their views are the app's Ruby (lobsters, walked).
MARKUP_LANGUAGES = frozenset(
    {"html", "jinja", "nunjucks", "handlebars", "mustache", "liquid", "twig", "ejs", "pug", "blade"}
    | {"css", "scss", "sass", "less"}
)


def is_markup(fact: Fact) -> bool:
    """Whether ``fact`` is read from a template or a stylesheet (``MARKUP_FACTOR``)."""
    return fact.type == "code" and fact.meta.get("language") in MARKUP_LANGUAGES


# A license notice's words, one of them at least in the text for it to be read line by line: looked
# for as plain substrings, cheaper than a regular expression (the ranker asks of every excerpt it scores).
_LICENSE_CUES = ("icen", "ICEN", "opyright", "OPYRIGHT", "arrant", "ARRANT", "ereby", "EREBY")
# The words a license notice's grants, conditions and disclaimers are written in, looked for in each
# line lowercased: substrings, since a regular expression of these alternatives took up to 0.4 ms on a
# line of 1,500 characters (a SciFact abstract with its "Copyright ©" line).
_LICENSE_WORDS = (
    "licen",
    "copyright",
    "warrant",
    "merchantab",
    "liab",
    "permission",
    "granted",
    " as is",
    "software",
    "redistribut",
    "provided that",
    "disclaim",
    "gnu ",
    "spdx",
    "rights reserved",
    "damages",
    "tort",
    "fitness",
    "notice",
    "obtain a copy",
    "governing",
    "limitations",
    "express or implied",
    "without fee",
    "without restriction",
    "conditions",
)
LICENSE_LINES = 3  # lines of license words, at least, for an excerpt to be a license notice


# A license's own file, by its customary name: ``LICENSE``, ``LICENSE-MIT``, ``COPYING``, ``UNLICENSE``, ``NOTICE``.
_LICENSE_FILE = re.compile(r"(?:licen[cs]e|copying|unlicense|notice)(?:[-_.][\w.-]+)?", re.IGNORECASE)


def license_file(fact: Fact) -> bool:
    """Whether ``fact`` is from a license's own file (:data:`_LICENSE_FILE`), whatever its folder; not
    code that handles licenses (``src/license.rs``)."""
    if fact.source.kind != "file" or fact.type == "code":
        return False
    return _LICENSE_FILE.fullmatch(posixpath.basename(file_of(fact))) is not None


def license_notice(fact: Fact) -> bool:
    """Whether ``fact`` is mostly a license notice: a file's header (``Licensed under the Apache
    License…`` above a Java file's package line, ``Permission to use, copy, modify…`` above a
    Python module's docstring), a LICENSE file or a README's License section. From its first line
    of license words to its last, ``LICENSE_LINES`` of them at least, lie a third of its lines or more
    (a module's first excerpt holds the notice, the docstring and the imports: tarfile's, 21 lines of 55)."""
    body = fact.body
    if fact.source.kind != "file" or not any(cue in body for cue in _LICENSE_CUES):
        return False
    lines = [line.lower() for line in body.splitlines() if line.strip()]
    if len(lines) < LICENSE_LINES:
        return False
    marked = [at for at, line in enumerate(lines) if any(word in line for word in _LICENSE_WORDS)]
    return len(marked) >= LICENSE_LINES and 3 * (marked[-1] - marked[0] + 1) >= len(lines)


def translated(fact: Fact, languages: frozenset[str], files: Callable[[str], Iterable[str]] | None = None) -> bool:
    """Whether ``fact`` is read from a translation (``search.translations``: in a language's folder,
    or, given ``files``, named as a file beside it with a language's code added, code excepted:
    ``index.es.js`` is an ECMAScript build) whose language is none of ``languages`` (the question's
    and English: ``TRANSLATION_FACTOR``)."""
    if fact.source.kind != "file":
        return False
    language = language_of(file_of(fact), files if fact.type != "code" else None)
    return language is not None and language not in languages


def derived(fact: Fact, exists: Callable[[str], bool]) -> bool:
    """Whether ``fact`` is a document made from others of the project: its front matter's
    ``sources`` (a path, or a list of them) names a file ``exists`` finds (an agent skill's
    ``SKILL.md`` lists the pages it digests). A URL or a missing file is no file of it."""
    if fact.type == "code" or fact.source.kind != "file":  # a document (its front matter may type it)
        return False
    front = fact.meta.get("front_matter")
    sources = front.get("sources") if isinstance(front, dict) else None
    if isinstance(sources, str):
        sources = [sources]
    if not isinstance(sources, list):
        return False
    return any(isinstance(p, str) and exists(p.strip().removeprefix("./")) for p in sources[:8])


def defines(fact: Fact, symbols: frozenset[str]) -> bool:
    """Whether ``fact`` defines a typed code name: the symbol it is (``def rrf_fuse``; for a
    dotted name, a symbol of that name whose class, module or path holds its qualifier:
    ``Context.invoke``, ``click.echo`` in ``src/click/utils.py``), or a module whose own lines
    assign it (``DEFAULT_TIMEOUT = Timeout(5.0)``, ``LIMIT: int = 3``)."""
    symbol = fact.meta.get("symbol") if fact.type == "code" else None
    if not isinstance(symbol, str):
        return False
    own = symbol.rsplit(".", 1)[-1].lower()
    where: set[str] | None = None
    for name in symbols:
        *qualifier, last = name.split(".")
        if last != own:
            continue
        if not qualifier:
            return True
        if where is None:
            where = set(re.split(r"[./:]", f"{symbol}/{fact.source.uri}".lower()))
        if where.issuperset(qualifier):
            return True
    if fact.meta.get("kind") != "module":
        return False
    return _assigns(fact.body, frozenset(name.rsplit(".", 1)[-1] for name in symbols))


def _assigns(body: str, symbols: frozenset[str]) -> bool:
    names = "|".join(re.escape(name) for name in sorted(symbols))
    return re.search(rf"^(?:{names})[ \t]*(?::[^=\n]*)?=(?!=)", body, re.MULTILINE | re.IGNORECASE) is not None
