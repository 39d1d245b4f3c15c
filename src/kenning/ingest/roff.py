"""Manual pages written in roff (``rg.1``, ``bat.1.in``, ``tmux.1``, ``sway.5.man``): cut by their
section titles as reStructuredText is, each line read as the text a reader of the page sees.

A command-line tool's manual is its fullest user documentation: every option and what it does,
the files and environment variables it reads. Its source is roff, whose requests (a line that
opens with ``.`` or ``'``: ``.TP``, ``.B --number``) and escapes (``\\fB``, ``\\-``) would otherwise
split and glue the words a question asks (``\\fB\\-\\-number\\fR`` indexed as ``fb``, ``fr``…).

Each line of the file gives one line of text, so an excerpt's lines are the file's: a section
title (``.SH OPTIONS``, ``.SS "Exit status"``; mdoc's ``.Sh``, ``.Ss``) starts a section of level
1 or 2; a font or text request (``.B``, ``.BR``, ``.I``) gives its arguments as text (the
alternating ones, ``.BR``, joined as roff sets them); a line of BSD's mdoc (``.It Fl c Ar
cipher_spec``) gives its words as its callable macros mark them up (``-c cipher_spec``); a paragraph or
layout request (``.PP``, ``.TP``, ``.RS``, ``.nf``) and a comment give an empty line; an escape
gives the character it prints, or nothing for a change of font or size. The page's title is its
``.TH``'s (mdoc's ``.Dt``) name and section (``BAT(1)``), else the file's name. A file with no
section title is not a manual page: no excerpt (``rotated.log.1``).
"""

from __future__ import annotations

import re

from .chunks import Chunk
from .sections import packed_chunks, stem
from .split import index_lines, split_lines

# Section titles: man(7)'s and mdoc(7)'s, of level 1 and 2.
_LEVELS = {"SH": 1, "Sh": 1, "SS": 2, "Ss": 2}
# Requests whose arguments are text joined without spaces (roff alternates fonts between them).
_ALTERNATING = frozenset({"BR", "RB", "BI", "IB", "IR", "RI"})
# mdoc(7)'s callable macros: inside a line of mdoc they mark up the words after them (``.It Fl c Ar
# cipher`` prints ``-c cipher``) and print nothing themselves, but ``Fl`` (a dash before each word),
# ``Xr`` (``ssh_config 5`` prints ``ssh_config(5)``), ``Ns`` (no space) and ``Nm`` (the page's name).
_MDOC_CALLABLE = frozenset(
    {"Ad", "An", "Ar", "Cd", "Cm", "Dv", "Er", "Ev", "Fa", "Fl", "Fn", "Fo", "Fc", "Ic", "Li", "Nm", "Op", "Ot"}
    | {"Pa", "St", "Va", "Vt", "Xr", "Ao", "Ac", "Bo", "Bc", "Brq", "Bro", "Brc", "Bq", "Dq", "Do", "Dc", "Eo"}
    | {"Ec", "Em", "Ms", "No", "Ns", "Oo", "Oc", "Pq", "Po", "Pc", "Ql", "Qq", "Qo", "Qc", "Sq", "So", "Sc", "Sx"}
    | {"Sy", "Tn", "Ux", "Bx", "Ox", "Nx", "Fx", "Dx", "At", "Pf", "Lk", "Mt", "Aq", "It", "Nd", "Ta", "Xo", "Xc"}
)
# Requests that print nothing of their own and whose arguments are no text of the page.
_SILENT = frozenset(
    {"PP", "P", "LP", "TP", "TQ", "RS", "RE", "nf", "fi", "sp", "br", "in", "ti", "ft", "ne", "na", "ad", "hy", "nh"}
    | {"EX", "EE", "UE", "ME", "ds", "de", "nr", "so", "ig", "if", "ie", "el", "ll", "pl", "bp", "ps", "vs", "ce"}
    | {"Pp", "Bl", "El", "Bd", "Ed", "Dd", "Os", "PD", "HP", "ta", "mso", "UC", "AT", "cs", "ss", "tr"}
    | {"Bk", "Ek", "Sm", "Rs", "Re"}
)
# Escapes that print a character (``\-``, ``\(em``, ``\[aq]``); the others print nothing.
_CHARACTERS = {
    "-": "-",
    "e": "\\",
    "\\": "\\",
    " ": " ",
    "~": " ",
    "0": " ",
    "(em": "—",
    "(en": "–",
    "(hy": "-",
    "(aq": "'",
    "(dq": '"',
    "(lq": "“",
    "(rq": "”",
    "(oq": "‘",
    "(cq": "’",
    "(bu": "•",
    "(co": "©",
    "(rg": "®",
    "(tm": "™",
    "(mu": "×",
    "(<=": "≤",
    "(>=": "≥",
    "(->": "→",
    "(ti": "~",
    "(ha": "^",
    "(ga": "`",
    "(rs": "\\",
}
_PLACEHOLDER = re.compile(r"\{\{|@\w+@")
_ARGUMENT = re.compile(r'"((?:[^"]|"")*)"?|(\S+)')
_ESCAPE = re.compile(
    r"\\(?:"
    r"f(?:\[[^\]]*\]|\(..|.)"  # a change of font: \fB, \f(CW, \f[BI]
    r"|s[-+]?(?:\d\d?|\[[^\]]*\]|\(\d\d)"  # a change of size: \s-1, \s0
    r"|\*(?:\[[^\]]*\]|\(..|.)"  # a string: \*(lq, \*[url]
    r"|\[([^\]]*)\]"  # a named character: \[em]
    r"|(\(..)"  # a two-character one: \(em
    r"|\"(.*)"  # a comment, to the end of the line
    r"|(.)"  # one character: \-, \e, \&, \|, \c…
    r")"
)


