"""PHP's callable arrays as the calls they stand for (laravel.io walked): a Laravel route to a
controller's action (``[ThreadsController::class, 'show']``) and a class handing over its own
method (``[$this, 'handle']``), asked in words."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.tree_code import parse_code_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "routes/web.php": """<?php

use App\\Http\\Controllers\\Forum\\ThreadsController;
use Illuminate\\Support\\Facades\\Route;

Route::get('/', fn () => view('home'));
Route::get('forum/{thread}', [ThreadsController::class, 'show'])->name('thread');
Route::post('forum', [ThreadsController::class, 'store']);
Route::put('users/{username}/block', BlockUserController::class)->name('users.block');
Route::resource('posts', PostsController::class)->only(['index', 'show']);
Route::middleware('auth')->controller(OrdersController::class)->group(function () {
    Route::get('orders/{order}', 'show');
    Route::prefix('admin')->group(fn () => Route::post('orders', 'store'));
});
Route::get('legacy', "Admin\\\\LegacyController@index");
Route::get('about', 'about');
Route::controller(\\App\\Http\\Controllers\\OrdersController::class)->group(function () {
    Route::delete('orders/{order}', 'cancel');
});
""",
    # a controller's group of routes, each naming its action
    "app/Http/Controllers/OrdersController.php": """<?php

namespace App\\Http\\Controllers;

class OrdersController
{
    public function show($order)
    {
        return $order;
    }

    public function store()
    {
        return null;
    }
}
""",
    # an invokable controller: its route calls ``__invoke``
    "app/Http/Controllers/BlockUserController.php": """<?php

namespace App\\Http\\Controllers;

class BlockUserController
{
    public function __invoke($request)
    {
        return $request;
    }
}
""",
    "app/Http/Controllers/Forum/ThreadsController.php": """<?php

namespace App\\Http\\Controllers\\Forum;

class ThreadsController
{
    public function show($thread)
    {
        return $thread;
    }

    public function store()
    {
        return null;
    }
}
""",
    # a resource's controller; and a homonym of the action, which no route names
    "app/Http/Controllers/PostsController.php": """<?php

namespace App\\Http\\Controllers;

class PostsController
{
    public function index()
    {
        return [];
    }

    public function show($post)
    {
        return $post;
    }
}
""",
    "app/Http/Controllers/ProfileController.php": """<?php

namespace App\\Http\\Controllers;

class ProfileController
{
    public function show($user)
    {
        return $user;
    }
}
""",
    "app/Listeners/Notifier.php": """<?php

namespace App\\Listeners;

class Notifier
{
    public function subscribe($events)
    {
        $events->listen('saved', [$this, 'handle']);
        $labels = [$events, 'label'];
        $pair = ['key', 'value'];
        return [$labels, $pair];
    }

    public function handle($event)
    {
        return $event;
    }

    public function label()
    {
        return 'x';
    }
}
""",
}


def test_a_callable_array_is_the_call_it_stands_for():
    path = "routes/web.php"
    _, relations = parse_code_relations(FILES[path], path)
    calls = {(r.target, r.hint, r.line) for r in relations.refs if r.type == "calls"}
    assert {("show", "ThreadsController", 7), ("store", "ThreadsController", 8)} <= calls
    assert ("__invoke", "BlockUserController", 9) in calls  # an invokable controller's route
    # a resource route: its actions, ``->only([…])`` applied
    assert {(target, line) for target, hint, line in calls if hint == "PostsController"} == {
        ("index", 10),
        ("show", 10),
    }
    # a group of one controller's routes (the nearest group naming one, through a nested one) and
    # Laravel 7's ``Controller@action``; a string outside any controller's group: none
    assert {(target, hint, line) for target, hint, line in calls if line > 10 and hint != "Route"} >= {
        ("show", "OrdersController", 12),
        ("store", "OrdersController", 13),
        ("index", "LegacyController", 15),
        ("cancel", "OrdersController", 18),  # a class named in full: its short name
    }
    assert "about" not in {target for target, _, _ in calls}
    path = "app/Listeners/Notifier.php"
    _, relations = parse_code_relations(FILES[path], path)
    targets = {r.target for r in relations.refs if r.type == "calls"}
    # ``[$this, 'handle']``: a call; another value's method by name, or two strings: none
    assert "handle" in targets
    assert not {"label", "value"} & targets


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_laravel_route_calls_its_controllers_action(make_project, engine):
    project = make_project(FILES, name="forum", config=engine_config(engine, "forum"))
    resync(project)
    answer = ask_project(project, "what calls ThreadsController.show", now=NOW)
    assert [e.fact.source.uri.split(":")[0] for e in answer.excerpts] == ["routes/web.php"]
    posts = ask_project(project, "what calls PostsController.show", now=NOW)
    assert [e.path[-1]["source"]["uri"] for e in posts.excerpts] == ["routes/web.php:10-10"]
    invoked = ask_project(project, "what calls BlockUserController.__invoke", now=NOW)
    assert [e.path[-1]["source"]["uri"] for e in invoked.excerpts] == ["routes/web.php:9-9"]
    grouped = ask_project(project, "what calls OrdersController.store", now=NOW)
    assert [e.path[-1]["source"]["uri"] for e in grouped.excerpts] == ["routes/web.php:13-13"]
    # the class's own method, handed over as a callable
    assert callees(project, "Notifier.subscribe") == {("Notifier.handle", "extracted")}
    # the homonym no route names: nothing calls it
    assert not ask_project(project, "what calls ProfileController.show", now=NOW).excerpts
