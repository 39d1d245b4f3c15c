"""The core pack on ordinary projects: HTML shells stripped, conventions found where projects
keep them, each judged by a documented score that `kenning pack show --why` explains."""

from __future__ import annotations

from conftest import resync

HTML_README = """<p align="center">
  <a href="https://example.org/"><img width="350" src="docs/img/logo.png" alt="Widget"></a>
</p>

<p align="center"><strong>Widget</strong> <em>- a small HTTP toolkit.</em></p>

<p align="center">
<a href="https://ci.example.org/widget"><img src="https://ci.example.org/badge.svg" alt="Build"></a>
[![Coverage](https://cov.example.org/badge.svg)](https://cov.example.org/)
</p>

Widget sends requests and parses responses.

```pycon
>>> widget.get("https://example.org")
<Response [200 OK]>
```
"""

CODING_STYLE = """============
Coding style
============

Please follow these coding standards when writing code for Widget.

Python style
============

* Use four spaces for indentation and keep lines under 88 characters; ``black`` formats the code.
* Imports are sorted by ``isort``; never use wildcard imports.
"""

FAQ = """================
FAQ: Contributing
================

How can I get started contributing code?
========================================

Thanks for asking! Read the tutorial first, then pick an easy ticket.
"""

PYPROJECT = """[project]
name = "widget"

[tool.ruff]
line-length = 88
select = ["E", "F", "I"]

[tool.pytest.ini_options]
addopts = "-q"
"""

EDITORCONFIG = """root = true

[*]
indent_style = space
indent_size = 4
"""


def ordinary_project(make_project):
    return make_project(
        {
            "README.md": HTML_README,
            "docs/internals/contributing/writing-code/coding-style.txt": CODING_STYLE,
            "docs/faq/contributing.txt": FAQ,
            "widget/__init__.py": '"""Widget."""\n\ndef get(url):\n    return url\n',
            "pyproject.toml": PYPROJECT,
            ".editorconfig": EDITORCONFIG,
        }
    )


def build(cli, project) -> tuple[dict, str]:
    result = cli("pack", "build", "--project", str(project.root), "--json")
    assert result.code == 0, result.err
    return result.json(), (project.state_dir / "cache" / "pack.md").read_text(encoding="utf-8")


def test_an_html_heavy_readme_opens_the_pack_with_its_words_not_its_shells(make_project, cli):
    project = ordinary_project(make_project)
    resync(project)
    _, text = build(cli, project)
    context = text.split("## Context\n", 1)[1].split("\n## Conventions", 1)[0]
    assert context.startswith("Widget - a small HTTP toolkit.\n\nWidget sends requests and parses responses.")
    for shell in ("<p", "<a ", "<img", "</p>", "badge.svg", "logo.png", "[![", "align="):
        assert shell not in context
    assert "<Response [200 OK]>" in context  # code blocks are quoted as written


def test_the_coding_style_doc_is_picked_and_the_contributing_faq_is_not(make_project, cli):
    project = ordinary_project(make_project)
    resync(project)
    manifest, text = build(cli, project)
    conventions = text.split("## Conventions\n", 1)[1].split("\n## Active decisions", 1)[0]
    assert "keep lines under 88 characters" in conventions
    assert "Thanks for asking" not in conventions and "FAQ" not in conventions
    by_key = {c["key"]: c for c in manifest["conventions"]}
    assert all("faq" not in key for key in by_key)
    style = [c for c in manifest["conventions"] if "coding-style.txt" in c["key"]]
    assert style and style[0] is manifest["conventions"][0]  # the highest score comes first
    assert style[0]["score"] >= 4 and any("coding-style document" in r for r in style[0]["why"])


def test_linters_and_formatters_settings_are_conventions_with_their_file_as_source(make_project, cli):
    project = ordinary_project(make_project)
    resync(project)
    manifest, text = build(cli, project)
    assert "**Tool settings (pyproject.toml)** — ruff: line-length = 88, select = E, F, I [pyproject.toml]" in text
    assert "**Tool settings (.editorconfig)** — [*] indent_style = space, indent_size = 4 [.editorconfig]" in text
    assert "addopts" not in text  # pytest's options are not a coding convention
    sources = {s["path"] for s in manifest["sources"]}
    assert {"pyproject.toml", ".editorconfig"} <= sources
    (project.root / "pyproject.toml").write_text(PYPROJECT.replace("88", "100"), encoding="utf-8")
    changed, text = build(cli, project)
    assert "line-length = 100" in text and changed["fingerprint"] != manifest["fingerprint"]


def test_pack_show_why_explains_each_choice_in_text_and_json(make_project, cli):
    project = ordinary_project(make_project)
    resync(project)
    build(cli, project)
    plain = cli("pack", "show", "--why", "--project", str(project.root))
    assert plain.code == 0, plain.err
    assert "convention · score" in plain.out and "coding-style document (+5)" in plain.out
    assert "linters' and formatters' settings (+4)" in plain.out
    as_json = cli("pack", "show", "--why", "--json", "--project", str(project.root)).json()
    assert as_json["built"] is True
    entries = as_json["entries"]
    assert entries and all(e["kind"] in ("conventions", "decisions") for e in entries)
    assert all(isinstance(e["score"], int) and e["why"] for e in entries if e["kind"] == "conventions")


def test_pack_show_why_without_a_pack_says_it_is_not_built(make_project, cli):
    project = ordinary_project(make_project)
    resync(project)
    result = cli("pack", "show", "--why", "--json", "--project", str(project.root))
    assert result.code == 0 and result.json()["built"] is False
