"""PHP, C#, Kotlin, Swift and Scala projects (parser ``code/10``): each method an excerpt and a node, calls across files
resolved through ``$this``/``this``, a typed property or field, a type's static method and the
class's bases, a test's calls testing what they reach; a relation question answered from them.
On both engines."""

from __future__ import annotations

import pytest
from graph_edges import callees, covering

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

# ``save`` twice (Base's, Store's): a call on an unknown receiver would be a guess between them.
PHP = {
    "src/Base.php": "<?php\nnamespace App;\n\nclass Base\n{\n    public function save() { return true; }\n}\n",
    "src/Store.php": (
        "<?php\nnamespace App;\n\nclass Store\n{\n    public function save() { return true; }\n\n"
        "    public static function put($model) { return $model; }\n}\n"
    ),
    "src/Model.php": (
        "<?php\nnamespace App;\n\nuse App\\Store;\n\nclass Model extends Base\n{\n"
        "    public function __construct(private Store $store) {}\n\n"
        "    public function run()\n    {\n        $this->save();\n        $this->store->save();\n"
        "        Store::put($this);\n        return helper($this);\n    }\n}\n"
    ),
    "src/helpers.php": "<?php\n\nfunction helper($value)\n{\n    return $value;\n}\n",
    "tests/ModelTest.php": (
        "<?php\nuse App\\Model;\n\nclass ModelTest extends TestCase\n{\n    public function testRun()\n    {\n"
        "        $model = new Model(new Store());\n        $model->run();\n    }\n}\n"
    ),
}
CSHARP = {
    "src/Base.cs": "namespace App\n{\n    public class Base\n    {\n        public bool Save() => true;\n    }\n}\n",
    "src/Store.cs": (
        "namespace App;\n\npublic class Store\n{\n    public bool Save() => true;\n\n"
        "    public static Model Put(Model model) => model;\n}\n"
    ),
    "src/Model.cs": (
        "using System;\n\nnamespace App\n{\n    public class Model : Base\n    {\n"
        "        private readonly Store _store = new Store();\n\n        public void Run()\n        {\n"
        "            Save();\n            _store.Save();\n            Store.Put(this);\n"
        "            Console.WriteLine(Helpers.Format(this));\n        }\n    }\n}\n"
    ),
    "src/Helpers.cs": (
        'namespace App;\n\npublic static class Helpers\n{\n    public static string Format(object o) => "";\n}\n'
    ),
    "tests/App.Tests/ModelTests.cs": (
        "using Xunit;\n\nnamespace App.Tests;\n\npublic class ModelTests\n{\n    [Fact]\n"
        "    public void Runs()\n    {\n        var model = new Model();\n        model.Run();\n"
        "        Assert.True(true);\n    }\n}\n"
    ),
}

KOTLIN = {
    "app/src/main/kotlin/shop/Base.kt": "package shop\n\nopen class Base {\n    fun save() = true\n}\n",
    "app/src/main/kotlin/shop/Store.kt": (
        "package shop\n\nclass Store {\n    fun save() = true\n\n    companion object {\n"
        "        fun put(model: Model) = model\n    }\n}\n"
    ),
    "app/src/main/kotlin/shop/Model.kt": (
        "package shop\n\nclass Model(private val store: Store) : Base() {\n    fun run() {\n        save()\n"
        "        store.save()\n        Store.put(this)\n        println(format(this))\n"
        "        Legacy.stamp()\n        store.describe()\n    }\n}\n"
    ),
    # Java in the same module: Kotlin calls it as its own (one JVM)
    "app/src/main/java/shop/Legacy.java": (
        'package shop;\n\npublic class Legacy {\n    public static String stamp() {\n        return "";\n    }\n}\n'
    ),
    "app/src/main/kotlin/shop/Format.kt": (
        "package shop\n\nfun format(value: Any): String = value.toString()\n\n"
        'fun Store.describe(): String = "store"\n'  # an extension function: a method of Store's
    ),
    "app/src/test/kotlin/shop/ModelTest.kt": (
        "package shop\n\nimport org.junit.Test\n\nclass ModelTest {\n    @Test\n    fun runs() {\n"
        "        Model(Store()).run()\n    }\n}\n"
    ),
}


SWIFT = {
    "Sources/Shop/Base.swift": "class Base {\n    func save() -> Bool { true }\n}\n",
    "Sources/Shop/Store.swift": (
        "final class Store {\n    func save() -> Bool { true }\n\n    static func put(_ model: Model) -> Model {\n"
        "        model\n    }\n}\n"
    ),
    "Sources/Shop/Model.swift": (
        "final class Model: Base {\n    private let store: Store\n\n    init(store: Store) { self.store = store }\n\n"
        "    func run() {\n        _ = save()\n        _ = store.save()\n        _ = Store.put(self)\n"
        "        print(format(self))\n    }\n}\n"
    ),
    "Sources/Shop/Format.swift": 'func format(_ value: Any) -> String {\n    "\\(value)"\n}\n',
    "Tests/ShopTests/ModelTests.swift": (
        "import XCTest\n@testable import Shop\n\nfinal class ModelTests: XCTestCase {\n    func testRun() {\n"
        "        Model(store: Store()).run()\n    }\n}\n"
    ),
}

