"""Every cockpit route through Starlette's TestClient: statuses, the JSON contract, typed
errors, and retrieved markup rendered inert."""

from __future__ import annotations

import json
import re
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route
from starlette.testclient import TestClient
from web_corpus import HOSTILE, NOW, Corpus, build_corpus

from kenning.interfaces.web.app import create_app

QUESTION = "how is freshness computed"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """Read-only tests share one corpus per module."""
    return build_corpus(tmp_path_factory.mktemp("cockpit"))


@pytest.fixture
def fresh_corpus(tmp_path: Path) -> Corpus:
    """A corpus of its own, for tests that change it."""
    return build_corpus(tmp_path)


@pytest.fixture(scope="module")
def client(corpus: Corpus) -> TestClient:
    return TestClient(corpus.app(), base_url="http://127.0.0.1")


def test_home_page_has_the_ask_form_with_both_scopes(client: TestClient):
    page = client.get("/")
    assert page.status_code == 200
    assert '<form class="ask" method="get" action="/ask"' in page.text
    assert 'value="project" checked' in page.text and 'value="all"' in page.text
    assert '<main id="main"' in page.text and '<nav aria-label="Cockpit">' in page.text
    assert 'for="q"' in page.text  # the field has a label


def test_ask_page_shows_badges_dates_and_source_links(client: TestClient):
    page = client.get("/ask", params={"q": QUESTION})
    assert page.status_code == 200
    assert 'class="badge badge-current"' in page.text
    assert '<time class="date-source" datetime="2026-' in page.text
    links = re.findall(r'href="(/source/alpha/\d+(?:#L\d+)?)"', page.text)
    assert links, "every result links to its source"
    assert client.get(links[0].split("#")[0]).status_code == 200
    assert (
        '<dd class="mode">lexical</dd>' in page.text and "degraded: dense disabled" in page.text
    )  # dense is off in the suite (conftest)


def test_ask_page_without_a_question_is_the_empty_form(client: TestClient):
    page = client.get("/ask")
    assert page.status_code == 200 and 'class="answer"' not in page.text


def test_api_ask_returns_the_answer_contract(client: TestClient):
    reply = client.get("/api/ask", params={"q": QUESTION, "limit": 3})
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("application/json")
    data = reply.json()
    assert data["schema"] == "kenning.answer/v1" and data["query"] == QUESTION
    assert data["scope"]["projects"] == ["alpha"]
    assert 1 <= len(data["excerpts"]) <= 3
    first = data["excerpts"][0]
    assert first["freshness"]["state"] == "current" and first["citation"].startswith("kn://alpha/")


