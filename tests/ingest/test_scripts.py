"""Scripts, build and configuration files (parser ``script/2``): read as code by runs of lines, each
excerpt saying its language, so what ``make test`` runs or which Python versions CI tests is found
where it is written."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.discover import discover
from kenning.ingest.parsers import load_relations, parser_for

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
        ("Makefile", "script/2"),
        ("GNUmakefile", "script/2"),
        ("scripts/deploy.sh", "script/2"),
        (".github/workflows/ci.yml", "script/2"),
        ("config/app.yaml", "script/2"),
        ("pyproject.toml", "script/2"),
        ("setup.cfg", "script/2"),
        ("db/schema.sql", "script/2"),
        ("prisma/schema.prisma", "script/2"),  # an app's database models (umami's)
        ("Dockerfile", "script/2"),
        ("web/package.json", "script/2"),
        ("composer.json", "script/2"),
        ("pom.xml", "script/2"),
        ("src/Shop/Shop.csproj", "script/2"),
        ("app/build.gradle.kts", "script/2"),
        ("go.mod", "script/2"),
        ("app/lib/profile_store.dart", "script/2"),  # no grammar: by its words
        ("services/profile/ProfileStore.scala", "code/35"),
        ("ios/Shop/ProfileStore.swift", "code/35"),
        ("android/app/src/main/kotlin/Profile.kt", "code/35"),
        ("web/src/App.vue", "script/2"),
        ("src/app/Http/Kernel.php", "code/35"),
        ("src/Shop/Program.cs", "code/35"),
        ("app/src/main/AndroidManifest.xml", "script/2"),  # an Android app's permissions
        ("ios/App/Info.plist", "script/2"),
        ("ios/IceCubesApp.xcconfig", "script/2"),
        ("src/Web/appsettings.json", "script/2"),  # ASP.NET Core's settings
        ("src/Web/appsettings.Development.json", "script/2"),
        (".env.example", "script/2"),  # a template committed beside the code
        (".env", None),  # the secrets it documents: never read
        (".env.local", None),
        ("data/fixtures.json", None),  # data, not configuration
        ("data/records.xml", None),
        ("LICENSE", None),
        ("src/app.py", "python/22"),
        ("lib/tasks/fake_data.rake", "code/35"),  # Ruby: lobsters' tasks, walked
        ("app/views/stories/index.json.jbuilder", "code/35"),
        ("config.ru", "code/35"),
        ("app/views/home/index.html.erb", "script/2"),  # a template, by its lines
        ("src/builtin.jq", "script/2"),  # jq's builtins, walked
        ("src/parser.y", "script/2"),
        ("configure.ac", "script/2"),
        ("Makefile.am", "script/2"),
        ("CMakeLists.txt", "script/2"),
    ],
)
def test_which_files_are_read_as_scripts(path, parser):
    assert parser_for(path) == parser


def test_a_script_is_code_of_its_language_by_runs_of_lines():
    chunks, relations = load_relations("script/2")(FILES["scripts/deploy.sh"], "scripts/deploy.sh")
    assert relations is None
    assert [(c.type, c.meta["language"], c.anchor) for c in chunks] == [("code", "shell", ":1-4")]
    chunks, _ = load_relations("script/2")(FILES["Makefile"], "Makefile")
    assert {c.meta["language"] for c in chunks} == {"make"}
    for path, language in (
        (".env.example", "dotenv"),
        ("src/Web/appsettings.json", "json"),
        ("a.xcconfig", "xcconfig"),
    ):
        chunks, _ = load_relations("script/2")("KEY = value\n", path)
        assert {c.meta["language"] for c in chunks} == {language}
    path = "app/lib/profile_store.dart"
    chunks, relations = load_relations("script/2")(FILES[path], path)
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
            "LICENSE": "Permission is hereby granted, free of charge\n",
        },
        name="bins",
    )
    for name in ("bin/deploy", "bin/report"):
        (project.root / name).chmod(0o755)
    found = discover(project)
    assert {c.path: c.parser for c in found.candidates} == {"bin/deploy": "script/2", "bin/report": "script/2"}
    assert found.skipped["unsupported_type"] >= 1  # LICENSE: no suffix, not executable
    chunks, _ = load_relations("script/2")((project.root / "bin/report").read_text(), "bin/report")
    assert chunks[0].meta == {"language": "python"}
    resync(project)
    answer = ask_project(project, "how is the site deployed to web01", now=NOW, limit=3)
    assert answer.excerpts[0].fact.source.uri.startswith("bin/deploy")
