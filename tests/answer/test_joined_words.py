"""A relation question that spells a name in plain words starts from the symbol those words
make when joined as code joins them (spring-petclinic, walked as a new user: "what depends on
the owner repository interface" started from ``VetRepository`` and ``PetTypeRepository``, the
word "owner" being in half the project's paths, so weighing next to nothing)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

OWNER = "src/main/java/org/clinic/owner"
FILES = {
    f"{OWNER}/OwnerRepository.java": (
        "package org.clinic.owner;\n\npublic interface OwnerRepository {\n    Owner findById(Integer id);\n}\n"
    ),
    f"{OWNER}/PetTypeRepository.java": (
        "package org.clinic.owner;\n\npublic interface PetTypeRepository {\n    PetType findPetTypes();\n}\n"
    ),
    "src/main/java/org/clinic/vet/VetRepository.java": (
        "package org.clinic.vet;\n\npublic interface VetRepository {\n    Vets findAll();\n}\n"
    ),
    f"{OWNER}/OwnerController.java": (
        "package org.clinic.owner;\n\nclass OwnerController {\n    private OwnerRepository owners;\n\n"
        "    Owner findOwner(Integer ownerId) {\n        return owners.findById(ownerId);\n    }\n}\n"
    ),
    f"{OWNER}/PetController.java": (
        "package org.clinic.owner;\n\nclass PetController {\n    private PetTypeRepository types;\n\n"
        "    PetType populatePetTypes() {\n        return types.findPetTypes();\n    }\n}\n"
    ),
    "docs/smart.md": "# Smart case\n\nThe smart case flag searches case insensitively when the pattern is lowercase.\n",
    "app/__init__.py": "",
    "app/flags.py": "def smart_case(pattern):\n    return pattern.lower() == pattern\n",
    "app/search.py": "from app.flags import smart_case\n\n\ndef run(pattern):\n    return smart_case(pattern)\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_words_joined_as_code_joins_them_name_the_start(make_project, engine):
    project = synced_on(engine, make_project, FILES, "clinic")
    answer = ask_project(project, "what depends on the owner repository interface", now=NOW)
    assert "relation dependents (incoming) from OwnerRepository (words joined)" in answer.notes, answer.notes
    titles = [ex.fact.title for ex in answer.excerpts]
    assert titles == ["Owner findOwner(Integer ownerId) {"], (answer.notes, titles)

    snake = ask_project(project, "who calls the smart case function", now=NOW)
    assert "relation callers (incoming) from app.flags.smart_case (words joined)" in snake.notes, snake.notes
    assert [ex.fact.title for ex in snake.excerpts] == ["def run(pattern)"]


def test_words_that_join_into_no_name_start_as_before(make_project):
    project = make_project(FILES, name="plain")
    resync(project)
    answer = ask_project(project, "what depends on the vet list", now=NOW)
    assert not any("words joined" in note for note in answer.notes), answer.notes