def test_api_ask_is_byte_identical_to_kenning_ask_json(
    client: TestClient, corpus: Corpus, cli, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("KENNING_NOW", NOW.isoformat())
    monkeypatch.setenv("KENNING_HOME", str(corpus.home))
    for scope, extra in (("project", ()), ("all", ("--all-projects",))):
        printed = cli("ask", QUESTION, "--json", "--project", str(corpus.alpha.root), *extra)
        assert printed.code == 0, printed.err
        served = client.get("/api/ask", params={"q": QUESTION, "scope": scope})
        assert served.text == printed.out
        excerpts = [(e["citation"], e["snippet"]) for e in json.loads(served.text)["excerpts"]]
        assert excerpts == [(e["citation"], e["snippet"]) for e in printed.json()["excerpts"]]
        assert excerpts


def test_scope_all_labels_results_by_project(client: TestClient):
    page = client.get("/ask", params={"q": QUESTION, "scope": "all"})
    assert page.status_code == 200
    assert '<h3 class="project-heading">alpha</h3>' in page.text
    assert '<h3 class="project-heading">beta</h3>' in page.text
    assert 'href="/source/beta/' in page.text
    data = client.get("/api/ask", params={"q": QUESTION, "scope": "all"}).json()
    assert data["scope"]["projects"] == ["alpha", "beta"]


@pytest.mark.parametrize(
    "url, kind",
    [
        ("/api/ask", "InvalidQuery"),
        ("/api/ask?q=", "InvalidQuery"),
        ("/api/ask?q=x&scope=everywhere", "ValidationError"),
        ("/api/ask?q=x&limit=0", "ValidationError"),
        ("/api/ask?q=x&limit=ten", "ValidationError"),
        ("/api/ask?q=" + "x" * 600, "InvalidQuery"),
    ],
)
def test_api_bad_input_is_a_typed_json_error(client: TestClient, url: str, kind: str):
    reply = client.get(url)
    assert reply.status_code == 400
    assert reply.json()["error"]["type"] == kind and reply.json()["error"]["message"]


@pytest.mark.parametrize(
    "url, status, kind",
    [
        ("/ask?q=x&scope=nowhere", 400, "ValidationError"),
        ("/source/alpha/99999", 404, "NotFound"),
        ("/source/nobody/1", 404, "NotFound"),
        ("/source/alpha/abc", 400, "ValidationError"),  # a malformed id, not an unknown route
        ("/source/alpha/0", 400, "ValidationError"),
        ("/source/alpha/99999999999999999999", 400, "ValidationError"),  # past SQLite's integers
        ("/graph?node=x&hops=3", 400, "ValidationError"),
        ("/graph?node=x&edge=loves", 400, "ValidationError"),
        ("/no/such/page", 404, "NotFound"),
    ],
)
def test_pages_turn_bad_input_into_a_typed_error_page(client: TestClient, url: str, status: int, kind: str):
    page = client.get(url)
    assert page.status_code == status
    assert f"Error {status}: {kind}" in page.text and 'role="alert"' in page.text


def test_unknown_api_route_is_json_404(client: TestClient):
    reply = client.get("/api/nothing")
    assert reply.status_code == 404 and reply.json()["error"]["type"] == "NotFound"
    assert reply.json()["error"]["hint"]


def test_a_method_a_route_does_not_take_is_a_typed_405_that_names_the_allowed_ones(client: TestClient):
    reply = client.post("/api/ask", params={"q": "x"})
    error = reply.json()["error"]
    assert reply.status_code == 405 and error["type"] == "UsageError" and "GET" in reply.headers["allow"]
    assert "POST /api/ask" in error["message"] and error["hint"]
    page = client.get("/memory/forget")
    assert page.status_code == 405 and "Error 405: UsageError" in page.text and "POST" in page.headers["allow"]


def test_retrieved_markup_is_rendered_inert_everywhere(client: TestClient, corpus: Corpus):
    pages = [
        client.get("/ask", params={"q": "beware of markup in sources"}),
        client.get("/memory"),
        client.get("/source/alpha/" + str(corpus.observation_ids[1])),
    ]
    stale_fact = client.get("/api/ask", params={"q": "beware of markup in sources"}).json()["excerpts"][0]
    pages.append(client.get(f"/source/alpha/{stale_fact['id']}"))
    for page in pages:
        assert page.status_code == 200
        assert "&lt;script&gt;" in page.text, page.url
        assert HOSTILE not in page.text and "<img src=x" not in page.text
        assert page.text.count("<script") == 1  # the cockpit's own script tag only


def test_source_page_highlights_the_excerpt_lines(client: TestClient):
    data = client.get("/api/ask", params={"q": "reciprocal rank fusion of two rankings"}).json()
    hit = next(e for e in data["excerpts"] if e["locations"] and e["locations"][0]["lines"])
    start, end = hit["locations"][0]["lines"]
    page = client.get(f"/source/alpha/{hit['id']}")
    assert page.status_code == 200
    highlighted = [int(n) for n in re.findall(r'<span class="ln hl" id="L(\d+)">', page.text)]
    assert highlighted == list(range(start, end + 1))


def test_source_of_another_registered_project_opens(client: TestClient):
    data = client.get("/api/ask", params={"q": QUESTION, "scope": "all"}).json()
    beta = next(e for e in data["excerpts"] if e["project"] == "beta")
    page = client.get(f"/source/beta/{beta['id']}")
    assert page.status_code == 200 and "notes/freshness.md" in page.text


def test_stale_page_lists_an_edited_file_by_project_and_type(fresh_corpus: Corpus):
    client = TestClient(fresh_corpus.app(), base_url="http://127.0.0.1")
    assert '<strong class="stale-total">0</strong>' in client.get("/stale").text
    path = fresh_corpus.alpha.root / "docs" / "freshness.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nA new paragraph.\n", encoding="utf-8")
    (fresh_corpus.beta.root / "notes" / "freshness.md").unlink()
    page = client.get("/stale")
    assert page.status_code == 200
    assert '<strong class="stale-total">0</strong>' not in page.text and "badge-stale" in page.text
    assert "<h3>doc" in page.text
    everywhere = client.get("/stale", params={"scope": "all"})
    assert '<h2 id="stale-1">alpha</h2>' in everywhere.text and '<h2 id="stale-2">beta</h2>' in everywhere.text
    assert "badge-source_missing" in everywhere.text


