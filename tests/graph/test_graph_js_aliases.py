"""JavaScript and TypeScript as an application writes them (umami, walked as a new user): imports
through the project's alias (``@/lib/password``, tsconfig's ``@/*``) are the project's, a barrel
re-exports (``export * from './useSlug'``), and a name a function binds (``const { error } =
parse()``) is called as a value, not as a project function of that name in another file."""

from __future__ import annotations

import signal

import pytest
from graph_edges import callees, imported

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.tree_code import parse_code_relations
from kenning.ingest.tree_imports import alias_path
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "tsconfig.json": '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }\n',
    "src/lib/password.ts": "export function checkPassword(plain: string, hash: string): boolean {\n"
    "  return plain === hash;\n}\n",
    # another package's file of the same name: the import reaches the nearest
    "packages/admin/src/lib/password.ts": "export function checkPassword(a: string) {\n  return !a;\n}\n",
    "src/app/api/login/route.ts": "import { checkPassword } from '@/lib/password';\n"
    "import { parseRequest } from '@/lib/request';\n\n"
    "export async function POST(req: Request) {\n"
    "  const { body, error } = await parseRequest(req);\n"
    "  if (!body) return error();\n"
    "  return checkPassword(body, 'x');\n}\n",
    "src/lib/request.ts": "export async function parseRequest(req: Request) {\n"
    "  return { body: req, error: () => 1 };\n}\n",
    "scripts/check-db.js": "function error(msg) {\n  console.log(msg);\n}\n\nerror('x');\n",
    "src/components/hooks/index.ts": "export * from './useSlug';\n",
    "src/components/hooks/useSlug.ts": "export function useSlug() {\n  return 'slug';\n}\n",
    "src/app/page.tsx": "import { useSlug } from '@/components/hooks';\n\n"
    "export default function Page() {\n  return useSlug();\n}\n",
}


@pytest.mark.parametrize(
    ("spec", "path"),
    [("@/lib/db", "lib/db"), ("~/utils/x.js", "utils/x.js"), ("$lib/api", "lib/api"), ("$lib", "lib")],
)
def test_an_alias_import_names_a_path_of_the_project(spec, path):
    assert alias_path(spec) == path


@pytest.mark.parametrize("spec", ["@scope/pkg", "lodash", "./x", "@", "~", "$libx/y"])
def test_a_package_or_a_relative_import_is_no_alias(spec):
    assert alias_path(spec) is None


def test_the_parser_reads_alias_imports_re_exports_and_locals():
    _, route = parse_code_relations(FILES["src/app/api/login/route.ts"], "src/app/api/login/route.ts")
    assert [(r.target_kind, r.target) for r in route.refs if r.type == "imports"] == [
        ("suffix", "lib/password"),
        ("suffix", "lib/request"),
    ]
    called = [r.target for r in route.refs if r.type == "calls"]
    assert called == ["parseRequest", "checkPassword"]  # `error()`: the value parseRequest returned
    _, barrel = parse_code_relations(FILES["src/components/hooks/index.ts"], "src/components/hooks/index.ts")
    assert [(r.target_kind, r.target) for r in barrel.refs] == [("stem", "src/components/hooks/useSlug")]
    # a scope's: an npm package's name, or a tsconfig alias's (``@server/*``): told apart where it is
    # resolved (``test_imports_through_a_scope_reach_the_files_that_end_so``)
    _, scoped = parse_code_relations("import { map } from '@scope/pkg';\nfunction f() { map(); }\n", "src/a.ts")
    assert [(r.target, r.hint) for r in scoped.refs if r.type == "calls"] == [("map", "from:scope/pkg")]


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_alias_imports_reach_the_nearest_file_and_its_functions(make_project, engine):
    project = make_project(FILES, name="aliases", config=engine_config(engine, "aliases"))
    resync(project)
    answer = ask_project(project, "who calls checkPassword", now=NOW)
    assert [e.fact.source.uri for e in answer.excerpts] == ["src/app/api/login/route.ts:4-8"]
    # the nearest file of that path, not packages/admin's
    assert imported(project, "src/app/api/login/route.ts") == {"src/lib/password.ts", "src/lib/request.ts"}
    assert imported(project, "src/components/hooks/index.ts") == {"src/components/hooks/useSlug.ts"}
    users = ask_project(project, "who imports src/components/hooks/index.ts", now=NOW)
    assert {e.fact.source.uri.split(":")[0] for e in users.excerpts} == {"src/app/page.tsx"}
    assert ("parseRequest", "extracted") in callees(project, "POST")
    assert "error" not in {name for name, _ in callees(project, "POST")}  # scripts/check-db.js's is not it


def test_a_path_with_route_groups_and_segments_is_one_start(make_project):
    """Next.js's folders (``(main)``, ``[websiteId]``) cut the path into words: every other
    ``page.tsx`` was taken for the start."""
    pages = {
        "src/app/(main)/websites/[websiteId]/page.tsx": "import { useSlug } from '@/components/hooks';\n",
        "src/app/(main)/admin/teams/[teamId]/page.tsx": "import { checkPassword } from '@/lib/password';\n",
    }
    project = make_project({**FILES, **pages}, name="segments")
    resync(project)
    answer = ask_project(project, "what does src/app/(main)/websites/[websiteId]/page.tsx import", now=NOW)
    found = {e.fact.source.uri.split(":")[0] for e in answer.excerpts}
    assert "src/components/hooks/index.ts" in found and "src/lib/password.ts" not in found  # not the teams page's
    starts = answer.excerpts[0].explain["start"]
    assert [s["name"] for s in starts] == ["src/app/(main)/websites/[websiteId]/page.tsx"]


