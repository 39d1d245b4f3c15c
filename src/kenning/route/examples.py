"""The router's test table: (question, expected mode, expected rule), English and French.

Expected modes assume level 0 (no dense engine: the default rule answers ``lexical``) and a
core pack that fits its budget. The evaluation harness scores the router against this table;
tests/route/test_route_rules.py requires every row to pass. The first five rows are SPEC §9's
examples, the next six SPEC §1's questions. The bench reports agreement on this table as the
built-in table; a project's own questions (``.kenning/questions.jsonl``) are scored apart.
"""

from __future__ import annotations

EXAMPLES: tuple[tuple[str, str, str], ...] = (
    # SPEC §9
    ("where is rrf_fuse", "lexical", "identifier"),
    ("which evidence touches this module", "graph", "relation"),
    ("what should I know here", "core", "project-frame"),
    ("what is stale", "freshness", "freshness"),
    ("how does cross-project memory work", "lexical", "default"),
    # SPEC §1
    ("Why did we choose FTS5 over tantivy?", "graph", "relation"),
    ("Where is `rrf_fuse` defined, and what calls it?", "graph", "relation"),
    ("What did I decide about memory in all my projects since September?", "lexical", "default"),
    ("What is stale in what you know about this project?", "freshness", "freshness"),
    ("Which tasks and evidence touch this module?", "graph", "relation"),
    ("What should I know before working here?", "core", "project-frame"),
    # English: identifiers, paths, quoted text
    ("what does search_conn return", "lexical", "identifier"),
    ("where is SearchOptions defined", "lexical", "identifier"),
    ("show me src/kenning/answer/ask.py", "lexical", "identifier"),
    ("what does config.toml contain", "lexical", "identifier"),
    ('find "unknown is not true"', "lexical", "identifier"),
    ("how is parseIso used", "lexical", "identifier"),
    ("what does the --all-projects flag do", "lexical", "identifier"),
    # English: relations (a relation cue wins over an identifier, which names the start node)
    ("who calls make_snippet()", "graph", "relation"),
    ("what calls url_for", "graph", "relation"),
    ("what calls Client.send", "graph", "relation"),
    ("what depends on _config.py", "graph", "relation"),
    ("what does search_conn call", "graph", "relation"),
    ("which task touched src/kenning/answer/ask.py", "graph", "relation"),
    ("who uses SearchOptions", "graph", "relation"),
    ("what depends on the store module", "graph", "relation"),
    ("what is the impact of changing the fact schema", "graph", "relation"),
    ("which task touched the migrations", "graph", "relation"),
    ("what is related to the ledger", "graph", "relation"),
    ("who calls the sync entry point", "graph", "relation"),
    ("which decision superseded the Whoosh choice", "graph", "relation"),
    ("what tests cover get_environment_proxies", "graph", "relation"),
    ("which test covers parse_range", "graph", "relation"),
    ("where is the store module tested", "graph", "relation"),
    ("where is create_ssl_context used", "graph", "relation"),
    ("find references to get_environment_proxies", "graph", "relation"),
    # English: project frame
    ("what are the conventions here", "core", "project-frame"),
    ("how do we do things here", "core", "project-frame"),
    ("anything I should read before I start", "core", "project-frame"),
    ("give me the onboarding summary", "core", "project-frame"),
    ("what are the active decisions", "core", "project-frame"),
    # English: freshness
    ("what changed since the last sync", "freshness", "freshness"),
    ("what changed recently", "freshness", "freshness"),
    ("what does stale mean", "lexical", "default"),
    ("when is an excerpt considered stale, and what does that mean", "lexical", "default"),
    ("so how is freshness decided for a moved file", "lexical", "default"),
    ("which notes are out of date", "freshness", "freshness"),
    ("is anything out of date", "freshness", "freshness"),
    ("which notes are outdated", "freshness", "freshness"),
    ("how many facts are stale", "freshness", "freshness"),
    ("how is freshness computed", "lexical", "default"),
    ("what is freshness", "lexical", "default"),
    ("what facts have a missing source", "freshness", "freshness"),
    # the project's own staleness, asked how, why, when or what happens: its words are searched
    ("how often are stale cache entries swept", "lexical", "default"),
    ("when does an access token become outdated", "lexical", "default"),
    ("what happens to stale sessions", "lexical", "default"),
    # what changed in one of the project's releases: its release notes, not the index's freshness
    ("what changed in the last release", "lexical", "default"),
    ("what's new in 1.10", "lexical", "default"),
    ("what has changed in version 2.0.1", "lexical", "default"),
    # English: otherwise
    ("what test framework does this project use", "lexical", "default"),  # a tool, not a relation
    ("which test runner do we use", "lexical", "default"),
    ("how are excerpts ranked", "lexical", "default"),
    ("explain the answer contract", "lexical", "default"),
    ("what is a core pack budget for", "lexical", "default"),
    # French: identifiers
    ("où est définie rrf_fuse", "lexical", "identifier"),
    ("que fait la fonction search_project", "lexical", "identifier"),
    ("que contient docs/router.md", "lexical", "identifier"),
    ("cherche « rien n'est vrai par défaut »", "lexical", "identifier"),
    # French: relations
    ("qui appelle url_for", "graph", "relation"),
    ("qu'appelle search_conn", "graph", "relation"),
    ("qui dépend de store/db.py", "graph", "relation"),
    ("quelles preuves touchent `rrf_fuse`", "graph", "relation"),
    ("qu'est-ce qui dépend de ce module", "graph", "relation"),
    ("quelle tâche a touché la migration", "graph", "relation"),
    ("pourquoi avons-nous choisi SQLite", "graph", "relation"),
    ("quel est l'impact d'un changement du schéma", "graph", "relation"),
    ("quelles preuves sont liées à cette tâche", "graph", "relation"),
    ("qui appelle la synchronisation", "graph", "relation"),
    ("quels tests couvrent DigestAuth", "graph", "relation"),
    ("qu'est-ce que httpx/_decoders.py importe", "graph", "relation"),
    ("qui importe httpx/_decoders.py", "graph", "relation"),
    ("qu'est-ce qui importe httpx/_api.py", "graph", "relation"),  # an object: what imports it
    ("which files import doc/md_docs.go", "graph", "relation"),
    ("what modules use the retry transport", "graph", "relation"),
    ("quels fichiers importent doc/md_docs.go", "graph", "relation"),
    ("où est utilisée create_ssl_context", "graph", "relation"),
    # French: project frame
    ("quelles sont les conventions du projet", "core", "project-frame"),
    ("que dois-je savoir avant de travailler ici", "core", "project-frame"),
    ("comment on fait les choses ici", "core", "project-frame"),
    ("quelles sont les règles du projet", "core", "project-frame"),
    # French: freshness
    ("qu'est-ce qui est périmé", "freshness", "freshness"),
    ("qu'est-ce qui a changé depuis hier", "freshness", "freshness"),
    ("l'index est-il à jour", "freshness", "freshness"),
    ("quelles notes sont obsolètes", "freshness", "freshness"),
    ("comment est calculée la fraîcheur", "lexical", "default"),
    ("comment la fraîcheur est-elle calculée", "lexical", "default"),
    ("qu'est-ce que la fraîcheur", "lexical", "default"),
    ("c'est quoi la fraîcheur d'un extrait", "lexical", "default"),
    ("que veut dire périmé", "lexical", "default"),
    ("qu'est-ce que signifie obsolète pour un extrait", "lexical", "default"),
    ("quels extraits sont périmés depuis hier", "freshness", "freshness"),
    ("pourquoi le cache est-il périmé après un déploiement", "lexical", "default"),
    ("qu'est-ce qui a changé dans la dernière version", "lexical", "default"),
    # French: otherwise
    ("comment fonctionne la mémoire entre projets", "lexical", "default"),
    ("explique le classement des résultats", "lexical", "default"),
    ("à quoi sert le budget du noyau", "lexical", "default"),
    ("qu'est-ce qui importe le plus dans ce projet", "lexical", "default"),  # what matters, not who imports
    ("qu'est-ce qui importe le plus", "lexical", "default"),
    ("qu'est-ce qui importe pour les utilisateurs ?", "lexical", "default"),
)
