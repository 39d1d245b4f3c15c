"""Reading a date window and a "what did I decide" cue, from options or from the question.

``--since`` / ``--until`` take ``YYYY-MM-DD`` (inclusive). A question may carry them too:
"since 2026-09-01", "since September", "after March 2026", "until 2026-10-31", "depuis
septembre", "avant le 2026-10-01". A month without a year is its latest occurrence not after
today ("since September" on 2026-11-30 is 2026-09-01; "until September" is 2026-09-30). A
question that asks what was decided ("what did I decide", "decisions about", "qu'ai-je
décidé") is served from decision facts only. The phrases read this way are taken out of the
words searched, and the answer's notes say how the question was read.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime

from kenning.errors import ValidationError
from kenning.route.rules import fold
from kenning.search.stop_words import STOP_WORDS

MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "janvier": 1,
    "fevrier": 2,
    "mars": 3,
    "avril": 4,
    "mai": 5,
    "juin": 6,
    "juillet": 7,
    "aout": 8,
    "septembre": 9,
    "octobre": 10,
    "novembre": 11,
    "decembre": 12,
}
_DATE = r"(\d{4}-\d{2}-\d{2}|(?:" + "|".join(MONTHS) + r")(?:\s+\d{4})?)"
_SINCE = re.compile(r"\b(?:since|after|from|depuis|apres|a partir d[eu]|a compter d[eu])\s+(?:the\s+|le\s+)?" + _DATE)
_UNTIL = re.compile(r"\b(?:until|till|before|up to|jusqu'(?:a|au|en)|avant|au plus tard)\s+(?:the\s+|le\s+)?" + _DATE)
# "decisions", and "decide" said of a person or in the passive ("what did I decide", "have we decided",
# "what was decided", "qu'ai-je décidé", "avons-nous décidé", "a été décidé"): a question about what
# was decided; "how does click decide which pager to use" asks how code decides (it read as one,
# and found no decision record: bench/cross_questions.py)
_DECIDE = re.compile(
    r"\b(?:decisions?"
    r"|(?:did|do|does|have|has|had)\s+(?:i|we|you|they)\s+(?:\w+\s+)?decided?"
    r"|(?:i|we|you|they)\s+(?:have\s+|had\s+|just\s+)?decided"
    r"|(?:was|were|been|is|are)\s+decided"
    r"|(?:ai|avons|as|avez|a|ont)[\s-]+(?:(?:je|nous|tu|vous|ils|elles|on|t-on|t-il)[\s-]+)?(?:\w+\s+)?decide\w*"
    r"|ete\s+decide\w*)\b"
)
# "in all my projects", "across projects", "dans tous mes projets": the scope, not the topic
_SCOPE = re.compile(
    r"\b(?:in|across|over|for|dans|sur)\s+(?:all\s+(?:of\s+)?)?(?:(?:my|the|tous|toutes)\s+)?"
    r"(?:(?:mes|les)\s+)?(?:projects|projets)\b"
)
DECISION_TYPES = ("decision",)


@dataclass(frozen=True)
class Reading:
    """What a question asks besides its words."""

    words: str  # the question with the date and decision phrases taken out
    since: str | None = None
    until: str | None = None
    decisions: bool = False

    @property
    def has_words(self) -> bool:
        return any(w not in STOP_WORDS for w in re.findall(r"\w+", self.words.lower()))

    def notes(self) -> tuple[str, ...]:
        parts = []
        if self.decisions:
            parts.append("decisions only")
        if self.since:
            parts.append(f"dated from {self.since}")
        if self.until:
            parts.append(f"dated until {self.until}")
        if not parts:
            return ()
        searched = f"words searched: {self.words!r}" if self.has_words else "no topic words: newest first"
        return (f"question read as: {', '.join(parts)}; {searched}",)


def check_day(value: str | None, option: str) -> str | None:
    """``YYYY-MM-DD`` as given, or a ``ValidationError`` naming the option."""
    if value is None:
        return None
    try:
        return (
            date.fromisoformat(value).isoformat() if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else _bad(value, option)
        )
    except ValueError:
        return _bad(value, option)


def check_window(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    """``--since`` and ``--until`` checked (``check_day``), and in order: a start after the end
    is a ``ValidationError``, not a window nothing can fall into."""
    start, end = check_day(since, "--since"), check_day(until, "--until")
    if start and end and start > end:
        raise ValidationError(
            f"--since {start} is after --until {end}: no day is in that window",
            hint="give the earlier day to --since and the later one to --until",
        )
    return start, end


def _bad(value: str, option: str) -> str:
    raise ValidationError(f"{option} must be a date YYYY-MM-DD, not {value!r}")


def read(
    question: str, *, now: datetime, since: str | None = None, until: str | None = None, types: tuple[str, ...] = ()
) -> Reading:
    """The question's window and decision cue; explicit options win over the question's words."""
    folded = fold(question)
    words = folded
    found_since = found_until = None
    match = _SINCE.search(folded)
    if match:
        found_since = _day(match.group(1), now, start=True)
        words = words.replace(match.group(0), " ")
    match = _UNTIL.search(folded)
    if match:
        found_until = _day(match.group(1), now, start=False)
        words = words.replace(match.group(0), " ")
    words = _SCOPE.sub(" ", words)
    decisions = bool(_DECIDE.search(folded)) or types == DECISION_TYPES
    if decisions:
        words = _DECIDE.sub(" ", words)
    first, last = since or found_since, until or found_until
    if first and last and first > last:
        raise ValidationError(f"the window is empty: since {first} is after until {last}")
    return Reading(" ".join(words.split()), first, last, decisions)


def _day(text: str, now: datetime, *, start: bool) -> str:
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return check_day(text, "the date") or text
    name, _, year_text = text.partition(" ")
    month = MONTHS[name]
    latest = now.year if month <= now.month else now.year - 1  # the latest such month not after now
    year = int(year_text) if year_text else latest
    day = 1 if start else calendar.monthrange(year, month)[1]
    return date(year, month, day).isoformat()
