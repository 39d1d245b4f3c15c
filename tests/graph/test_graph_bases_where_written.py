"""A base is the class its name stands for where it is written. Ruby (sinatra, walked: "what extends
Sinatra::Base" listed Rack::Protection's classes, "what extends Rack::Protection::Base" listed
Sinatra::Application and a test's ``BizzleApp < Sinatra::Base``): a qualified name by the modules it
names, a name alone by the modules around the subclass, innermost first, as Ruby looks it up. A name two
classes bear: the one the subclass's file imports (outline's client and server ``ParanoidModel``)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "lib/sinatra/base.rb": (
        "module Sinatra\n  class Base\n    def call(env)\n      env\n    end\n  end\n\n"
        "  class Application < Base\n  end\nend\n"
    ),
    "lib/rack/protection/base.rb": (
        "module Rack\n  module Protection\n    class Base\n      def accepts?(env)\n        true\n      end\n"
        "    end\n  end\nend\n"
    ),
    "lib/rack/protection/json_csrf.rb": (
        "module Rack\n  module Protection\n    class JsonCsrf < Base\n    end\n  end\nend\n"
    ),
    "test/extensions_test.rb": "class BizzleApp < Sinatra::Base\nend\n",
}


def _found(project, question: str) -> dict[str, str]:
    answer = ask_project(project, question, now=NOW, limit=10)
    return {e.explain["node"]["name"]: e.path[-1]["link"] for e in answer.excerpts}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_ruby_base_is_the_class_its_name_stands_for_where_it_is_written(make_project, engine):
    project = make_project(FILES, name="rubybases", config=engine_config(engine, "rubybases"))
    resync(project)
    assert _found(project, "what extends Sinatra::Base") == {
        "Sinatra.Application": "extracted",
        "BizzleApp": "extracted",
    }
    assert _found(project, "what extends Rack::Protection::Base") == {"Rack.Protection.JsonCsrf": "extracted"}
    assert _found(project, "what does Sinatra::Application extend") == {"Sinatra.Base": "extracted"}
    assert _found(project, "what does BizzleApp extend") == {"Sinatra.Base": "extracted"}


TS = {
    # outline's client and server both declare a ``ParanoidModel`` and a ``Document``
    "app/models/base/ParanoidModel.ts": "export default abstract class ParanoidModel {\n  deletedAt = '';\n}\n",
    "server/models/base/ParanoidModel.ts": "export default class ParanoidModel {\n  destroy() {}\n}\n",
    "app/models/Document.ts": (
        "import ParanoidModel from './base/ParanoidModel';\n\n"
        "export default class Document extends ParanoidModel {\n}\n"
    ),
    "server/models/Document.ts": (
        "import ParanoidModel from '@server/models/base/ParanoidModel';\n\n"
        "class Document extends ParanoidModel {\n}\n\nexport default Document;\n"
    ),
    "app/models/Star.ts": "export default class Star extends ParanoidModel {\n}\n",  # imports none: a guess
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_base_two_classes_bear_is_the_one_the_subclasss_file_imports(make_project, engine):
    """outline, walked: each ``Document`` extended both ``ParanoidModel``s, as guesses; its file imports one."""
    project = make_project(TS, name="tsbases", config=engine_config(engine, "tsbases"))
    resync(project)
    ups = ask_project(project, "what does Document extend", now=NOW, limit=10)
    pairs = {(e.path[-1]["source"]["uri"].split(":")[0], e.fact.source.uri.split(":")[0]) for e in ups.excerpts}
    assert pairs == {
        ("app/models/Document.ts", "app/models/base/ParanoidModel.ts"),
        ("server/models/Document.ts", "server/models/base/ParanoidModel.ts"),
    }
    assert {e.path[-1]["link"] for e in ups.excerpts} == {"extracted"}
    downs = ask_project(project, "what extends ParanoidModel", now=NOW, limit=10)
    found = {(e.fact.source.uri.split(":")[0], e.path[-1]["link"]) for e in downs.excerpts}
    assert ("app/models/Document.ts", "extracted") in found and ("app/models/Star.ts", "heuristic") in found
    assert ("server/models/Document.ts", "heuristic") not in found  # the server's imports the server's
