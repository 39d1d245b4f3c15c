"""The relation words, English and French: one table that both the router (``rules``: any cue
sends a question to the graph) and the answer layer (``answer.relations``: the first relation
whose cue matches picks the walk) read, so a question the router sends to the graph is one the
answer layer knows how to walk, and the other way round (tests/route/test_relation_cues.py).

Cues are regular expressions on the question folded (``rules.fold``: lowercase, no
diacritics), matched as whole words; ``shown_en``/``shown_fr`` are what docs/router.md lists,
each of which routes to the graph and picks its relation on its own (``X`` standing for a name).
Order matters: the first relation whose cue matches is the one walked (``what does X call``
asks for callees before ``call`` can read as callers). A cue that would also catch ordinary
questions (a bare "why", "decisions", "dependencies", "use", "need") is left out: the router's
other rules answer those ("what are the active decisions" is the project frame, "which
dependencies are needed to install" a search).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RelationCues:
    name: str
    direction: str  # incoming, outgoing, both
    cues: tuple[str, ...]  # regular expressions on the folded question
    shown_en: tuple[str, ...] = ()
    shown_fr: tuple[str, ...] = ()


# What follows "ce qui importe" where it means what matters ("qu'est-ce qui importe le plus",
# "ce qui importe ici", "... pour nous"): the idiom takes no object, "qu'est-ce qui importe X" does.
_MATTERS = (
    r"(?:le plus|le moins|vraiment|surtout|avant tout|ici|maintenant|aujourd'hui|encore|beaucoup|peu|plus|moins"
    r"|a|au|aux|pour|dans|chez|en|sur|quand|si|et|ou|mais|donc|c'est)"
)

RELATION_CUES: tuple[RelationCues, ...] = (
    RelationCues(
        "path",
        "both",
        (
            r"path between",
            r"what links",
            r"how is .+ (?:linked|connected) to",
            r"chemin entre",
            r"qu'est-ce qui relie",
            r"quel lien entre",
        ),
        ("path between", "what links"),
        ("chemin entre", "qu'est-ce qui relie", "quel lien entre"),
    ),
    RelationCues(
        "tested",  # what a test exercises: before "tests", whose "tested by" reads the other way
        "incoming",
        (
            r"(?:what|which \w+)(?:'s| is| are| gets?) (?:being )?tested (?:by|in)",
            r"what (?:does|do) (?:the )?\S+ (?:class |file |module |suite )?test\s*\??$",
            r"qu'est-ce qui est teste(?:e|s|es)? (?:par|dans)",
            r"que teste(?:nt)?(?=\s+[^\s?])",
            r"qu'est-ce que (?:la |le |les )?\S+ teste(?:nt)?\s*\??$",
        ),
        ("what is tested by X", "what does X test"),
        ("qu'est-ce qui est testé par X", "que teste X"),
    ),
    RelationCues(
        "tests",
        "outgoing",
        (
            # "which tests" / "which test covers": not "which test runner" (a tool, asked in words)
            r"(?:what|which) (?:unit )?tests\b",
            r"(?:what|which) (?:unit )?test (?:covers?|exercises?|calls?|checks?|reach(?:es)?|uses?)\b",
            r"tested (?:by|in|where)",
            r"where is .+ tested",
            r"is .+ tested",
            r"tests? (?:that |which )?(?:covers?|exercises?)",
            r"test coverage (?:of|for)",
            r"quels? tests?",
            r"teste(?:e|s|es)? (?:par|dans|ou)",
            r"ou est teste(?:e|s|es)?",
            r"tests? qui (?:couvrent|couvre|testent|teste|exercent)",
        ),
        ("which tests", "what tests", "tested by", "where is X tested"),
        ("quels tests", "testé par", "où est testé"),
    ),
    RelationCues(
        "callees",
        "outgoing",
        (
            r"what (?:does|do|did) (?:[^?]|\w\?(?= ))+ call",  # Ruby's ``breaks_speed_limit?`` before "call"
            r"(?:functions|methods|what) .+ calls? into",
            r"callees?",
            r"qu'appellen?t?",
            r"que (?:appelle|fait appel)",
            r"qu'est-ce que .+ appelle",
            r"quelles? (?:fonctions|methodes) .+ appelle(?:-t-(?:il|elle))?\b",
            # the components a Vue or Svelte component shows (its template's tags: ``ingest.components``)
            r"(?:what|which) components? (?:does|do|did) .+ use",
            # "what does StatusCard use": use ending the question (not "what does X use for search": words)
            r"what (?:does|do|did) \S+ use\s*\??$",
            r"qu'est-ce qu(?:e |')\S+ utilise(?:-t-(?:il|elle))?\s*\??$",
            r"quels composants .+ utilise(?:-t-(?:il|elle))?\b",
        ),
        ("what does X call", "callees", "what components does X use", "what does X use"),
        ("qu'appelle", "qu'est-ce que X appelle", "quels composants X utilise-t-il", "qu'est-ce que X utilise"),
    ),
    RelationCues(
        "callers",
        "incoming",
        (
            r"who calls",
            r"what calls",
            r"which \w+ calls?",
            r"callers?",
            r"called (?:by|from)",
            r"where is .+ called",
            r"(?:who|what) invokes",
            r"invoked (?:by|from)",
            r"qui appellen?t?",
            r"quelles? \w+ appellent",
            r"appelants?",
            r"appele(?:e|s|es)? (?:par|depuis)",
            r"ou est appelee?",
            r"qui invoquen?t?",
        ),
        ("who calls", "what calls", "callers", "called by", "where is X called", "who invokes", "invoked by"),
        ("qui appelle", "appelé par", "appelants", "où est appelé", "qui invoque"),
    ),
    RelationCues(
        "superclasses",  # what a class extends or implements: before "subclasses" (``graph.inheritance``)
        "outgoing",
        (
            r"(?:what|which)(?: \w+)? (?:does|do|did) \S+ (?:extend|implement|inherit from|derive from|subclass)",
            r"super-?class(?:es)? of",
            r"(?:base|parent) (?:class|classes|types?|interfaces?) of",
            r"de quoi (?:\S+ )?(?:herite|heritent|derive|derivent)",
            r"quel(?:le)?s? interfaces? (?:implemente|etend)",  # "… implémentent": the classes that do
            r"classes? (?:mere|meres|parente|parentes|de base) (?:de|du|des)",
            r"super-?classes?",
        ),
        ("what does X extend", "which interfaces does X implement", "superclasses of X", "base classes of X"),
        ("de quoi hérite X", "classes mères de X", "quelles interfaces implémente X"),
    ),
    RelationCues(
        "subclasses",  # what extends or implements a class (no stored edge: ``graph.inheritance``)
        "incoming",
        (
            # not "which module / file / function implements …": code that does something, a search
            r"(?:what|which|who)(?: (?!(?:modules?|files?|functions?|methods?|packages?|code|parts?)\b)\w+)? "
            r"(?:extends|extend|implements|implement|inherits from|inherit from|derives from|derive from"
            r"|subclasses|subclass)",
            r"subclass(?:es)? of",
            # Ruby's mixins (``include Token``): not "which files include": C's ``#include``, an import
            r"(?:what|which) (?:classes|modules|models|types) (?:include|mix in)",
            r"implementers? of",
            r"(?:classes|types|interfaces) (?:that|which) (?:extend|implement|inherit from|derive from)",
            r"qui (?:herite|heritent|implemente|implementent|etend|etendent|derive|derivent)",
            r"quel(?:le)?s? (?!(?:modules?|fichiers?|fonctions?|methodes?|paquets?|code|parties?)\b)\w+ "
            r"(?:herite|heritent|implemente|implementent|etend|etendent|derive|derivent)",
            r"sous-classes?",
            r"classes? (?:filles?|derivees?|enfants?)",
        ),
        (
            "what extends X",
            "which classes implement X",
            "subclasses of X",
            "who inherits from X",
            "which classes include X",
        ),
        ("qui hérite de X", "quelles classes implémentent X", "sous-classes de X"),
    ),
    RelationCues(
        "dependencies",
        "outgoing",
        (
            r"what (?:does|do) .+ (?:depend on|import)",
            r"dependenc(?:y|ies) of",
            r"de quoi depend",
            r"qu'importe",
            r"qu'est-ce qu(?:e |')[^?]+ importe(?:nt)?",
            r"dependances? (?:de|du|des)",
        ),
        ("what does X import", "dependencies of"),
        ("de quoi dépend", "dépendances de", "qu'est-ce que X importe"),
    ),
    RelationCues(
        "evidence",
        "incoming",
        (r"evidences?", r"preuves?", r"verdicts?"),
        ("evidence", "verdict"),
        ("preuves", "verdict"),
    ),
    RelationCues(
        "decisions",
        "incoming",
        (
            r"why (?:did|do|have|had) (?:we|they|you|i)",
            r"supersed(?:es|ed)",
            # an ADR asked for ("which ADR covers caching", "the ADRs about auth"), not the word alone: in
            # a project about ADRs (log4brains, adr-tools) "how do I write my first ADR", "an ADR's title"
            # and "adrs.json" ask for its docs and code, which the decisions' walk left out (a walk, 2026-12-07)
            r"(?:which|what|any) adrs?",
            r"^adrs?$",  # the word alone: the decisions
            r"adrs? (?:about|on|for|regarding|concerning|covering|that (?:decided|covers?|says?|mentions?))",
            r"(?:(?:quel(?:le)?s?|les|une?) |l')adrs? (?:sur|pour|qui|concernant|a propos)",
            r"pourquoi avons-nous",
            r"pourquoi nous avons",
            r"pourquoi a-t-on",
            r"pourquoi on a",
            r"remplace(?:e|s|es)? par",
        ),
        ("why did we", "why do we", "superseded", "which ADR", "ADRs about X"),
        ("pourquoi avons-nous", "pourquoi a-t-on", "pourquoi on a", "remplacé par", "les ADR sur X"),
    ),
    RelationCues(
        "touches",
        "incoming",
        (
            r"which (?:tasks?|commits?)",
            r"what (?:tasks?|commits?)",
            r"touch(?:es|ed)?",
            r"quelles? taches?",
            r"quels? commits?",
            r"touche(?:nt|e|es|s)?",
        ),
        ("which task", "what task", "which commits", "touches", "touched"),
        ("quelle tâche", "quelles tâches", "quels commits", "touche", "touché"),
    ),
    RelationCues(
        "dependents",
        "incoming",
        (
            r"depends? on",
            r"dependents?",
            r"impact(?:s|ed)?",
            r"affect(?:s|ed)?",
            r"(?:what|who) (?:uses|imports)",
            r"(?:which|what) (?:files?|modules?|packages?|classes|functions?) (?:uses?|imports?)",
            r"(?:which|what) components? (?:uses?|imports?)",  # not "shows a poll": words, asked of the text
            r"(?:which|what) (?:files?|headers?|sources?) (?:includes?)",  # C's ``#include "jv.h"``
            r"used by",
            r"where (?:is|are) .+ used",
            r"(?:find )?usages of",
            r"(?:find )?references to",
            r"imported by",
            r"importers?",
            r"what (?:would )?breaks?",
            r"depend(?:ent)? (?:de|du|des)",
            r"qui utilise(?:nt)?",
            r"quel(?:le)?s? (?:fichiers?|modules?|paquets?|packages?|classes?|fonctions?|composants?) "
            r"(?:utilise|importe)(?:nt)?",
            r"(?<!ce )qui importe(?:nt)?",  # "ce qui importe (le plus)": what matters, not who imports
            # "qu'est-ce qui importe X": what imports X (an object follows, not the idiom's words nor "?")
            rf"(?:qu'est-)?ce qui importe(?:nt)?(?= (?!{_MATTERS}(?![\w-]))(?![?!.,;:](?:\s|$))\S)",
            r"utilise(?:e|s|es)? par",
            r"ou (?:est|sont) utilise(?:e|s|es)?",
            r"utilisations (?:de|du|des)",
            r"references (?:a|au|aux)",
            r"importe(?:e|s|es)? par",
            r"impacte?(?:nt|s)?",
            r"qu'est-ce qui casse(?:rait)?",
        ),
        (
            "depends on",
            "dependents",
            "impact",
            "affects",
            "who uses",
            "used by",
            "where is X used",
            "usages of",
            "references to",
            "what imports",
            "which files import",
            "which files include",
            "which components use X",
            "what breaks",
        ),
        (
            "dépend de",
            "impact",
            "qui utilise",
            "qui importe",
            "qu'est-ce qui importe X",
            "quels fichiers importent",
            "quels composants utilisent X",
            "utilisé par",
            "où est utilisé",
            "qu'est-ce qui casse",
        ),
    ),
    RelationCues(
        "neighbours",
        "both",
        (
            r"related to",
            r"linked to",
            r"connected to",
            r"lie(?:e|s|es)? (?:a|au|aux)",
            r"relie(?:e|s|es)? (?:a|au|aux)",
        ),
        ("related to", "linked to", "connected to"),
        ("lié à", "relié à"),
    ),
)
