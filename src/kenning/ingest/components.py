"""Vue, Svelte and Astro single-file components (``StatusCard.vue``, ``Button.svelte``,
``Header.astro``): the code of their scripts read as the JavaScript or TypeScript it is, the rest
(a Vue ``<template>``, Svelte's or Astro's markup, the ``<style>``) by its lines.

A component file holds three languages. Its script (``<script setup lang="ts">``, Svelte's
instance and module scripts, an Astro component's frontmatter between its ``---`` lines and its
``<script>`` tags, TypeScript unless said otherwise) is cut by tree-sitter as a ``.ts`` or ``.js`` file would be
(``tree_code``): excerpts of its functions, the imports and the calls it makes, at the component
file's own lines and columns (everything outside the script is blanked, not removed, before it
is parsed). Its template or markup is cut into runs of lines titled ``NAME.vue template``, its
stylesheet likewise (``NAME.vue style``, the language its ``lang`` says: ``css`` unless told),
which the ranker weighs as it does any stylesheet (``search.factors.MARKUP_LANGUAGES``).

For the graph, the component is a symbol named after its file (``StatusCard``), at the lines of
the file's first excerpt (the one an answer shows for it; a call elsewhere in the file is shown
by the excerpt holding its line, as a file's are). The script's top-level calls are made from it
(``what calls useStatusActions`` names the component that does), and each component its template
or markup uses is a call of that name (``<StatusCard>``, ``<status-card>``, Nuxt's lazy
``<LazyStatusCard>``): ``what uses StatusCard`` lists the components that show it. A component in
a ``components/`` folder is also a symbol of the name Nuxt gives it (``nuxt_name``:
``components/nav/button/Home.vue`` is ``<NavButtonHome>``).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import NamedTuple

from kenning.ingest.chunks import Chunk
from kenning.ingest.identifiers import keywords_for
from kenning.ingest.relations import Ref, Relations, Symbol
from kenning.ingest.split import EXCERPT_CHARS, anchors, index_lines, split_lines, split_range
from kenning.ingest.tree_imports import ALIAS_HINT, Imported

# A top-level block whose content is not markup: ``<script …>…</script>``, ``<style …>…</style>``.
# Neither may hold its own closing tag, so the first one closes it.
_BLOCK = re.compile(r"<(script|style)\b([^>]*)>(.*?)</\1\s*>", re.S | re.I)
_LANG = re.compile(r"""\blang\s*=\s*["']?([\w-]+)""", re.I)
# A component used in markup: ``<StatusCard``, ``<Status.Card``, or a name with a dash (``<status-card``,
# which Vue matches to ``StatusCard``); a plain HTML element (``<div``) has neither.
_TAG = re.compile(r"<([A-Z][\w]*(?:\.[A-Z]\w*)*|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?=[\s/>])")
_NOT_BLANK = re.compile(r"[^\n]")
_COMMENT = re.compile(r"<!--.*?-->", re.S)  # markup's comments: a component named there is not used
# An Astro component's frontmatter: its first line ``---``, its script up to the next ``---`` line.
_FRONTMATTER = re.compile(r"\A[ \t\r\n]*---[ \t]*\r?\n(.*?)^---[ \t]*$", re.S | re.M)
_SCRIPT_LANGUAGES = {"ts": "typescript", "typescript": "typescript", "tsx": "tsx", "jsx": "javascript"}
# Stylesheet languages a ``<style lang="…">`` names (``search.factors.MARKUP_LANGUAGES``); any other, css.
_STYLE_LANGUAGES = frozenset({"css", "scss", "sass", "less"})
# The words of a folder's or a file's name: ``ScheduledPosts``, ``scheduled-posts``: scheduled, posts.
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
LAZY = "Lazy"  # Nuxt's prefix for a component loaded on demand: ``<LazyStatusCard>`` is ``StatusCard``


