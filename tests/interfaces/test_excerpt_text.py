"""What an answer's text says of its excerpts (interfaces/render.py): a method's class or type when
its title does not (spring-petclinic's two ``public Owner findOwner(…) {``, ``OwnerController`` and
``PetController``, and ripgrep's 108 ``fn doc_long(&self) -> &'static str {`` read alike; a Python
method's title names its class already), on the web page too; and what an empty answer hid, in the
words of the ``hidden:`` line."""

from __future__ import annotations

from conftest import resync

FILES = {
    "src/main/java/clinic/OwnerController.java": (
        "package clinic;\n\nclass OwnerController {\n    Owner findOwner(int ownerId) {\n"
        "        return owners.findById(ownerId);\n    }\n}\n"
    ),
    "src/main/java/clinic/PetController.java": (
        "package clinic;\n\nclass PetController {\n    Owner findOwner(int ownerId) {\n"
        "        return this.owners.findById(ownerId);\n    }\n}\n"
    ),
    "src/flags.rs": "struct SortFiles;\n\nimpl Flag for SortFiles {\n    fn doc_long(&self) -> &str {\n"
    '        "Sort the files."\n    }\n}\n',
    "app/owners.py": "class Owners:\n    def find_owner(self, owner_id):\n        return owner_id\n",
    "app/views.py": (
        "from app.owners import Owners\n\n\ndef show(owner_id):\n    return Owners().find_owner(owner_id)\n"
    ),
}


def test_a_methods_title_says_its_class_when_its_signature_does_not(cli, make_project):
    project = make_project(FILES, name="owners")
    resync(project)
    lines = [line for line in cli("search", "findOwner", "--project", str(project.root)).out.splitlines()]
    firsts = [line for line in lines if line[:1].isdigit()]
    assert any("Owner findOwner(int ownerId) { (in OwnerController) — src/main/java/" in line for line in firsts)
    assert any("Owner findOwner(int ownerId) { (in PetController) — src/main/java/" in line for line in firsts)
    rust = cli("search", "doc_long", "--project", str(project.root)).out
    assert "fn doc_long(&self) -> &str { (in SortFiles) — src/flags.rs:4-6" in rust, rust
    python = cli("search", "find_owner", "--project", str(project.root)).out
    assert "def Owners.find_owner(owner_id) — app/owners.py" in python and "(in Owners)" not in python, python


def test_the_web_page_says_a_methods_class_as_the_text_does(make_project, isolated_home):
    from starlette.testclient import TestClient

    from conftest import NOW
    from kenning.interfaces.web.app import create_app

    project = make_project(FILES, name="owners")
    resync(project)
    client = TestClient(create_app(project, home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1")
    page = client.get("/ask", params={"q": "doc_long"}).text
    assert "fn doc_long(&amp;self) -&gt; &amp;str {</a> (in SortFiles)" in page, page


def test_an_empty_answer_says_what_it_hid_in_the_words_of_the_hidden_line(cli, make_project):
    """``no results: all_filtered (hidden: 1 whose source no longer reads)``, not the JSON's key
    (``source_missing``), as the ``hidden:`` line above a list of results says it."""
    project = make_project({"docs/only.md": "# Only\n\nThe zebra crossing is painted white.\n"}, name="gone")
    resync(project)
    (project.root / "docs/only.md").unlink()
    result = cli("search", "zebra crossing", "--project", str(project.root))
    assert "no results: all_filtered (hidden: 1 whose source no longer reads)" in result.out, result.out


def test_explain_says_what_a_graph_answer_walked(cli, make_project):
    """``--explain`` on a graph answer: each excerpt's relation, hops and starts (its path is on the
    ``via`` line), as a lexical answer's says where its score came from (walked: it added nothing)."""
    project = make_project(FILES, name="owners")
    resync(project)
    explained = cli("ask", "who calls find_owner", "--explain", "--project", str(project.root)).out
    assert "   explain: callers (incoming), 1 hop from app.owners.Owners.find_owner (exact)\n" in explained, explained
    plain = cli("ask", "who calls find_owner", "--project", str(project.root)).out
    assert "explain:" not in plain, plain
