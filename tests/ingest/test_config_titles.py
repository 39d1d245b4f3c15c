"""A configuration file cut by its lines titles each piece by where it begins (``ingest.config_titles``):
the YAML keys and named items around it, the TOML or INI table it lies in — not ``ci.yml (part 3)``."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.config_titles import retitled
from kenning.ingest.parsers import load_relations, parser_for
from kenning.ingest.text import parse_text
from kenning.search.copies import copy_key

FILLER = "\n".join(f"          echo step line {n} of a long build script that goes on" for n in range(40))


def workflow() -> str:
    jobs = []
    for job in ("linux", "macos"):
        jobs.append(
            f"  {job}:\n    runs-on: {job}-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n"
            "      - name: Build the release\n        run: |\n"
            f"{FILLER}\n\n          # Note: not a key: text of the block\n{FILLER}\n\n"
            "      - name: 'Upload artifacts'\n        uses: actions/upload-artifact@v4\n"
            "        with:\n          path: |\n"
            f"{FILLER.replace('          ', '            ')}\n"
        )
    return "name: CI\non: [push]\njobs:\n" + "\n".join(jobs)


def manual() -> str:
    entries = []
    for title in ("`sqrt`", "`map(f)`, `map_values(f)`", "Math"):
        text = "\n\n".join(
            f"          {title} paragraph {n}: it computes things and says so at some length here." for n in range(30)
        )
        entries.append(f'      - title: "{title}"\n        body: |\n\n{text}\n')
    return "---\nheadline: jq Manual\n\nsections:\n  - title: Builtin functions\n    entries:\n" + "\n".join(entries)


def scripts(text: str, path: str) -> list:
    chunks, _ = load_relations(parser_for(path))(text, path)
    return chunks


def test_a_workflow_piece_is_titled_by_its_job_step_and_key() -> None:
    chunks = scripts(workflow(), ".github/workflows/ci.yml")
    titles = [c.title for c in chunks]
    assert titles[0] == "ci.yml"
    assert len(chunks) >= 4
    assert "ci.yml: jobs › linux › Build the release › run" in titles
    assert "ci.yml: jobs › macos › Upload artifacts › with › path" in titles
    assert not any("(part" in t for t in titles), titles
    assert not any("Note" in t for t in titles), titles  # a block's text holds no keys
    assert all(c.meta == {"language": "yaml"} and c.type == "code" for c in chunks)


def test_a_manual_piece_is_titled_by_its_section_and_entry() -> None:
    chunks = scripts(manual(), "docs/manual/manual.yml")
    titles = [c.title for c in chunks[1:]]
    assert "manual.yml: Builtin functions › `map(f)`, `map_values(f)` › body" in titles
    assert "manual.yml: Builtin functions › Math › body" in titles
    # a piece is titled by where it begins: each body's words are its own
    for chunk in chunks[1:]:
        entry = chunk.title.split(" › ")[-2]
        assert entry in chunk.body.split("\n", 2)[-1] or entry == "Builtin functions", (chunk.title, chunk.body[:80])


def test_toml_and_ini_pieces_are_titled_by_their_table() -> None:
    deps = "\n".join(f'crate{n} = "1.{n}"  # a dependency of the build, pinned' for n in range(120))
    text = f'[package]\nname = "demo"\n\n[dependencies]\n{deps}\n\n[[bin]]\nname = "demo"\n'
    titles = [c.title for c in scripts(text, "Cargo.toml")]
    assert titles[0] == "Cargo.toml"
    assert "Cargo.toml: [dependencies]" in titles
    assert set(titles[1:]) <= {"Cargo.toml: [dependencies]", "Cargo.toml: [[bin]]"}
    options = "\n".join(f"option_{n} = value {n} for the tool, said at some length" for n in range(120))
    titles = [c.title for c in scripts(f"[metadata]\nname = demo\n\n[tool:pytest]\n{options}\n", "setup.cfg")]
    assert titles[1:] and set(titles[1:]) == {"setup.cfg: [tool:pytest]"}


def test_other_files_and_pieces_before_any_key_keep_their_titles() -> None:
    text = "\n\n".join(f"# comment {n} of a long header that says nothing of keys at all" for n in range(80))
    chunks = scripts(text + "\nkey: value\n", "config/app.yaml")
    assert [c.title for c in chunks][:2] == ["app.yaml", "app.yaml (part 2)"]
    shell = "\n\n".join(f"echo line {n} of a long shell script: not a key" for n in range(120))
    assert [c.title for c in scripts(shell, "deploy.sh")][1] == "deploy.sh (part 2)"
    plain = parse_text(workflow(), "notes.txt")
    assert retitled(plain, workflow(), "text") == plain


def test_odd_yaml_is_read_as_lines_never_loaded() -> None:
    text = "\n".join(
        [
            "anchors: &base",
            "  a: 1",
            "merged:",
            "  <<: *base",
            "flow: {a: 1, b: [1, 2]}",
            "'quoted key': value",
            '"other": "x # not a comment"',
            "- bare item",
            "!!python/object:os.system ['rm -rf /']",
            "list:",
            "  - - nested",
            "    - name: deep",
            "\t tab: indented",
        ]
        * 30
    )
    chunks = scripts(text, "odd.yaml")
    assert len(chunks) > 1 and all(c.title.startswith("odd.yaml") for c in chunks)
    # a line of any length is read in one pass (a lazy regular expression took 0.6 s for 16,000 blanks)
    long_line = "key:\n  - a" + " " * 100_000 + "b\n" + "\n".join(f"  - k{n}: v" for n in range(400))
    assert scripts(long_line, "long.yaml")[-1].title == "long.yaml: key"
    assert all(len(c.title) <= len("odd.yaml: ") + 120 for c in chunks)


def test_a_long_context_keeps_its_innermost_keys() -> None:
    keys = [f"level_{n}_with_a_rather_long_key_name" for n in range(8)]
    nested = "".join(f"{'  ' * n}{key}:\n" for n, key in enumerate(keys))
    filler = "\n".join(f"{'  ' * len(keys)}- item {n} of a long list under the deepest key" for n in range(120))
    chunks = scripts(nested + filler + "\n", "deep.yml")
    title = chunks[1].title
    assert title.startswith("deep.yml: ") and title.endswith(keys[-1])
    assert keys[0] not in title and len(title) <= len("deep.yml: ") + 120


def test_release_copies_of_a_configuration_file_stay_copies() -> None:
    current = copy_key("docs/manual/manual.yml", "manual.yml: Builtin functions › Math › body")
    old = copy_key("docs/manual/v1.5/manual.yml", "manual.yml: Invoking jq › body")
    assert current == old == ("docs/manual/manual.yml", "manual.yml")
    assert copy_key("docs/app.yml", "manual.yml: x") != current


def test_a_question_finds_a_step_past_the_line_that_names_it(make_project) -> None:
    steps = "\n".join(f"          twine check dist/part{n}.whl --strict --verbose" for n in range(80))
    text = f"jobs:\n  release:\n    steps:\n      - name: Publish to PyPI\n        run: |\n{steps}\n"
    project = make_project({".github/workflows/release.yml": text, "README.md": "# Demo\n\nA demo.\n"})
    resync(project)
    answer = ask_project(project, "publish to PyPI", now=NOW, limit=5)
    titles = [e.fact.title for e in answer.excerpts]
    assert "release.yml: jobs › release › Publish to PyPI › run" in titles, titles
