"""A call written on an interface or a base class counts among the callers of the methods that
implement or override it (``bases.declarations``): ``_identityService.AuthorizeAsync()`` typed
``IIdentityService`` calls ``IdentityService.AuthorizeAsync`` as far as "who calls" is concerned,
and the answer says so. Found by a walk of CleanArchitecture (dependency injection: most calls are
made on interfaces). On both engines."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

CSHARP = {
    "src/IIdentityService.cs": (
        "namespace App;\n\npublic interface IIdentityService\n{\n    bool Authorize(string user);\n}\n"
    ),
    "src/IdentityService.cs": (
        "namespace App;\n\npublic class IdentityService : IIdentityService\n{\n"
        "    public bool Authorize(string user) => user != null;\n}\n"
    ),
    "src/Behaviour.cs": (
        "namespace App;\n\npublic class Behaviour\n{\n    private readonly IIdentityService _identity;\n\n"
        "    public bool Handle(string user)\n    {\n        return _identity.Authorize(user);\n    }\n}\n"
    ),
    "tests/App.Tests/BehaviourTests.cs": (
        "namespace App.Tests;\n\npublic class BehaviourTests\n{\n"
        "    public void Denies(IIdentityService identity)\n    {\n        identity.Authorize(null);\n    }\n}\n"
    ),
}
PYTHON = {
    "src/shop/storage.py": (
        "class Storage:\n    def save(self, item):\n        raise NotImplementedError\n\n\n"
        "class DiskStorage(Storage):\n    def save(self, item):\n        return item\n"
    ),
    "src/shop/cart.py": (
        "from shop.storage import Storage\n\n\ndef checkout(storage: Storage, item):\n    return storage.save(item)\n"
    ),
    "tests/test_cart.py": (
        "from shop.storage import Storage\n\n\ndef test_save(storage: Storage):\n    assert storage.save(1) == 1\n"
    ),
}
CASES = {  # files, the implementation, its class, the caller's file, the test's file, the declaration
    "csharp": (
        CSHARP,
        "IdentityService.Authorize",
        "IdentityService",
        "src/Behaviour.cs",
        "tests/App.Tests/BehaviourTests.cs",
        "IIdentityService.Authorize",
    ),
    "python": (PYTHON, "DiskStorage.save", "DiskStorage", "src/shop/cart.py", "tests/test_cart.py", "Storage.save"),
}


def _paths(answer) -> list[str]:
    return [e.fact.source.uri.split(":")[0] for e in answer.excerpts]


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
@pytest.mark.parametrize("language", sorted(CASES))
def test_a_call_on_the_base_counts_among_the_implementations_callers(make_project, language, engine):
    files, method, cls, caller, test, declared = CASES[language]
    name = f"{language}impl"
    project = make_project(files, name=name, config=engine_config(engine, name))
    resync(project)
    for question, wanted in (
        (f"who calls {method}", caller),
        (f"what depends on {cls}", caller),
        (f"what tests cover {method}", test),
    ):
        answer = ask_project(project, question, now=NOW)
        assert answer.mode == "graph", question
        assert wanted in _paths(answer), (question, _paths(answer))
        assert any(declared in note and "implements or overrides" in note for note in answer.notes), answer.notes
    # the base's own callers are not the callers of a method the base does not hold
    answer = ask_project(project, "who calls " + caller.rsplit("/", 1)[-1].split(".")[0], now=NOW)
    assert not any("implements or overrides" in note for note in answer.notes)
