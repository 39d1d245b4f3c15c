"""What a Python definition's excerpt is titled and keyed by: its compact title, the words of its
whole signature, its header as written and its docstring's first paragraph (``ingest.python_code``
cuts the file; these read one definition)."""

from __future__ import annotations

import ast
import io
import re
import tokenize

from .identifiers import keywords_for
from .python_locals import dotted as dotted_name

TITLE_CHARS = 80  # a title names the symbol and its parameters; the full signature is in the body
ANNOTATION_CHARS = 24  # a longer annotation is left out of the title

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef

_DEF_NAME = re.compile(r"^(async\s+def|def|class)\s+(\w+)")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def compact_title(node: Definition, qualname: str, kind: str, limit: int | None = TITLE_CHARS) -> str:
    """A definition's title within ``limit`` characters; the full signature stays in the body.

    Without defaults or ``self``/``cls``; short annotations and return type kept when the
    whole fits (``def SSLConfig.load(ssl_context: ssl.SSLContext) -> None``), else the
    parameters' names only, cut (``def Client.request(method, url, *, content, …)``). A class
    keeps its bases (``class Store(Base, metaclass=Meta)``), cut the same way."""
    if isinstance(node, ast.ClassDef):
        bases = [_unparsed(b) for b in node.bases]
        bases += [f"{k.arg}={_unparsed(k.value)}" if k.arg else f"**{_unparsed(k.value)}" for k in node.keywords]
        return _cut_title(f"class {qualname}", bases, limit)
    a = node.args
    params = [*a.posonlyargs, *a.args]
    dropped = int(kind == "method" and bool(params) and params[0].arg in ("self", "cls") and not _is_static(node))
    params = params[dropped:]
    slash = len(a.posonlyargs) - dropped if a.posonlyargs else 0  # where "/" goes, if anywhere
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    for annotated in (True, False):
        # ``_param`` of each, called only for an annotated one (most parameters are not).
        parts = [p.arg if p.annotation is None else _param(p, annotated) for p in params]
        if slash > 0:
            parts.insert(slash, "/")
        if a.vararg:
            parts.append("*" + _param(a.vararg, annotated))
        elif a.kwonlyargs:
            parts.append("*")
        parts += [p.arg if p.annotation is None else _param(p, annotated) for p in a.kwonlyargs]
        if a.kwarg:
            parts.append("**" + _param(a.kwarg, annotated))
        title = _cut_title(f"{prefix} {qualname}", parts, None)
        returns = _unparsed(node.returns) if node.returns is not None else ""
        if annotated and returns and len(returns) <= ANNOTATION_CHARS:
            title += f" -> {returns}"
        if limit is None or len(title) <= limit:
            return title
    return _cut_title(f"{prefix} {qualname}", parts, limit)


def _param(arg: ast.arg, annotated: bool) -> str:
    if not annotated or arg.annotation is None:
        return arg.arg
    annotation = _unparsed(arg.annotation)
    return f"{arg.arg}: {annotation}" if len(annotation) <= ANNOTATION_CHARS else arg.arg


def _cut_title(head: str, parts: list[str], limit: int | None) -> str:
    if not parts:
        return head if head.startswith("class") else f"{head}()"
    title = f"{head}({', '.join(parts)})"
    if limit is None or len(title) <= limit:
        return title
    kept: list[str] = []
    for part in parts:
        if len(head) + len(", ".join([*kept, part, "…"])) + 2 > limit:
            break
        kept.append(part)
    return f"{head}({', '.join([*kept, '…'])})"


def _unparsed(node: ast.expr) -> str:
    dotted = dotted_name(node)
    return dotted if dotted is not None else " ".join(ast.unparse(node).split())


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def signature_keywords(node: Definition, lines: list[str], qualname: str, module: str) -> str:
    """The keywords of the whole signature (``def Cls.run(self, x: int) -> str``: annotations and
    return type included): they weigh in search, and the compact title alone lost answers
    (bench/real_projects.py). The signature is not written out: its words are those of its
    keyword, its qualname (met already: no new word) and the rest of its header (the name ends
    with a word character, and what follows it in a header cannot continue a token)."""
    header = header_of(node, lines)
    match = _DEF_NAME.match(header)
    if match is None:
        return keywords_for(qualname, header, module)
    return keywords_for(qualname, match.group(1), header[match.end() :], module)


def header_of(node: Definition, lines: list[str]) -> str:
    """Source of ``def …(…) -> …`` or ``class …(…)`` up to (not including) its colon."""
    first = lines[node.lineno - 1].strip()
    if _plain_header(first):
        return first[:-1].rstrip()
    rows = lines[node.lineno - 1 : node.body[0].lineno]
    rows[0] = rows[0].lstrip()
    comments: dict[int, int] = {}
    depth = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO("\n".join(rows) + "\n").readline):
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok.start[1]
            elif tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
            elif tok.type == tokenize.OP and tok.string == ":" and depth == 0:
                row, col = tok.start
                break
        else:
            raise tokenize.TokenError("no colon")
    except (tokenize.TokenError, SyntaxError):
        return rows[0].split("#", 1)[0].rstrip().rstrip(":")
    if row == 1:
        return rows[0][:col].rstrip()
    parts = [rows[r - 1][: comments.get(r, len(rows[r - 1]))] for r in range(1, row)]
    parts.append(rows[row - 1][:col])
    flat = " ".join(" ".join(parts).split())
    flat = re.sub(r"([(\[{]) ", r"\1", flat)
    flat = re.sub(r" ([)\]}])", r"\1", flat)
    return re.sub(r",([)\]}])", r"\1", flat)


def _plain_header(line: str) -> bool:
    """A one-line header ending with its colon: no string, comment or lambda to confuse us.

    With balanced brackets, the final colon is at depth 0, hence the one ending the header.
    """
    line = line.rstrip()
    return (
        line.endswith(":")
        and "'" not in line  # no string, comment, line continuation or lambda (five scans in C
        and '"' not in line  # cost less than one search of a pattern with these alternatives)
        and "#" not in line
        and "\\" not in line
        and "lambda" not in line
        and line.count("(") == line.count(")")
        and line.count("[") == line.count("]")
        and line.count("{") == line.count("}")
    )


def docstring_summary(node: Definition | ast.Module) -> str:
    """First paragraph of a node's docstring, on one line: ``summary(ast.get_docstring(node))``
    without the cost of ``inspect.cleandoc``, whose tab expansion and margin removal change
    only whitespace within lines, which the summary collapses anyway (and no line turns blank
    or stops being blank, so the paragraph ends where it did)."""
    if not (node.body and isinstance(node.body[0], ast.Expr)):
        return ""
    value = node.body[0].value
    if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        return ""
    return summary(value.value)


def summary(docstring: str | None) -> str:
    """First paragraph of a docstring, on one line."""
    if not docstring:
        return ""
    return " ".join(_PARAGRAPH_BREAK.split(docstring.strip(), maxsplit=1)[0].split())
