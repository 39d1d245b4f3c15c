"""Files that are not UTF-8: a Windows-1252 / Latin-1 file is read as such, so its accented
words are found and its excerpts are `current` (the sync and the freshness check decode it
alike); a UTF-8 file with one stray byte keeps the accents it spells correctly."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.ingest.encoding import decode_source


def test_a_latin1_file_is_searchable_by_its_accented_words_and_current(make_project):
    text = "# Caf\u00e9 cr\u00e8me\n\nLe caf\u00e9 \u00e9tait pr\u00eat \u2014 \u201cvoil\u00e0\u201d.\n"
    project = make_project({"notes/menu.md": text.encode("cp1252")})
    resync(project)
    answer = search_project(project, "café crème", SearchOptions(limit=5), now=NOW).to_json()
    [hit] = answer["excerpts"]
    assert hit["locations"][0]["path"] == "notes/menu.md" and hit["title"] == "Café crème"
    assert "café était prêt" in hit["snippet"] and "\ufffd" not in hit["snippet"]
    assert hit["freshness"]["state"] == "current"


def test_decoding_keeps_utf8_first():
    assert decode_source("café".encode()) == "café"
    assert decode_source("caf\u00e9".encode("cp1252")) == "café"
    # valid UTF-8 accents beside one stray byte: stays UTF-8, only the stray byte replaced
    assert decode_source("déjà vu ".encode() + b"\xff") == "déjà vu \ufffd"
    assert decode_source(b"\x81 caf\xe9") == "\ufffd café"  # a byte Windows-1252 leaves undefined