def parse_component(text: str, path: str) -> tuple[list[Chunk], Relations]:
    """A component file's excerpts (script, template or markup, style) and its relations."""
    # tree-sitter: imported when a component is read
    from kenning.ingest.tree_code import parse_code_relations, syntax_tree
    from kenning.ingest.tree_imports import imported_names

    source = text.removeprefix("\ufeff")
    name = PurePosixPath(path).name
    component = _component_name(path)
    kind = name.rpartition(".")[2].lower()  # vue, svelte, astro
    blocks = _blocks(source, kind)
    scripts = [block for block in blocks if block.script]
    chunks: list[Chunk] = []
    refs: list[Ref] = []
    symbols: list[Symbol] = []
    imported = None
    if scripts:
        view = _only(source, [block.content for block in scripts])
        language = _script_language([block.lang for block in scripts], kind)
        tree = syntax_tree(view, language)  # one parse for the code and its imports' names
        code_chunks, relations = parse_code_relations(view, path, language=language, tree=tree)
        chunks += [c for c in code_chunks if c.body.strip()]
        if relations is not None:  # the script parsed (else its lines are excerpts, no more)
            imported = imported_names(tree.root_node, language, path)
            symbols += relations.symbols
            refs += [
                r._replace(scope=component) if r.scope is None and r.type == "calls" else r for r in relations.refs
            ]
    outside = _without(source, [block.whole for block in blocks])
    chunks += _by_lines(outside, f"{name} {'markup' if kind == 'svelte' else 'template'}", name, kind)
    for block in blocks:
        if not block.script:
            style = block.lang if block.lang in _STYLE_LANGUAGES else "css"
            chunks += _by_lines(_only(source, [block.content]), f"{name} style", name, style)
    refs += _used_components(_without(outside, [m.span() for m in _COMMENT.finditer(outside)]), component, imported)
    chunks.sort(key=lambda c: (c.line_start, c.line_end))
    if chunks:  # the component, at its first excerpt's lines: that excerpt stands for it in answers
        first, last = chunks[0].line_start, chunks[0].line_end
        nuxt = nuxt_name(path)
        symbols[:0] = [Symbol(component, "component", first, last)] + (
            [Symbol(nuxt, "component", first, last)] if nuxt and nuxt != component else []
        )
    return chunks, Relations(symbols=tuple(symbols), refs=tuple(refs))


class _Block(NamedTuple):
    script: bool  # a script (else a style)
    content: tuple[int, int]  # what it holds, in the file's characters
    whole: tuple[int, int]  # with its tags (or an Astro frontmatter's fences)
    lang: str | None  # its ``lang`` attribute, lowercase


def _blocks(source: str, kind: str) -> list[_Block]:
    """A component's script and style blocks, in order: an Astro component's frontmatter (its
    server-side script) first."""
    blocks = []
    front = _FRONTMATTER.match(source) if kind == "astro" else None
    if front is not None:
        blocks.append(_Block(True, front.span(1), front.span(), "ts"))
    for match in _BLOCK.finditer(source, front.end() if front else 0):
        lang = _LANG.search(match.group(2))
        script = match.group(1).lower() == "script"
        blocks.append(_Block(script, match.span(3), match.span(), lang.group(1).lower() if lang else None))
    return blocks


def nuxt_name(path: str) -> str | None:
    """The name Nuxt gives a component it imports by itself: its folders under ``components/``
    then its file's name, the folders' last words left out where the file's name begins with
    them (``components/nav/button/Home.vue``: ``NavButtonHome``; ``components/status/StatusCard.vue``:
    ``StatusCard``; ``components/base/index.vue``: ``Base``). None outside a ``components/`` folder."""
    parts = path.split("/")
    if "components" not in parts[:-1]:
        return None
    folders = parts[len(parts) - 1 - parts[-2::-1].index("components") : -1]
    prefix = [word for folder in folders for word in _WORDS.findall(folder)]
    stem = parts[-1].rsplit(".", 1)[0]
    own = [] if stem == "index" else _WORDS.findall(stem)
    for k in range(min(len(prefix), len(own)), 0, -1):
        if [w.lower() for w in own[:k]] == [w.lower() for w in prefix[-k:]]:
            prefix = prefix[:-k]
            break
    return "".join(word[:1].upper() + word[1:] for word in prefix + own) or None