def test_ask_page_says_how_many_matches_it_hid_beside_the_excerpts_it_serves(fresh_corpus: Corpus):
    """A vanished source hides its excerpts; the page says so, as `kenning ask` prints `hidden:`."""
    client = TestClient(fresh_corpus.app(), base_url="http://127.0.0.1")
    (fresh_corpus.alpha.root / "docs" / "freshness.md").unlink()
    answer = client.get("/api/ask", params={"q": QUESTION}).json()
    assert answer["excerpts"] and answer["filtered"].get("source_missing", 0) >= 1
    page = client.get("/ask", params={"q": QUESTION})
    shown = page.text.split('<p class="filtered">hidden: ', 1)[1].split("</p>", 1)[0]
    # in the words `kenning ask` prints (interfaces/render.hidden_text), not the JSON's keys
    assert f"{answer['filtered']['source_missing']} whose source no longer reads" in shown, shown
    assert "source_missing" not in shown and ("limit" not in answer["filtered"] or "past --limit" in shown), shown


def test_graph_page_draws_typed_edges_around_a_symbol(client: TestClient):
    page = client.get("/graph", params={"node": "rrf_fuse"})
    assert page.status_code == 200
    assert "<svg" in page.text and 'class="edge edge-calls' in page.text
    assert 'stroke="#b35c00"' in page.text  # calls have their own colour
    assert "/graph?node=normalise" in page.text or "/graph?node=" in page.text
    assert client.get("/graph").status_code == 200  # the empty form


def test_graph_page_for_an_unknown_node_says_so(client: TestClient):
    page = client.get("/graph", params={"node": "no_such_symbol_anywhere"})
    assert page.status_code == 200 and "no graph node named" in page.text


def test_memory_page_lists_observations_and_summaries(client: TestClient, corpus: Corpus):
    page = client.get("/memory")
    assert page.status_code == 200
    assert "Prefer FTS5 over tantivy" in page.text and "Session s-1" in page.text
    assert page.text.count('action="/memory/forget"') >= 4


def _token(page: str) -> str:
    return re.search(r'name="token" value="([^"]+)"', page).group(1)


def test_memory_forget_asks_first_then_deletes(fresh_corpus: Corpus):
    client = TestClient(fresh_corpus.app(), base_url="http://127.0.0.1")
    token = _token(client.get("/memory").text)
    target = fresh_corpus.observation_ids[2]
    asked = client.post("/memory/forget", data={"token": token, "id": str(target)})
    assert asked.status_code == 200 and 'name="confirmed" value="yes"' in asked.text
    assert "Old convention" in client.get("/memory").text  # nothing changed yet
    done = client.post(
        "/memory/forget", data={"token": token, "id": str(target), "confirmed": "yes"}, follow_redirects=False
    )
    assert done.status_code == 303 and done.headers["location"].startswith("/memory?done=")
    after = client.get(done.headers["location"])
    assert f"forgot kn://alpha/{target}: Old convention" in after.text
    assert f'id="m{target}"' not in after.text  # no longer listed
    assert client.get(f"/source/alpha/{target}").status_code == 404


