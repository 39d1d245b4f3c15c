"""The callers of a method a project's class inherits from outside the project (answer/inherited.py):
spring-petclinic's "what calls OwnerRepository.save" named no node (``OwnerRepository`` extends
Spring Data's ``JpaRepository``) and was searched as words; the calls on values the parser typed
``OwnerRepository`` answer it, from the graph, on both engines."""

from __future__ import annotations

import pytest

from conftest import NOW
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

PKG = "src/main/java/org/clinic/owner"
FILES = {
    f"{PKG}/OwnerRepository.java": (
        "package org.clinic.owner;\n\nimport org.springframework.data.jpa.repository.JpaRepository;\n\n"
        "public interface OwnerRepository extends JpaRepository<Owner, Integer> {\n"
        "    Owner findById(Integer id);\n}\n"
    ),
    f"{PKG}/OwnerController.java": (
        "package org.clinic.owner;\n\nclass OwnerController {\n    private final OwnerRepository owners;\n\n"
        '    String create(Owner owner) {\n        this.owners.save(owner);\n        return "redirect";\n    }\n\n'
        "    Owner find(int id) {\n        return this.owners.findById(id);\n    }\n}\n"
    ),
    # ``save`` on a value of another class: not the repository's
    f"{PKG}/Cache.java": "package org.clinic.owner;\n\nclass Cache {\n    void keep(Store store) {\n"
    "        store.save(1);\n    }\n}\n",
    "app/models.py": "from django.db import models\n\n\nclass Article(models.Model):\n    title = 'x'\n",
    "app/views.py": "from app.models import Article\n\n\ndef publish(title):\n    article = Article()\n"
    "    article.save()\n    return article\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, FILES, "inherited")


def _callers(answer) -> list[tuple[str, str]]:
    return [(e.explain["node"]["name"], e.path[-1]["source"]["uri"]) for e in answer.excerpts]


def test_the_callers_of_an_inherited_method_are_the_calls_on_values_of_the_class(project):
    answer = ask_project(project, "what calls OwnerRepository.save", now=NOW)
    assert (answer.mode, answer.degradations) == ("graph", ()), answer.notes
    assert _callers(answer) == [("OwnerController.create", f"{PKG}/OwnerController.java:7-7")]
    said = "no node named 'OwnerRepository.save': the project's OwnerRepository declares no save"
    assert any(n.startswith(said) for n in answer.notes), answer.notes
    python = ask_project(project, "who calls Article.save", now=NOW)
    assert _callers(python) == [("app.views.publish", "app/views.py:6-6")], python.notes


def test_a_method_no_call_on_the_class_names_is_still_no_node(project):
    answer = ask_project(project, "what calls OwnerRepository.delete", now=NOW)
    assert answer.mode == "lexical" and "graph found no node named 'OwnerRepository.delete'" in answer.degradations
