"""The source page's window on a notebook (``pages.file_window``): its cells' lines as a reader
reads them, not their JSON (a notebook's excerpt is at the file's own lines: ``ingest.notebook``)."""

from __future__ import annotations

import json

from kenning.ingest.notebook import parse_notebook
from kenning.interfaces.web.pages import file_window, notebook_line
from kenning.records import Location

NOTEBOOK = json.dumps(
    {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["## Load the data\n", 'We read "customers.csv".']},
            {
                "cell_type": "code",
                "execution_count": 1,
                "metadata": {},
                "outputs": [],
                "source": ["df = load_data('customers.csv')\n", "df.head()"],
            },
        ],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    },
    indent=1,
)


def test_a_notebooks_lines_are_shown_as_its_cells_text(tmp_path):
    (tmp_path / "explore.ipynb").write_text(NOTEBOOK, encoding="utf-8")
    (chunk,) = parse_notebook(NOTEBOOK, "explore.ipynb")[0]
    location = Location("explore.ipynb#load-the-data", "explore.ipynb", chunk.line_start, chunk.line_end, "x")
    window = file_window(tmp_path, location)
    shown = {text.strip() for _, text, inside in window.lines if inside}
    assert {"## Load the data", 'We read "customers.csv".', "df = load_data('customers.csv')", "df.head()"} <= shown
    assert not any("\\n" in text for _, text, _ in window.lines)  # no JSON escape left
    assert '"cell_type": "code",' in shown  # the notebook's own keys stay as they are
    # the same line numbers as the file's
    numbered = dict((n, text) for n, text, _ in window.lines)
    file_lines = NOTEBOOK.split("\n")
    assert all(numbered[n].strip() == notebook_line(file_lines[n - 1]).strip() for n in numbered)


def test_a_source_written_as_one_string_is_shown_as_written():
    line = '    "a = 1\\nb = 2"'  # one string holding its line ends: one numbered line, as written
    assert notebook_line(line) == line
    assert notebook_line('    "x = 1\\n",') == "    x = 1"
    assert notebook_line("   ]") == "   ]"
