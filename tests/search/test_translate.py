"""French words of a question over English text are searched as their English glosses
(search/translate.py): level 0's bridge between French questions and English text."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.answer.search import SearchOptions, search_project
from kenning.search import translate
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

ENGLISH = {
    "docs/timeouts.md": "# Timeouts\n\nEvery client has a timeout of five seconds; pass timeout=None to wait "
    "as long as the server takes.\n",
    "docs/passwords.md": "# Passwords\n\nThe password is hashed before it is stored in the database.\n",
    "docs/headers.md": "# Headers\n\nEach request carries a User-Agent header and an Accept header.\n",
    "docs/install.md": "# Installation\n\nInstall the package with pip, then run the command line tool.\n",
    "app/settings.py": (
        "def load_settings(path):\n"
        '    """Read the configuration file at path and return its settings."""\n'
        "    with open(path) as handle:\n"
        "        return handle.read()\n"
    ),
    "app/errors.py": 'class ConnectionError(Exception):\n    """Raised when the server cannot be reached."""\n',
    "docs/jobs.md": "# Jobs\n\nJobs wait on a stack, the newest on top. Retries are enabled per job.\n",
}
FRENCH = {
    "docs/fichiers.md": "# Lire un fichier\n\nLa fonction lire_fichier ouvre le fichier et renvoie son contenu.\n",
    "docs/delais.md": "# Délais\n\nLe délai d'attente par défaut est de cinq secondes.\n",
    "docs/english.md": "# Files\n\nA file is read in one call.\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def english(request, make_project):
    """English text, on SQLite and served by PostgreSQL (the same translations from either store)."""
    project = make_project(ENGLISH, name="english", config=engine_config(request.param, "english"))
    resync(project)
    return project


@pytest.fixture(params=["sqlite", ENGINE])
def french(request, make_project):
    project = make_project(FRENCH, name="french", config=engine_config(request.param, "french"))
    resync(project)
    return project


def test_a_french_question_over_english_text_finds_the_english_excerpt_and_says_what_it_searched(english):
    answer = search_project(english, "comment définir un délai d'attente", SearchOptions(limit=3), now=NOW)
    assert answer.excerpts, answer.empty_reason
    assert answer.excerpts[0].fact.source.uri.startswith("docs/timeouts.md")
    assert "translated: 'délai d'attente' searched as 'timeout'" in answer.notes
    assert answer.query == "comment définir un délai d'attente"


def test_a_long_french_question_is_translated_word_by_word_and_term_by_term(english):
    question = "où est déclarée la fonction qui lit le fichier de configuration"
    answer = ask_project(english, question, now=NOW)
    assert answer.excerpts and answer.excerpts[0].fact.source.uri.startswith("app/settings.py"), [
        e.fact.source.uri for e in answer.excerpts
    ]
    assert "translated: 'fichier' searched as 'file'" in answer.notes
    assert "translated: 'lit' searched as 'read'" in answer.notes
    assert answer.query == question


def test_terms_of_several_words_and_inflected_forms_reach_their_gloss(english):
    cases = {
        "où est stocké le mot de passe": ("docs/passwords.md", "translated: 'mot de passe' searched as 'password'"),
        "quels en-têtes envoie chaque requête": ("docs/headers.md", "translated: 'en-têtes' searched as 'header'"),
        "installer avec la ligne de commande": (
            "docs/install.md",
            "translated: 'ligne de commande' searched as 'command line'",
        ),
        "erreurs de connexion au serveur": ("app/errors.py", "translated: 'erreurs' searched as 'error'"),
    }
    for question, (uri, note) in cases.items():
        answer = search_project(english, question, SearchOptions(limit=3), now=NOW)
        assert note in answer.notes, (question, answer.notes)
        assert answer.excerpts[0].fact.source.uri.startswith(uri), (question, [e.fact.title for e in answer.excerpts])


def test_words_the_question_does_not_search_are_not_translated(english):
    # beside a typed code name, the words asking where it is defined are left out (search/query.py);
    # their glosses (``définie`` → ``set``) would search what the question never asked
    answer = search_project(english, "où est définie la fonction load_settings", SearchOptions(limit=3), now=NOW)
    assert answer.notes == ()
    assert answer.excerpts[0].fact.title.startswith("def load_settings")


def test_a_french_project_keeps_its_own_french_words(french):
    answer = search_project(french, "où est le délai d'attente par défaut", SearchOptions(limit=3), now=NOW)
    assert answer.notes == ()
    assert answer.excerpts[0].fact.source.uri.startswith("docs/delais.md")
    answer = search_project(french, "comment lire un fichier", SearchOptions(limit=3), now=NOW)
    assert answer.notes == ()
    assert answer.excerpts[0].fact.source.uri.startswith("docs/fichiers.md")
    # a word the project does not write is translated there too, when its gloss is written
    answer = search_project(french, "le fichier est lu", SearchOptions(limit=3), now=NOW)
    assert answer.notes == ("translated: 'lu' searched as 'read'",)


def test_quoted_words_prefixes_code_names_and_fts_syntax_are_searched_as_typed(english):
    assert search_project(english, "fichier", SearchOptions(), now=NOW).notes == (
        "translated: 'fichier' searched as 'file'",
    )
    for typed in ('"fichier"', "`fichier`", "« fichier »", "fichier*", "lire_fichier", "config.fichier"):
        answer = search_project(english, typed, SearchOptions(), now=NOW)
        assert not [n for n in answer.notes if n.startswith("translated")], (typed, answer.notes)
    answer = search_project(english, "fichier", SearchOptions(syntax="fts"), now=NOW)
    assert answer.excerpts == () and answer.notes == ()


def test_answers_to_english_questions_are_unchanged(english):
    for question in ("how do I set a timeout", "where is the password stored", "load settings file"):
        answer = search_project(english, question, SearchOptions(), now=NOW)
        assert answer.notes == (), question
    # a glossary word that is an English word too (``pile``: a stack) is translated in a French
    # question only
    assert search_project(english, "a pile of jobs", SearchOptions(), now=NOW).notes == ()
    answer = search_project(english, "la pile des jobs", SearchOptions(), now=NOW)
    assert answer.notes == ("translated: 'pile' searched as 'stack'",)
    # so is one French writes with accents (``activé``): typed without them, ``active`` is English
    assert search_project(english, "active jobs", SearchOptions(), now=NOW).notes == ()
    # a capitalised word inside an English sentence is a name (gin's "also use Vue": Vue.js, not
    # the French "vue"); at the question's start, or in lower case, it is translated as before
    assert search_project(english, "where does the Fichier header go", SearchOptions(), now=NOW).notes == ()
    for typed, word in (("where does the fichier header go", "fichier"), ("Fichier header", "Fichier")):
        answer = search_project(english, typed, SearchOptions(), now=NOW)
        assert answer.notes == (f"translated: '{word}' searched as 'file'",)
    answer = search_project(english, "jobs activés", SearchOptions(), now=NOW)
    assert answer.notes == ("translated: 'activés' searched as 'enabled'",)


def test_inflections_reach_the_lemma_in_a_french_question_only():
    assert "definir" in translate._lemmas("definit", french=True)
    assert "definir" in translate._lemmas("definies", french=True)
    assert "gerer" in translate._lemmas("geree", french=True)
    assert "renvoyer" in translate._lemmas("renvoie", french=True)
    assert "attendre" in translate._lemmas("attend", french=True)
    assert "journal" in translate._lemmas("journaux", french=False)
    assert "charger" not in translate._lemmas("charge", french=False)


def test_the_glossary_ships_with_the_package_and_reads_every_line():
    table = translate.glossary()
    assert len(table) > 500
    assert table[("fichier",)].glosses == ("file",)
    assert table[("mot", "de", "passe")].glosses == ("password",)
    assert table[("delai", "attente")].glosses == ("timeout",)
    assert table[("file",)].french_only and table[("active",)].french_only and not table[("fichier",)].french_only
    assert table[("traduction",)].glosses == ("translation",) and table[("brut",)].french_only  # 2026-12-04


def test_an_apps_screen_words_reach_their_english(make_project):
    """A Kotlin and a Swift app's walks: "où est configuré le thème sombre" and "comment les
    brouillons sont-ils sauvegardés" found nothing (the glossary had neither word)."""
    files = {
        "app/ui/Theme.kt": "/** Picks the dark theme when the user asks. */\nfun appTheme(darkTheme: Boolean) {}\n",
        "Sources/Drafts/DraftStore.swift": "/// Saves each draft to disk as the user types.\nfunc saveDraft() {}\n",
        "docs/themes.md": "# Light theme\n\nThe light theme is the default theme; its colours are configured here.\n",
        "Sources/Settings.swift": "/// Saves the user's settings to disk when they change.\nfunc saveSettings() {}\n",
    }
    _first_answers(
        make_project(files, name="apps"),
        ("où est configuré le thème sombre", "app/ui/Theme.kt"),
        ("comment les brouillons sont-ils sauvegardés", "Sources/Drafts/DraftStore.swift"),
    )


