"""Jupyter notebooks (parser ``notebook/2``: ``.ipynb``): Markdown and code cells cut as one
Markdown document by its headings, outputs left out, lines pointing into the notebook file."""

from __future__ import annotations

import json

import pytest

from kenning.ingest.notebook import parse_notebook
from kenning.ingest.parsers import NOTEBOOK_SIZE_FACTOR, load_relations, load_spans, parser_for


def _cell(kind: str, *lines: str, outputs: list | None = None) -> dict:
    cell: dict = {"cell_type": kind, "metadata": {}, "source": list(lines)}
    if kind == "code":
        cell.update(execution_count=1, outputs=outputs or [])
    return cell


def notebook(*cells: dict, language: str = "python", indent: int | None = 1) -> str:
    document = {
        "cells": list(cells),
        "metadata": {"kernelspec": {"language": language, "name": "k"}, "language_info": {"name": language}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=indent) + "\n"


PRINTED = [{"name": "stdout", "output_type": "stream", "text": ["zanzibar printed by the run\n"]}]
CHURN = notebook(
    _cell("markdown", "# Churn analysis\n", "\n", "We predict which customers leave.\n"),
    _cell("code", "import pandas as pd\n", "df = pd.read_csv('customers.csv')", outputs=PRINTED),
    _cell("markdown", "## Train the model\n", "\n", "A gradient boosting classifier, see [the notes](notes.md).\n"),
    _cell("code", "from sklearn.ensemble import GradientBoostingClassifier\n", "model = GradientBoostingClassifier()"),
    _cell("code", "   \n"),  # an empty cell: nothing
)


def test_sections_hold_their_prose_and_the_code_under_them_and_no_output():
    chunks, relations = parse_notebook(CHURN, "analysis/churn.ipynb")
    assert [(c.title, c.anchor, c.type) for c in chunks] == [
        ("Churn analysis", "#churn-analysis", "doc"),
        ("Churn analysis > Train the model", "#train-the-model", "doc"),
    ]
    assert "```python\nimport pandas as pd\ndf = pd.read_csv('customers.csv')\n```" in chunks[0].body
    assert "GradientBoostingClassifier()" in chunks[1].body
    assert not any("zanzibar" in c.body or "zanzibar" in c.keywords for c in chunks)  # a run's output
    assert [(r.type, r.target) for r in relations.refs if r.type == "links_to"] == [("links_to", "analysis/notes.md")]


def test_an_excerpts_lines_are_the_notebook_files_lines_of_its_cells():
    lines = CHURN.split("\n")
    chunks, relations = parse_notebook(CHURN, "churn.ipynb")
    first, second = chunks
    # each begins at the "{" of its first cell, the line above its "cell_type" key
    assert lines[first.line_start - 1].strip() == "{"
    assert lines[first.line_start].strip() == '"cell_type": "markdown",'
    held = "\n".join(lines[first.line_start - 1 : first.line_end])
    assert "# Churn analysis" in held and "read_csv" in held and "Train the model" not in held
    assert second.line_start == first.line_end + 1
    assert "Train the model" in "\n".join(lines[second.line_start - 1 : second.line_end])
    assert "GradientBoostingClassifier()" in "\n".join(lines[second.line_start - 1 : second.line_end])
    assert '"metadata": {' not in lines[second.line_end - 1] and second.line_end < len(lines) - 5
    # the link's line is its cell's in the file, not the document's
    assert first.line_end < relations.refs[0].line <= second.line_end


def test_a_notebook_on_one_line_gives_its_excerpts_the_whole_file():
    text = notebook(*json.loads(CHURN)["cells"], indent=None)
    chunks, _ = parse_notebook(text, "churn.ipynb")
    assert [c.title for c in chunks] == ["Churn analysis", "Churn analysis > Train the model"]
    assert {(c.line_start, c.line_end) for c in chunks} == {(1, 2)}


def test_a_cell_key_written_inside_a_cell_does_not_move_the_lines():
    text = notebook(
        _cell("markdown", "# Keys\n", 'A notebook cell says "cell_type": "code" in its JSON.\n'),
        _cell("markdown", "## Next\n", "More.\n"),
    )
    chunks, _ = parse_notebook(text, "keys.ipynb")
    lines = text.split("\n")
    assert "## Next" in "\n".join(lines[chunks[1].line_start - 1 : chunks[1].line_end])
    assert "## Next" not in "\n".join(lines[chunks[0].line_start - 1 : chunks[0].line_end])


def test_the_code_fence_outlasts_backticks_in_a_cell_and_names_the_kernels_language():
    text = notebook(
        _cell("markdown", "# R notes\n"),
        _cell("code", 'x <- "```"\n', "# ## not a heading\n", "summary(x)"),
        language="R",
    )
    chunks, _ = parse_notebook(text, "notes.ipynb")
    assert [c.title for c in chunks] == ["R notes"]  # a "#" line in code is no heading
    assert '````r\nx <- "```"\n# ## not a heading\nsummary(x)\n````' in chunks[0].body


def test_nbformat_3_worksheets_and_heading_cells_are_read():
    text = json.dumps(
        {
            "metadata": {"language": "python"},
            "nbformat": 3,
            "worksheets": [
                {
                    "cells": [
                        {"cell_type": "heading", "level": 2, "source": ["Old style"]},
                        {"cell_type": "code", "input": ["print('legacy')"], "language": "python", "outputs": []},
                    ]
                }
            ],
        },
        indent=1,
    )
    chunks, _ = parse_notebook(text, "old.ipynb")
    assert [c.title for c in chunks] == ["old > Old style"]  # no level-1 heading: titled by the file
    assert "print('legacy')" in chunks[0].body


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"nbformat": 4}'])
def test_text_that_is_no_notebook_is_a_value_error(text):
    with pytest.raises(ValueError, match="not a notebook"):
        parse_notebook(text, "broken.ipynb")


