"""C#'s constructors are named as their class (``Store.Store``), as Java's and C++'s: ``new Store()``
reaches the class and its constructor as one certain target, not two guesses (CleanArchitecture's
``new ForbiddenAccessException()`` gave two heuristic edges)."""

from __future__ import annotations

from graph_edges import callees

from conftest import resync


def test_new_reaches_the_class_and_its_constructor_as_one_certain_target(make_project):
    files = {
        "src/Store.cs": "namespace App;\n\npublic class Store\n{\n    public Store() { }\n}\n",
        "src/Shop.cs": "namespace App;\n\npublic class Shop\n{\n    public Store Open() { return new Store(); }\n}\n",
    }
    project = make_project(files)
    resync(project)
    assert callees(project, "Shop.Open") == {("Store", "extracted"), ("Store.Store", "extracted")}
