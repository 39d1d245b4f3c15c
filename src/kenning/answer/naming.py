"""Which graph nodes a question in words starts from.

First the names it types: backticked or quoted text, paths, dotted and code-shaped names,
ADR, task and commit ids, then plain words that are exactly a symbol's or a module's name
(case kept: the class ``Timeout`` is not the method ``timeout``; a stop word only typed
capitalised after the first word, as Go's exported ``Find`` or ``Get``). Failing those, "graph,
then lexical over the nodes found": a lexical search restricted to the excerpts that carry
graph nodes, whose best hits become the start nodes. Each start says how it was resolved
(``resolved_by``: ``exact``, ``path`` or ``lexical``) and whether the question typed its name
(``typed``): a start found from plain words or by lexical search is a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kenning.errors import InvalidQuery
from kenning.ingest.go_packages import go_qualified
from kenning.ingest.test_files import is_test_path
from kenning.route.rules import fold
from kenning.search.query import parse, unelided
from kenning.search.stop_words import STOP_WORDS
from kenning.search.weights import TEST_FACTOR
from kenning.store import graph_lookup
from kenning.store.graph import Node
from kenning.store.handle import Connection

_QUOTED = re.compile(r"`([^`]{1,200})`|\"([^\"]{1,200})\"|«\s*([^»]{1,200}?)\s*»|“([^”]{1,200})”")
# A path's folder may be a Next.js route group or segment (``(main)``, ``[websiteId]``,
# ``[...slug]``), an alias (``@/``) or hold ``$`` and ``+`` (SvelteKit's ``+page.svelte``): a path
# is one word, whatever its folders hold.
# One character or one bracketed name at a time: ``[\w.]+`` repeated would try every split of a long
# word that holds no ``/`` (``url_has_allowed_host_and_scheme``: minutes of backtracking).
_SEGMENT = r"(?:[\w.\-@~$+]|\(\w[\w.\-]*\)|\[\[?(?:\.\.\.)?\w[\w.\-]*\]\]?)+"
# A word starts with a letter of any script or ``_`` ("état", not "tat"); ids and hashes too.
_TOKEN = re.compile(rf"(?<![\w/]){_SEGMENT}(?:/{_SEGMENT})+(?:\(\))?|#\d+|[^\W\d][\w.\-/]*\w(?:\(\))?|[0-9a-f]{{7,40}}")
# Code-shaped: punctuation of code, camelCase, CamelCase, an acronym leading a word
# (``URLPattern``, not the plural ``APIs``), a task id, a commit hash.
_CODE_SHAPE = re.compile(
    r"[_./#()]|[a-z][A-Z]|^[A-Z][a-z0-9]+[A-Z]|[A-Z]{2,}(?!s$)[a-z]|^[A-Z]{1,6}-\d+$|^[0-9a-f]{7,40}$"
)
# A C++, Rust or Ruby path (``TableCache::Evict``, ``Parser::new``, ``Mod::StoriesController.undelete``) or
# Ruby's instance method notation (``StoriesController#upvote``): typed as the dotted name its symbol has.
_SCOPED = re.compile(r"(?<![\w:#])[^\W\d]\w*(?:(?:::[^\W\d]\w*)+(?:[.#][^\W\d]\w*)?|#[^\W\d]\w*)")
_MODULE_NAME = re.compile(r"[^\W\d]\w*")  # a code-shaped name no symbol bears may be a file's (``test_helper``)
_MODULE_WORD = re.compile(r"^(?:module|modules|file|files|package|fichier|fichiers|paquet)$")
# Words of the relation vocabulary: never a node's name, never a lexical term.
_RELATION_VOCABULARY = """
    call calls called calling caller callers callee callees depend depends depended dependent dependents
    dependency dependencies impact impacts impacted affect affects affected use uses used using import imports
    imported importer importers task tasks touch touches touched evidence evidences verdict verdicts commit
    commits why did choose chose chosen choice decide decided decision decisions pick picked adopt adopted
    related linked connected link links path between superseded supersedes module modules file files code
    function functions method methods class package breaks break change changing changes who whom anything
    thing things there here which what does test tests tested testing cover covers covered coverage exercise
    exercises usages references invoke invokes invoked classes extend extends extended implement implements
    implemented implementers implementer inherit inherits inherited derive derives derived subclass subclasses
    superclass superclasses include includes included component components
    appelle appellent appele appelee appeles appelants appelant depend dependent dependances dependance
    tache taches touche touchent touchee preuve preuves pourquoi avons-nous choisi choix decision decisions
    utilise utilisent importe importent quelle quelles quel quels fonction fonctions methode fichier
    qu'est-ce est-ce relie lie liee lies chemin entre remplace impacte impactent casse code teste testee testes
    couvre couvrent utilisee utilisees utilisations invoque invoquent herite heritent implemente implementent
    etend etendent derive derivent sous-classe sous-classes classe filles fille derivees enfants quoi mere meres
    parente parentes superclasse superclasses composant composants
    """
RELATION_WORDS = frozenset(fold(w) for w in _RELATION_VOCABULARY.split())


@dataclass(frozen=True)
class Start:
    node: Node
    text: str  # what named it: the name typed, or the words searched for a lexical start
    resolved_by: str  # exact, path, lexical
    typed: bool = False  # named as the question typed it (quoted, a path, code-shaped), not guessed from words

    def to_json(self) -> dict[str, str]:
        return {"kind": self.node.kind, "name": self.node.label, "named_by": self.text, "resolved_by": self.resolved_by}


def resolve(conn: Connection, text: str) -> list[Node]:
    """The nodes one typed name stands for (``kenning graph`` arguments): exact, case kept first;
    ``DBImpl::Write`` as ``DBImpl.Write``."""
    rows, _ = _exact(conn, _dotted(text.strip()))
    return [Node(*r) for r in rows]


def _exact(conn: Connection, text: str) -> tuple[list[tuple], str | None]:
    """``graph_lookup.exact_nodes``, then a Go name as Go code writes it, qualified by its package
    (``security.RandomString``: that name in a file of package ``security``), then a module's function
    as JavaScript calls it through the module (``user.load``: ``load`` of ``user.js`` or ``user/index.js``)."""
    rows, how = graph_lookup.exact_nodes(conn, text)
    if not rows and (go := go_qualified(text.strip())) is not None:
        rows, how = graph_lookup.symbols_in_module(conn, *go), "exact"
    if not rows and (through := _THROUGH_MODULE.fullmatch(text.strip())) is not None:
        stem, name = through.groups()
        rows, how = [r for r in graph_lookup.symbols_named(conn, [name]) if _module_stem(r[5]) == stem], "exact"
    return rows, how if rows else None


# ``user.load``: a function called through the module holding it, named after its file
_THROUGH_MODULE = re.compile(r"([a-z_$][\w$-]*)\.([A-Za-z_$][\w$]*)")


def _module_stem(path: str | None) -> str:
    """The name a file is required by: its stem, a folder's ``index`` by the folder's."""
    folder, _, name = (path or "").rpartition("/")
    stem = name.partition(".")[0]
    return folder.rpartition("/")[2] if stem == "index" else stem


def _dotted(text: str) -> str:
    """``text`` with a C++, Rust or Ruby path written as its symbol's dotted name (``DBImpl::Write`` →
    ``DBImpl.Write``, ``StoriesController#upvote`` → ``StoriesController.upvote``); any other text as it is."""
    return text.replace("::", ".").replace("#", ".") if _SCOPED.fullmatch(text) else text


