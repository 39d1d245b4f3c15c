"""Terraform and other HCL files (``.tf``, ``.tfvars``, ``.hcl``) read by their blocks, with
tree-sitter's HCL grammar (``tree-sitter-hcl``).

A top-level block is one excerpt, its comment above it included, titled by its header as written
(``resource "aws_nat_gateway" "this"``, ``variable "enable_nat_gateway"``), its meta naming the
address Terraform gives it (``aws_nat_gateway.this``, ``var.enable_nat_gateway``,
``data.aws_iam_policy_document.flow_log``, ``module.vpc``, ``output.nat_public_ips``): "which file
creates the NAT gateways" finds the resource's own excerpt, not a run of lines holding it among
others (terraform-aws-vpc, walked). A block longer than an excerpt is cut at its blank lines, each
part titled ``HEADER (part N)``. The lines outside every block (a ``.tfvars`` file's assignments)
are excerpts of runs of lines, as a code file's are. A file the grammar cannot read whole (a
syntax error) is read by its lines, as before. No graph: the references between blocks
(``var.x``, ``aws_eip.nat``) are not read yet."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from kenning.ingest.chunks import Chunk
from kenning.ingest.identifiers import keywords_for
from kenning.ingest.split import EXCERPT_CHARS, Piece, anchors, index_lines, split_lines, split_range
from kenning.ingest.text import parse_text
from kenning.ingest.uncovered import gap_title, uncovered_pieces

# A block's type -> the prefix of its address (a resource's is its type and name alone).
_ADDRESS_PREFIX = {"variable": "var", "data": "data", "module": "module", "output": "output", "provider": "provider"}
MAX_TITLE = 200


@cache
def _parser() -> Any:
    import tree_sitter_hcl
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_hcl.language()))


def parse_terraform(text: str, path: str) -> list[Chunk]:
    """The excerpts of an HCL file: one per top-level block, then the runs of lines outside them."""
    language = "terraform" if path.endswith((".tf", ".tfvars")) else "hcl"
    tree = _parser().parse(text.encode("utf-8", "surrogatepass"))
    if tree.root_node.has_error:
        return [replace(c, type="code", meta={"language": language}) for c in parse_text(text, path)]
    lines = split_lines(text.removeprefix("\ufeff"))
    doc = index_lines(lines)
    chunks: list[Chunk] = []
    nodes = tree.root_node.named_children
    body = next((n for n in nodes if n.type == "body"), None)
    blocks = [n for n in body.named_children if n.type == "block"] if body is not None else []
    statements = [(n.start_point[0], n.end_point[0] + 1) for n in (body.named_children if body else [])]
    for block in blocks:
        first, last = _with_comment_above(lines, block.start_point[0]), block.end_point[0]
        header = _header(block)
        address, kind = _address(header)
        meta = {"language": language, "symbol": address, "kind": kind}
        keywords = keywords_for(address, *header)
        title = " ".join([header[0], *(f'"{label}"' for label in header[1:])])[:MAX_TITLE]
        pieces = split_range(doc, first, last, EXCERPT_CHARS)
        for n, (piece, anchor) in enumerate(zip(pieces, anchors(pieces), strict=True), start=1):
            titled = title if n == 1 else f"{title} (part {n})"
            chunks.append(_chunk(titled, piece, anchor, keywords, meta))
    covered = [(c.line_start, c.line_end) for c in chunks]
    name = path.rpartition("/")[2]
    meta = {"language": language}
    gaps = uncovered_pieces(lines, covered, statements, EXCERPT_CHARS)
    for piece, anchor in zip(gaps, anchors(gaps), strict=True):
        title = gap_title(piece, MAX_TITLE, f"{name} (lines {piece.first + 1}-{piece.last + 1})")
        chunks.append(_chunk(title, piece, anchor, keywords_for(name), meta))
    return sorted(chunks, key=lambda c: c.line_start)


def _chunk(title: str, piece: Piece, anchor: str, keywords: str, meta: dict[str, str]) -> Chunk:
    return Chunk("code", title, piece.body, anchor, piece.first + 1, piece.last + 1, keywords, meta)


def _header(block: Any) -> tuple[str, ...]:
    """A block's type and labels, unquoted: ``("resource", "aws_nat_gateway", "this")``."""
    parts = []
    for child in block.children:
        if child.type == "block_start":
            break
        if child.type == "identifier":
            parts.append(child.text.decode("utf-8", "replace"))
        elif child.type == "string_lit":
            parts.append(child.text.decode("utf-8", "replace").strip('"'))
    return tuple(parts) or ("block",)


def _address(header: tuple[str, ...]) -> tuple[str, str]:
    """The address Terraform gives a block (``aws_nat_gateway.this``, ``var.name``), and its kind."""
    kind, labels = header[0], header[1:]
    if kind == "resource" and labels:
        return ".".join(labels), kind
    prefix = _ADDRESS_PREFIX.get(kind)
    if prefix and labels:
        return ".".join((prefix, *labels)), kind
    return ".".join(header), kind


def _with_comment_above(lines: list[str], first: int) -> int:
    """``first`` (0-based), or the first line of the comment right above it (no blank between)."""
    while first > 0 and lines[first - 1].lstrip().startswith(("#", "//", "/*", "*")):
        first -= 1
    return first