def test_ipynb_files_use_the_notebook_parser_and_spans_match_the_parse():
    assert parser_for("analysis/Churn.IPYNB") == "notebook/2"
    chunks, _ = load_relations("notebook/2")(CHURN, "churn.ipynb")
    spans = load_spans("notebook/2")(CHURN, "churn.ipynb")
    assert [(c.title, c.body, c.anchor) for c in spans] == [(c.title, c.body, c.anchor) for c in chunks]


def test_a_synced_notebook_answers_with_its_section_and_turns_stale_when_edited(cli, make_project):
    project = make_project({"analysis/churn.ipynb": CHURN, "analysis/notes.md": "# Notes\n\nOn churn.\n"})
    assert cli("sync", "--project", str(project.root)).code == 0
    answer = cli("ask", "gradient boosting classifier", "--project", str(project.root), "--json").json()
    top = answer["excerpts"][0]
    assert top["source"]["uri"] == "analysis/churn.ipynb#train-the-model"
    assert top["freshness"]["state"] == "current"
    printed = cli("search", "zanzibar", "--project", str(project.root), "--json").json()
    assert printed["excerpts"] == []  # an output is not indexed
    # an edit of that cell, not synced yet: the notebook re-split as the sync cuts it says stale
    path = project.root / "analysis" / "churn.ipynb"
    path.write_text(CHURN.replace("GradientBoostingClassifier()", "GradientBoostingClassifier(n_estimators=50)"))
    again = cli("ask", "gradient boosting classifier", "--project", str(project.root), "--json").json()
    states = {e["source"]["uri"]: e["freshness"]["state"] for e in again["excerpts"]}
    assert states["analysis/churn.ipynb#train-the-model"] == "stale"
    assert states.get("analysis/churn.ipynb#churn-analysis", "current") == "current"


def test_a_notebook_heavy_with_outputs_is_read_up_to_its_own_size_cap(cli, make_project):
    image = [{"data": {"image/png": "iVBORw0KGgo" * 2_000}, "output_type": "display_data", "metadata": {}}]
    heavy = notebook(_cell("markdown", "# Plots\n"), _cell("code", "plot(churn_rate)", outputs=image))
    too_heavy = notebook(_cell("markdown", "# Huge\n"), _cell("code", "x", outputs=image * (NOTEBOOK_SIZE_FACTOR + 1)))
    cap = len(heavy.encode()) // 2
    project = make_project(
        # big.md: 5 x cap, past a document's 4 x
        {"plots.ipynb": heavy, "huge.ipynb": too_heavy, "big.md": "# Big\n\n" + "word " * cap},
        config=f'name = "demo"\nmax_file_bytes = {cap}\n',
    )
    report = cli("sync", "--project", str(project.root), "--json").json()
    assert report["coverage"]["skipped"].get("too_large") == 2  # the Markdown file, and the notebook past 10x
    found = cli("search", "churn_rate", "--project", str(project.root), "--json").json()
    assert [e["source"]["uri"] for e in found["excerpts"]] == ["plots.ipynb#plots"]


def test_a_broken_notebook_is_counted_and_the_sync_goes_on(cli, make_project):
    project = make_project({"broken.ipynb": '{"cells": [', "README.md": "# Demo\n\nFine.\n"})
    report = cli("sync", "--project", str(project.root), "--json").json()
    assert report["coverage"]["skipped"].get("parse_error") == 1
    assert cli("search", "fine", "--project", str(project.root), "--json").json()["excerpts"]


