"""Text for the memory layers, shared by the CLI and MCP so that they cannot drift.

Budgets per row (tokens ≈ characters ÷ 4, measured by bench/token_economy.py): an index row
aims at 58 characters, a search hit at 240, a record at 800 (body cut at 520). Every
cut is visible: titles end with "…", bodies with a `[cut: …]` line saying how to get the rest.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from kenning.citation import format_citation
from kenning.clock import parse_iso
from kenning.instruction_like import FLAG, fact_instruction_like, instruction_like
from kenning.interfaces.render import badge, line_range
from kenning.memory.layers import Detail
from kenning.memory.sessions import SUMMARY_PARTS, ToolUse
from kenning.memory.timeline import Entry
from kenning.records import Answer, Excerpt, Fact, Freshness, FreshnessState, Lifecycle
from kenning.tokens import cut

INDEX_ROW_CHARS = 58
MIN_TITLE_CHARS = 20
MIN_HEAD_CHARS = 8  # a section title's document part, when cut to keep the section
SEARCH_TITLE_CHARS = 60
SEARCH_SNIPPET_CHARS = 130
DETAIL_BODY_CHARS = 520
FULL_BODY_CHARS = 20_000
REPLY_MAX_CHARS = 16_000
TOOL_IO_CHARS = 4_000

SHORT_TYPES = {
    "observation": "obs",
    "decision": "dec",
    "session_summary": "sum",
    "convention": "conv",
    "failure": "fail",
    "evidence": "evid",
    "verdict": "verd",
    "commit": "cmt",
}


def short_type(type_: str) -> str:
    return SHORT_TYPES.get(type_, type_[:6])


def age_days(fact: Fact, fresh: Freshness) -> int:
    if fresh.age_days is not None:
        return fresh.age_days
    stamp = fact.dates.source or fact.dates.indexed
    return max(0, (parse_iso(fresh.checked) - parse_iso(stamp)).days)


def _flag(fresh: Freshness) -> str:
    match fresh.state:
        case FreshnessState.STALE:
            return "STALE "
        case FreshnessState.HYPOTHESIS:
            return "hyp "
        case FreshnessState.SOURCE_MISSING:
            return "MISSING "
    return ""


def index_row(ex: Excerpt, top: float | None) -> str:
    fact = ex.fact
    rel = "-" if not top else f"{ex.score / top:.2f}".lstrip("0") or "0"
    imp = f"i{fact.importance}" if fact.importance is not None else "i-"
    prefix = (
        f"{fact.citation} {short_type(fact.type)} {imp} r{rel} {age_days(fact, ex.freshness)}d {_flag(ex.freshness)}"
    )
    return prefix + row_title(_row_label(fact), max(MIN_TITLE_CHARS, INDEX_ROW_CHARS - len(prefix)))


def _row_label(fact: Fact) -> str:
    """What an index row names: a code symbol's excerpt by its name first (``SyncWorker.doWork:
    override suspend fun doWork()…``), which its signature, cut to the row's twenty-odd
    characters, lost (``override suspend fun…``), unless its title names it already; any other
    excerpt by its title."""
    symbol = fact.meta.get("symbol") if fact.type == "code" and fact.meta.get("kind") not in (None, "module") else None
    if not isinstance(symbol, str) or not symbol:
        return fact.title
    short = ".".join(symbol.split(".")[-2:])  # the class and the method: the module is in the citation's file
    return fact.title if short in fact.title else f"{short}: {fact.title}"  # Python's ``def Cart.total()`` says it


def row_title(title: str, width: int) -> str:
    """``title`` in ``width`` characters, plus "…" when cut. A section's title ("Doc > Section")
    keeps its last section whole and cuts the document's title instead, so that the sections
    of one document stay apart in the index."""
    title = " ".join(title.split())
    kept, lost = cut(title, width)
    if not lost:
        return title
    head, sep, last = title.rpartition(" > ")
    room = width - len(sep) - len(last)
    if sep and room >= MIN_HEAD_CHARS:
        short, head_lost = cut(head, room)
        return short + ("…" if head_lost else "") + sep + last
    return kept + "…"


def index_text(answer: Answer) -> str:
    top = answer.excerpts[0].score if answer.excerpts and answer.query else None
    head = f"memory_index · {len(answer.excerpts)} row(s)" + (
        f" for {answer.query!r}" if answer.query else " · newest saved memories"
    )
    lines = [head + " · columns: citation type importance relevance age title"]
    lines.extend(_empty_lines(answer))
    lines.extend(index_row(ex, top) for ex in answer.excerpts)
    return "\n".join(lines)


def search_hit(ex: Excerpt) -> str:
    fact = ex.fact
    title, lost = cut(" ".join(fact.title.split()), SEARCH_TITLE_CHARS)
    day = (fact.dates.source or fact.dates.indexed)[:10]
    head = f"{fact.citation} [{badge(ex.freshness)}] {short_type(fact.type)} · {title}{'…' if lost else ''} · {day}"
    snippet = ex.snippet
    lead = fact.title.rstrip("…").strip()
    if lead and snippet.startswith(lead) and len(snippet) > len(lead):
        snippet = "…" + snippet[len(lead) :].lstrip()  # the title already said it
    snippet, more = cut(snippet, SEARCH_SNIPPET_CHARS)
    flag = f"\n  {FLAG}" if instruction_like(fact.title, ex.snippet) else ""  # the words shown
    return f"{head}\n  {snippet}{'…' if more else ''}{flag}"


def search_text(answer: Answer, rollups: Sequence[Excerpt] = ()) -> str:
    lines = [f"memory_search · {len(answer.excerpts)} hit(s) for {answer.query!r}"]
    lines.extend(_empty_lines(answer))
    lines.extend(search_hit(ex) for ex in answer.excerpts)
    if rollups:
        lines.append("Session rollups:")
        lines.extend(search_hit(ex) for ex in rollups)
    return "\n".join(lines)


def scored_text(answer: Answer, *, title: str, withheld: int | None = None, pool_full: bool = False) -> str:
    lines = [f"{title} · {len(answer.excerpts)} result(s) for {answer.query!r}"]
    if withheld is not None:
        more = "+" if pool_full else ""
        lines.append(
            f"withheld: {withheld}{more} weak match(es) (not every query term present)"
            + ("; recall(...) serves them with scores" if withheld else "")
        )
    lines.extend(_empty_lines(answer, skip_filtered={"weak_match"}))
    for ex in answer.excerpts:
        lines.append(f"{ex.rank}. score {ex.score:.3g} · " + search_hit(ex))
    return "\n".join(lines)


def detail_text(detail: Detail, *, full: bool = False) -> tuple[str, bool]:
    """A full record; returns the text and whether its body was cut."""
    fact = detail.fact
    marks = [badge(detail.freshness)]
    if fact.lifecycle is not Lifecycle.ACTIVE:
        marks.append(fact.lifecycle.value + (f" by #{fact.superseded_by}" if fact.superseded_by else ""))
    marks.append(fact.producer)
    if detail.session_id:
        marks.append(f"session {detail.session_id}")
    if fact.importance is not None:
        marks.append(f"importance {fact.importance}")
    if fact.memory_type:
        marks.append(fact.memory_type)
    marks.append((fact.dates.source or fact.dates.indexed)[:10])
    lines = [f"{fact.citation} · {fact.type} · {fact.title}", " · ".join(marks)]
    if fact.source.kind == "file":
        uris = [loc.uri for loc in fact.locations[:3]] or [fact.source.uri]
        lines.append("source: " + ", ".join(line_range(uri) for uri in uris))
    if fact.tags:
        lines.append("tags: " + ", ".join(fact.tags))
    if fact_instruction_like(fact, *(detail.summary or {}).values()):
        lines.append(FLAG)
    for label, value in (("why", fact.why), ("how to apply", fact.how_to_apply)):
        if value:
            lines.append(f"{label}: {value}")
    if detail.summary:
        lines.extend(
            f"{part.replace('_', ' ')}: {detail.summary[part]}" for part in SUMMARY_PARTS if detail.summary.get(part)
        )
    else:
        body, lost = cut(fact.body, FULL_BODY_CHARS if full else DETAIL_BODY_CHARS)
        lines.append(body)
        if lost:
            lines.append(f"[cut: {lost} more characters" + ("" if full else "; memory_get full=true for all") + "]")
            return "\n".join(lines), True
    return "\n".join(lines), False


def details_text(
    found: Sequence[Detail], missing: Sequence[int], *, full: bool = False, cited: str | None = None
) -> tuple[str, dict[str, int]]:
    """Records until the reply cap; returns the text and what was cut (bodies, records)."""
    blocks: list[str] = []
    size = 0
    bodies_cut = 0
    omitted: list[int] = []
    for detail in found:
        text, was_cut = detail_text(detail, full=full)
        if blocks and size + len(text) > REPLY_MAX_CHARS:
            omitted.append(detail.fact.id)
            continue
        blocks.append(text)
        size += len(text) + 2
        bodies_cut += was_cut
    if omitted:
        blocks.append(
            f"[reply cap {REPLY_MAX_CHARS} characters: not shown "
            + ", ".join(f"#{i}" for i in omitted)
            + "; ask for them in another call]"
        )
    if missing:
        # ``cited``: another project's ids (memory_get of a cross-project citation), never "#42"
        blocks.append("not found: " + ", ".join(format_citation(cited, i) if cited else f"#{i}" for i in missing))
    if not found and not missing:
        blocks.append("no ids given")
    return "\n\n".join(blocks), {"bodies_cut": bodies_cut, "records_omitted": len(omitted)}


def timeline_row(entry: Entry) -> str:
    fact = entry.fact
    mark = ">" if entry.offset == 0 else "-"
    day = (fact.dates.source or fact.dates.indexed)[:10]
    prefix = f"{mark}{fact.citation} {short_type(fact.type)} {day} {_flag(entry.freshness)}"
    title, lost = cut(" ".join(fact.title.split()), max(MIN_TITLE_CHARS, INDEX_ROW_CHARS + 12 - len(prefix)))
    return prefix + title + ("…" if lost else "")


def timeline_text(entries: Sequence[Entry], title: str) -> str:
    lines = [f"{title} · {len(entries)} row(s), chronological or by position in the file; > marks an anchor"]
    lines.extend(timeline_row(e) for e in entries)
    return "\n".join(lines)


def tool_uses_text(found: Sequence[ToolUse], missing: Sequence[str]) -> str:
    blocks = []
    for use in found:
        text_in, lost_in = cut(use.input, TOOL_IO_CHARS)
        text_out, lost_out = cut(use.response, TOOL_IO_CHARS)
        blocks.append(
            "\n".join(
                [
                    f"tool use {use.id}"
                    + (f" ({use.tool_use_id})" if use.tool_use_id else "")
                    + f" · {use.tool} · session {use.session_id} · {use.created}",
                    "input: " + text_in + (f" [cut: {lost_in} more characters]" if lost_in else ""),
                    "response: " + text_out + (f" [cut: {lost_out} more characters]" if lost_out else ""),
                ]
            )
        )
    if missing:
        blocks.append("not found: " + ", ".join(missing))
    return "\n\n".join(blocks) or "no ids given"


def _empty_lines(answer: Answer, skip_filtered: Set[str] = frozenset()) -> list[str]:
    lines = [f"excluded: {e.project} ({e.reason})" for e in answer.excluded]
    lines.extend(f"degraded: {d}" for d in answer.degradations)
    lines.extend(f"note: {n}" for n in answer.notes if not n.startswith("withheld "))
    shown = {k: n for k, n in answer.filtered.items() if k not in skip_filtered}
    if answer.empty_reason:
        why = ", ".join(f"{n} {k}" for k, n in sorted(shown.items()))
        lines.append(f"no results: {answer.empty_reason.value}" + (f" ({why} hidden)" if why else ""))
    elif shown:
        lines.append("hidden: " + ", ".join(f"{n} {k}" for k, n in sorted(shown.items())))
    return lines