def typed_names(question: str) -> list[str]:
    """What the question types as a name: quoted or backticked text, then code-shaped words
    (``drain()`` included; paths and dotted names first, longer first; ``A::b`` as ``A.b``)."""
    texts = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(question)]
    texts = [_dotted(t) for t in texts]
    scoped = [_dotted(m) for m in _SCOPED.findall(_QUOTED.sub(" ", question))]
    shaped = scoped + [t.removesuffix("()") for t in _tokens(question, calls=True) if _CODE_SHAPE.search(t)]
    shaped.sort(key=lambda t: ("/" not in t and "." not in t, -len(t)))
    return texts + shaped


def _tokens(question: str, *, calls: bool = False) -> list[str]:
    """The question's words outside quotes; ``calls``: a trailing ``()`` kept."""
    tokens = [t.rstrip(".,;:?!").removeprefix("./") for t in _TOKEN.findall(_QUOTED.sub(" ", question))]
    return tokens if calls else [t.removesuffix("()") for t in tokens]


# A Ruby method's name may end in ``!`` or ``?`` (``compile!``, ``breaks_speed_limit?``), which a
# question's own punctuation also is: the name with its mark when a node bears it.
_MARKED = re.compile(r"(?<![\w!?])([^\W\d]\w*[!?])(?![\w!?])")


def named(conn: Connection, question: str, *, plain_words: bool = True) -> list[list[Start]]:
    """Groups of start nodes, one group per name the question types, most specific first."""
    texts = typed_names(question)
    tokens = _tokens(question)
    groups: list[list[Start]] = []
    seen: set[str] = set()
    for marked in _MARKED.findall(_QUOTED.sub(" ", question)):
        rows, how = _exact(conn, marked)
        if rows and marked not in seen:  # ``compile!``: not ``compile``, another method
            seen.update((marked, marked[:-1]))
            groups.append([Start(Node(*r), marked, how or "exact", typed=True) for r in rows])
    for text in texts:
        if text in seen or not text:
            continue
        seen.add(text)
        rows, how = _exact(conn, text)
        if not rows and _MODULE_NAME.fullmatch(text):  # ``test_helper``: the file a ``require`` names so
            rows, how = graph_lookup.module_nodes(conn, text), "path"
        if rows:
            groups.append([Start(Node(*r), text, how or "exact", typed=True) for r in rows])
    if plain_words:
        for found in _joined(conn, tokens):  # ``owner repository``: ``OwnerRepository``, before its words
            if found[0].text not in seen:
                seen.add(found[0].text)
                groups.append(found)
        placed = [(at, t) for at, t in enumerate(tokens) if t not in seen]
        words = [t for _, t in placed]
        for i, (at, word) in enumerate(placed):
            if word in seen or len(word) < 3:
                continue
            # a common word typed capitalised after the question's first is a name (Go's ``Find``)
            if _is_stop(word) and not (word[:1].isupper() and at > 0):
                continue
            seen.add(word)
            after = i + 1 < len(words) and bool(_MODULE_WORD.match(words[i + 1].lower()))
            before = i > 0 and bool(_MODULE_WORD.match(words[i - 1].lower()))
            found = _plain(conn, word, prefer_module=after or before)
            if found:
                groups.append(found)
    return groups


