"""An HTTP route named in a question has its words required (search/routes.py): the code that
serves it comes before the pages that only say "handles"; a note says so, and when nothing holds
the route's words the question is searched without them, saying that too. The same on SQLite and
on PostgreSQL."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.search import quoted, routes
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

FILES = {
    "README.md": (
        "# Server\n\nThe server handles every request. A handler handles what the router hands it; "
        "each handled request is logged, and errors are handled by the error handler.\n"
    ),
    "docs/handlers.md": "# Handlers\n\nHow requests are handled: a handler per request, handled in order.\n",
    "src/article.controller.ts": (
        "import { Controller, Get, Post, Param, Body } from '@nestjs/common';\n\n"
        "@Controller('articles')\n"
        "export class ArticleController {\n"
        "  @Get(':slug')\n"
        "  async findOne(@Param('slug') slug) {\n"
        "    return this.articleService.findOne({ slug });\n"
        "  }\n\n"
        "  @Delete(':slug')\n"
        "  async remove(@Param('slug') slug) {\n"
        "    return this.articleService.remove(slug);\n"
        "  }\n\n"
        "  @Post(':slug/comments')\n"
        "  async createComment(@Param('slug') slug, @Body('comment') comment) {\n"
        "    return this.articleService.addComment(slug, comment);\n"
        "  }\n"
        "}\n"
    ),
    "docs/invoices.md": ("# Billing\n\nThe customer's invoices are listed with their number.\n"),
    "web.py": (
        "from starlette.routing import Route\n\n\n"
        "def routes(pages):\n"
        '    """The pages, by path."""\n'
        '    return [Route("/invoices/{number}", pages.invoice), Route("/", pages.home)]\n'
    ),
    "app.py": (
        "from flask import Flask\n\napp = Flask(__name__)\n\n\n"
        '@app.get("/users/<name>")\ndef show_user(name):\n    """The page of one user."""\n    return name\n'
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "routes")


def _first(answer) -> str:
    return answer.excerpts[0].fact.title


def _paths(answer) -> list[str]:
    return [e.fact.locations[0].path for e in answer.excerpts]


def test_the_code_serving_a_route_comes_before_the_pages_that_say_handles(project):
    answer = ask_project(project, "what handles GET /articles/:slug", now=NOW, limit=5)
    assert "the route's path required: GET /articles/:slug" in answer.notes, answer.notes
    assert "findOne" in _first(answer), _paths(answer)
    assert "README.md" not in _paths(answer) and "docs/handlers.md" not in _paths(answer)

    deleted = ask_project(project, "what handles DELETE /articles/:slug", now=NOW, limit=5)
    assert "remove" in _first(deleted), [e.fact.title for e in deleted.excerpts]  # its method ranks

    posted = ask_project(project, "which method handles POST /articles/:slug/comments?", now=NOW, limit=5)
    assert "createComment" in _first(posted), [e.fact.title for e in posted.excerpts]

    flask = ask_project(project, "what handles GET /users/<name>", now=NOW, limit=5)
    assert "show_user" in _first(flask), [e.fact.title for e in flask.excerpts]


def test_a_quoted_route_is_its_words_not_a_phrase(project):
    # the method's keywords say "GET articles" and its parameter "slug" earlier: no phrase holds the three
    answer = ask_project(project, 'what handles "GET /articles/:slug"', now=NOW, limit=5)
    assert "the route's path required: GET /articles/:slug" in answer.notes, answer.notes
    assert "findOne" in _first(answer)


def test_a_route_whose_method_the_code_leaves_unsaid_is_its_path_words(project):
    answer = ask_project(project, "what serves GET /invoices/{number}", now=NOW, limit=3)  # Starlette: GET unsaid
    assert "the route's path required: GET /invoices/{number}" in answer.notes, answer.notes
    # BM25 weighs the path's words in order (a phrase, one term on both engines: store/postgres/fts_phrases)
    # above the page that says "invoices" and "number" too
    assert _paths(answer)[0] == "web.py", _paths(answer)


def test_a_route_nothing_holds_is_a_note_not_an_empty_answer(project):
    answer = ask_project(project, "what handles DELETE /receipts/:number", now=NOW, limit=3)
    assert "no excerpt holds the words of the route DELETE /receipts/:number: searched without requiring them" in (
        answer.notes
    ), answer.notes
    assert answer.excerpts  # the question's other words still answer


def test_what_a_route_is():
    assert routes.spans("what handles GET /articles/:slug?") == ["GET /articles/:slug"]
    assert routes.spans("(POST /a/{id}/edit). And GET /a/{id}/edit") == ["POST /a/{id}/edit", "GET /a/{id}/edit"]
    assert routes.spans("how do I get /tmp cleaned") == []  # a method is in capitals
    assert routes.spans("what serves GET /") == []  # a path of no word
    assert routes.spans("the path api/GET /x") == []  # inside a path, not a method
    assert routes.words("GET /owners/{ownerId}/edit") == ["GET", "owners", "ownerId", "edit"]
    assert quoted.spans('what handles "GET /a/:b" and "the file"') == ["the file"]
