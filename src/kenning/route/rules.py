"""The router (SPEC §9): an ordered table of named rules that picks how a question is answered.

Rules are evaluated in order; the first that matches decides. The same question with the
same signals always gives the same route, and the route names its rule and why it matched.
Cues are matched on the question lowercased with diacritics removed, in English and French.
docs/router.md is generated from this table (a test keeps them equal).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

from kenning.route.relations import RELATION_CUES
from kenning.search.history import release_asked
from kenning.search.pasted import phrases as error_message_runs
from kenning.search.query import CAMEL_CASE, PASCAL_CASE


@dataclass(frozen=True)
class Signals:
    """What the router may know besides the question."""

    dense_available: bool = False
    core_fits: bool | None = True  # None: no core pack built yet (the rule still applies, and says so)
    # camelCase or PascalCase words the project names no symbol after (``GitHub``, ``AsciiDoc``): words;
    # words joined by slashes no path of it holds (``bash/zsh``): a choice between words; dotted names
    # and files no excerpt holds (``report.csv``): an example's value
    loose_names: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Route:
    mode: str  # lexical, graph, core, freshness, hybrid
    rule: str
    reason: str


@dataclass(frozen=True)
class Rule:
    """One row of the table. ``matcher`` returns why the rule matches, or None."""

    name: str
    mode: str
    description: str
    matcher: Callable[[str, Signals], str | None]
    cues_en: tuple[str, ...] = ()
    cues_fr: tuple[str, ...] = ()


# "qu'" and "c'est" typed without the apostrophe ("quest-ce qui appelle X", "qu appelle X",
# "cest quoi", "c est quoi"): the cues spell them with it. No English word is written so.
_APOSTROPHE_LEFT_OUT = (
    (re.compile(r"(?<![\w'-])quest-ce\b"), "qu'est-ce"),
    (re.compile(r"(?<![\w'-])qu (?=[aeiouyh])"), "qu'"),
    (re.compile(r"(?<![\w'-])c ?est\b"), "c'est"),
)


@lru_cache(maxsize=256)
def fold(text: str) -> str:
    """Lowercase, diacritics removed, typographic apostrophes made plain, and the apostrophe of
    ``qu'est-ce`` and ``c'est`` put back when typed without (a pure function of the text, kept for
    the last questions: the router's tables each read the same question)."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    decomposed = unicodedata.normalize("NFKD", text)
    folded = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    for typed, written in _APOSTROPHE_LEFT_OUT:
        folded = typed.sub(written, folded)
    return folded


# --- rule 1: identifiers, paths, symbols, quoted text -------------------------------------

_IDENTIFIER_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("code span", re.compile(r"`[^`]+`")),
    ("quoted text", re.compile(r'"[^"]+"|«[^»]+»|“[^”]+”')),
    ("snake_case name", re.compile(r"\b[A-Za-z_][A-Za-z0-9]*_[A-Za-z0-9_]+\b")),
    ("camelCase name", CAMEL_CASE),
    ("PascalCase name", PASCAL_CASE),
    ("call", re.compile(r"\b[A-Za-z_]\w*\(")),
    ("dotted name or file", re.compile(r"\b[A-Za-z_]\w+\.[A-Za-z_]\w*(?:\.\w+)*\b|\b[A-Za-z_]\w*\.[A-Za-z_]\w+\b")),
    ("path", re.compile(r"(?:^|\s)(?:\./|\.\./|~/|/)?[\w.-]+/[\w./-]*\w")),
    ("command-line option", re.compile(r"(?:^|\s)--[a-z][\w-]+")),
)
_NOT_PATHS = frozenset({"and/or", "et/ou", "either/or", "yes/no", "oui/non"})
_HUMPED = frozenset({"camelCase name", "PascalCase name"})


