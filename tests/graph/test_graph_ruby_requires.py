"""Ruby's ``require`` names a file of a ``lib/`` folder, Ruby's load path (sinatra, walked: ``require
"sinatra/base"`` in 24 files was read as no import), and a ``require_relative "test_helper"``'s file is
asked for by the name the code spells ("which files import test_helper" searched words)."""

from __future__ import annotations

import pytest
from graph_edges import imported

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "lib/sinatra/base.rb": "module Sinatra\n  class Base\n  end\nend\n",
    # a file named as the standard library's ``json``, under another folder of ``lib``: not it
    "sinatra-contrib/lib/sinatra/json.rb": "module Sinatra\n  module JSON\n  end\nend\n",
    "test/test_helper.rb": 'require "sinatra/base"\nrequire "json"\n\nmodule TestHelper\nend\n',
    "test/route_test.rb": 'require_relative "test_helper"\n\nclass RouteTest\n  def test_x\n    1\n  end\nend\n',
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_require_names_a_file_of_a_lib_folder(make_project, engine):
    project = make_project(FILES, name="requires", config=engine_config(engine, "requires"))
    resync(project)
    assert imported(project, "test/test_helper.rb") == {"lib/sinatra/base.rb"}
    answer = ask_project(project, "which files import test_helper", now=NOW, limit=5)
    assert answer.rule == "relation" and [e.fact.source.uri for e in answer.excerpts] == ["test/route_test.rb:1-1"]
