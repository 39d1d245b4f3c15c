"""A relative import names the file whose suffix alone it leaves out (outline, walked: ``import
documentCreator from "./documentCreator"`` was linked to ``documentCreator.test.ts``, which sorts
first and which the path's pattern ``documentCreator.*`` matches too; a test importing its own
module was linked to itself, an edge dropped)."""

from __future__ import annotations

import pytest
from graph_edges import imported

from conftest import resync
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "server/commands/documentCreator.test.ts": (
        "import documentCreator from './documentCreator';\n\ntest('creates', () => {\n  documentCreator();\n});\n"
    ),
    "server/commands/documentCreator.ts": "export default function documentCreator() {\n  return 1;\n}\n",
    "server/commands/documentDuplicator.ts": (
        "import documentCreator from './documentCreator';\n\n"
        "export default function documentDuplicator() {\n  return documentCreator();\n}\n"
    ),
    "shared/types/index.ts": "export type Id = string;\n",
    "shared/models.ts": "import { Id } from './types';\n\nexport const none: Id = '';\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_relative_import_names_the_file_its_suffix_alone_leaves_out(make_project, engine):
    project = make_project(FILES, name="stems", config=engine_config(engine, "stems"))
    resync(project)
    assert imported(project, "server/commands/documentDuplicator.ts") == {"server/commands/documentCreator.ts"}
    assert imported(project, "server/commands/documentCreator.test.ts") == {"server/commands/documentCreator.ts"}
    assert imported(project, "shared/models.ts") == {"shared/types/index.ts"}  # a folder's index
