"""An error message pasted into a question has its fixed words ranked as phrases, a list fused with
the words' (``search.pasted``): zod's "Error: Encountered unidirectional transform during encode:
ZodTransform" ranked the ``ZodTransform`` type first, not the page and the code that give the message
(docs/benchmarks.md, "pasted"). Both engines."""

from __future__ import annotations

import re

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from kenning.interfaces.render import explain_line
from kenning.route.rules import route
from kenning.search.pasted import phrases
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

# The type's file says the question's other words most; the message is the error class's and the page's.
FILES = {
    "src/types.ts": (
        "export interface ZodTransform { encode: Transform; decode: Transform }\n"
        "export type ZodTransformParams = { transform: ZodTransform; encode: boolean };\n"
        "export function isZodTransform(value: unknown): value is ZodTransform {\n"
        "  // a transform can encode and decode; during encode a ZodTransform runs backwards\n"
        "  return value instanceof ZodTransform;\n"
        "}\n"
        "export const transforms: ZodTransform[] = []; // every ZodTransform during encode\n"
    ),
    "src/errors.ts": (
        "export class EncodeError extends Error {\n"
        "  constructor(name: string) {\n"
        "    super(`Encountered unidirectional transform during encode: ${name}`);\n"
        "  }\n"
        "}\n"
    ),
    "docs/codecs.md": (
        "# Codecs\n\n## Transforms\n\nA transform only runs forwards. Encoding a schema that holds one throws:\n\n"
        "```ts\nschema.encode(1234); // Error: Encountered unidirectional transform during encode: ZodTransform\n```\n"
    ),
    "docs/guide.md": "# Guide\n\nEach transform can encode values; encode runs every transform during encode.\n",
}
QUESTION = "Error: Encountered unidirectional transform during encode: ZodTransform"


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "pasted")


def _files(answer) -> list[str]:
    return [re.sub(r"[#:].*", "", e.fact.source.uri) for e in answer.excerpts]


def test_a_pasted_error_message_finds_where_it_is_given(project):
    answer = ask_project(project, QUESTION, now=NOW)
    assert (
        'error message\'s fixed words ranked as phrases: "Encountered unidirectional transform during encode"'
        in answer.notes
    )
    files = _files(answer)
    assert sorted(files[:2]) == ["docs/codecs.md", "src/errors.ts"] and "src/types.ts" in files[2:]
    explained = ask_project(project, QUESTION, now=NOW, explain=True).excerpts[0].explain
    assert explained["phrase_rank"] in (1, 2) and f"phrase #{explained['phrase_rank']}" in explain_line(explained, 1.0)
    # not vacuous: the same words, no error's head, rank the type first
    loose = ask_project(project, QUESTION.removeprefix("Error: "), now=NOW)
    assert _files(loose)[0] == "src/types.ts"
    assert not any("error message" in note for note in loose.notes)


def test_quotes_inside_a_pasted_message_are_the_programs(project):
    """``No procedure found on path "user.getById"``: the value tRPC printed, no quoted text to require."""
    answer = ask_project(project, 'TypeError: Encountered unidirectional transform during encode "Zod"', now=NOW)
    assert not any(note.startswith(("quoted text", "no excerpt holds the quoted")) for note in answer.notes)
    assert sorted(_files(answer)[:2]) == ["docs/codecs.md", "src/errors.ts"]
    # nor is a route inside one the project's (axum's "Handler for `GET /users` already exists")
    rust = "thread 'main' panicked at src/main.rs:3:1:\nEncountered unidirectional transform during encode: GET /users"
    answer = ask_project(project, rust, now=NOW)
    assert not any("route" in note for note in answer.notes), answer.notes
    assert sorted(_files(answer)[:2]) == ["docs/codecs.md", "src/errors.ts"]
    assert any("route GET /users" in n for n in ask_project(project, "what handles GET /users", now=NOW).notes)