_JOINED_NODES = 8  # the symbols one spelled name stands for, at most (``exact_nodes``' limit)


def _joined(conn: Connection, tokens: list[str]) -> list[list[Start]]:
    """The names the question spells in plain words: three or two words in a row, none a stop
    word, joined as code joins them (``owner repository`` → ``OwnerRepository``, ``smart case`` →
    ``smart_case``, ``ownerRepository``), each a symbol of exactly that name; longer runs first.
    spring-petclinic, walked: "what depends on the owner repository interface" started from
    ``VetRepository``, "owner" being in half the project's paths. Every spelling is looked up in
    one query (by each, ``exact_nodes``' rules took half a second on Django for a long question)."""
    runs: list[tuple[list[str], tuple[str, str, str]]] = []
    for size in (3, 2):
        for i in range(len(tokens) - size + 1):
            run = tokens[i : i + size]
            if any(not w.isalpha() or _is_stop(w) for w in run):
                continue
            words = [w.lower() for w in run]
            spelled = (
                "".join(w.capitalize() for w in words),
                "_".join(words),
                words[0] + "".join(w.capitalize() for w in words[1:]),
            )
            runs.append((run, spelled))
    named: dict[str, list[tuple]] = {}
    for row in graph_lookup.symbols_named(conn, sorted({name for _, spelled in runs for name in spelled})):
        named.setdefault(row[3], []).append(row)
    groups: list[list[Start]] = []
    for run, spelled in runs:
        found = next((named[name] for name in spelled if name in named), None)
        if found:
            groups.append([Start(Node(*r), " ".join(run), "words joined") for r in found[:_JOINED_NODES]])
    return groups


def _plain(conn: Connection, word: str, *, prefer_module: bool) -> list[Start]:
    """A plain word names a node only exactly, with its case: a symbol's short name or a
    module's (``config`` → ``pkg/config.py``)."""
    modules = [Start(Node(*r), word, "path") for r in graph_lookup.module_nodes(conn, word)]
    if prefer_module and modules:
        return modules
    rows, how = _exact(conn, word)
    symbols = [
        Start(Node(*r), word, how or "exact")
        for r in rows
        if r[1] == "symbol" and r[3] == word or r[1] in ("task", "decision") and r[3] == word
    ]
    return symbols or modules


def _is_stop(word: str) -> bool:
    return word.lower() in STOP_WORDS or fold(word) in RELATION_WORDS


def content_words(question: str) -> list[str]:
    """The question's words with the relation vocabulary left out, quoted text unquoted ("which
    tests cover the session" → ``the session``): what a lexical start searches, and the words a
    relation question falls back to. Empty when only relation and stop words are left."""
    words = [
        t
        for t in _TOKEN.findall(unelided(_QUOTED.sub(lambda m: " " + next(g for g in m.groups() if g) + " ", question)))
        if fold(t) not in RELATION_WORDS
    ]
    return [] if all(_is_stop(w) for w in words) else words


def lexical(
    conn: Connection, question: str, *, kinds: Sequence[str] = (), include_superseded: bool = False, limit: int = 3
) -> list[Start]:
    """Start nodes from the best excerpts carrying graph nodes (of ``kinds``) for the
    question's content words (the relation vocabulary left out)."""
    words = content_words(question)
    if not words:
        return []
    try:
        match = parse(" ".join(words)).fts
    except InvalidQuery:
        return []
    if not match:
        return []
    lifecycles = ("active", "superseded") if include_superseded else ("active",)
    hits = graph_lookup.lexical_nodes(conn, match, kinds=kinds, lifecycles=lifecycles, limit=limit * 4)
    # BM25 is negative, better when lower; test code and fixtures weigh less, as in search
    weighed = sorted(
        (
            (score * (TEST_FACTOR if row[5] and is_test_path(row[5]) else 1.0), i, row)
            for i, (row, score) in enumerate(hits)
        )
    )
    return [Start(Node(*row), " ".join(words), "lexical") for _, _, row in weighed[:limit]]


def words_left(starts: Sequence[Start], question: str) -> list[str]:
    """The question's content words that a start found from one plain word does not stand for
    ("which tests cover installing shell completion", started from the module ``completion``:
    ``installing``, ``shell``); none when a start was typed, spelled by joined words or searched."""
    if not starts or any(s.typed or s.resolved_by not in ("exact", "path") for s in starts):
        return []
    named_by = {fold(s.text) for s in starts}
    return [w for w in content_words(question) if not _is_stop(w) and fold(w) not in named_by]
