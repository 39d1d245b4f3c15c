"""Text as the pack shows it: the HTML and badge shells of READMEs stripped, markup left out.

READMEs of ordinary projects open with centred HTML blocks (``<p align="center">``), logos,
badges and reStructuredText title adornments. None of it says anything to an agent; the
words inside the tags do (``<strong>HTTPX</strong>`` keeps "HTTPX"). Pure functions.
"""

from __future__ import annotations

import re

_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMAGE_LINK = re.compile(r"\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)")  # [![alt](img)](href): a badge
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]")  # ![alt](src), ![alt][ref]
_IMG_TAG = re.compile(r"<(img|picture|source|svg|video|br|hr)\b[^>]*/?>", re.I)
_SVG = re.compile(r"<svg\b.*?</svg>", re.S | re.I)
_HTML = (
    "a|abbr|b|blockquote|br|center|code|dd|del|details|div|dl|dt|em|figcaption|figure|font|h[1-6]|hr|i|img|"
    "ins|kbd|li|ol|p|picture|pre|s|small|source|span|strong|sub|summary|sup|table|tbody|td|th|thead|tr|u|ul"
)
_TAG = re.compile(rf"</?({_HTML})(\s[^<>]*)?/?>", re.I)  # known HTML only: ``<Response [200 OK]>`` stays
# A fence opens after a blank line (or at the start): a ``~~~`` under a title line is a
# reStructuredText adornment, not a fence.
_FENCE = re.compile(r"(?:\A|(?<=\n\n))[ \t]{0,3}(`{3,}|~{3,}).*?(^[ \t]{0,3}\1[ \t]*$|\Z)", re.M | re.S)
_RST_IMAGE = re.compile(r"^\.\. (image|figure|raw|\|[^|]+\| image)::.*(\n[ \t]+.*)*\n?", re.M)
_RST_LABEL = re.compile(r"^\.\. _[^:\n]+:.*\n?", re.M)  # labels and hyperlink targets
_RST_SUBSTITUTION = re.compile(r"\|[\w -]+\|_?")
_ADORNMENT = re.compile(r"^[ \t]*([=\-~^*#+'\".:_])\1{2,}[ \t]*$", re.M)
_BLANKS = re.compile(r"\n[ \t]*(\n[ \t]*)+")
_LINK_DEFINITION = re.compile(r"^\s*\[[^\]]+\]:\s+\S+.*$", re.M)


def strip_shells(text: str) -> str:
    """``text`` without HTML tags (their inner words kept), images, badges, comments,
    reStructuredText images, labels and title adornments; blank runs folded to one blank line.
    Fenced code blocks are kept as written."""
    parts, last = [], 0
    for fence in _FENCE.finditer(text):
        parts.append(_strip(text[last : fence.start()]))
        parts.append("\n" + fence.group(0).strip("\n") + "\n")
        last = fence.end()
    parts.append(_strip(text[last:]))
    return _BLANKS.sub("\n\n", "".join(parts)).strip()


def _strip(text: str) -> str:
    text = _COMMENT.sub("", text)
    text = _SVG.sub("", text)
    text = _IMAGE_LINK.sub("", text)
    text = _IMAGE.sub("", text)
    text = _RST_IMAGE.sub("", text)
    text = _RST_LABEL.sub("", text)
    text = _IMG_TAG.sub("", text)
    text = _TAG.sub("", text)
    text = _ADORNMENT.sub("", text)
    text = _LINK_DEFINITION.sub("", text)
    return "\n".join(_fold(line) for line in text.split("\n"))


def substitutions_only(text: str) -> bool:
    """True when nothing but reStructuredText substitutions (``|badge|``) and punctuation is left."""
    return not re.sub(r"[\W_]+", "", _RST_SUBSTITUTION.sub("", text))


def _fold(line: str) -> str:
    """A line that only held tags or substitutions becomes empty; others keep their indentation."""
    stripped = line.strip()
    if not stripped or substitutions_only(stripped):
        return ""
    return line.rstrip()
