"""A Rails app's routes as calls of its controllers' actions (lobsters walked): ``"login#index"``
strings, ``resources`` and the routes in their blocks, ``namespace`` modules; asked in words, the
controller named as Ruby writes it (``Mod::StoriesController``, ``StoriesController#upvote``)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.rails_routes import is_routes_file
from kenning.ingest.tree_code import parse_code_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

ROUTES = """Rails.application.routes.draw do
  root to: "home#index"

  get "/login" => "login#index"
  post "/login", to: "login#login"
  get "/upvoted", to: redirect("/upvoted/stories")

  resources :stories, except: [:index, :new] do
    post "upvote"
    member do
      get "reply"
    end
    resources :suggestions, only: %i[create]
  end

  resource :session, except: [:show, :edit, :update, :destroy]
  resources :photos, controller: "images", only: :show

  namespace :mod do
    resources :stories, only: [:edit] do
      patch "undelete"
    end
  end
end
"""

FILES = {
    "config/routes.rb": ROUTES,
    "app/controllers/home_controller.rb": "class HomeController < ApplicationController\n  def index\n  end\nend\n",
    "app/controllers/login_controller.rb": (
        "class LoginController < ApplicationController\n  def index\n  end\n\n  def login\n  end\nend\n"
    ),
    "app/controllers/stories_controller.rb": (
        "class StoriesController < ApplicationController\n  def show\n  end\n\n  def upvote\n  end\n\n"
        "  def undelete\n  end\nend\n"
    ),
    "app/controllers/mod/stories_controller.rb": (
        "class Mod::StoriesController < Mod::ModController\n  def edit\n  end\n\n  def undelete\n  end\nend\n"
    ),
}


def test_routes_are_calls_of_their_controllers_actions():
    assert is_routes_file("config/routes.rb") and is_routes_file("config/routes/admin.rb")
    assert not is_routes_file("app/models/route.rb")
    _, relations = parse_code_relations(ROUTES, "config/routes.rb")
    calls = [(r.target, r.hint, r.line) for r in relations.refs if r.type == "calls"]
    assert calls == [
        ("index", "HomeController", 2),
        ("index", "LoginController", 4),
        ("login", "LoginController", 5),
        # the resource's actions but those ``except:`` leaves out, then the routes its block names
        ("show", "StoriesController", 8),
        ("create", "StoriesController", 8),
        ("edit", "StoriesController", 8),
        ("update", "StoriesController", 8),
        ("destroy", "StoriesController", 8),
        ("upvote", "StoriesController", 9),
        ("reply", "StoriesController", 11),
        ("create", "SuggestionsController", 13),
        ("new", "SessionsController", 16),  # a singular resource: its controller plural
        ("create", "SessionsController", 16),
        ("show", "ImagesController", 17),  # ``controller:``
        ("edit", "Mod.StoriesController", 20),  # a namespace's module
        ("undelete", "Mod.StoriesController", 21),
    ]  # the routing words (``get``, ``resources``, ``redirect``, ``Rails.application.routes.draw``): no call


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_what_calls_an_action_is_its_route(make_project, engine):
    project = make_project(FILES, name="news", config=engine_config(engine, "news"))
    resync(project)
    for question, line in [
        ("what calls StoriesController#upvote", 9),
        ("what calls LoginController.login", 5),
        ("what calls Mod::StoriesController.undelete", 21),  # not ``StoriesController#undelete``, which no route names
    ]:
        answer = ask_project(project, question, now=NOW)
        assert [e.fact.source.uri.split(":")[0] for e in answer.excerpts] == ["config/routes.rb"], question
        assert answer.excerpts[0].path[-1]["source"]["uri"] == f"config/routes.rb:{line}-{line}", question
    assert not ask_project(project, "what calls StoriesController#undelete", now=NOW).excerpts