SCALA = {
    "src/main/scala/shop/Base.scala": "package shop\n\nclass Base {\n  def save(): Boolean = true\n}\n",
    "src/main/scala/shop/Store.scala": (
        "package shop\n\nclass Store {\n  def save(): Boolean = true\n}\n\nobject Store {\n"
        "  def put(model: Model): Model = model\n}\n"
    ),
    "src/main/scala/shop/Model.scala": (
        "package shop\n\nclass Model(store: Store) extends Base {\n  def run(): Unit = {\n    save()\n"
        "    store.save()\n    Store.put(this)\n    println(Format.format(this))\n    Legacy.stamp()\n  }\n}\n"
    ),
    "src/main/scala/shop/Format.scala": 'package shop\n\nobject Format {\n  def format(value: Any): String = ""\n}\n',
    # Java in the same module: Scala calls it as its own (one JVM)
    "src/main/java/shop/Legacy.java": (
        'package shop;\n\npublic class Legacy {\n    public static String stamp() {\n        return "";\n    }\n}\n'
    ),
    "src/test/scala/shop/ModelSpec.scala": (
        'package shop\n\nclass ModelSpec extends AnyFunSuite {\n  test("runs") {\n    new Model(new Store()).run()\n'
        "  }\n}\n"
    ),
}

# language -> (files, the caller, what it calls (qualified name, link), a test file covering it,
# a relation question in words, the file its first excerpt comes from)
CASES = {
    "php": (
        PHP,
        "Model.run",
        {
            ("Base.save", "extracted"),  # $this->save(): not in Model, so its base's
            ("Store.save", "extracted"),  # $this->store, a promoted parameter typed Store
            ("Store.put", "extracted"),
            ("helper", "extracted"),
        },
        "tests/ModelTest.php",
        "who calls Store::put",
        "src/Model.php",
    ),
    "csharp": (
        CSHARP,
        "Model.Run",
        {
            ("Base.Save", "extracted"),  # a bare Save(): not in Model, so its base's
            ("Store.Save", "extracted"),  # _store, a field typed Store
            ("Store.Put", "extracted"),
            ("Helpers.Format", "extracted"),  # Console's WriteLine: the base library's, no edge
        },
        "tests/App.Tests/ModelTests.cs",
        "who calls Store.Put",
        "src/Model.cs",
    ),
    "kotlin": (
        KOTLIN,
        "Model.run",
        {
            ("Base.save", "extracted"),  # a bare save(): not in Model, so its base's
            ("Store.save", "extracted"),  # store, a constructor's property typed Store
            ("Store.put", "extracted"),  # a companion object's function, called through its class
            ("format", "extracted"),  # println: the standard library's, no edge
            ("Legacy.stamp", "extracted"),  # a Java class's
            ("Store.describe", "extracted"),  # Format.kt's extension of Store
        },
        "app/src/test/kotlin/shop/ModelTest.kt",
        "who calls Store.put",
        "app/src/main/kotlin/shop/Model.kt",
    ),
    "swift": (
        SWIFT,
        "Model.run",
        {
            ("Base.save", "extracted"),  # a bare save(): not in Model, so its base's
            ("Store.save", "extracted"),  # store, a property typed Store
            ("Store.put", "extracted"),  # a static function, called through its type
            ("format", "extracted"),  # print: the standard library's, no edge
        },
        "Tests/ShopTests/ModelTests.swift",
        "who calls Store.put",
        "Sources/Shop/Model.swift",
    ),
    "scala": (
        SCALA,
        "Model.run",
        {
            ("Base.save", "extracted"),  # a bare save(): not in Model, so its base's
            ("Store.save", "extracted"),  # store, a class parameter typed Store
            ("Store.put", "extracted"),  # the companion object's function, called through its name
            ("Format.format", "extracted"),  # println: the standard library's, no edge
            ("Legacy.stamp", "extracted"),  # a Java class's
        },
        "src/test/scala/shop/ModelSpec.scala",
        "who calls Store.put",
        "src/main/scala/shop/Model.scala",
    ),
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
@pytest.mark.parametrize("language", sorted(CASES))
def test_calls_reach_the_methods_they_name_across_files_and_answer_in_words(make_project, language, engine):
    files, caller, called, test_file, question, first = CASES[language]
    name = f"{language}calls"
    project = make_project(files, name=name, config=engine_config(engine, name))
    resync(project)
    assert callees(project, caller) == called
    assert any(path == test_file for _, path, _ in covering(project, caller))
    answer = ask_project(project, question, now=NOW)
    assert answer.mode == "graph"
    assert answer.excerpts[0].fact.source.uri.startswith(first + ":")