def test_a_web_frameworks_words_reach_their_english(make_project):
    """axum's walk: "comment partager un état entre les handlers" answered with code named handler
    (the glossary had neither ``partager`` nor ``état``), "comment extraire le JSON du corps de la
    requête" without ``extract``; VitePress's: "comment configurer la barre latérale" its Spanish
    page ("barra lateral") first, the glossary without ``barre latérale``."""
    files = {
        "src/state.rs": "/// Share state between handlers: wrap it in an Arc and pass it to the router.\n"
        "pub struct AppState {}\n",
        "src/extract.rs": "/// Extract the JSON body of a request into a typed value.\npub struct Json<T>(pub T);\n",
        "src/handler.rs": "/// A handler is an async function that takes extractors.\npub trait Handler {}\n",
        "src/serve.rs": "/// Serve the handler on a listener; each handler runs on its own task.\npub fn serve() {}\n",
        "docs/sidebar.md": "# Sidebar\n\nThe sidebar's links and groups come from the theme's options.\n",
        "docs/es/sidebar.md": "# Barra lateral\n\nLa barra lateral del tema: sus enlaces y grupos.\n",
    }
    _first_answers(
        make_project(files, name="web"),
        ("comment partager un état entre les handlers", "src/state.rs"),
        ("comment extraire le JSON du corps de la requête", "src/extract.rs"),
        ("comment configurer la barre latérale", "docs/sidebar.md"),  # VitePress: its Spanish page came first
    )