def test_a_message_no_excerpt_holds_is_searched_by_its_words(project):
    answer = ask_project(project, "TypeError: the transform could not encode this value", now=NOW)
    assert answer.notes[-1] == (
        'no excerpt holds the error message\'s words "the transform could not encode this value" in that order'
    )
    assert answer.excerpts  # the question's words still rank


def test_quoted_text_says_what_is_wanted(project):
    answer = ask_project(project, 'the "ZodTransform" type, Error: Encountered unidirectional transform', now=NOW)
    assert 'quoted text required: "ZodTransform"' in answer.notes
    assert not any("error message" in note for note in answer.notes)


def test_a_pasted_error_message_is_searched_exactly():
    """Lexical, as quoted text (SPEC §9: exact search): at level 1 too, the phrases' list is the word index's."""
    found = route("panic: the handler is nil for this route", dense_available=True)
    assert (found.mode, found.rule) == ("lexical", "identifier")
    assert found.reason == "contains an error message: the handler is nil for this route"
    assert route("how do I fix an error: no idea where it comes from", dense_available=True).rule == "default"


DJANGO = (
    "django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not "
    "configured. You must either define the environment variable DJANGO_SETTINGS_MODULE or call "
    "settings.configure() before accessing settings."
)
# (a question, the runs of fixed words of the messages it pastes, longest first)
RUNS = [
    (QUESTION, ["Encountered unidirectional transform during encode"]),
    (
        "RuntimeError: Working outside of application context. when I run my tests",
        ["Working outside of application context"],
    ),
    (
        DJANGO,
        [
            "You must either define the environment variable",
            "but settings are not configured",
            "before accessing settings",
            "Requested setting",
            "or call",
        ],
    ),
    ("panic: runtime error: index out of range [5] with length 3", ["runtime error index out of range", "with length"]),
    ("error[E0277]: the trait bound `H: Handler` is not satisfied", ["the trait bound", "is not satisfied"]),
    ('Error: Unmergable intersection. Error path: ["status"]', ["Unmergable intersection", "Error path"]),
    (
        "I call fetch() and get TypeError: Cannot read properties of undefined (reading 'map')",
        ["Cannot read properties of undefined reading"],
    ),
    ("ERROR: could not connect to server at db.internal:5432", ["could not connect to server at"]),
    ("ValueError: one two three four five six seven eight nine ten", ["one two three four five six seven eight"]),
    ("fatal: not a git repository (or any of the parent directories)", ["not a git repository or any of the"]),
    ("the log says\nWARNING: the cache folder is not writable", ["the cache folder is not writable"]),
    (
        "z.toJSONSchema(User) fails with Error: Date cannot be represented in JSON Schema",
        ["Date cannot be represented in JSON Schema"],
    ),
    ("[GIN-debug] [WARNING] You trusted all proxies, this is NOT safe.", ["You trusted all proxies this is NOT safe"]),
    (
        "where does the '[WARNING] Headers were already written. Wanted to override' message come from",
        ["Headers were already written", "Wanted to override"],
    ),
    (
        "thread 'main' panicked at src/routes.rs:12:6:\nOverlapping method route. Handler for `GET /users` exists",
        ["Overlapping method route", "Handler for"],
    ),
    ("Error:\n  the config file could not be read", ["the config file could not be read"]),
    # no message
    ("Note: how does the router pick a handler", []),  # one hump: no error's head
    ("Context: the cache is not invalidated", []),
    ("KeyError: 'user_id'", []),  # a value alone
    ("Error: timeout", []),  # one word: the words' list has it
    ("how do I fix an error: no idea where it comes from", []),  # "an error:" opens no line of output
    ("std::io::Error::new wraps the kind in a custom error", []),  # a path, no colon and space after it
    ("TypeScript: how do I infer the type of a router's outputs", []),  # a question follows, no message
    ("Error: why does the client retry the request twice", []),
]


@pytest.mark.parametrize(("question", "runs"), RUNS)
def test_which_runs_of_a_message_are_its_fixed_words(question, runs):
    assert phrases(question) == runs
