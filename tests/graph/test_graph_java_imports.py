"""A Java, Kotlin or Scala import names the file of the class it imports (parser ``code/17``, ``18``, ``20``,
``ingest.tree_imports._java_import``): spring-petclinic's 427 imports gave no ``imports`` edge, and
"what does OwnerController depend on" answered by its calls alone. The end of the path it spells
(``org/clinic/model/Person``) is the file's (``graph.aliases``); the standard library's
(``java.util.List``) and an outside package's name none."""

from __future__ import annotations

import pytest
from graph_edges import callees, imported

from conftest import NOW
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

MAIN = "src/main/java/org/clinic"
FILES = {
    f"{MAIN}/model/Person.java": "package org.clinic.model;\n\npublic class Person {\n    String name;\n}\n",
    f"{MAIN}/util/Checks.java": (
        "package org.clinic.util;\n\npublic class Checks {\n    public static boolean named(String s) {\n"
        "        return s != null;\n    }\n}\n"
    ),
    f"{MAIN}/owner/Owner.java": (
        "package org.clinic.owner;\n\nimport java.util.List;\nimport org.clinic.model.Person;\n"
        "import static org.clinic.util.Checks.named;\nimport org.springframework.stereotype.Controller;\n"
        "import org.clinic.model.*;\n\npublic class Owner extends Person {\n    List<String> pets;\n}\n"
    ),
    # Kotlin's, as Java's (parser ``code/18``): an alias aside, a package's ``*`` none
    # Scala's (parser ``code/20``): a selector's names, a renamed one by its own name; ``_`` none
    "src/main/scala/org/clinic/Report.scala": (
        "package org.clinic\n\nimport org.clinic.util.{Checks => C}\nimport org.clinic.model._\n"
        "import scala.collection.mutable\n\nclass Report\n"
    ),
    "src/main/kotlin/org/clinic/vet/Vet.kt": (
        "package org.clinic.vet\n\nimport org.clinic.model.Person as P\nimport kotlin.collections.*\n\n"
        "class Vet : P()\n"
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def clinic(request, make_project):
    return synced_on(request.param, make_project, FILES, "clinic")


def test_a_java_import_is_an_edge_to_the_file_of_the_class_it_imports(clinic):
    assert imported(clinic, f"{MAIN}/owner/Owner.java") == {f"{MAIN}/model/Person.java", f"{MAIN}/util/Checks.java"}
    assert imported(clinic, "src/main/kotlin/org/clinic/vet/Vet.kt") == {f"{MAIN}/model/Person.java"}
    assert imported(clinic, "src/main/scala/org/clinic/Report.scala") == {f"{MAIN}/util/Checks.java"}
    answer = ask_project(clinic, f"what does {MAIN}/owner/Owner.java depend on", now=NOW)
    paths = {e.fact.source.uri.split(":")[0].split("#")[0] for e in answer.excerpts}
    assert answer.mode == "graph" and f"{MAIN}/model/Person.java" in paths, (answer.notes, paths)


# A method imported by name (``import static``) is what a bare call of that name calls, unless the
# caller's class declares its own; a homonym in another class is neither (it was a guess among both).
STATIC = {
    f"{MAIN}/util/Checks.java": FILES[f"{MAIN}/util/Checks.java"],
    f"{MAIN}/owner/Other.java": (
        "package org.clinic.owner;\n\npublic class Other {\n    boolean named(String s) { return true; }\n}\n"
    ),
    f"{MAIN}/owner/Owner.java": (
        "package org.clinic.owner;\n\nimport static org.clinic.util.Checks.named;\n\npublic class Owner {\n"
        "    String name;\n\n    boolean valid() {\n        return named(name);\n    }\n}\n"
    ),
    f"{MAIN}/owner/Shadow.java": (
        "package org.clinic.owner;\n\nimport static org.clinic.util.Checks.named;\n\npublic class Shadow {\n"
        "    boolean named(String s) { return false; }\n\n"
        '    boolean valid() {\n        return named("x");\n    }\n}\n'
    ),
}


@pytest.fixture(params=["sqlite", ENGINE])
def statics(request, make_project):
    return synced_on(request.param, make_project, STATIC, "statics")


def test_a_statically_imported_method_is_what_a_bare_call_of_its_name_calls(statics):
    assert callees(statics, "Owner.valid") == {("Checks.named", "extracted")}
    assert callees(statics, "Shadow.valid") == {("Shadow.named", "extracted")}  # the class's own comes first
