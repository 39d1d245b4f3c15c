"""End to end in a real browser: Debian's Chromium driven by Playwright, against a real
uvicorn server on a free loopback port, over a synced fixture corpus. One browser and one
server per module. Screenshots of every page go to tests/artifacts/ (not committed)."""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from web_corpus import HOSTILE, NOW, Corpus, build_corpus

from kenning.auth import tokens
from kenning.interfaces.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
QUESTION = "how is freshness computed"

pytestmark = pytest.mark.browser


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true requires the browser tests to run, but {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason} (apt-get install chromium; they run in CI)")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[dev]')")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Corpus]]:
    corpus = build_corpus(tmp_path_factory.mktemp("cockpit-browser"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(corpus.app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", corpus
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def page(browser, served):
    base, _ = served
    context = browser.new_context(base_url=base, viewport={"width": 1200, "height": 900})
    opened = context.new_page()
    outside: list[str] = []
    opened.on("request", lambda request: None if request.url.startswith(base) else outside.append(request.url))
    yield opened
    context.close()
    assert outside == [], "every asset is served locally"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"cockpit-{name}.png"), full_page=True)


def test_ask_shows_badges_dates_and_working_source_links(page):
    page.goto("/")
    page.get_by_label("Question").fill(QUESTION)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/ask\?q="))
    results = page.locator("li.excerpt")
    assert results.count() >= 2
    first = results.first
    assert first.locator(".badge-current").inner_text() == "current"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", first.locator("time.date-source").inner_text())
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", first.locator("time.date-indexed").inner_text())
    assert page.locator("dd.mode").inner_text() == "lexical"
    shot(page, "ask")
    title = first.locator("a.title").inner_text()
    first.locator("a.title").click()
    page.wait_for_url(re.compile(r"/source/alpha/\d+"))
    assert page.locator("h1").inner_text() == title
    assert page.locator(".ln.hl").count() >= 1
    shot(page, "source")


def test_retrieved_markup_stays_text_in_the_browser(page):
    page.goto("/ask?q=beware+of+markup+in+sources")
    assert page.title().startswith("beware of markup")  # the stored <script> did not run
    assert "<script>" in page.locator("li.excerpt").first.inner_text()


def test_switching_scope_labels_results_by_project(page):
    page.goto(f"/ask?q={QUESTION.replace(' ', '+')}")
    page.get_by_label("all projects").check()
    page.get_by_role("button", name="Ask").click()
    page.wait_for_url(re.compile(r"scope=all"))
    headings = page.locator("h3.project-heading").all_inner_texts()
    assert headings == ["alpha", "beta"]
    assert page.locator("li.excerpt .project-label", has_text="beta").count() >= 1
    shot(page, "ask-all-projects")
    page.locator('a[href^="/source/beta/"]').first.click()
    assert "notes/freshness.md" in page.locator("main").inner_text()


def test_ask_and_stale_work_without_javascript(browser, served):
    base, _ = served
    context = browser.new_context(base_url=base, java_script_enabled=False)
    page = context.new_page()
    page.goto("/")
    page.get_by_label("Question").fill(QUESTION)
    page.get_by_role("button", name="Ask").click()
    page.wait_for_url(re.compile(r"/ask\?"))  # count() does not wait for the form's navigation
    assert page.locator("li.excerpt").count() >= 2
    page.goto("/stale")
    page.get_by_label("all projects").check()
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(r"scope=all"))
    assert page.locator("h2", has_text="beta").count() == 1
    context.close()


def test_keyboard_reaches_the_skip_link_and_slash_focuses_the_question(page):
    page.goto("/status")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.goto("/ask?q=freshness+at+read+time")
    page.locator("h1").click()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"