def parse_roff(text: str, path: str, *, max_chars: int = 2400) -> list[Chunk]:
    """Section chunks of a manual page, its lines read as text (``text_lines``); no chunk when
    the file holds no section title."""
    lines = split_lines(text.removeprefix("\ufeff"))
    shown, headings, title = text_lines(lines)
    if not headings:
        return []
    # a template's title is a placeholder the build fills in (``{{PROJECT_EXECUTABLE_UPPERCASE}}``, ``@NAME@``)
    doc_title = title if title and not _PLACEHOLDER.search(title) else stem(path)
    return packed_chunks(index_lines(shown), doc_title, headings, False, max_chars)


def text_lines(lines: list[str]) -> tuple[list[str], list[tuple[int, int, str]], str]:
    """Each line of a roff source as the page shows it (an empty line for a layout request or a
    comment), the section titles ((line, level, name)) and the page's title (``NAME(1)`` from
    ``.TH``; "" without one)."""
    shown: list[str] = []
    headings: list[tuple[int, int, str]] = []
    title = page = ""  # the page's title (.TH), its name (mdoc's first .Nm)
    for at, line in enumerate(lines):
        if line[:1] not in (".", "'"):
            shown.append(_plain(line))
            continue
        request, _, rest = line[1:].strip().partition(" ")
        words = _arguments(rest)
        if request in _LEVELS:
            name = _plain(" ".join(words)).strip()
            headings.append((at, _LEVELS[request], name or request))
            shown.append(name)
        elif request in ("TH", "Dt") and words:  # man(7)'s title, mdoc's
            title = f"{_plain(words[0])}({_plain(words[1])})" if len(words) > 1 else _plain(words[0])
            shown.append("")
        elif request in _ALTERNATING:
            shown.append(_plain("".join(words)))
        elif request == "IP":  # an indented paragraph's tag (its second argument is the indent)
            shown.append(_plain(words[0]) if words else "")
        elif request.startswith(('\\"', "\\#")) or request in _SILENT or not request:
            shown.append("")
        elif request in _MDOC_CALLABLE:  # mdoc's .It, .Fl, .Nm, .Xr …: the line's words marked up
            page = page or (words[0] if request == "Nm" and words else "")
            shown.append(_mdoc([request, *words], page))
        else:  # .B, .I, .SM and the requests kenning does not know: their arguments as text
            shown.append(_plain(" ".join(words)))
    return shown, headings, title


def _mdoc(tokens: list[str], name: str) -> str:
    """A line of mdoc (``It Fl c Ar cipher_spec``) as the page shows it (``-c cipher_spec``);
    ``name``: the page's, which a bare ``Nm`` prints."""
    out: list[str] = []
    glued = False
    at = 0
    while at < len(tokens):
        token, at = tokens[at], at + 1
        following = [] if token not in ("Fl", "Xr", "Nm") else _until_macro(tokens, at)
        if token == "Ns":
            glued = True
            continue
        if token == "Fl":  # a dash before each word up to the next macro, or a dash alone
            pieces, at = [f"-{word}" for word in following] or ["-"], at + len(following)
        elif token == "Xr" and len(following) >= 2:
            pieces, at = [f"{following[0]}({following[1]})", *following[2:]], at + len(following)
        elif token == "Nm":
            pieces, at = (following or [name]), at + len(following)
        elif token in _MDOC_CALLABLE:
            continue
        else:
            pieces = [token]
        if glued and out:
            out[-1] += pieces[0]
            pieces = pieces[1:]
        out.extend(pieces)
        glued = False
    return _plain(" ".join(piece for piece in out if piece))


def _until_macro(tokens: list[str], start: int) -> list[str]:
    """The words of ``tokens`` from ``start`` up to the next mdoc macro."""
    end = start
    while end < len(tokens) and tokens[end] not in _MDOC_CALLABLE:
        end += 1
    return tokens[start:end]


def _arguments(rest: str) -> list[str]:
    """A request's arguments, split as roff does: at spaces, a double-quoted one holding its own
    (``""`` in it is a quote), a comment ending them."""
    words = []
    for found in _ARGUMENT.finditer(rest):
        quoted, bare = found.groups()
        if bare is not None and bare.startswith('\\"'):
            break
        words.append(quoted.replace('""', '"') if quoted is not None else bare)
    return words


def _plain(text: str) -> str:
    """``text`` with its escapes replaced by what they print."""
    if "\\" not in text:
        return text
    return _ESCAPE.sub(_printed, text).rstrip()


def _printed(found: re.Match[str]) -> str:
    named, pair, comment, single = found.group(1, 2, 3, 4)
    if comment is not None:
        return ""
    if named is not None:
        return _CHARACTERS.get(f"({named}", "") if len(named) == 2 else ""
    if pair is not None:
        return _CHARACTERS.get(pair, "")
    if single is not None:
        return _CHARACTERS.get(single, "")
    return ""  # a font, a size or a string
