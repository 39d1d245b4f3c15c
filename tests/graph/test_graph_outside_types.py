"""A call on a value of a type the project does not declare reaches only what the project adds to
that type (``reference_rules.typed_class``). IceCubesApp's ``TimelineDatasource.append`` called
``filtered.append(s)`` on an array: the attribute-call rule took the one ``append`` of the caller's
file, ``extracted``, and "who calls TimelineDatasource.append" listed 70 array appends before its
callers. Java's ``String``, C#'s ``List``, Kotlin's framework classes: the same."""

from __future__ import annotations

from graph_edges import callees

from conftest import resync

FILES = {
    "Sources/Timeline/TimelineDatasource.swift": (
        "final class TimelineDatasource {\n    private var items: [Status] = []\n\n"
        "    func append(_ status: Status) {\n        var filtered: [Status] = []\n"
        "        filtered.append(status)\n        items.append(status)\n    }\n}\n"
    ),
    "Sources/Timeline/TimelineViewModel.swift": (
        "final class TimelineViewModel {\n    private let datasource = TimelineDatasource()\n"
        "    private let defaults: UserDefaults\n\n    func refresh(_ status: Status) {\n"
        '        datasource.append(status)\n        defaults.set(status)\n        Text("x").warningLabel()\n'
        "        UserDefaults.standard.set(status)\n        Cache.shared.set(status)\n    }\n}\n"
    ),
    "Sources/Timeline/Labels.swift": "extension Text {\n    func warningLabel() -> Text { self }\n}\n",
    "Sources/Timeline/Cache.swift": (
        "final class Cache {\n    static let shared = Cache()\n    func set(_ value: Status) {}\n}\n"
    ),
    "src/main/java/shop/Names.java": (
        "package shop;\n\nclass Names {\n    int length() { return 0; }\n\n"
        "    int count(String name) { return name.length(); }\n}\n"
    ),
}


def test_a_call_on_a_value_of_an_outside_type_reaches_only_what_the_project_adds_to_it(make_project):
    project = make_project(FILES)
    resync(project)
    assert callees(project, "TimelineDatasource.append") == set()  # array appends: no call of the project's
    assert callees(project, "TimelineViewModel.refresh") == {
        ("TimelineDatasource.append", "extracted"),  # a property typed by its constructor
        ("Text.warningLabel", "extracted"),  # an extension's method on an outside type: the project's
        ("Cache.set", "extracted"),  # `Cache.shared.set()`: on the project's Cache's shared instance
    }  # not for `defaults.set()` nor `UserDefaults.standard.set()`: a type the project does not declare
    assert callees(project, "Names.count") == set()  # `name.length()` on a String, not `Names.length`
