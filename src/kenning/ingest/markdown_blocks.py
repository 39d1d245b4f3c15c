"""The block structure of a Markdown document: its headings and fenced ranges.

Two readers give the same result (tests/ingest/test_markdown_parity.py compares them on this
repository's documents, edge cases and generated ones): markdown-it in Rust
(``markdown-it-pyrs``, byte ranges turned into line numbers in one pass), and markdown-it-py
(pure Python: a cold sync of the Node.js docs takes 1.16–1.24 times as long,
docs/benchmarks.md, "Markdown on Python 3.13 and later"). The Rust one is used where it is
installed; it ships no wheel for Python 3.13 or later, where kenning installs markdown-it-py
only (pyproject.toml). ``PARSER`` names the one in use (``kenning status``).

Only the block rules are enabled (paragraph, heading, setext heading, fence, indented code,
HTML block, table, thematic break), so a ``#`` line inside a fenced block or an HTML block is
never taken for a heading, and a heading's text stays its inline source. An HTML block that begins with a heading
element (``<h3 name="config">Does it?</h3>``, ``<h1 align="center">Ky</h1>``: FAQs and README
banners) is a heading of that level, its text the element's without tags, and the anchor its
``id`` or ``name`` says, the one the document's own links use (``FAQ.md#config``). A Markdown
heading that holds an anchor element (``## <a id="lenient"></a> Malformed JSON``: gson's
troubleshooting guide, whose links say ``#lenient``) has that anchor, the element no part of its text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Headings = list[tuple[int, int, str, str]]  # (first line, level, text, anchor given by the document or '')
Fences = list[tuple[int, int]]  # [start, end) lines
Blocks = Callable[[str], tuple[Headings, Fences]]

_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# An HTML block's leading heading element: its level, attributes and content.
_HTML_HEADING = re.compile(r"\s*<h([1-6])(\s[^>]*)?>(.*?)</h\1\s*>", re.S | re.I)
_HTML_ANCHOR = re.compile(r"""\b(?:id|name)\s*=\s*["']([A-Za-z0-9_.:-]+)["']""", re.I)
_TAG = re.compile(r"<[^>]*>")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
# HTML elements a heading may hold, by name (not ``Vec<T>``, ``Option<String>``: a Rust or Java heading's
# generics), and those that part words (an image, a line break) rather than wrap them.
_HTML_INLINE = re.compile(
    r"</?(img|b|i|em|strong|code|kbd|sup|sub|span|br|small|picture|source|u|s|del|ins|mark|font|p|div|a)"
    r"(?:\s[^<>]*)?/?>",
    re.I,
)
_BLANK_TAGS = frozenset({"br", "p", "div", "picture", "source"})
_ALT = re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
# An anchor element inside a heading's text (``<a id="lenient"></a>``, ``<a name="x">Title</a>``):
# its id or name.
_INLINE_ANCHOR = re.compile(r"""<a\s[^>]*?\b(?:id|name)\s*=\s*["']([A-Za-z0-9_.:-]+)["'][^>]*>""", re.I)
_A_TAG = re.compile(r"</?a(?:\s[^>]*)?>", re.I)  # an ``a`` element's opening or closing tag
# The attribute list that ends a heading: ids, classes and key=value pairs in braces, after a space
# (``Testing { #testing }``, ``Contents {: .no_toc .text-delta }``, ``Setup {#setup data-x=1}``); FastAPI's
# docs end every heading with one, which gave titles like ``Testing { #testing } > Separating tests``.
# One attribute: an id, a class or a pair, none holding a blank: the blanks between them part them, so
# that the list is read in one pass (no two ways to cut ``#a.b.c``).
_ATTRIBUTE = r"(?:[#.][\w:.-]+|[\w-]+=[^\s{}]+)"
_ATTRIBUTES = re.compile(rf"\s\{{:?[ \t]*{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*[ \t]*\}}\Z")
_ATTRIBUTE_ID = re.compile(r"(?<![\w.-])#([\w:.-]+)")


def heading_text(content: str) -> str:
    """Heading source made readable: one line, images and HTML comments left out and links reduced
    to their text. A README's title often carries badges, images in links (``# App [![Build
    Status](….svg)](…)``): its title is ``App`` (spring-petclinic, walked: every README hit was titled
    with the badges' markup), as GitHub's anchor for it is ``#app``. MADR's template marks its optional
    sections in their headings (``## Decision Drivers <!-- optional -->``), a README its title for a
    table-of-contents tool (``# App <!-- omit in toc -->``): neither is shown, nor part of the anchor
    (log4brains, walked). A comment inside a code span is the heading's text. Other HTML shows as
    GitHub shows it (``_shown``: an image its ``alt`` text, a formatting element its text)."""
    if "<!--" in content:
        content = _COMMENT.sub(lambda found: found[0] if _in_code(content, found.start()) else "", content)
    if "<" in content:
        content = _HTML_INLINE.sub(lambda found: _shown(found, content), content)
    if "](" in content:
        content = _IMAGE.sub("", content)
        while (reduced := _LINK.sub(r"\1", content)) != content:
            content = reduced
    return " ".join(content.split())


def _in_code(content: str, at: int) -> bool:
    """Whether position ``at`` of a heading's source lies in a code span (an odd count of backticks before)."""
    return content.count("`", 0, at) % 2 == 1


def _shown(tag: re.Match[str], content: str) -> str:
    """What a heading shows of an HTML tag in it: an image its ``alt`` text (go-chi's README is titled
    ``# <img alt="chi" src="….svg" />``: its title is ``chi``), a line break a blank, a formatting
    element's tags nothing (their text stays: ``<kbd>Ctrl</kbd>+C``); in a code span, the tag itself."""
    if _in_code(content, tag.start()):
        return tag[0]
    if tag[1].lower() == "img":
        alt = _ALT.search(tag[0])
        return f" {alt[1] if alt[1] is not None else alt[2]} " if alt else " "
    return " " if tag[1].lower() in _BLANK_TAGS else ""


def markdown_heading(content: str) -> tuple[str, str]:
    """(text, anchor or '') of a Markdown heading's source: the id of the attribute list that ends
    it (``## Testing { #testing }``, ``## Contents {: .no_toc }``: MkDocs' attr_list, kramdown,
    Pandoc, markdown-it-attrs), none of its text; else the anchor of the first anchor element it
    holds outside a code span, the tags of that element and of any other ``a`` element (a link
    beside it) outside a code span left out of the text, their text kept."""
    if content.endswith("}") and (attributes := _ATTRIBUTES.search(content)):
        given = _ATTRIBUTE_ID.search(attributes[0])
        text, anchor = _anchor_element(content[: attributes.start()])
        return text, given[1] if given else anchor
    return _anchor_element(content)


def _anchor_element(content: str) -> tuple[str, str]:
    if "<" not in content:
        return heading_text(content), ""
    found = _INLINE_ANCHOR.search(content)
    if found is None or _in_code(content, found.start()):  # none, or code (``<a id="x">``)
        return heading_text(content), ""
    text = _A_TAG.sub(lambda tag: tag[0] if _in_code(content, tag.start()) else " ", content)
    return heading_text(text), found[1]


def html_heading(html: str) -> tuple[int, str, str] | None:
    """(level, text, anchor or '') of the heading element an HTML block begins with, if it does:
    the element's own id or name, else that of an anchor element inside it."""
    match = _HTML_HEADING.match(html)
    if match is None:
        return None
    anchor = _HTML_ANCHOR.search(match[2] or "") or _INLINE_ANCHOR.search(match[3])
    return int(match[1]), heading_text(_TAG.sub(" ", match[3])), anchor[1] if anchor else ""


def python_blocks(markdown: str) -> tuple[Headings, Fences]:
    """Headings and fenced ranges as markdown-it-py's block parser gives them."""
    headings: Headings = []
    fences: Fences = []
    tokens = _python_parser().parse(markdown)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            headings.append((token.map[0], int(token.tag[1:]), *markdown_heading(tokens[i + 1].content)))
        elif token.type == "fence" and token.map:
            fences.append((token.map[0], token.map[1]))
        elif token.type == "html_block" and token.map and (found := html_heading(token.content)):
            headings.append((token.map[0], *found))
    return headings, fences


_PYTHON: Any = None
# The block rules both readers run. A GFM table and a thematic break are read as what they are: without
# them a line of dashes right under a table's last row made the whole table a setext heading's text (go-chi's
# README: five excerpts titled ``---…--- | chi/middleware Handler | description |``, its middlewares'
# tables among them, walked).
_RULES = ["heading", "lheading", "fence", "code", "html_block", "table", "hr"]


def _python_parser() -> Any:
    global _PYTHON
    if _PYTHON is None:
        from markdown_it import MarkdownIt

        parser = MarkdownIt("zero", {"html": True}).enable(_RULES)
        parser.disable("inline")
        _PYTHON = parser
    return _PYTHON


def native_blocks(markdown: str) -> tuple[Headings, Fences]:
    """Headings and fenced ranges from markdown-it-pyrs: UTF-8 byte ranges, lines counted from
    them in one pass. Without the container rules every block is a child of the root."""
    if "\0" in markdown:  # CommonMark replaces NUL; do it before taking byte offsets
        markdown = markdown.replace("\0", "\ufffd")
    try:
        data = markdown.encode()
    except UnicodeEncodeError:  # a lone surrogate (never from a file read by the sync)
        data = markdown.encode(errors="replace")
        markdown = data.decode()
    headings: Headings = []
    fences: Fences = []
    line = offset = 0
    for node in NATIVE.tree(markdown).children:
        name = node.name
        if name == "paragraph":  # most blocks: nothing to read
            continue
        srcmap = node.srcmap
        if srcmap is None:  # every block has one; typed optional by the binding
            continue
        if name == "fence":
            start, end = srcmap
            line += data.count(b"\n", offset, start)
            offset = start
            fences.append((line, _fence_end(data, node.meta, line, start, end)))
        elif name == "heading" or name == "lheading":
            start = srcmap[0]
            line += data.count(b"\n", offset, start)
            offset = start
            children = node.children
            text = children[0].meta["content"] if children else ""
            headings.append((line, node.meta["level"], *markdown_heading(text)))
        elif name == "html_block" and (found := html_heading(node.meta["content"])):
            start = srcmap[0]
            line += data.count(b"\n", offset, start)
            offset = start
            headings.append((line, *found))
    return headings, fences


def _fence_end(data: bytes, meta: Mapping[str, Any], line: int, start: int, end: int) -> int:
    """Line after a fence: after its closing marker, or, when it has none, the end of the
    document as markdown-it counts it (trailing blank lines included, but not a last line
    of spaces without a newline)."""
    last_start = data.rfind(b"\n", start, max(start, end - 1)) + 1
    if last_start > start:  # the fence has more than its opening line
        closing = data[last_start:end].strip(b" \t")
        if len(closing) >= meta["marker_len"] and closing == meta["marker"].encode() * len(closing):
            return line + data.count(b"\n", start, last_start) + 1
    tail = data[data.rfind(b"\n") + 1 :]
    return data.count(b"\n") + bool(tail.strip(b" \t"))  # a blank last line is not counted


NATIVE: Any  # markdown-it-pyrs' parser, the block rules only; None where it is not installed
try:
    from markdown_it_pyrs import MarkdownIt as _NativeMarkdownIt
except ImportError:  # Python 3.13+: no wheel (pyproject.toml requires it below 3.13 only)
    NATIVE = None
else:
    NATIVE = _NativeMarkdownIt("zero")
    NATIVE.enable_many(["paragraph", *_RULES])

blocks: Blocks = native_blocks if NATIVE is not None else python_blocks
PARSER = "markdown-it-pyrs" if NATIVE is not None else "markdown-it-py"
