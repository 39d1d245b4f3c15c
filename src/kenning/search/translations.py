"""Documents translated into other languages, each language in its own folder: FastAPI's
``docs/en/docs/tutorial/testing.md`` and the same page under ``docs/zh/``, ``docs/ja/`` … (twelve
languages), Docusaurus' ``i18n/fr/…``, Hugo's ``content/de/…``. A translation keeps the original's
code blocks, its names and often its anchors, so an English question matched every one: FastAPI's
"how do I test my app" served the English page first, then its Chinese, Hindi, Japanese and
traditional Chinese twins (walked, docs/benchmarks.md "translations").

A file is in a language's folder when a folder of its path is a language's code (``de``, ``pt``,
``zh-hant``, ``pt_BR``) directly under a folder that holds translations or documentation
(``docs``, ``i18n``, ``locales``, ``content`` …): not ``src/de/`` (a package), and not a code no
translation uses (``ml``, ``os``: machine learning's, an operating system's docs). Its language is
that code's first part, lower-case (``pt_BR`` → ``pt``).

A file is a translation too when its name is another file's beside it with a language's code
added (``README_ZH.md``, ``README-zh_CN.adoc``, ``index.fr.md`` beside ``README.md``,
``README.adoc``, ``index.md``; ``README_JP.md``: the country's code for Japan, Korea, China and
Taiwan is read as its language's, as projects write them). Zod's version 3 site holds its
readme in Chinese and Korean beside the English one, asciidoctor its own in Chinese, German,
Japanese and French; their code blocks matched English questions on those projects (walked,
docs/benchmarks.md "zodgin"). The twin beside it is required: ``try-it.md`` alone is no Italian
page."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

# ISO 639-1 codes of the languages documentation is translated into (FastAPI's, Docusaurus' and
# Hugo's sites, MDN's, Vue's, React's), not every code: ``ml``, ``os``, ``ai``-like folder names stay folders.
_CODES = (
    "ar az bg bn ca cs da de el en eo es et fa fi fr ga he hi hr hu hy id it ja ka kk km ko ky lt lv mn ms "
    "my nb ne nl no pl pt ro ru si sk sl sq sr sv sw ta te th tl tr uk ur uz vi yo zh"
)
_LANGUAGES = frozenset(_CODES.split())
_CODE = re.compile(r"(?P<language>[a-z]{2})(?:[-_](?:[a-z]{2}|hans|hant|latn|cyrl))?", re.IGNORECASE)
# Country codes written for a language's in file names (``README_JP.md``, ``README-CN.md``).
_COUNTRIES = {"jp": "ja", "kr": "ko", "cn": "zh", "tw": "zh"}
# A file name with a language's code before its suffix: ``README_ZH.md``, ``index.fr.md``.
_NAMED = re.compile(
    r"(?P<stem>.+?)[._-](?P<code>[a-z]{2}(?:[-_](?:[a-z]{2}|hans|hant))?)(?P<suffix>\.[a-z0-9]+)", re.IGNORECASE
)
# The folders a language's folder lies directly under.
_HOLDERS = frozenset(
    {"docs", "doc", "documentation", "i18n", "l10n", "locales", "locale", "translations", "content", "website", "site"}
)


def language_of(path: str, files: Callable[[str], Iterable[str]] | None = None) -> str | None:
    """The language of the file at ``path`` (project-relative, POSIX) when it lies in a language's
    folder, or, given ``files`` (the names of the files in a folder: ``files("docs")``), when its
    name is a file's beside it with a language's code added (the module doc); else None."""
    folders = path.split("/")[:-1]
    for parent, folder in zip(folders, folders[1:], strict=False):
        if parent.lower() in _HOLDERS:
            code = _CODE.fullmatch(folder)
            if code and code["language"].lower() in _LANGUAGES:
                return code["language"].lower()
    if files is None:
        return None
    named = _NAMED.fullmatch(path.rsplit("/", 1)[-1])
    if named is None:
        return None
    first = named["code"][:2].lower()
    language = _COUNTRIES.get(first, first if first in _LANGUAGES else None)
    if language is None:
        return None
    twin = (named["stem"] + named["suffix"]).lower()
    return language if any(name.lower() == twin for name in files("/".join(folders))) else None


def question_language(french: bool) -> str:
    """The language a question is written in, as the router reads it: French or English."""
    return "fr" if french else "en"
