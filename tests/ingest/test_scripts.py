"""Scripts, build and configuration files (parser ``script/5``): read as code by runs of lines, each
excerpt saying its language, so what ``make test`` runs or which Python versions CI tests is found
where it is written."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.discover import discover
from kenning.ingest.parsers import SCRIPT_PARSER, load_relations, parser_for
from kenning.search.asked import asks_about_markup

FILES = {
    "Makefile": "test:\n\tpytest -q tests\n\nlint:\n\truff check src\n",
    ".github/workflows/ci.yml": (
        "name: ci\non: [push]\njobs:\n  tests:\n    strategy:\n      matrix:\n"
        "        python-version: ['3.11', '3.12']\n    steps:\n      - run: make test\n"
    ),
    "scripts/deploy.sh": "#!/bin/sh\nset -e\nrsync -a build/ web01:/srv/site\nssh web01 systemctl reload nginx\n",
    "pyproject.toml": '[project]\nname = "shop"\nrequires-python = ">=3.11"\n',
    "Dockerfile": 'FROM python:3.12-slim\nEXPOSE 8080\nCMD ["gunicorn", "shop:app"]\n',
    "docs/index.md": "# Shop\n\nA small web shop.\n",
    "composer.json": '{\n  "require": {\n    "php": ">=8.1",\n    "guzzlehttp/guzzle": "^7.8"\n  }\n}\n',
    "app/lib/profile_store.dart": (
        "class ProfileStore {\n  ProfileStore(this.api);\n  final ShopApi api;\n\n"
        "  Future<Profile> loadProfile(String id) => api.fetchCustomerProfile(id);\n}\n"
    ),
}


@pytest.mark.parametrize(
    ("path", "parser"),
    [
        ("Makefile", SCRIPT_PARSER),
        ("GNUmakefile", SCRIPT_PARSER),
        ("scripts/deploy.sh", SCRIPT_PARSER),
        (".github/workflows/ci.yml", SCRIPT_PARSER),
        ("config/app.yaml", SCRIPT_PARSER),
        ("pyproject.toml", SCRIPT_PARSER),
        ("setup.cfg", SCRIPT_PARSER),
        ("db/schema.sql", SCRIPT_PARSER),
        ("prisma/schema.prisma", SCRIPT_PARSER),  # an app's database models (umami's)
        ("Dockerfile", SCRIPT_PARSER),
        ("web/package.json", SCRIPT_PARSER),
        ("composer.json", SCRIPT_PARSER),
        ("pom.xml", SCRIPT_PARSER),
        ("src/Shop/Shop.csproj", SCRIPT_PARSER),
        ("app/build.gradle.kts", SCRIPT_PARSER),
        ("go.mod", SCRIPT_PARSER),
        ("app/lib/profile_store.dart", SCRIPT_PARSER),  # no grammar: by its words
        ("services/profile/ProfileStore.scala", "code/40"),
        ("ios/Shop/ProfileStore.swift", "code/40"),
        ("android/app/src/main/kotlin/Profile.kt", "code/40"),
        ("web/src/App.vue", "component/1"),  # its blocks: ingest.components
        ("src/app/Http/Kernel.php", "code/40"),
        ("src/Shop/Program.cs", "code/40"),
        ("app/src/main/AndroidManifest.xml", SCRIPT_PARSER),  # an Android app's permissions
        ("ios/App/Info.plist", SCRIPT_PARSER),
        ("ios/IceCubesApp.xcconfig", SCRIPT_PARSER),
        ("src/Web/appsettings.json", SCRIPT_PARSER),  # ASP.NET Core's settings
        ("src/Web/appsettings.Development.json", SCRIPT_PARSER),
        (".env.example", SCRIPT_PARSER),  # a template committed beside the code
        (".env", None),  # the secrets it documents: never read
        (".env.local", None),
        ("data/fixtures.json", None),  # data, not configuration
        ("src/black/resources/black.schema.json", SCRIPT_PARSER),  # a configuration's keys, described
        ("data/records.xml", None),
        ("VERSION", None),  # no suffix, no customary document's name (``LICENSE`` is one: plain text)
        ("src/app.py", "python/24"),
        ("lib/tasks/fake_data.rake", "code/40"),  # Ruby: lobsters' tasks, walked
        ("app/views/stories/index.json.jbuilder", "code/40"),
        ("config.ru", "code/40"),
        ("app/views/home/index.html.erb", SCRIPT_PARSER),  # a template, by its lines
        ("templates/registration/password_reset_email.html", SCRIPT_PARSER),  # Django's, Flask's, Thymeleaf's
        ("site/partials/nav.njk", SCRIPT_PARSER),
        ("themes/shop/product.liquid", SCRIPT_PARSER),
        ("resources/views/auth/login.blade.php", SCRIPT_PARSER),  # Laravel's Blade: a template
        ("app/Http/Controllers/LoginController.php", "code/40"),  # PHP itself
        ("src/styles/_variables.scss", SCRIPT_PARSER),
        ("static/app.css", SCRIPT_PARSER),
        ("src/builtin.jq", SCRIPT_PARSER),  # jq's builtins, walked
        ("src/parser.y", SCRIPT_PARSER),
        ("configure.ac", SCRIPT_PARSER),
        ("Makefile.am", SCRIPT_PARSER),
        ("CMakeLists.txt", SCRIPT_PARSER),
    ],
)
def test_which_files_are_read_as_scripts(path, parser):
    assert parser_for(path) == parser


def test_a_script_is_code_of_its_language_by_runs_of_lines():
    chunks, relations = load_relations(SCRIPT_PARSER)(FILES["scripts/deploy.sh"], "scripts/deploy.sh")
    assert relations is None
    assert [(c.type, c.meta["language"], c.anchor) for c in chunks] == [("code", "shell", ":1-4")]
    chunks, _ = load_relations(SCRIPT_PARSER)(FILES["Makefile"], "Makefile")
    assert {c.meta["language"] for c in chunks} == {"make"}
    for path, language in (
        (".env.example", "dotenv"),
        ("src/Web/appsettings.json", "json"),
        ("config.schema.json", "json"),
        ("a.xcconfig", "xcconfig"),
    ):
        chunks, _ = load_relations(SCRIPT_PARSER)("KEY = value\n", path)
        assert {c.meta["language"] for c in chunks} == {language}
    chunks, _ = load_relations(SCRIPT_PARSER)("@extends('layouts.app')\n<form>@csrf</form>\n", "views/login.blade.php")
    assert {(c.type, c.meta["language"]) for c in chunks} == {("code", "blade")}
    path = "app/lib/profile_store.dart"
    chunks, relations = load_relations(SCRIPT_PARSER)(FILES[path], path)
    assert relations is None and {(c.type, c.meta["language"]) for c in chunks} == {("code", "dart")}


@pytest.mark.parametrize(
    ("question", "path"),
    [
        ("which python versions does CI test", ".github/workflows/ci.yml"),
        ("what does the lint target run", "Makefile"),
        ("which port does the container expose", "Dockerfile"),
        ("how is the site deployed to web01", "scripts/deploy.sh"),
        ("which version of guzzle is required", "composer.json"),
        ("where is the customer profile fetched", "app/lib/profile_store.dart"),
    ],
)
def test_their_lines_answer(make_project, question, path):
    project = make_project(FILES, name="scripts")
    report = resync(project)
    assert report.skipped.get("unsupported_type", 0) == 0
    answer = ask_project(project, question, now=NOW, limit=3)
    assert answer.excerpts[0].fact.source.uri.startswith(path), [e.fact.source.uri for e in answer.excerpts]


def test_an_executable_file_without_a_suffix_is_a_script_of_its_interpreter(make_project):
    project = make_project(
        {
            "bin/deploy": "#!/usr/bin/env bash\nrsync -a build/ web01:/srv/site\n",
            "bin/report": "#!/usr/bin/env python3\nprint('report')\n",
            "VERSION": "1.2.0\n",
        },
        name="bins",
    )
    for name in ("bin/deploy", "bin/report"):
        (project.root / name).chmod(0o755)
    found = discover(project)
    assert {c.path: c.parser for c in found.candidates} == {"bin/deploy": SCRIPT_PARSER, "bin/report": SCRIPT_PARSER}
    assert found.skipped["unsupported_type"] >= 1  # VERSION: no suffix, not executable
    chunks, _ = load_relations(SCRIPT_PARSER)((project.root / "bin/report").read_text(), "bin/report")
    assert chunks[0].meta == {"language": "python"}
    resync(project)
    answer = ask_project(project, "how is the site deployed to web01", now=NOW, limit=3)
    assert answer.excerpts[0].fact.source.uri.startswith("bin/deploy")


GENERATED_PAGE = """<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8" />
<meta name="generator" content="Docutils 0.20.1: https://docutils.sourceforge.io/" />
<title>Password reset — Docs</title>
</head>
<body><p>Send a password reset email with a one-time link.</p></body>
</html>
"""


def test_templates_and_stylesheets_answer_and_a_page_a_tool_wrote_says_so(make_project):
    files = {
        "templates/registration/password_reset_email.html": (
            "{% load i18n %}\n{% autoescape off %}\n"
            "{% blocktranslate %}You asked for a password reset for your account.{% endblocktranslate %}\n"
            "{{ protocol }}://{{ domain }}{% url 'password_reset_confirm' uidb64=uid token=token %}\n"
            "{% endautoescape %}\n"
        ),
        "static/css/buttons.scss": "$primary: #0a7;\n\n.button--primary {\n  background: $primary;\n}\n",
        "docs/_build/html/reset.html": GENERATED_PAGE,
    }
    project = make_project(files, name="web")
    report = resync(project)
    assert report.skipped.get("unsupported_type", 0) == 0
    answer = ask_project(project, "which template sends the password reset email", now=NOW, limit=3)
    uris = [e.fact.source.uri for e in answer.excerpts]
    assert uris[0].startswith("templates/registration/password_reset_email.html"), uris
    styled = ask_project(project, "where is the primary button background colour", now=NOW, limit=3)
    assert styled.excerpts[0].fact.source.uri.startswith("static/css/buttons.scss")
    (built,) = [e for e in answer.excerpts if e.fact.source.uri.startswith("docs/_build/")]
    assert built.fact.meta == {"language": "html", "generated": True}  # weighed half, after the template
    hand = [e for e in answer.excerpts if e.fact.source.uri.startswith("templates/")][0]
    assert hand.fact.meta == {"language": "html"}


def test_a_script_a_tool_wrote_says_so():
    """``script/3``: a script or configuration file whose head says a tool wrote it is marked, as
    generated code and pages are (weighed half); one written by hand is not."""
    written = "# Code generated by deploygen. DO NOT EDIT.\nservers:\n  - web01\n"
    chunks, _ = load_relations(SCRIPT_PARSER)(written, "deploy/servers.yml")
    assert {c.meta.get("generated") for c in chunks} == {True}
    chunks, _ = load_relations(SCRIPT_PARSER)("servers:\n  - web01\n", "deploy/hand.yml")
    assert {c.meta.get("generated") for c in chunks} == {None}


def test_the_markup_languages_are_languages_the_script_parser_gives():
    """``search.factors.MARKUP_LANGUAGES`` names languages of ``SCRIPT_LANGUAGES`` (and Blade's): a
    template kind added to one and not the other would not be weighed as markup."""
    from kenning.ingest.parsers import SCRIPT_LANGUAGES
    from kenning.search.factors import MARKUP_LANGUAGES

    assert set(SCRIPT_LANGUAGES.values()) | {"blade"} >= MARKUP_LANGUAGES


def test_a_template_weighs_half_unless_the_question_speaks_of_pages_templates_or_styles(make_project):
    files = {
        "auth/templates/auth/widgets/read_only_password_hash.html": (
            "<div{% include 'django/forms/widgets/attrs.html' %}>\n{% for entry in summary %}\n"
            "<strong>{{ entry.label }}</strong>: {{ entry.value }}\n{% endfor %}\n</div>\n"
        ),
        "auth/hashers.py": (
            "class PBKDF2PasswordHasher:\n"
            '    """Secure password hashing using the PBKDF2 algorithm: passwords are hashed with a salt."""\n\n'
            "    def encode(self, password, salt, iterations=None):\n"
            "        return pbkdf2(password, salt, iterations)\n"
        ),
    }
    project = make_project(files, name="auth")
    resync(project)
    words = ask_project(project, "how are passwords hashed", now=NOW, limit=2)
    assert words.excerpts[0].fact.source.uri.startswith("auth/hashers.py")
    page = ask_project(project, "which template shows the password hash", now=NOW, limit=2)
    assert page.excerpts[0].fact.source.uri.startswith("auth/templates/")


@pytest.mark.parametrize(
    ("question", "markup"),
    [
        ("which template sends the password reset email", True),
        ("where is the primary button colour set", True),
        ("what does the login page show", True),
        ("quel gabarit affiche le formulaire de connexion", True),
        ("où est définie la feuille de style du thème", True),
        ("password AND html", True),
        ("how are passwords hashed", False),
        ("comment les mots de passe sont-ils hachés", False),
        ("what calls make_password", False),
    ],
)
def test_which_questions_speak_of_pages_templates_or_styles(question, markup):
    assert asks_about_markup(question) is markup