def _identifier(question: str, signals: Signals) -> str | None:
    for label, pattern in _IDENTIFIER_PATTERNS:
        for match in pattern.finditer(question):
            found = match.group(0).strip()
            if label == "path" and (found.lower() in _NOT_PATHS or found in signals.loose_names):
                continue  # a choice between words (``bash/zsh``) the project holds no path of
            if (label in _HUMPED or label == "dotted name or file") and found in signals.loose_names:
                continue  # a product's name (``GitHub``), an example's file (``report.csv``): words
            return f"contains a {label}: {found}"
    runs = error_message_runs(question)  # a pasted error's fixed words (search.pasted): a phrase
    return f"contains an error message: {runs[0]}" if runs else None


# --- cue tables -----------------------------------------------------------------------------


class Cues:
    """A table's cue patterns, in order (iterating gives them compiled), with ``any``: their
    alternation in one pattern, which matches exactly when one of them does (most questions
    hold no cue: one search, not one a cue). Each is compiled when first needed: a one-shot
    command routes one question, and compiling every cue of every table (about 150) cost it
    some 10 ms of start-up, timed by hand, for cues seldom searched one by one."""

    def __init__(self, patterns: Iterable[str | re.Pattern[str]]) -> None:
        self.patterns = tuple(patterns)  # a source (bounded here as a whole word) or compiled

    def __iter__(self) -> Iterator[re.Pattern[str]]:
        return iter(self._compiled)

    @cached_property
    def _compiled(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(rf"(?<![\w-]){p}(?![\w-])") if isinstance(p, str) else p for p in self.patterns)

    @cached_property
    def any(self) -> re.Pattern[str]:
        return re.compile(r"(?<![\w-])(?:" + "|".join(f"(?:{p})" for p in self.patterns) + r")(?![\w-])")


def _cues(*patterns: str) -> Cues:
    return Cues(patterns)


# The relation words are one table with the answer layer's (``route.relations``).
RELATION_EN = tuple(cue for r in RELATION_CUES for cue in r.shown_en)
RELATION_FR = tuple(cue for r in RELATION_CUES for cue in r.shown_fr)
_RELATION = _cues(*(cue for r in RELATION_CUES for cue in r.cues))

FRAME_EN = (
    "conventions",
    "before working",
    "before I start",
    "how do we do things",
    "house rules",
    "ground rules",
    "what should I know",
    "what do I need to know",
    "onboarding",
    "project core",
    "coding style",
    "style guide",
    "active decisions",
)
FRAME_FR = (
    "conventions",
    "avant de travailler",
    "avant de commencer",
    "comment on fait",
    "que dois-je savoir",
    "qu'est-ce que je dois savoir",
    "ce qu'il faut savoir",
    "règles du projet",
    "noyau du projet",
    "décisions actives",
    "guide de style",
)
_FRAME = _cues(
    r"conventions?",
    r"before (?:i start|starting|working|contributing|coding)",
    r"how do we do things",
    r"house rules",
    r"ground rules",
    r"what should i know",
    r"what do i need to know",
    r"onboard(?:ing)?",
    r"project core",
    r"coding (?:style|standards|guidelines)",
    r"style guide",
    r"active decisions",
    r"avant de (?:travailler|commencer|contribuer|coder)",
    r"comment (?:on fait|fait-on|on travaille)",
    r"que dois-je savoir",
    r"qu'est-ce que je dois savoir",
    r"ce qu'il faut savoir",
    r"regles (?:du projet|de la maison|de base)",
    r"noyau du projet",
    r"decisions actives",
    r"guide de style",
)