def test_memory_confirm_and_supersede(fresh_corpus: Corpus):
    client = TestClient(fresh_corpus.app(), base_url="http://127.0.0.1")
    token = _token(client.get("/memory").text)
    first, second, _ = fresh_corpus.observation_ids
    done = client.post("/memory/confirm", data={"token": token, "id": str(first), "confirmed": "yes"})
    assert done.status_code == 200 and f"kn://alpha/{first} confirmed on 2026-11-29" in done.text
    done = client.post(
        "/memory/supersede",
        data={"token": token, "id": str(second), "new": str(first), "confirmed": "yes", "reason": "merged"},
    )
    assert f"kn://alpha/{second} superseded by kn://alpha/{first}" in done.text
    assert f'id="m{second}"' not in done.text and f'id="m{first}"' in done.text  # superseded: no longer listed


@pytest.mark.parametrize(
    "form, status, kind",
    [
        ({"id": "1", "confirmed": "yes"}, 403, "ScopeDenied"),  # no token: a cross-site post
        ({"token": "forged", "id": "1", "confirmed": "yes"}, 403, "ScopeDenied"),
        ({"token": None, "id": "abc"}, 400, "ValidationError"),
        ({"token": None, "id": "99999"}, 404, "NotFound"),
        ({"token": None, "id": "99999999999999999999"}, 400, "ValidationError"),
        (
            {"token": None, "id": "1", "new": "99999999999999999999", "confirmed": "yes", "action": "supersede"},
            400,
            "ValidationError",
        ),
        ({"token": None, "id": "1", "new": "1", "confirmed": "yes", "action": "supersede"}, 400, "ValidationError"),
        ({"token": None, "id": "1", "confirmed": "yes", "action": "explode"}, 404, "NotFound"),
    ],
)
def test_memory_actions_refuse_bad_forms_and_change_nothing(fresh_corpus: Corpus, form: dict, status: int, kind: str):
    client = TestClient(fresh_corpus.app(), base_url="http://127.0.0.1")
    before = client.get("/memory").text
    data = {k: (_token(before) if k == "token" and v is None else v) for k, v in form.items()}
    action = data.pop("action", "forget")
    reply = client.post(f"/memory/{action}", data=data)
    assert reply.status_code == status and f": {kind}</h1>" in reply.text
    assert client.get("/memory").text == before


def test_bench_page_shows_the_report_with_charts(client: TestClient):
    page = client.get("/bench")
    assert page.status_code == 200
    assert "seed 7" in page.text and 'class="bar"' in page.text and "lexical" in page.text


def test_status_page_shows_level_engines_and_projects(client: TestClient):
    page = client.get("/status")
    assert page.status_code == 200
    assert '<dd class="level">0</dd>' in page.text and "fts5" in page.text
    assert "served here" in page.text and '<th scope="row">beta</th>' in page.text


def test_static_assets_are_served_locally(client: TestClient):
    assert client.get("/static/cockpit.css").status_code == 200
    assert client.get("/static/cockpit.js").status_code == 200
    page = client.get("/").text
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page


@pytest.mark.parametrize("url", ["/", "/ask?q=x", "/memory", "/api/ask?q=x", "/no/such/page", "/static/cockpit.css"])
def test_no_other_site_may_frame_a_page_or_run_a_script_in_it(client: TestClient, url: str):
    """Framing would let another site trick a click on Forget, form token or not (clickjacking)."""
    reply = client.get(url)
    assert reply.headers["x-frame-options"] == "DENY"
    policy = reply.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "object-src 'none'" in policy
    assert reply.headers["x-content-type-options"] == "nosniff"


def test_a_foreign_host_header_is_refused(corpus: Corpus):
    client = TestClient(corpus.app(), base_url="http://evil.example")
    assert client.get("/").status_code == 400


@pytest.mark.parametrize("base", ["http://localhost:8765", "http://[::1]:8765", "http://127.0.0.1:8765"])
def test_loopback_host_headers_are_served(corpus: Corpus, base: str):
    assert TestClient(corpus.app(), base_url=base).get("/").status_code == 200


def test_the_app_is_composable(corpus: Corpus):
    app = corpus.app()
    app.router.routes.append(Route("/extra", lambda request: PlainTextResponse("mounted")))
    assert TestClient(app, base_url="http://127.0.0.1").get("/extra").text == "mounted"


