"""A test named as the function it tests (android/sunflower, walked: ``@Test fun getZoneForLatitude()``
calling the top-level ``getZoneForLatitude(0.0)``): the bare call was read as the test calling itself,
which gives no edge, so "which tests cover getZoneForLatitude" was answered by words. A method's bare call
read as one of itself reaches the one function of no class so named, in Kotlin and Swift."""

from __future__ import annotations

from graph_edges import callees

from conftest import NOW, resync
from kenning.answer.ask import ask_project

FILES = {
    "app/src/main/kotlin/app/GrowZoneUtil.kt": (
        "package app\n\nfun getZoneForLatitude(latitude: Double) = if (latitude > 0) 1 else 2\n"
    ),
    "app/src/test/kotlin/app/GrowZoneUtilTest.kt": (
        "package app\n\nclass GrowZoneUtilTest {\n    @Test fun getZoneForLatitude() {\n"
        "        assertEquals(1, getZoneForLatitude(0.5))\n    }\n}\n"
    ),
    # a method calling itself, no function of its name elsewhere: no edge
    "app/src/main/kotlin/app/Counter.kt": (
        "package app\n\nclass Counter {\n    fun countDown(n: Int): Int = if (n == 0) 0 else countDown(n - 1)\n}\n"
    ),
}


def test_a_test_named_as_its_function_calls_the_function(make_project):
    project = make_project(FILES, name="garden")
    resync(project)
    assert callees(project, "GrowZoneUtilTest.getZoneForLatitude") == {("getZoneForLatitude", "extracted")}
    assert not callees(project, "Counter.countDown")
    answer = ask_project(project, "which tests cover getZoneForLatitude", now=NOW)
    assert answer.mode == "graph", answer.notes
    assert [e.fact.source.uri for e in answer.excerpts] == ["app/src/test/kotlin/app/GrowZoneUtilTest.kt:4-6"]


def test_two_functions_so_named_leave_the_call_unresolved(make_project):
    files = {**FILES, "app/src/main/kotlin/other/Zones.kt": "package other\n\nfun getZoneForLatitude(l: Double) = 3\n"}
    project = make_project(files, name="garden")
    resync(project)
    assert not callees(project, "GrowZoneUtilTest.getZoneForLatitude")  # which one the imports do not say here