FRESHNESS_EN = (
    "stale",
    "out of date",
    "outdated",
    "up to date",
    "what changed",
    "changed since",
    "what's new",
    "modified since",
    "no longer true",
    "missing source",
    "freshness",
)
FRESHNESS_FR = (
    "périmé",
    "obsolète",
    "à jour",
    "qu'est-ce qui a changé",
    "ce qui a changé",
    "modifié depuis",
    "changé depuis",
    "nouveautés",
    "fraîcheur",
    "source manquante",
    "n'est plus vrai",
)
_FRESHNESS = _cues(
    r"stale",
    r"out of date",
    r"outdated",
    r"up to date",
    r"what(?:'s| has| have)? changed",
    r"changed since",
    r"what'?s new",
    r"modified since",
    r"no longer (?:true|valid|exists?|reads?)",
    r"missing sources?",
    r"sources? missing",
    r"freshness",
    r"obsolete",
    r"perime(?:e|s|es)?",
    r"obsoletes?",
    r"a jour",
    r"qu'est-ce qui a change",
    r"ce qui a change",
    r"(?:a|ont) change",
    r"modifie(?:e|s|es)? depuis",
    r"change(?:e|s|es)? depuis",
    r"nouveautes",
    r"fraicheur",
    r"sources? manquantes?",
    r"n'est plus (?:vrai|valable)",
)


def _cue(patterns: Cues, question: str) -> str | None:
    """The first cue of the table, in its order, that the folded question holds."""
    folded = fold(question)
    if patterns.any.search(folded) is None:
        return None
    for pattern in patterns:
        match = pattern.search(folded)
        if match:
            return match.group(0)
    return None


def _relation(question: str, signals: Signals) -> str | None:
    cue = _cue(_RELATION, question)
    return f"asks for a relation ({cue!r})" if cue else None


def _frame(question: str, signals: Signals) -> str | None:
    cue = _cue(_FRAME, question)
    if cue is None or signals.core_fits is False:
        return None
    if signals.core_fits is None:  # the answer is lexical, `core pack not built` among its degradations
        return f"asks about the project frame ({cue!r}); no core pack is built yet: run `kenning pack build`"
    return f"asks about the project frame ({cue!r}) and the core fits its budget"


# "How is freshness computed?", "what does stale mean", "comment la fraîcheur est-elle
# calculée", "what is freshness", "qu'est-ce que la fraîcheur": how the mechanism works or what
# a word means, not what is stale now ("what is stale" names a state, not the mechanism). So is
# a question of how, why, when or where (not "how many"), or of what happens, in English or in
# French: the project's own staleness ("how often are stale cache entries swept", "when does a
# token become outdated", "pourquoi le cache est-il périmé") is found by searching its words.
_EXPLANATION = re.compile(
    r"^\s*(?:how\b(?!\s+(?:many|much)\b)|why\b|when\b|where\b|explain\b|explique|comment\b|pourquoi\b|quand\b)"
    r"|^\s*what (?:happens|makes|causes|triggers|decides)\b|^\s*(?:que se passe|qu'est-ce qui rend)\b"
    r"|\b(?:mean|means|meaning|meant|definition|defined?)\b"
    r"|\bhow (?:is|are)\b.*\b(?:computed|calculated|decided|determined)\b"
    r"|\b(?:veut dire|veulent dire|signifie|signifient|signification|definition|calculee?s?)\b"
    r"|^\s*(?:what(?:'s| is)|qu'est[- ]ce que|c'est quoi)\s+(?:the\s+|la\s+|l')?(?:freshness|fraicheur)\b"
)


def _freshness(question: str, signals: Signals) -> str | None:
    cue = _cue(_FRESHNESS, question)
    if cue and (_EXPLANATION.search(fold(question)) or release_asked(question)):
        return None  # a mechanism explained, or what changed in one of the project's releases
    return f"asks what changed or is stale ({cue!r})" if cue else None


def _otherwise(question: str, signals: Signals) -> str | None:
    frame = _cue(_FRAME, question) if signals.core_fits is False else None
    lead = (
        f"asks about the project frame ({frame!r}) but the core pack left entries out for its budget"
        if frame
        else "no specific cue"
    )
    if signals.dense_available:
        return f"{lead}; dense retrieval is installed"
    return f"{lead}; dense retrieval is not installed"


