"""Manual pages in roff (parser ``roff/1``: ``.1`` to ``.9``, ``.man``, a ``.1.in`` template) read as
the page shows them, cut by their section titles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest.parsers import load_relations, load_spans, parser_for
from kenning.ingest.roff import parse_roff, text_lines
from kenning.ingest.split import split_lines

PAGE = r""".\" Manual page for tool
.TH TOOL 1 "2026-01-01" "tool 2.1" "User Commands"
.SH NAME
tool \- print files with colours
.SH SYNOPSIS
.B tool
[\fIOPTIONS\fR] [\fIFILE\fR]...
.SH "OPTIONS"
.TP
\fB\-n\fR, \fB\-\-number\fR
Show line numbers only, no other decorations.
.TP
.BR \-\-paging = never
Never page the output: print it as \fIcat\fP does.
.IP "\fB\-\-theme\fR" 4
Set the colour theme \(em see \fBtool \-\-list\-themes\fR.
.SS "Exit status"
Zero on success, 1 on a bad option.\" not shown
.PP
It\(aqs in \*(lqthe manual\*(rq.
.SH ENVIRONMENT
.Fl v
.Nm tool
reads
.Ev TOOL_PAGER .
"""


def test_each_line_reads_as_the_page_shows_it():
    shown, headings, title = text_lines(split_lines(PAGE))
    assert title == "TOOL(1)"
    assert [(at + 1, level, name) for at, level, name in headings] == [
        (3, 1, "NAME"),
        (5, 1, "SYNOPSIS"),
        (8, 1, "OPTIONS"),
        (17, 2, "Exit status"),
        (21, 1, "ENVIRONMENT"),
    ]
    assert len(shown) == len(split_lines(PAGE))  # one line of text per line of source
    assert shown[3] == "tool - print files with colours"
    assert shown[6] == "[OPTIONS] [FILE]..."
    assert shown[9] == "-n, --number"  # fonts dropped, \- a dash: the words a question types
    assert shown[12] == "--paging=never"  # .BR joins its arguments, as roff sets them
    assert shown[14] == "--theme"  # .IP: its tag, not its indent
    assert shown[15] == "Set the colour theme — see tool --list-themes."
    assert shown[17] == "Zero on success, 1 on a bad option."  # the comment left out
    assert shown[19] == "It's in the manual."  # strings print nothing here
    assert shown[21:24] == ["-v", "tool", "reads"]  # mdoc: .Fl a flag, .Nm the name
    assert shown[0] == shown[1] == shown[8] == shown[11] == shown[18] == ""  # comment, .TH, .TP, .PP


MDOC = r""".Dd $Mdocdate$
.Dt TOOL 1
.Os
.Sh NAME
.Nm tool
.Nd print files
.Sh OPTIONS
.Bl -tag -width Ds
.It Fl c Ar cipher_spec
Selects the cipher, see
.Xr ssl 7 .
.It Fl D Xo
.Op Ar bind_address :
.Xc
.It Fl v
Verbose: say what
.Nm
does.
.El
"""


def test_an_mdoc_page_reads_as_the_page_shows_it():
    """BSD's mdoc (ssh, tmux): callable macros inside a line mark up its words."""
    shown, headings, title = text_lines(split_lines(MDOC))
    assert title == "TOOL(1)" and [(at + 1, name) for at, _, name in headings] == [(4, "NAME"), (7, "OPTIONS")]
    assert shown[4:6] == ["tool", "print files"]
    assert shown[8] == "-c cipher_spec"  # .It Fl c Ar cipher_spec
    assert shown[10] == "ssl(7) ."  # .Xr
    assert shown[11:13] == ["-D", "bind_address :"]  # Xo and Op print nothing of their own
    assert shown[14] == "-v" and shown[16] == "tool"  # a bare .Nm: the page's name
    assert shown[0] == shown[2] == shown[7] == shown[18] == ""  # .Dd, .Os, .Bl, .El


def test_sections_are_cited_by_anchor_with_the_pages_title():
    chunks = parse_roff(PAGE, "doc/tool.1", max_chars=200)
    by_anchor = {c.anchor: c for c in chunks}
    options = next(c for c in chunks if "--number" in c.body)
    assert options.title.startswith("TOOL(1) > OPTIONS") and options.anchor.startswith("#options")
    assert "\\f" not in options.body and "Show line numbers only" in options.body
    assert by_anchor["#exit-status"].title == "TOOL(1) > OPTIONS > Exit status"
    assert (options.line_start, options.line_end) != (None, None) and options.line_start >= 8


def test_a_template_without_a_title_and_a_file_that_is_no_manual():
    template = PAGE.replace('.TH TOOL 1 "2026-01-01"', '.TH {{PROJECT_EXECUTABLE_UPPERCASE}} 1 "2026-01-01"')
    chunks = parse_roff(template, "assets/manual/tool.1.in", max_chars=200)
    assert chunks and all(c.title.startswith("tool.1") for c in chunks)  # the placeholder is no title
    assert parse_roff("2026-01-01 12:00 started\n2026-01-01 12:01 stopped\n", "logs/app.log.1") == []


def test_manual_pages_use_the_roff_parser_and_spans_match_the_parse():
    for path in ("doc/rg.1", "man/man5/sway.5", "tests/fzf.man", "assets/manual/bat.1.in", "x/y.8.in"):
        assert parser_for(path) == "roff/1", path
    assert parser_for("Makefile.in") is None and parser_for("config.h.in") is None and parser_for("a.10") is None
    chunks, relations = load_relations("roff/1")(PAGE, "doc/tool.1")
    assert relations is None
    assert [(c.title, c.body, c.anchor) for c in load_spans("roff/1")(PAGE, "doc/tool.1")] == [
        (c.title, c.body, c.anchor) for c in chunks
    ]


def test_a_synced_manual_page_answers_an_option_question(cli, make_project):
    """End to end: `kenning ask` cites the manual's section for the words of an option, current,
    then stale once the page is edited and not synced."""
    project = make_project({"doc/tool.1": PAGE, "README.md": "# Tool\n\nPrints files.\n"})
    assert cli("sync", "--project", str(project.root)).code == 0
    answer = cli("ask", "show line numbers only", "--project", str(project.root), "--json").json()
    top = answer["excerpts"][0]
    assert top["source"]["uri"].startswith("doc/tool.1#") and top["type"] == "doc"
    assert top["freshness"]["state"] == "current" and "--number" in top["snippet"]
    path = project.root / "doc" / "tool.1"
    path.write_text(PAGE.replace("no other decorations", "nothing else"), encoding="utf-8")
    again = cli("ask", "show line numbers only", "--project", str(project.root), "--json").json()
    assert again["excerpts"][0]["freshness"]["state"] == "stale"


LINES = st.sampled_from(
    [".SH NAME", '.SS "A sub"', ".TH X 1", ".TP", ".PP", r".\" c", ".B bold", ".BR a b", r"\fBx\fR \- y"]
    + [".Fl n", '.IP "t" 4', "", "plain words", r"\(em \[aq] \e", ".nf", "'br", ".unknown arg", "word " * 50]
)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINES, max_size=50), cap=st.integers(min_value=40, max_value=600))
def test_every_line_gives_one_line_and_no_excerpt_passes_the_cap(lines, cap):
    text = "\n".join(lines)
    shown, headings, _ = text_lines(split_lines(text))
    assert len(shown) == len(split_lines(text))
    chunks = parse_roff(text, "doc/x.1", max_chars=cap)
    assert bool(chunks) == bool(headings)
    assert all(len(c.body) <= cap for c in chunks)
    assert len({c.anchor for c in chunks}) == len(chunks)
