"""Jupyter notebooks (``.ipynb``): their cells read as one Markdown document, cut by its headings.

A notebook is JSON: its Markdown cells are prose, its code cells code, each cell's text a list of
lines. The cells are put together in order, a Markdown cell as it is, a code cell as a fenced
block in the notebook's language, and that document is cut as any Markdown file is
(``markdown``: sections by heading, front matter in a first cell, links, decisions): a section
holds its prose and the code under it, anchored by its heading's slug (``analysis.ipynb#load-the-data``).

A Python notebook's code cells, put together in order, are also read as a Python module for the
graph (``python_code``): its imports, the calls it makes and the functions and classes it defines
(``what calls load_data`` finds the notebook that does). A line of IPython's own syntax (``%matplotlib
inline``, ``!pip install x``, ``df.head?``) is left out, a cell of it (``%%bash``) too; code that Python cannot
parse then gives no relations, its excerpts stay.

The cells' outputs (printed text, tables, images) are not read: they are results of a run,
often large and encoded, not what someone wrote. A notebook may therefore be larger than the
size cap of other files (``parsers.NOTEBOOK_SIZE_FACTOR``).

An excerpt's lines are the notebook file's: from the line where the first cell it holds begins
to the line where the last one ends (its ``"cell_type"`` key to the next cell's), the place a
reader opens in the file. A notebook written on one line, or whose cells cannot be told apart
in its text, gives every excerpt the whole file's lines. A reference or a definition in code is
at its own line of the file where a cell's source is written a line to a line (Jupyter's way),
else at its cell's first line.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from kenning.ingest.chunks import Chunk
from kenning.ingest.decisions import parse_markdown_relations
from kenning.ingest.relations import Relations

# A cell's ``"cell_type"`` key in the file's text. Inside a JSON string a quote is written ``\"``,
# so a quote not preceded by a backslash opens a key or a value, never text a cell holds.
_CELL_KEY = re.compile(r'(?<!\\)"cell_type"\s*:')
# The notebook's own ``"metadata"`` key after its cells (Jupyter writes the keys sorted, one space
# of indent): where the last cell ends.
_NOTEBOOK_METADATA = re.compile(r'^ ?"metadata"\s*:', re.M)


def parse_notebook(text: str, path: str) -> tuple[list[Chunk], Relations]:
    """The excerpts and relations (its Markdown's links, a Python notebook's code) of a notebook.
    ``ValueError`` for text that is not one (a sync counts the file as ``parse_error``)."""
    cells, language = _cells(text)
    document, owners = _document(cells, language)
    chunks, relations = parse_markdown_relations(document, path)
    spans = _cell_lines(text, len(cells))
    whole = (1, text.count("\n") + 1)

    def lines(first: int, last: int) -> tuple[int, int]:
        if spans is None or not owners:
            return whole
        begin, end = spans[_owner(owners, first)][0], spans[_owner(owners, last)][1]
        return begin, max(begin, end)

    placed = []
    for chunk in chunks:
        first, last = lines(chunk.line_start, chunk.line_end)
        placed.append(replace(chunk, line_start=first, line_end=last))
    refs = tuple(ref._replace(line=lines(ref.line, ref.line)[0]) if ref.line else ref for ref in relations.refs)
    code = _code_relations(text, cells, language, path, spans)
    if code is None:
        return placed, replace(relations, refs=refs)
    return placed, replace(code, refs=(*refs, *code.refs), decision=relations.decision)


# IPython's own syntax: a line opening with a magic (``%time``), a shell escape (``!ls``) or help
# (``?x``), or one that asks for help after a name (``df.head?``, ``np.*load*??``): no Python line
# ends so outside a comment or a string.
_IPYTHON_LINE = re.compile(r"\s*[%!?]|\s*[\w.*\[\]]+\?{1,2}\s*$")


def _code_relations(
    text: str, cells: list[dict[str, Any]], language: str, path: str, spans: list[tuple[int, int]] | None
) -> Relations | None:
    """The relations of a Python notebook's code cells read as one module, their lines the
    notebook file's: the line of the code itself where the file writes its cell's source a line
    to a line, as Jupyter does (:func:`_source_line`), else the first line of its cell; None for
    another language, code Python cannot parse, or a notebook whose cells cannot be told apart
    in its text."""
    if language != "python" or spans is None:
        return None
    from kenning.ingest.python_code import parse_python_relations

    file_lines = text.split("\n")
    lines: list[str] = []
    places: list[int] = []  # each code line's line in the file
    for index, cell in enumerate(cells):
        if cell.get("cell_type") != "code":
            continue
        source = _source_text(cell)
        cell_lines = source.split("\n")
        magic_cell = source.lstrip().startswith("%%")
        lines.extend("" if magic_cell or _IPYTHON_LINE.match(line) else line for line in cell_lines)
        first = _source_line(file_lines, spans[index], cell)
        places.extend(first + offset if first else spans[index][0] for offset in range(len(cell_lines)))
    if not lines:
        return None
    _, relations = parse_python_relations("\n".join(lines), path)
    if relations is None:
        return None
    symbols = tuple(
        s._replace(line_start=_owner(places, s.line_start), line_end=_owner(places, s.line_end))
        for s in relations.symbols
    )
    refs = tuple(r._replace(line=_owner(places, r.line)) if r.line else r for r in relations.refs)
    return replace(relations, symbols=symbols, refs=refs)


def _source_line(file_lines: list[str], span: tuple[int, int], cell: dict[str, Any]) -> int | None:
    """The file's line of a cell's first line of source, where the file writes the source as
    Jupyter does, an element a line (``"source": [`` then one JSON string per line, each ending
    with its newline but the last); None where it does not (a string, a notebook on one line)."""
    source = _source(cell)
    if not isinstance(source, list) or not source or not all(isinstance(part, str) for part in source):
        return None
    if any(part.count("\n") != (index < len(source) - 1) for index, part in enumerate(source)):
        return None
    start, end = span
    for number in range(start, min(end, len(file_lines)) + 1):
        if _SOURCE_KEY.fullmatch(file_lines[number - 1]):
            closing = number + len(source) + 1
            fits = closing <= len(file_lines) and file_lines[closing - 1].strip().startswith("]")
            return number + 1 if fits else None
    return None


# The line that opens a cell's source array in Jupyter's format (``   "source": [``).
_SOURCE_KEY = re.compile(r'\s*"(?:source|input)"\s*:\s*\[\s*')


def _owner(owners: list[int], line: int) -> int:
    """What ``owners`` holds for a 1-based ``line`` of a text put together from cells (each line's
    cell, or its line in the file), a line past either end counted as the nearest one."""
    return owners[min(max(line, 1), len(owners)) - 1]


def _cells(text: str) -> tuple[list[dict[str, Any]], str]:
    """The notebook's cells (nbformat 4, or 3's worksheets) and its language (``python`` when it
    does not say)."""
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a notebook: {exc}") from exc
    if not isinstance(notebook, dict):
        raise ValueError("not a notebook: no JSON object")
    cells = notebook.get("cells")
    if cells is None and isinstance(notebook.get("worksheets"), list):  # nbformat 3
        cells = [c for sheet in notebook["worksheets"] if isinstance(sheet, dict) for c in sheet.get("cells") or []]
    if not isinstance(cells, list):
        raise ValueError("not a notebook: no cells")
    metadata = _mapping(notebook.get("metadata"))
    info, kernel = _mapping(metadata.get("language_info")), _mapping(metadata.get("kernelspec"))
    language = info.get("name") or kernel.get("language") or notebook.get("language") or "python"
    language = language if isinstance(language, str) and re.fullmatch(r"[\w+#.-]+", language) else "python"
    return [c for c in cells if isinstance(c, dict)], language.lower()


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _document(cells: list[dict[str, Any]], language: str) -> tuple[str, list[int]]:
    """The cells as one Markdown text, and for each of its lines the index of the cell it comes
    from (the blank line after a cell is that cell's)."""
    lines: list[str] = []
    owners: list[int] = []
    for index, cell in enumerate(cells):
        source = _source_text(cell)
        kind = cell.get("cell_type")
        if kind == "code":
            if not source.strip():
                continue
            fence = "`" * max(3, _longest_backticks(source) + 1)
            block = f"{fence}{language}\n{source.rstrip(chr(10))}\n{fence}"
        elif kind == "heading":  # nbformat 3
            level = cell.get("level")
            depth = min(max(level, 1), 6) if isinstance(level, int) else 1
            block = "#" * depth + " " + " ".join(source.split())
        else:  # markdown, raw
            block = source.rstrip("\n")
        cell_lines = block.split("\n")
        lines.extend([*cell_lines, ""])
        owners.extend([index] * (len(cell_lines) + 1))
    return "\n".join(lines), owners


def _source(cell: dict[str, Any]) -> object:
    """A cell's source as the file holds it: a list of lines, or a string (``input`` in nbformat 3)."""
    return cell.get("source", cell.get("input"))


def _source_text(cell: dict[str, Any]) -> str:
    """A cell's source as one text, its line ends made ``\\n``."""
    source = _source(cell)
    if isinstance(source, list):
        source = "".join(part for part in source if isinstance(part, str))
    if not isinstance(source, str):
        return ""
    return source.replace("\r\n", "\n").replace("\r", "\n")


def _longest_backticks(source: str) -> int:
    return max((len(run) for run in re.findall(r"`+", source)), default=0)


def _cell_lines(text: str, count: int) -> list[tuple[int, int]] | None:
    """Each cell's first and last line in the file, or None when the file does not show its
    cells one by one (on one line, or another count of ``"cell_type"`` keys than of cells)."""
    starts: list[int] = []
    line, position = 1, 0
    for match in _CELL_KEY.finditer(text):  # lines counted from one key to the next: linear
        line += text.count("\n", position, match.start())
        position = match.start()
        starts.append(line - _opened_above(text, position))
    if len(starts) != count or not count or len(set(starts)) != count:
        return None
    after = _NOTEBOOK_METADATA.search(text, position)
    end = line + text.count("\n", position, after.start()) - 1 if after is not None else text.count("\n") + 1
    bounds = [*starts[1:], end + 1]
    return [(start, max(start, following - 1)) for start, following in zip(starts, bounds, strict=True)]


def _opened_above(text: str, key: int) -> int:
    """1 when the line above the one holding the key at ``key`` only opens the cell's object
    (``{``, as Jupyter writes it), 0 otherwise: the cell begins there."""
    begin = text.rfind("\n", 0, key) + 1
    if begin == 0:
        return 0
    above = text.rfind("\n", 0, begin - 1) + 1
    return 1 if text[above : begin - 1].strip() == "{" else 0
