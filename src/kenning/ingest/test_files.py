"""Which paths hold test code, by the usual layouts: a ``tests/``, ``test/``, ``__tests__/``,
``spec(s)/``, ``e2e/`` or ``cypress/`` folder, a .NET test project's (``App.Tests/``, ``App.UnitTests/``), a Gradle test
source set's (``src/androidTest/``, ``src/jvmTest/``, ``src/integrationTest/``), a Swift package's
(``Tests/AppTests/``, an Xcode ``AppUITests/``), ``test_x.py``,
``x_test.go``, ``x.test.ts``, ``x.spec.js``, ``x.cy.ts`` (Cypress), ``conftest.py``, and a Django
app's ``tests.py`` (not ``test.py``: Django's ``test`` command is one). In Go only ``x_test.go`` is
a test: ``test_email_send.go`` is a file of its package (pocketbase's forms). Standard library only:
search imports it (start-up time)."""

from __future__ import annotations

import posixpath
import re

TEST_DIRS = frozenset({"tests", "test", "__tests__", "spec", "specs", "Tests", "e2e", "cypress"})
_TEST_NAME = re.compile(r"(^test_.*|^tests|.*_test|.*[._-](test|spec)|conftest)$")
_SCRIPTS = frozenset({".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs"})
_TEST_PROJECT = re.compile(r".+\.(Unit|Integration|Functional)?Tests?$|[a-z]+Test$|[A-Z]\w*Tests$")

# Mix's layout (Elixir): ``test/my_app/accounts_test.exs`` tests ``lib/my_app/accounts.ex``.
_MIX = re.compile(r"^(?P<root>(?:.*/)?)test/(?P<module>.+)_test\.exs$")


def is_test_path(path: str) -> bool:
    """True for a project-relative POSIX path of test code."""
    folder, name = posixpath.split(path)
    if any(part in TEST_DIRS or _TEST_PROJECT.match(part) for part in folder.split("/")):
        return True
    stem, suffix = posixpath.splitext(name)
    if suffix == ".go":
        return stem.endswith("_test")
    return bool(_TEST_NAME.match(stem)) or (stem.endswith(".cy") and suffix in _SCRIPTS)


# A test file named after the file it tests, beside it: Go's ``file_test.go`` (its package's
# convention), JavaScript's ``format.test.ts`` and ``Empty.spec.tsx``.
_SIBLING = re.compile(r"^(?P<stem>.+?)(?:_test\.go|\.(?:test|spec)\.(?P<suffix>[cm]?[jt]sx?))$")
# Maven's and Gradle's layout (Java, Kotlin, Scala, Groovy): ``src/test/java/<package>/OwnerControllerTests.java``
# tests ``src/main/java/<package>/OwnerController.java``, the same package in the main source set.
_MIRRORED = re.compile(
    r"^(?P<root>(?:.*/)?src/)test/(?P<language>java|kotlin|scala|groovy)/(?P<package>(?:.*/)?)"
    r"(?P<stem>[A-Z]\w*?)(?:Tests?|IT|Spec)\.(?P<suffix>java|kt|scala|groovy)$"
)


# A test class named after the class it tests, in a test folder or project that mirrors the code's
# own only loosely: .NET's ``tests/App.UnitTests/Orders/OrderServiceTests.cs``, PHPUnit's
# ``tests/Unit/OrderServiceTest.php``, XCTest's ``Tests/AppTests/OrderServiceTests.swift``.
_NAMED_TEST = re.compile(r"^(?P<stem>[A-Z]\w*?)(?:Tests?|Spec)\.(?P<suffix>cs|php|swift|kt|java|scala|groovy|fs|vb)$")
# RSpec's and Rails' minitest layout: ``spec/models/user_spec.rb`` and ``test/models/user_test.rb`` test
# ``app/models/user.rb`` (``lib/`` the same): the path below ``spec/`` or ``test/``, its suffix left out.
_RUBY_TEST = re.compile(r"^(?:.*/)?(?:spec|test)/(?P<stem>(?:[\w-]+/)*[a-z0-9]\w*?)_(?:spec|test)\.rb$")


def class_under_test(path: str) -> str | None:
    """The end of the path (without its suffix) of the file a test file elsewhere than beside it is
    named after (``OrderServiceTests.cs``: ``OrderService``; ``spec/models/user_spec.rb``:
    ``models/user``), the nearest such file of the code's being the one (``graph.resolve``), when
    ``file_under_test`` gives no path; else None."""
    if file_under_test(path) is not None or not is_test_path(path):
        return None
    match = _NAMED_TEST.match(posixpath.basename(path)) or _RUBY_TEST.match(path)
    return match["stem"] if match is not None else None


def file_under_test(path: str) -> str | None:
    """The path of the file a test file is named after: beside it (``apis/file_test.go`` ->
    ``apis/file.go``, ``lib/format.test.ts`` -> ``lib/format.ts``) or, in Maven's and Gradle's
    layout, in the main source set (``src/test/java/app/OwnerTests.java`` ->
    ``src/main/java/app/Owner.java``), in Mix's under ``lib/`` (``test/app/user_test.exs`` ->
    ``lib/app/user.ex``); else None."""
    mirrored = _MIRRORED.match(path)
    if mirrored is not None:
        root, language, package = mirrored["root"], mirrored["language"], mirrored["package"]
        return f"{root}main/{language}/{package}{mirrored['stem']}.{mirrored['suffix']}"
    mix = _MIX.match(path)
    if mix is not None:
        return f"{mix['root']}lib/{mix['module']}.ex"
    folder, name = posixpath.split(path)
    match = _SIBLING.match(name)
    if match is None:
        return None
    suffix = match["suffix"]
    return posixpath.join(folder, f"{match['stem']}.{suffix}" if suffix else f"{match['stem']}.go")
