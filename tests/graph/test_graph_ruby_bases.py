"""A Ruby base is the class its name stands for where it is written (sinatra, walked: "what extends
Sinatra::Base" listed Rack::Protection's classes, "what extends Rack::Protection::Base" listed
Sinatra::Application and a test's ``BizzleApp < Sinatra::Base``): a qualified name by the modules it
names, a name alone by the modules around the subclass, innermost first, as Ruby looks it up."""

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
