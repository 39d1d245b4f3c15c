"""Words of a question the code writes as one name (``search.compounds``): "character limit" also
searched as ``characterLimit``'s token (elk, walked: the check was found by neither word)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search.compounds import joined
from kenning.search.query import parse
from kenning.store.db import open_store
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "app/publish.ts": "export function canPublish(text: string): boolean {\n"
    "  return text.length <= characterLimit.value && !blocked(text)\n}\n",
    "app/limits.ts": "export const characterLimit = { value: 500 }\n",
    # prose holding both words apart, which won over the code before, and pages where each word is common
    "docs/posting.md": "# Posting\n\nA character in a post counts once. There is a limit on images, and on\n"
    "the words a character may hold; each limit is the instance's.\n",
    **{
        f"docs/page{n}.md": f"# Page {n}\n\nThe rate limit of the API, a character set, the limit of page {n}.\n"
        for n in range(8)
    },
    "docs/toc.md": "# Pages\n\nThe table lists the contents of a page.\n",
    "app/TableOfContents.vue": '<template>\n  <nav class="toc">{{ headings }}</nav>\n</template>\n',
    "app/todo.ts": "// TODO: remove\nexport const todoList = []\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_words_the_code_writes_as_one_name_find_that_name(make_project, engine):
    project = make_project(FILES, name="compounds", config=engine_config(engine, "compounds"))
    resync(project)
    answer = search_project(project, "where is the character limit checked", SearchOptions(limit=3), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith(("app/publish.ts", "app/limits.ts"))
    assert "joined: 'character limit' searched as 'characterlimit' too" in answer.notes
    # three words whose middle one is a short stop word, written together (asked as a question: "show
    # the table of contents", a task, weighs code 0.7 and the page on tables of contents comes first)
    toc = search_project(project, "where is the table of contents shown", SearchOptions(limit=3), now=NOW)
    assert toc.excerpts[0].fact.source.uri.startswith("app/TableOfContents.vue")


def test_only_free_words_outside_stop_words_are_joined_and_only_into_tokens_the_index_holds(make_project):
    project = make_project(FILES, name="compounds2")
    resync(project)
    conn = open_store(project)
    try:

        def tokens(question: str) -> tuple[str, ...]:
            parsed = parse(question, "natural")
            again, notes = joined(conn, parsed, typed_terms=len(parsed.terms))
            assert again.text == parsed.text  # the question as typed
            return tuple(t for t in again.terms if t not in parsed.terms)

        assert tokens("where is the character limit checked") == ("characterlimit",)
        assert tokens("how to do it") == ()  # ``todo`` is held, but "to" and "do" are stop words
        assert tokens("the word limit") == ()  # ``wordlimit``: no token of the index
        assert tokens('the "character limit" check') == ()  # quoted: searched as typed
        assert tokens("character, limit") == ()  # not in a row
        # a question of more words: answered by its words (``MAX_TERMS``)
        assert tokens("where exactly is the character limit of a post checked again") == ()
    finally:
        conn.close()