def test_graph_view_draws_the_neighbourhood_and_recentres(page):
    page.goto("/graph")
    page.get_by_label("Node").fill("rrf_fuse")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(r"/graph\?node=rrf_fuse"))  # is_visible() does not wait for the navigation
    svg = page.locator("svg.graph-svg")
    assert svg.is_visible()
    assert page.locator("svg.graph-svg line.edge-calls").count() >= 1
    assert page.locator("svg.graph-svg a.node").count() >= 2
    shot(page, "graph")
    page.locator("svg.graph-svg a.node.ring-1").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/graph\?node=(?!rrf_fuse&)"))
    assert page.locator("svg.graph-svg").is_visible()


def test_confirm_and_forget_from_the_memory_view(page, served):
    _, corpus = served
    first, _, last = corpus.observation_ids
    page.goto("/memory")
    shot(page, "memory")
    page.locator(f"#m{first} button.action-confirm").click()
    assert page.locator("h1").inner_text() == f"Confirm kn://alpha/{first}?"
    shot(page, "memory-confirm")
    page.get_by_role("button", name=f"Yes, confirm #{first}").click()
    assert f"kn://alpha/{first} confirmed on" in page.get_by_role("status").inner_text()
    page.locator(f"#m{last} button.action-forget").click()
    page.get_by_label("Reason").fill("obsolete")
    page.get_by_role("button", name=f"Yes, forget #{last}").click()
    assert "forgot" in page.get_by_role("status").inner_text()
    assert page.locator(f"#m{last}").count() == 0
    page.locator(f"#m{first} button.action-forget").click()
    page.get_by_role("link", name="Cancel").click()
    assert page.locator(f"#m{first}").count() == 1


def test_bench_and_status_pages(page):
    page.goto("/bench")
    assert page.locator("figure.chart").count() >= 2
    shot(page, "bench")
    page.goto("/status")
    assert page.locator("dd.level").inner_text() == "0"
    shot(page, "status")


def test_stale_view_after_editing_a_file(page, served):
    _, corpus = served
    readme = corpus.alpha.root / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\nEdited after the sync.\n", encoding="utf-8")
    page.goto("/")
    page.get_by_role("link", name="Stale").click()
    assert int(page.locator("strong.stale-total").inner_text()) >= 1
    assert page.locator(".badge-stale").first.inner_text().startswith("STALE")
    assert page.locator("li.excerpt a.uri", has_text="README.md").count() >= 1
    assert HOSTILE not in page.content()
    shot(page, "stale")


def test_logging_in_with_a_token_then_asking(browser, tmp_path):
    """A cockpit served beyond loopback (on 0.0.0.0): the browser meets the login page, presents a
    token once, and asks; the token lives in an HttpOnly cookie that scripts cannot read."""
    corpus = build_corpus(tmp_path)
    _, secret = tokens.create(
        corpus.home, scopes=[tokens.READ], projects=["alpha"], paths=[], name="laptop", expires="1d", now=NOW
    )
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        port = probe.getsockname()[1]
    app = create_app(corpus.alpha, home=corpus.home, clock=lambda: NOW, gated=True)
    server = uvicorn.Server(uvicorn.Config(app, host="0.0.0.0", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    context = browser.new_context(base_url=f"http://127.0.0.1:{port}", viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        refused = page.goto(f"/ask?q={QUESTION.replace(' ', '+')}")
        assert refused.status == 401 and page.locator("h1").inner_text() == "Log in"
        page.get_by_label("Access token").fill(secret)
        shot(page, "login")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(re.compile(r"/ask\?q="))
        assert page.locator("li.excerpt").count() >= 2
        assert "laptop" in page.locator(".signed-in").inner_text()
        assert secret not in page.url and page.evaluate("document.cookie") == ""
        (cookie,) = context.cookies()
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["value"] == secret
        page.get_by_label("Question").fill("rank fusion")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"q=rank\+fusion"))
        assert page.locator("li.excerpt").count() >= 1
        page.get_by_role("button", name="Log out").click()
        assert page.goto("/").status == 401
    finally:
        context.close()
        server.should_exit = True
        thread.join(timeout=10)
