"""The score that decides which conventions enter the pack, with the reasons behind it.

Documented in docs/agents.md ("How conventions are judged"). Every candidate starts from
the score of where it was found, then gains or loses points for what it says:

| Found in | Base |
|---|---|
| a fact typed or tagged ``convention`` (declared by someone) | 6 |
| a coding-style document (``coding-style``, ``code_style``, ``styleguide``, ``conventions``…) | 5 |
| an agent instructions file (``AGENTS``, ``CLAUDE``, ``GEMINI``, copilot instructions) | 5 |
| linters' and formatters' settings (``.editorconfig``, ``pyproject.toml``, ``setup.cfg``…) | 4 |
| a ``CONTRIBUTING`` file | 3 |
| a document under a ``contributing`` folder | 1 |

- +2 when the title or text speaks of style: formatting, naming, imports, line length, a
  linter or formatter, tests, commits, docstrings, type hints…
- +1 when the text states rules ("must", "should", "use", "don't", "never", "always",
  "prefer", "avoid"…).
- −3 when it reads like a FAQ, a tutorial or a welcome note (a question as title, "FAQ",
  "tutorial", "thank you", "getting started"…), or sits under an ``intro``/``faq``/``tutorial``
  folder.
- −2 when less than 40 characters of prose remain and they state no rule (not for agent
  files and declared conventions: they are written to be short).

A candidate enters the pack with a score of at least ``THRESHOLD``; declared conventions
always do. The pack lists them by score (highest first), then by path and position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

THRESHOLD = 4

BASE_DECLARED, BASE_STYLE_DOC, BASE_AGENT_FILE, BASE_SETTINGS = 6, 5, 5, 4
BASE_CONTRIBUTING, BASE_CONTRIBUTING_DOCS = 3, 1
SHORT = 40

AGENT_STEMS = frozenset({"agents", "claude", "gemini", "copilot-instructions"})
STYLE_STEMS = frozenset(
    {
        "style",
        "styleguide",
        "style_guide",
        "style-guide",
        "conventions",
        "convention",
        "coding_guidelines",
        "coding-guidelines",
        "guidelines",
        "code_style",
        "code-style",
        "coding_style",
        "coding-style",
        "codestyle",
        "codingstyle",
        "coding-conventions",
        "coding_conventions",
        "code-conventions",
        "code_conventions",
    }
)
_STYLE_NAME = re.compile(r"(cod(e|ing)[-_ ]?(style|conventions?|guidelines?|standards?)|style[-_ ]?guide)", re.I)
_STYLE_CUES = re.compile(
    r"\b(style|format(ting|ter)?|lint(er|ing)?|naming|names?\b|imports?|indent(ation)?|line length|pep ?8|"
    r"black|ruff|flake8|isort|mypy|pylint|prettier|eslint|docstrings?|type hints?|annotations?|tests?|"
    r"commit(s| messages?)?|pre-commit|conventions?|whitespace|spaces|tabs|quotes)\b",
    re.I,
)
_RULE_WORDS = re.compile(r"\b(must|should|use|don't|do not|never|always|prefer|avoid|keep|write|follow)\b", re.I)
_CHATTY = re.compile(
    r"(\?\s*$|\bfaq\b|\btutorial\b|thank(s| you)\b|getting started|welcome\b|"
    r"support questions|how can i\b)",
    re.I | re.M,
)
_CHATTY_FOLDERS = frozenset({"intro", "faq", "tutorial", "tutorials", "getting-started", "releases", "news"})


@dataclass(frozen=True)
class Verdict:
    score: int
    why: tuple[str, ...]

    @property
    def kept(self) -> bool:
        return self.score >= THRESHOLD


def source_kind(path: str) -> str | None:
    """What kind of conventions source a project file is, from its path alone (None: not one)."""
    posix = PurePosixPath(path.replace("\\", "/"))
    name = posix.name.lower()
    stem = name.split(".")[0]
    if stem in AGENT_STEMS or name == "copilot-instructions.md":
        return "agent_file"
    if stem in STYLE_STEMS or _STYLE_NAME.search(stem):
        return "style_doc"
    if stem == "contributing":
        return "contributing"
    if any(part.lower() == "contributing" for part in posix.parts[:-1]):
        return "contributing_docs"
    return None


def judge(kind: str, path: str, title: str, text: str) -> Verdict:
    """The score of one candidate section and the reasons, in the order they were applied."""
    base = {
        "declared": BASE_DECLARED,
        "style_doc": BASE_STYLE_DOC,
        "agent_file": BASE_AGENT_FILE,
        "settings": BASE_SETTINGS,
        "contributing": BASE_CONTRIBUTING,
        "contributing_docs": BASE_CONTRIBUTING_DOCS,
    }[kind]
    why = [f"{_KIND_LABEL[kind]} (+{base})"]
    score = base
    cues = sorted({m.group(0).lower() for m in _STYLE_CUES.finditer(f"{title}\n{text}")})
    if cues:
        score += 2
        why.append(f"speaks of style: {', '.join(cues[:4])} (+2)")
    rules = len(_RULE_WORDS.findall(text))
    if rules:
        score += 1
        why.append(f"states rules ({rules} rule word{'s' if rules > 1 else ''}) (+1)")
    folders = {p.lower() for p in PurePosixPath(path).parts[:-1]} & _CHATTY_FOLDERS
    chatty = _CHATTY.search(title) or _CHATTY.search(text[:300])
    if folders:
        score -= 3
        why.append(f"under {sorted(folders)[0]}/ (-3)")
    elif chatty:
        score -= 3
        why.append(f"reads like a FAQ, tutorial or welcome note ({chatty.group(0).strip()!r}) (-3)")
    if len(text) < SHORT and not rules and kind not in ("declared", "agent_file"):
        score -= 2
        why.append(f"under {SHORT} characters of prose (-2)")
    if kind == "declared":
        why.append("declared conventions are always kept")
    return Verdict(max(score, THRESHOLD) if kind == "declared" else score, tuple(why))


_KIND_LABEL = {
    "declared": "declared a convention (type or tag)",
    "style_doc": "coding-style document",
    "agent_file": "agent instructions file",
    "settings": "linters' and formatters' settings",
    "contributing": "CONTRIBUTING file",
    "contributing_docs": "document under a contributing folder",
}