RULES: tuple[Rule, ...] = (
    Rule(
        "relation",
        "graph",
        "The question asks for a relation between things (which tests cover it, who calls or what is "
        "called, dependencies, impact, which task or evidence touched what, why a choice was made), "
        "whether or not it names "
        "something: graph walk from the node it names (identifier, path, id, quoted name) or, if none, "
        "from the nodes a lexical search over node-bearing excerpts finds.",
        _relation,
        RELATION_EN,
        RELATION_FR,
    ),
    Rule(
        "identifier",
        "lexical",
        "The question contains an identifier, a path, a symbol name, quoted text or a pasted error "
        "message: exact lexical search, with the trigram index for identifiers and substrings; quoted "
        "text is required (as a phrase, and as typed when it holds more than words: docs/cli.md, "
        "`kenning search`), and an error message's fixed words rank as phrases.",
        _identifier,
        cues_en=(
            "snake_case",
            "camelCase",
            "PascalCase",
            "name(",
            "dotted.name",
            "file.ext",
            "a/path",
            "--option",
            '"quoted text"',
            "text in backticks",
            "error: the message it printed",
        ),
        cues_fr=("« texte cité »",),
    ),
    Rule(
        "project-frame",
        "core",
        "The question asks about the project frame (conventions, what to know before working here) "
        "and the core pack fits its budget: answer from the core pack.",
        _frame,
        FRAME_EN,
        FRAME_FR,
    ),
    Rule(
        "freshness",
        "freshness",
        "The question asks what changed or what is stale: the freshness report, no search. A question "
        'about how the mechanism works or what a word means ("how is freshness computed", "what does '
        'stale mean", "que veut dire périmé"), or asked with how, why, when or where ("how often are '
        'stale cache entries swept", "pourquoi le cache est-il périmé"; not "how many"), is not one; nor is '
        'one about a release of the project ("what changed in the last release", "what\'s new in 1.10"), '
        "which its release notes answer first.",
        _freshness,
        FRESHNESS_EN,
        FRESHNESS_FR,
    ),
    Rule(
        "default",
        "hybrid",
        "Anything else: hybrid retrieval (lexical + dense, fused by a convex combination of their "
        "normalised scores, alpha 0.5 for English questions and 0.6 for the others) when a dense engine is "
        "installed, else lexical.",
        _otherwise,
    ),
)


def route(
    question: str,
    *,
    dense_available: bool = False,
    core_fits: bool | None = True,
    loose_names: frozenset[str] = frozenset(),
) -> Route:
    """The first rule of ``RULES`` that matches ``question``; deterministic. ``core_fits``: the
    core pack fits its budget, or None when none is built. ``loose_names``: camelCase words of the
    question that name no symbol of the project and slashed words no path of it holds
    (``search.lexical.loose_names``): no identifiers, no paths."""
    signals = Signals(dense_available=dense_available, core_fits=core_fits, loose_names=loose_names)
    for rule in RULES:
        reason = rule.matcher(question, signals)
        if reason is None:
            continue
        mode = rule.mode
        if mode == "hybrid" and not dense_available:
            mode = "lexical"
        return Route(mode=mode, rule=rule.name, reason=reason)
    raise AssertionError("the last rule always matches")  # pragma: no cover


def table_markdown() -> str:
    """The rule table as Markdown (docs/router.md embeds it verbatim)."""
    lines = ["| Order | Rule | Mode | When | English cues | French cues |", "|---|---|---|---|---|---|"]
    for order, rule in enumerate(RULES, start=1):
        mode = "hybrid, else lexical" if rule.mode == "hybrid" else rule.mode
        en = ", ".join(f"`{c}`" for c in rule.cues_en) or "—"
        fr = ", ".join(f"`{c}`" for c in rule.cues_fr) or "—"
        lines.append(f"| {order} | `{rule.name}` | {mode} | {rule.description} | {en} | {fr} |")
    return "\n".join(lines) + "\n"
