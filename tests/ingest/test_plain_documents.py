"""A project's documents by their customary names without a suffix (``LICENSE``, ``COPYING``,
``ChangeLog``, ``INSTALL``: ``parsers.PLAIN_DOCUMENTS``) are read as plain text, as ``.txt`` is;
they were skipped as ``unsupported_type``, so "what license is this under" could not find spdlog's
or jq's license (docs/benchmarks.md, "cppmacros"). An executable file of such a name is a script
(fzf's ``install``); any other file without a suffix stays unread unless executable."""

from __future__ import annotations

import os

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.discover import discover

FILES = {
    "README.md": "# spin\n\nA tiny logging library for command-line tools.\n",
    "LICENSE": (
        "The MIT License (MIT)\n\nCopyright (c) 2016 Ada\n\nPermission is hereby granted, free of charge, to any "
        "person obtaining a copy of this software, to deal in the Software without restriction.\n"
    ),
    "ChangeLog": "2024-03-01  Ada\n\n\t* Version 1.2: the rotating sink keeps five files.\n",
    "install": "#!/bin/sh\n# install the binary into ~/.local/bin\ncp spin ~/.local/bin/\n",
    "VERSION": "1.2.0\n",
    "src/spin.c": "int spin_log(const char *msg) {\n  return 0;\n}\n",
}


def test_customary_documents_are_read_and_answer(make_project):
    project = make_project(FILES, name="plaindocs")
    os.chmod(project.root / "install", 0o755)
    found = discover(project)
    parsers = {c.path: c.parser for c in found.candidates}
    assert parsers["LICENSE"] == parsers["ChangeLog"] == "rst/3"
    assert parsers["install"] == "script/5"  # executable: a script, whatever its name
    assert "VERSION" not in parsers and "VERSION" in found.skipped_paths["unsupported_type"]
    resync(project)
    answer = ask_project(project, "what license is this project under", now=NOW, limit=3)
    assert answer.excerpts[0].fact.source.uri.startswith("LICENSE")
    changed = ask_project(project, "which version changed the rotating sink", now=NOW, limit=3)
    assert changed.excerpts[0].fact.source.uri.startswith("ChangeLog")