def _first_answers(project, *cases: tuple[str, str]) -> None:
    """Each question of ``cases`` answered first from its file, once ``project`` is synced."""
    resync(project)
    for question, path in cases:
        answer = search_project(project, question, SearchOptions(limit=3), now=NOW)
        assert answer.excerpts and answer.excerpts[0].fact.source.uri.startswith(path), (question, answer.notes)


def test_a_forums_moderation_words_reach_their_english(make_project):
    """laravel.io's walk: "comment bannir un utilisateur" searched "banner" (the glossary without
    ``bannir``) and served the site's banner templates."""
    files = {
        "app/Jobs/BanUser.php": "<?php\n/** Ban a user from the forum: no more posts. */\nfinal class BanUser {}\n",
        "resources/views/components/info-banner.blade.php": '<div class="banner">{{ $slot }}</div>\n',
        "app/Jobs/ApproveArticle.php": "<?php\n/** Approve an article. */\nfinal class ApproveArticle {}\n",
        "app/Jobs/PinThread.php": "<?php\n/** Pin a thread to the top of the forum. */\nfinal class PinThread {}\n",
    }
    _first_answers(
        make_project(files, name="forum"),
        ("comment bannir un utilisateur", "app/Jobs/BanUser.php"),
        ("comment approuver un article", "app/Jobs/ApproveArticle.php"),
        ("comment épingler un fil de discussion", "app/Jobs/PinThread.php"),
    )