def test_a_name_imported_as_another_calls_the_name_it_imports():
    """umami's batch route imports ``POST as sendPOST`` from the send route: ``sendPOST()`` is a
    call of that ``POST``; a package's name imported so is still none of the project's."""
    text = (
        "import { POST as sendPOST } from '@/app/api/send/route';\nimport { map as m } from 'lodash';\n\n"
        "export async function POST(req) {\n  m();\n  return sendPOST(req);\n}\n"
    )
    _, rel = parse_code_relations(text, "src/app/api/batch/route.ts")
    assert [(r.target, r.line) for r in rel.refs if r.type == "calls"] == [("POST", 6)]


def test_a_long_word_without_a_slash_is_read_at_once():
    """The path pattern once tried every split of ``url_has_allowed_host_and_scheme`` (minutes of
    backtracking in a Django question set): a deadline, not a speed, is what this checks."""
    from kenning.answer.naming import _tokens

    def expired(*_: object) -> None:
        raise TimeoutError("the question's words were not read within 10 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(10)
    try:
        words = _tokens("what calls url_has_allowed_host_and_scheme_" + "a_" * 40 + "b?")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert words == ["what", "calls", "url_has_allowed_host_and_scheme_" + "a_" * 40 + "b"]


SCOPED = {
    "tsconfig.json": '{ "compilerOptions": { "paths": { "@server/*": ["./server/*"], "@shared/*": ["./shared/*"] } } }',
    "server/commands/documentMover.ts": "export default async function documentMover(x: object) {\n  return x;\n}\n",
    "server/routes/api/documents.ts": (
        "import documentMover from '@server/commands/documentMover';\n"
        "import { useQuery } from '@tanstack/react-query';\n\n"
        "export async function move(ctx: object) {\n  useQuery();\n  return documentMover(ctx);\n}\n"
    ),
    # the project's homonym of an npm package's function: not what the route calls
    "app/hooks/useQuery.ts": "export function useQuery() {\n  return 1;\n}\n",
    "shared/utils/parseDocumentSlug.ts": "export function parseDocumentSlug(url: string) {\n  return url;\n}\n",
    "server/urls.ts": (
        "import { parseDocumentSlug as slug } from '@shared/utils/parseDocumentSlug';\n\n"
        "export function resolveUrl(url: string) {\n  return slug(url);\n}\n"
    ),
    "server/processors/BaseProcessor.ts": (
        "export default abstract class BaseProcessor {\n  abstract perform(): void;\n}\n"
    ),
    "server/processors/SearchIndexProcessor.ts": (
        "import BaseProcessor from '@server/processors/BaseProcessor';\n\n"
        "export default class SearchIndexProcessor extends BaseProcessor {\n  perform() {}\n}\n"
    ),
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_imports_through_a_scope_reach_the_files_that_end_so(make_project, engine):
    """outline, walked: its imports go through tsconfig aliases spelled as npm scopes (``@server/*``,
    ``@shared/*``), whose names were taken for npm's: "who calls documentMover" found no route,
    "what extends BaseProcessor" missed every subclass that imports it so. A scope's path is the
    project's when one of its files ends so; else a package's (``@tanstack/react-query``), whose
    names reach no symbol of the project's."""
    project = make_project(SCOPED, name="scoped", config=engine_config(engine, "scoped"))
    resync(project)
    assert callees(project, "move") == {("documentMover", "extracted")}  # not app/hooks' useQuery
    assert callees(project, "resolveUrl") == {("parseDocumentSlug", "extracted")}  # imported as ``slug``
    assert imported(project, "server/routes/api/documents.ts") == {"server/commands/documentMover.ts"}
    answer = ask_project(project, "what extends BaseProcessor", now=NOW, limit=5)
    assert [e.explain["node"]["name"] for e in answer.excerpts] == ["SearchIndexProcessor"]


HOMONYMS = {
    "app/menus/DocumentMenu.tsx": "export default function DocumentMenu() {\n  return 1;\n}\n",
    "app/editor/components/DocumentMenu.tsx": "export default function DocumentMenu() {\n  return 2;\n}\n",
    "app/components/DocumentLink.tsx": (
        "import DocumentMenu from '~/menus/DocumentMenu';\n\nexport function Link() {\n  return DocumentMenu();\n}\n"
    ),
    "app/editor/components/Toolbar.tsx": (
        "import DocumentMenu from './DocumentMenu';\n\nexport function Toolbar() {\n  return DocumentMenu();\n}\n"
    ),
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_name_imported_from_a_path_is_called_in_that_file(make_project, engine):
    """outline, re-walked: ``DocumentLink.tsx`` calls the ``DocumentMenu`` it imports from ``~/menus``;
    it was linked to the editor's homonym. A name imported by path (relative, an alias or a scope)
    reaches the symbol of the file that path names, ``extracted``."""
    project = make_project(HOMONYMS, name="homonyms", config=engine_config(engine, "homonyms"))
    resync(project)
    assert _callee_paths(project, "Link") == {("app/menus/DocumentMenu.tsx", "extracted")}
    assert _callee_paths(project, "Toolbar") == {("app/editor/components/DocumentMenu.tsx", "extracted")}


def _callee_paths(project, caller: str) -> set[tuple[str, str]]:
    answer = ask_project(project, f"what does {caller} call", now=NOW, limit=5)
    return {(e.fact.source.uri.split(":")[0], e.path[-1]["link"]) for e in answer.excerpts}
