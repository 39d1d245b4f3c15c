"""A Swift ``extension`` names no class of its own (parser ``code/11``): its methods are its type's,
and the type is the one its declaration makes, in the project or in a framework. Before, each
extension was a class node of that name: ``extension Text`` made every ``Text("…")`` of an app a call
of the project's (IceCubesApp: 139 edges into ``Text``), and a class with five extensions had six
nodes, past the homonym cap, so that no ``MastodonClient(…)`` call was linked."""

from __future__ import annotations

from graph_edges import callees

from conftest import resync

FILES = {
    "App/Label.swift": "import SwiftUI\n\nextension Text {\n    func warningLabel() -> Text { self }\n}\n",
    "Sources/Network/MastodonClient.swift": (
        "public final class MastodonClient {\n    public init(server: String) {}\n"
        '    public func get() -> String { "" }\n}\n'
    ),
    **{
        f"Sources/Network/Service{n}.swift": f"extension MastodonClient {{\n    func service{n}() {{}}\n}}\n"
        for n in range(5)
    },
    "App/AboutView.swift": (
        "import SwiftUI\n\nstruct AboutView {\n    func render() {\n"
        '        Text("About").warningLabel()\n        let client = MastodonClient(server: "x")\n'
        "        client.service3()\n    }\n}\n"
    ),
}


def test_an_extension_is_no_class_and_its_methods_are_its_types(make_project):
    project = make_project(FILES)
    resync(project)
    assert callees(project, "AboutView.render") == {
        ("Text.warningLabel", "extracted"),  # the extension's method, on the Text created in place
        ("MastodonClient", "extracted"),  # the class's one node (not six: one per extension)
        ("MastodonClient.service3", "extracted"),  # a method of an extension, on a typed local
    }  # and no edge to a `Text` node: SwiftUI's Text is no class of the project
