"""Which paths hold test code, by the usual layouts: a ``tests/``, ``test/``, ``__tests__/``
or ``spec(s)/`` folder, a .NET test project's (``App.Tests/``, ``App.UnitTests/``), a Gradle test
source set's (``src/androidTest/``, ``src/jvmTest/``, ``src/integrationTest/``), a Swift package's
(``Tests/AppTests/``, an Xcode ``AppUITests/``), ``test_x.py``,
``x_test.go``, ``x.test.ts``, ``x.spec.js``, ``conftest.py``, and a Django app's ``tests.py`` (not
``test.py``: Django's ``test`` command is one). Standard library only: search imports it (start-up
time)."""

from __future__ import annotations

import posixpath
import re

TEST_DIRS = frozenset({"tests", "test", "__tests__", "spec", "specs", "Tests"})
_TEST_NAME = re.compile(r"(^test_.*|^tests|.*_test|.*[._-](test|spec)|conftest)$")
_TEST_PROJECT = re.compile(r".+\.(Unit|Integration|Functional)?Tests?$|[a-z]+Test$|[A-Z]\w*Tests$")


def is_test_path(path: str) -> bool:
    """True for a project-relative POSIX path of test code."""
    folder, name = posixpath.split(path)
    if any(part in TEST_DIRS or _TEST_PROJECT.match(part) for part in folder.split("/")):
        return True
    return bool(_TEST_NAME.match(posixpath.splitext(name)[0]))