def _component_name(path: str) -> str:
    """``status-card.vue`` -> ``StatusCard``; ``StatusCard.vue`` as it is; an ``index`` file's, its
    folder's (``lib/ArticleList/index.svelte``: ``ArticleList``, as its imports name it)."""
    folder, _, name = path.rpartition("/")
    stem = name.rsplit(".", 1)[0]
    if stem == "index" and folder:
        stem = folder.rpartition("/")[2]
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_.]", stem) if part) or stem


def _script_language(langs: list[str | None], kind: str) -> str:
    """TypeScript when any script block says so (``lang="ts"``), or in an Astro component (whose
    scripts are TypeScript unless said otherwise), else JavaScript."""
    found = "typescript" if kind == "astro" else "javascript"
    for lang in langs:
        named = _SCRIPT_LANGUAGES.get(lang or "", "javascript")
        if named != "javascript":
            found = named
    return found


def _only(source: str, spans: list[tuple[int, int]]) -> str:
    """``source`` with every character outside ``spans`` blanked (line ends kept): the same lines
    and columns, the rest empty."""
    kept, at = [], 0
    for start, end in spans:
        kept += [_NOT_BLANK.sub(" ", source[at:start]), source[start:end]]
        at = end
    kept.append(_NOT_BLANK.sub(" ", source[at:]))
    return "".join(kept)


def _without(source: str, spans: list[tuple[int, int]]) -> str:
    """``source`` with the characters inside ``spans`` blanked (line ends kept)."""
    kept, at = [], 0
    for start, end in sorted(spans):
        kept += [source[at:start], _NOT_BLANK.sub(" ", source[start:end])]
        at = end
    kept.append(source[at:])
    return "".join(kept)


def _by_lines(view: str, title: str, name: str, language: str) -> list[Chunk]:
    """A view's non-blank runs of lines, cut as plain text is, as code of ``language``."""
    doc = index_lines(split_lines(view))
    pieces = split_range(doc, 0, len(doc.text) - 1, EXCERPT_CHARS) if doc.text else []
    keywords = keywords_for(name)
    meta = {"symbol": name, "kind": "module", "language": language}
    return [
        Chunk(
            "code",
            title if n == 1 else f"{title} (part {n})",
            piece.body,
            anchor,
            piece.first + 1,
            piece.last + 1,
            keywords,
            meta,
        )
        for n, (piece, anchor) in enumerate(zip(pieces, anchors(pieces), strict=True), start=1)
    ]


def _used_components(markup: str, component: str, imported: Imported | None) -> list[Ref]:
    """A call of each component the markup uses, once, at the line it is first used; one the
    script imports from a path, with that path as its hint (``ALIAS_HINT``: the file it names,
    not a homonym), none for one imported from a package (``import { Icon } from 'lib'``)."""
    refs: dict[str, Ref] = {}
    line, at = 1, 0
    for match in _TAG.finditer(markup):
        line += markup.count("\n", at, match.start())
        at = match.start()
        used = _pascal(match.group(1))
        if used.startswith(LAZY) and used[len(LAZY) : len(LAZY) + 1].isupper():
            used = used[len(LAZY) :]
        if used in refs or used == component or imported is not None and used in imported.outside:
            continue
        hint = ALIAS_HINT + imported.scoped[used] if imported is not None and used in imported.scoped else None
        name = imported.renamed.get(used, used) if imported is not None else used
        refs[used] = Ref("calls", "symbol", name, line, component, hint, link="extracted")
    return list(refs.values())


def _pascal(tag: str) -> str:
    """``status-card`` -> ``StatusCard``; ``Status.Card`` -> ``Card`` (a namespaced component's own name)."""
    if "-" in tag:
        return "".join(part[:1].upper() + part[1:] for part in tag.split("-"))
    return tag.rpartition(".")[2]