def test_a_confidential_project_stays_out_of_every_view(fresh_corpus: Corpus):
    config = fresh_corpus.beta.root / ".kenning" / "config.toml"
    text = config.read_text(encoding="utf-8")
    assert "confidential = false" in text
    config.write_text(text.replace("confidential = false", "confidential = true"), encoding="utf-8")
    client = TestClient(fresh_corpus.app(), base_url="http://127.0.0.1")
    data = client.get("/api/ask", params={"q": QUESTION, "scope": "all"}).json()
    assert data["scope"]["projects"] == ["alpha"]
    assert [e["project"] for e in data["scope"]["excluded"]] == ["beta"]
    assert all(e["project"] == "alpha" for e in data["excerpts"])
    page = client.get("/source/beta/1")
    assert page.status_code == 403 and "Error 403: ScopeDenied" in page.text
    stale = client.get("/stale", params={"scope": "all"})
    assert "excluded: beta (confidential" in stale.text


def test_other_apps_mount_beside_the_cockpit_with_their_lifespan(corpus: Corpus):
    events: list[str] = []

    @asynccontextmanager
    async def lifespan(app):
        events.append("start")
        yield
        events.append("stop")

    inner = Route("/", lambda request: PlainTextResponse("mcp here"))
    app = create_app(
        corpus.alpha,
        home=corpus.home,
        clock=lambda: NOW,
        extra_routes=[Mount("/mcp", routes=[inner])],
        lifespan=lifespan,
    )
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert client.get("/mcp/").text == "mcp here"
        assert client.get("/status").status_code == 200
    assert events == ["start", "stop"]


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/ask?q=how+is+freshness+computed",
        "/stale",
        "/graph?node=rrf_fuse",
        "/memory",
        "/bench",
        "/status",
        "/source/alpha/1",
    ],
)
def test_every_page_has_one_heading_landmarks_and_labelled_fields(client: TestClient, url: str):
    page = client.get(url).text
    assert page.count("<h1") == 1 and '<html lang="en">' in page
    assert "<header" in page and "<nav" in page and '<main id="main"' in page and "<footer" in page
    labels = set(re.findall(r'<label[^>]*for="([^"]+)"', page))
    for field in re.findall(r"<(?:input|select)\b[^>]*>", page):
        if 'type="hidden"' in field:
            continue
        named = re.search(r'\bid="([^"]+)"', field)
        wrapped = 'type="radio"' in field  # radios sit inside their <label>
        assert wrapped or (named and named.group(1) in labels), field


@pytest.mark.parametrize(
    ("question", "said"),
    [("   ", "the text is empty"), ("", "the text is empty"), ("x" * 501, "the limit is 500")],
)
def test_a_question_the_core_refuses_is_said_on_the_ask_page_its_text_kept(client: TestClient, question, said):
    """Spaces alone pass the field's ``required``, a link may carry an empty or over-long text:
    the refusal is said on the Ask page, status 400, the text still in the field to be mended
    (it was an error page of its own, the text gone). The API keeps its JSON error."""
    page = client.get("/ask", params={"q": question})
    assert page.status_code == 400
    assert '<form class="ask"' in page.text and 'class="refused" role="alert"' in page.text
    assert said in page.text and "Hint:" in page.text
    assert f'value="{question}"' in page.text
    assert 'class="answer"' not in page.text
    reply = client.get("/api/ask", params={"q": question})
    assert reply.status_code == 400 and reply.json()["error"]["type"] == "InvalidQuery"


def test_status_page_says_how_long_an_incomplete_dense_index_should_take(client: TestClient, monkeypatch):
    """The dense row gives ``kenning status``'s estimate (``engines.dense.left``), escaped as any text."""
    from kenning.interfaces.web import pages

    real = pages.project_status

    def incomplete(project):  # noqa: ANN001, ANN202
        data = real(project)
        left = "about 135 s of embedding left at the last sync's pace: `kenning sync --embed-budget 135` <b>"
        data["engines"]["dense"] = {"available": False, "reason": "dense index incomplete", "left": left}
        return data

    monkeypatch.setattr(pages, "project_status", incomplete)
    page = client.get("/status").text
    assert '<p class="left">about 135 s of embedding left at the last sync&#39;s pace: ' in page
    assert "--embed-budget 135` &lt;b&gt;</p>" in page
