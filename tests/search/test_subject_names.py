"""A code name that is a question's subject keeps its definition boost however many words follow
(``search.asked.about_names``): "how does res.send set the content type" asks what ``res.send``
does, and its definition answers (express, walked: its long definition was not in the first six,
the short ``res.json`` that mentions the content type first). A name said in passing among three
words or more still gets none ("contextnames")."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.search.asked import about_names
from kenning.search.query import parse, typed_code_names

SEND_LINES = "\n".join(
    f"  var step{n} = chunk.length + {n};  // one more step of the body's preparation" for n in range(20)
)
RESPONSE = f"""var res = module.exports = {{}};

res.send = function send(body) {{
  var chunk = body;
  var type = this.get('Content-Type');
  if (typeof type === 'string') {{
    this.set('Content-Type', setCharset(type, 'utf-8'));
  }} else {{
    this.type('html');
  }}
{SEND_LINES}
  this.end(chunk);
  return this;
}};

res.json = function json(obj) {{
  // a JSON body
  if (!this.get('Content-Type')) {{
    this.set('Content-Type', 'application/json');
  }}
  return this.send(JSON.stringify(obj));
}};
"""
# other modules, so that the question's words are rare enough to weigh (BM25's IDF)
OTHERS = {
    f"lib/module{n}.js": f"exports.handler{n} = function handler{n}(input) {{\n  return input * {n};\n}};\n"
    for n in range(30)
}


def test_the_subjects_definition_answers_how_it_does_something(make_project) -> None:
    project = make_project({"lib/response.js": RESPONSE, **OTHERS})
    resync(project)
    answer = ask_project(project, "how does res.send set the content type", now=NOW, limit=3, explain=True)
    assert answer.excerpts[0].fact.title == "res.send = function send(body) {", [e.fact.title for e in answer.excerpts]
    assert answer.excerpts[0].explain["factors"] == {"definition": 3.0}
    french = ask_project(project, "comment res.send fixe-t-il le type de contenu", now=NOW, limit=3)
    assert french.excerpts[0].fact.title == "res.send = function send(body) {"


def test_a_name_said_in_passing_is_no_subject() -> None:
    for question, expected in (
        ("how does res.send set the content type", True),
        ("what does JsonReader.skipValue do when the next token is a property name", True),
        ("why does `res.send` close the response when the body is empty", True),
        ("reduce the number of queries with select_related", False),
        ("how does the router call res.send after the handler returns", False),
        ("ClassCastException when I use the list returned by fromJson", False),
    ):
        parsed = parse(question)
        assert about_names(parsed, typed_code_names(parsed)) is expected, question