def test_an_apps_account_words_reach_their_english(make_project):
    """elk's walk (a Mastodon client): "comment se déconnecter" searched "disconnect" alone, which the
    app never writes (it signs out); "sondage" and "changer de compte" were not in the glossary."""
    files = {
        "app/composables/users.ts": "/** Sign out of the current account. */\nexport async function signOut() {\n"
        "  return 1\n}\n\n/** Switch the user: another one logged in. */\nexport async function switchUser() {\n"
        "  return 2\n}\n",
        "app/components/StatusPoll.vue": '<template>\n  <form class="poll">Vote in this poll</form>\n</template>\n',
        "app/components/Settings.vue": "<template>\n  <p>Change your preferences here.</p>\n</template>\n",
        # taxonomy's walk (Next.js): "se connecter" is to sign in, not the license's "in connection with"
        "components/user-auth-form.tsx": "/** Sign in with an email link or GitHub. */\n"
        'export function UserAuthForm() {\n  return signIn("github")\n}\n',
        "LICENSE.md": "MIT License\n\nTHE SOFTWARE IS PROVIDED AS IS. IN NO EVENT SHALL THE AUTHORS BE LIABLE FOR "
        "ANY CLAIM, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN IT.\n",
    }
    _first_answers(
        make_project(files, name="client"),
        ("comment un utilisateur se connecte-t-il", "components/user-auth-form.tsx:1-4"),
        ("comment se déconnecter", "app/composables/users.ts:1-4"),
        ("comment changer de compte", "app/composables/users.ts:6-9"),
        ("quel composant affiche un sondage", "app/components/StatusPoll.vue"),
    )


def test_a_loggers_sensitive_data_reaches_its_english(make_project):
    """pino's walk: "comment masquer des champs sensibles dans les logs" searched ``sensibles`` as
    it is (the glossary had no ``sensible``), and its redaction page, which says "sensitive", was
    out of the first five. ``sensible`` is English too ("a sensible default"): French questions only."""
    files = {
        "docs/redaction.md": "# Redaction\n\nTo redact sensitive information, supply the paths of the keys "
        "that hold sensitive data.\n",
        "docs/defaults.md": "# Defaults\n\nThe logger writes JSON lines to stdout by default.\n",
        "docs/levels.md": "# Levels\n\nEach log line carries its level, from trace to fatal.\n",
    }
    project = make_project(files, name="logger")
    _first_answers(project, ("comment masquer des données sensibles dans les logs", "docs/redaction.md"))
    english = search_project(project, "is stdout a sensible default", SearchOptions(limit=3), now=NOW)
    assert not any(note.startswith("translated") for note in english.notes), english.notes
    assert english.excerpts[0].fact.source.uri.startswith("docs/defaults.md")


def test_a_books_footnotes_reach_their_english(make_project):
    """mdBook's walk: "comment ajouter des notes de bas de page" searched ``notes``, ``bas`` and ``page``
    (the glossary had no ``note de bas de page``), and the guide's Footnotes section was not first."""
    files = {
        "guide/markdown.md": "# Markdown\n\n## Footnotes\n\nA footnote generates a small numbered link in the "
        "text.\n\n## Heading attributes\n\nHeadings can have an id and classes, as a page's notes do.\n",
        "guide/theme.md": "# Theme\n\nThe page's notes and its bottom bar use the theme's colours.\n",
    }
    _first_answers(
        make_project(files, name="book"), ("comment ajouter des notes de bas de page", "guide/markdown.md#footnotes")
    )


def test_syntax_highlighting_for_a_language_reaches_its_english(make_project):
    """bat's walk: "comment ajouter la coloration syntaxique pour un langage que bat ne reconnaît pas"
    searched ``coloration``, ``syntaxique``, ``langage`` and ``reconnaît`` as typed (the glossary had none of them)."""
    files = {
        "docs/syntaxes.md": "# Adding new syntaxes\n\nTo add syntax highlighting for a language the tool does "
        "not recognize yet, put its definition in the syntaxes folder.\n",
        "docs/themes.md": "# Themes\n\nA theme sets the colours of the output; add one to the themes folder.\n",
        "docs/pager.md": "# Pager\n\nThe output goes to a pager when it does not fit the screen.\n",
        "docs/plugins.md": "# Add plugins\n\nAdd a new plugin: add its name to the list, then add its options.\n",
    }
    _first_answers(
        make_project(files, name="viewer"),
        ("comment ajouter la coloration syntaxique d'un nouveau langage", "docs/syntaxes.md"),
    )
