"""A one-line range reads ``path:7`` in text output, not ``path:7-7`` (walkthrough of
2026-12-02, cuts6); the JSON contract keeps the range as stored."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from conftest import NOW, resync
from kenning.interfaces.render import line_range
from kenning.interfaces.web.app import create_app

FILES = {
    "app/__init__.py": "",
    "app/greet.py": (
        '"""Greetings."""\n\n\n'
        "def greet(name):\n"
        '    return f"Hello, {name}!"\n\n\n'
        "def shout(name): return greet(name).upper()\n"
    ),
    "tests/__init__.py": "",
    "tests/test_greet.py": (
        'from app.greet import greet\n\n\ndef test_greet():\n    assert greet("Ada") == "Hello, Ada!"\n'
    ),
}


@pytest.fixture
def project(make_project):
    project = make_project(FILES, "hello")
    resync(project)
    return project


def test_the_via_line_of_a_relation_answer_names_one_line_as_path_colon_line(project, cli):
    text = cli("ask", "which tests cover greet", "--project", str(project.root)).out
    assert "via tested_by(extracted) · tests/test_greet.py:5\n" in text, text
    assert ":5-5" not in text and ":1-1" not in text
    contract = json.loads(cli("ask", "which tests cover greet", "--project", str(project.root), "--json").out)
    uris = [e["path"][-1]["source"]["uri"] for e in contract["excerpts"]]
    assert "tests/test_greet.py:5-5" in uris  # the contract is unchanged


def test_a_one_line_symbol_is_cited_as_path_colon_line_in_search_and_get(project, cli):
    found = cli("search", "shout", "--project", str(project.root)).out
    assert "— app/greet.py:8\n" in found and "app/greet.py:8-8" not in found, found
    contract = json.loads(cli("search", "shout", "--project", str(project.root), "--json").out)
    one = next(e for e in contract["excerpts"] if e["title"].startswith("def shout"))
    assert one["source"]["uri"] == "app/greet.py:8-8"
    got = cli("get", one["citation"], "--project", str(project.root)).out
    assert "source: file app/greet.py:8 · " in got and ":8-8" not in got, got


def test_the_cockpit_shows_a_one_line_symbol_as_path_colon_line_and_its_source_as_one_line(project, isolated_home):
    client = TestClient(create_app(project, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1")
    page = client.get("/ask", params={"q": "shout"}).text
    assert ">app/greet.py:8</a>" in page and "app/greet.py:8-8" not in page, page
    source = re.search(r'href="(/source/hello/\d+)#L8"', page)
    assert source, page
    shown = client.get(source.group(1)).text
    assert '<span class="lines">line 8</span>' in shown and "8–8" not in shown, shown


@pytest.mark.parametrize(
    ("uri", "shown"),
    [
        ("a.py:7-7", "a.py:7"),
        ("a.py:7-9", "a.py:7-9"),
        ("a.py:17-7", "a.py:17-7"),
        ("a.py:7-77", "a.py:7-77"),
        ("docs/a.md#intro", "docs/a.md#intro"),
        ("notes/7-7", "notes/7-7"),
    ],
)
def test_only_a_range_of_one_line_is_shortened(uri, shown):
    assert line_range(uri) == shown