EXPLORE = notebook(
    _cell("markdown", "# Explore\n"),
    _cell(
        "code",
        "%matplotlib inline\n",
        "!pip install pandas\n",
        "from analysis.load import load_data\n",
        "df = load_data('x')",
    ),
    _cell("code", "%%bash\n", "import-this is shell, not Python\n"),
    _cell("markdown", "## Clean\n"),
    _cell("code", "def clean(frame):\n", "    return frame.dropna()\n", "clean(df)"),
)


def test_a_python_notebooks_code_cells_give_its_imports_calls_and_definitions_at_their_lines():
    _, relations = parse_notebook(EXPLORE, "explore.ipynb")
    lines = EXPLORE.split("\n")
    refs = {(r.type, r.target): r for r in relations.refs}
    assert {"analysis.load", "analysis.load.load_data"} <= {t for kind, t in refs if kind == "imports"}
    call = refs[("calls", "load_data")]
    assert call.hint == "analysis.load" and lines[call.line - 1].strip() == "\"df = load_data('x')\""
    (clean,) = relations.symbols
    assert clean.qualname == "clean" and lines[clean.line_start - 1].strip() == '"def clean(frame):\\n",'
    assert lines[clean.line_end - 1].strip() == '"    return frame.dropna()\\n",'
    assert lines[refs[("calls", "clean")].line - 1].strip() == '"clean(df)"'  # each at its own line
    # the magics and the shell cell were left out: the code parsed, and gave none of their words
    assert not any("matplotlib" in r.target or "pip" in r.target for r in relations.refs)


def test_ipython_help_after_a_name_is_left_out_of_the_code():
    """PythonDataScienceHandbook's notebooks ask for help as ``L.append?``: not Python, which made the
    notebook's code give no relations at all."""
    text = notebook(
        _cell("code", "import numpy as np\n", "L = load_data('x')\n", "L.append?"),
        _cell("code", "np.*load*??\n", "clean(L)  # really?\n", 'doc = """Why?\n', '"""'),
    )
    _, relations = parse_notebook(text, "help.ipynb")
    assert {"load_data", "clean"} <= {r.target for r in relations.refs if r.type == "calls"}


def test_a_notebook_in_another_language_gives_no_code_relations():
    text = notebook(_cell("markdown", "# R\n"), _cell("code", "library(dplyr)\n", "load_data('x')"), language="R")
    _, relations = parse_notebook(text, "r.ipynb")
    assert relations.symbols == () and [r.type for r in relations.refs] == []


def test_what_calls_a_function_names_the_notebook_that_calls_it(cli, make_project):
    project = make_project(
        {
            "analysis/__init__.py": "",
            "analysis/load.py": 'def load_data(path):\n    """Read the customers."""\n    return open(path).read()\n',
            "notebooks/explore.ipynb": EXPLORE,
        }
    )
    assert cli("sync", "--project", str(project.root)).code == 0
    answer = cli("ask", "what calls load_data", "--project", str(project.root), "--json").json()
    assert answer["mode"] == "graph"
    assert [e["source"]["uri"] for e in answer["excerpts"]] == ["notebooks/explore.ipynb#explore"]


def test_a_cells_source_written_as_one_string_places_its_code_at_its_cells_first_line():
    cells = [_cell("markdown", "# Explore\n"), _cell("code"), _cell("code", "x = 1\n")]
    cells[1]["source"] = "import json\nrows = json.loads(text)"  # one string, as some tools write it
    text = notebook(*cells)
    _, relations = parse_notebook(text, "explore.ipynb")
    lines = text.split("\n")
    call = next(r for r in relations.refs if r.type == "calls" and r.target == "loads")
    assert lines[call.line - 1].strip() == "{"  # the cell's first line: its source is not a line to a line
    assert '"source": "import json' in "\n".join(lines[call.line - 1 : call.line + 6])


def test_a_cell_written_with_windows_line_ends_reads_as_any_other():
    text = notebook(
        _cell("markdown", "# Report\r\n", "\r\n", "Totals by month.\r\n"),
        _cell("code", "def total(rows):\r\n", "    return sum(rows)\r\n"),
    )
    (chunk,), relations = parse_notebook(text, "report.ipynb")
    assert "\r" not in chunk.body and chunk.body.startswith("# Report\n\nTotals by month.\n\n```python\n")
    assert [s.qualname for s in relations.symbols] == ["total"]
