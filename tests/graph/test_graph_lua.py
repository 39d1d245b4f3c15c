"""Lua through tree-sitter (``code``): a Neovim plugin's modules, their functions (``function
M.setup``, ``function M:refresh``, ``M.pick = function``) and the ``require`` that links them,
asked in words."""

from __future__ import annotations

import pytest
from graph_edges import calls_of, imported

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.parsers import parser_for
from kenning.ingest.tree_code import lua_module, parse_code_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "lua/finder/init.lua": """local config = require("finder.config")
local M = {}

--- Set the plugin up with the user's options.
function M.setup(opts)
  config.set_defaults(opts)
  M:refresh()
  vim.api.nvim_echo({}, false, {})
end

function M:refresh()
  self.count = 0
  self:redraw()
end

function M:redraw()
  print(self.count)
end

function M.pick()
  local picker = require("finder.picker")  -- required when first used, as plugins do
  return picker.open()
end

return M
""",
    "lua/finder/config.lua": """local C = {}

C.set_defaults = function(opts)
  C.values = vim.tbl_extend("force", {}, opts or {})
end

return C
""",
    "lua/finder/picker.lua": "local P = {}\nfunction P.open() return true end\nreturn P\n",
    # another plugin's module of a homonym, never required by the finder
    "lua/other/config.lua": "local O = {}\\nfunction O.set_defaults(x) return x end\\nreturn O\\n",
    "plugin/finder.lua": 'require("finder").setup({ hidden = true })\n',
}


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("lua/telescope/actions/init.lua", "telescope.actions"),
        ("lua/telescope/config.lua", "telescope.config"),
        ("src/player.lua", "src.player"),  # no ``lua/`` folder (a LÖVE game): the whole path
    ],
)
def test_a_lua_file_is_named_as_require_loads_it(path, module):
    assert lua_module(path) == module


def test_lua_is_read_by_its_grammar():
    assert parser_for("lua/finder/init.lua").startswith("code/")
    chunks, relations = parse_code_relations(FILES["lua/finder/init.lua"], "lua/finder/init.lua")
    assert [(s.qualname, s.kind) for s in relations.symbols] == [
        ("M.setup", "method"),
        ("M.refresh", "method"),  # ``function M:refresh()``: the table's, as ``M.setup``
        ("M.redraw", "method"),
        ("M.pick", "method"),
    ]
    # each module once, at its first ``require``, a function's too
    assert [(r.target, r.line) for r in relations.refs if r.type == "imports"] == [
        ("finder/config", 1),
        ("finder/picker", 21),
    ]
    setup = next(c for c in chunks if c.meta.get("symbol") == "M.setup")
    assert (setup.line_start, setup.line_end) == (4, 9)  # its doc comment above it
    calls = {r.target for r in relations.refs if r.type == "calls"}
    assert {"set_defaults", "refresh", "redraw"} <= calls
    assert not {"print", "nvim_echo", "require"} & calls  # Lua's own and Neovim's: no project's
    _, config = parse_code_relations(FILES["lua/finder/config.lua"], "lua/finder/config.lua")
    assert [(s.qualname, s.kind) for s in config.symbols] == [("C.set_defaults", "method")]


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_lua_plugins_requires_and_calls_in_the_graph(make_project, engine):
    project = make_project(FILES, name="finder", config=engine_config(engine, "finder"))
    resync(project)
    # ``require("finder.config")``: the file ending so; ``require("finder")``: the folder's init.lua
    assert imported(project, "lua/finder/init.lua") == {"lua/finder/config.lua", "lua/finder/picker.lua"}
    assert imported(project, "plugin/finder.lua") == {"lua/finder/init.lua"}
    answer = ask_project(project, "what calls set_defaults", now=NOW)
    assert [e.fact.source.uri for e in answer.excerpts] == ["lua/finder/init.lua:4-9"]
    # a module by the name ``require`` loads it by (then what imports its importer)
    users = ask_project(project, "what imports finder.config", now=NOW)
    assert [e.fact.source.uri.split(":")[0] for e in users.excerpts] == ["lua/finder/init.lua", "plugin/finder.lua"]
    # ``self:redraw()`` in ``M:refresh``: the table's own
    assert {e.dst.qualname for e in calls_of(project, "M.refresh")} == {"M.redraw"}
